package jwa_test

import (
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/josebench/josebench/jose/jwa"
)

// The HS256 MAC of a JWS Signing Input (RFC 7515 §5.1, RFC 7518 §3.2), with
// the 256-bit key of RFC 7520 §3.5, and its verification.
func Example_hmac() {
	key, _ := base64.RawURLEncoding.DecodeString("hJtXIZ2uSN5kbQfbtTNWbpdmhkV8FJG-Onbc6mxCcYg")
	signingInput := []byte("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJqb3NlYmVuY2gifQ")

	signer, err := jwa.NewSigner(jwa.HS256, key)
	if err != nil {
		panic(err)
	}
	mac, err := signer.Sign(nil, signingInput)
	if err != nil {
		panic(err)
	}
	fmt.Println(base64.RawURLEncoding.EncodeToString(mac))

	verifier, err := jwa.NewVerifier(jwa.HS256, key)
	if err != nil {
		panic(err)
	}
	fmt.Println(verifier.Verify(signingInput, mac))

	mac[0] ^= 1
	fmt.Println(errors.Is(verifier.Verify(signingInput, mac), jwa.ErrVerification))

	// Keys shorter than the hash output are refused.
	_, err = jwa.NewSigner(jwa.HS256, key[:16])
	fmt.Println(err)
	// Output:
	// Ef-q9qKUyxaiEMX6_Ackf15ocL1ZWQrvHtHDZp9OtOY
	// <nil>
	// true
	// jwa: the key is a 16-byte secret; HS256 needs a secret of at least 32 bytes: invalid key for algorithm
}
