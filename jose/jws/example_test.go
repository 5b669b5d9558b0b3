package jws_test

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// Sign a payload with HS256 and verify it. HMAC is deterministic, so the
// token is always the same.
func Example() {
	key := []byte("0123456789abcdef0123456789abcdef") // 32 bytes for HS256

	signer, err := jws.NewSigner(jwa.HS256, key, &jws.SignerOptions{KeyID: "k1"})
	if err != nil {
		panic(err)
	}
	token, err := signer.Compact([]byte(`{"sub":"frodo"}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(token))

	// The verifier states which algorithms it accepts.
	verifier, err := jws.NewVerifier(jws.VerifyOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.HS256},
		Key:        key,
	})
	if err != nil {
		panic(err)
	}
	msg, err := verifier.VerifyCompact(token)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(msg.Payload), msg.Header.KeyID)

	// A token with another alg is refused before any cryptography.
	_, err = verifier.VerifyCompact([]byte("eyJhbGciOiJub25lIn0.eyJzdWIiOiJmcm9kbyJ9."))
	fmt.Println(errors.Is(err, jose.ErrAlgorithmNotAllowed))
	// Output:
	// eyJhbGciOiJIUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJmcm9kbyJ9.5qvK-CPE0N_XClzTf9SnHFbkHiZKXx4axAZdjQLIne0
	// {"sub":"frodo"} k1
	// true
}

// Verify a token against a JWK Set: the key is found by the token's kid.
func ExampleVerifier_VerifyCompact_jwkSet() {
	set, err := jose.ParseSet([]byte(`{"keys":[
		{"kty":"OKP","crv":"Ed25519","kid":"2026-11","use":"sig","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"},
		{"kty":"EC","crv":"P-256","kid":"2026-10","use":"sig",
		 "x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}
	]}`))
	if err != nil {
		panic(err)
	}
	verifier, err := jws.NewVerifier(jws.VerifyOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.EdDSA, jwa.ES256},
		Keys:       set,
	})
	if err != nil {
		panic(err)
	}

	// The signer holds the private key of "2026-11" (RFC 8037 A.1).
	seed, _ := jose.Base64URLDecode("nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A")
	signer, err := jws.NewSigner(jwa.EdDSA, ed25519.NewKeyFromSeed(seed), &jws.SignerOptions{KeyID: "2026-11", Type: "JWT"})
	if err != nil {
		panic(err)
	}
	token, err := signer.Compact([]byte("Example of Ed25519 signing"))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(token))

	msg, err := verifier.VerifyCompact(token)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s (kid %s, alg %s)\n", msg.Payload, msg.Header.KeyID, msg.Header.Algorithm)
	// Output:
	// eyJhbGciOiJFZERTQSIsImtpZCI6IjIwMjYtMTEiLCJ0eXAiOiJKV1QifQ.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc.XkF4eoDdvylafpdT67PvzItHaygkqYSgA8WxhuhMWouy0paNoCQ_zW5xptWi-oxzX5bmCIf8Oy31jg5HSpbkBQ
	// Example of Ed25519 signing (kid 2026-11, alg EdDSA)
}

// Verify a general JWS JSON Serialization with several signatures and
// see which of them verified.
func ExampleVerifier_VerifyEach() {
	macKey := []byte("0123456789abcdef0123456789abcdef")
	s1, _ := jws.NewSigner(jwa.HS256, macKey, &jws.SignerOptions{KeyID: "mac"})
	s2, _ := jws.NewSigner(jwa.HS512, append(macKey, macKey...), &jws.SignerOptions{KeyID: "mac-512"})
	token, err := jws.SignGeneral([]byte("hello"), s1, s2)
	if err != nil {
		panic(err)
	}

	// This verifier only knows the HS256 key.
	verifier, _ := jws.NewVerifier(jws.VerifyOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.HS256},
		Key:        macKey,
	})
	results, payload, err := verifier.VerifyEach(token)
	if err != nil {
		panic(err)
	}
	for _, r := range results {
		fmt.Println(r.Index, r.Header.KeyID, r.Err == nil)
	}
	fmt.Println(string(payload))
	// Output:
	// 0 mac true
	// 1 mac-512 false
	// hello
}

// Sign with an unencoded, detached payload (RFC 7797): the payload is
// signed as is and travels apart from the token.
func ExampleSigner_CompactDetached() {
	key := []byte("0123456789abcdef0123456789abcdef")
	signer, _ := jws.NewSigner(jwa.HS256, key, &jws.SignerOptions{Unencoded: true})
	payload := []byte("$.02")
	token, _ := signer.CompactDetached(payload)
	fmt.Println(string(token))

	verifier, _ := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: key})
	msg, err := verifier.VerifyDetached(token, payload)
	fmt.Println(err == nil, string(msg.Payload))
	// Output:
	// eyJhbGciOiJIUzI1NiIsImI2NCI6ZmFsc2UsImNyaXQiOlsiYjY0Il19..qh-W_NpjOqvUkuxMOhl62py0bNTLbWC9oz0B3CdrjPw
	// true $.02
}

// Bound the wait on a key source by the request's context: a
// KeyFuncContext (here one that never answers, as a hanging key server)
// gets the context of VerifyCompactContext, and the call ends when the
// context does, with an error wrapping ctx.Err().
func ExampleVerifier_VerifyCompactContext() {
	verifier, err := jws.NewVerifier(jws.VerifyOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.HS256},
		KeyFuncContext: func(ctx context.Context, h *jose.Header) (any, error) {
			<-ctx.Done() // a fetch that does not finish in time
			return nil, ctx.Err()
		},
	})
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	token := []byte("eyJhbGciOiJIUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJmcm9kbyJ9.5qvK-CPE0N_XClzTf9SnHFbkHiZKXx4axAZdjQLIne0")
	_, err = verifier.VerifyCompactContext(ctx, token)
	// err is "jws: KeyFuncContext: context deadline exceeded", or, if
	// the deadline passed before the key function was called, "jws:
	// KeyFuncContext not called: context deadline exceeded": either way
	// it wraps ctx.Err().
	fmt.Println(errors.Is(err, context.DeadlineExceeded))
	// Output:
	// true
}
