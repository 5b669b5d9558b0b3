package jwt_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
	"github.com/josebench/josebench/jose/jws"
	"github.com/josebench/josebench/jose/jwt"
)

// A fixed clock, so that the examples' output does not depend on the day.
var now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// An HS256 service-to-service token: the issuer and the API share a
// secret; the API expects its own audience and the caller's issuer.
func Example_serviceToken() {
	secret := []byte("a 256-bit secret shared by both services!")

	// The calling service, once at start-up.
	signer, err := jwt.NewSigner(jwa.HS256, secret, nil)
	if err != nil {
		log.Fatal(err)
	}
	type serviceClaims struct {
		jwt.Claims
		Scope string `json:"scope"`
	}
	tok, err := signer.Sign(serviceClaims{
		Claims: jwt.Claims{
			Issuer:   "billing",
			Audience: jwt.Audience{"ledger"},
			IssuedAt: jwt.NewNumericDate(now),
			Expiry:   jwt.NewNumericDate(now.Add(5 * time.Minute)),
		},
		Scope: "ledger:write",
	})
	if err != nil {
		log.Fatal(err)
	}

	// The API, once at start-up...
	ver, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: secret})
	if err != nil {
		log.Fatal(err)
	}
	v, err := jwt.NewValidator(jwt.ValidatorOptions{
		Verifier:  ver,
		Issuers:   []string{"billing"},
		Audiences: []string{"ledger"},
		Now:       func() time.Time { return now.Add(time.Minute) },
	})
	if err != nil {
		log.Fatal(err)
	}
	// ...then for each request.
	var c serviceClaims
	if _, err := v.Validate(tok, &c); err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.Issuer, c.Audience, c.Scope, c.Expiry)

	// Ten minutes later the token has expired: a claims error, not a
	// forgery.
	late, _ := jwt.NewValidator(jwt.ValidatorOptions{
		Verifier: ver, Issuers: []string{"billing"}, Audiences: []string{"ledger"},
		Now: func() time.Time { return now.Add(10 * time.Minute) },
	})
	_, err = late.Validate(tok, nil)
	fmt.Println(errors.Is(err, jwt.ErrExpired), errors.Is(err, jose.ErrVerificationFailed))
	// Output:
	// billing [ledger] ledger:write 2026-12-01T12:05:00Z
	// true false
}

// An RS256 ID token (OpenID Connect) checked against the issuer's JWK Set,
// with its issuer and the client's audience. The Verifier may as well take
// its keys from a KeyFunc over a remote, rotating set.
func Example_idToken() {
	// The identity provider's private key (an RSA JWK with "kid").
	data, err := os.ReadFile("../../testdata/latchset/rfc7520_3.4.jwk")
	if err != nil {
		log.Fatal(err)
	}
	priv, err := jose.ParseKey(data)
	if err != nil {
		log.Fatal(err)
	}
	signer, err := jwt.NewSigner(jwa.RS256, priv, nil) // writes "kid" and "typ": "JWT"
	if err != nil {
		log.Fatal(err)
	}
	tok, err := signer.Sign(&jwt.Claims{
		Issuer:   "https://accounts.example",
		Subject:  "248289761001",
		Audience: jwt.Audience{"s6BhdRkqt3"},
		IssuedAt: jwt.NewNumericDate(now),
		Expiry:   jwt.NewNumericDate(now.Add(time.Hour)),
	})
	if err != nil {
		log.Fatal(err)
	}

	// The client: the provider's published JWK Set.
	set := &jose.Set{Keys: []*jose.JWK{priv.Public()}}
	ver, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.RS256}, Keys: set})
	if err != nil {
		log.Fatal(err)
	}
	v, err := jwt.NewValidator(jwt.ValidatorOptions{
		Verifier:  ver,
		Issuers:   []string{"https://accounts.example"},
		Audiences: []string{"s6BhdRkqt3"},
		Required:  []string{"sub", "iat"},
		Now:       func() time.Time { return now },
	})
	if err != nil {
		log.Fatal(err)
	}
	t, err := v.Validate(tok, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(t.Header.KeyID, t.Claims.Subject)

	// A token for another client is refused by its audience.
	other, _ := signer.Sign(&jwt.Claims{Issuer: "https://accounts.example", Subject: "248289761001",
		Audience: jwt.Audience{"another-client"}, IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(time.Hour))})
	_, err = v.Validate(other, nil)
	var ce *jwt.ClaimError
	fmt.Println(errors.As(err, &ce), ce.Claim, errors.Is(err, jwt.ErrInvalidAudience))
	// Output:
	// bilbo.baggins@hobbiton.example 248289761001
	// true aud true
}

// A nested JWT: claims signed with ES256 by the issuer, then encrypted to
// the recipient with ECDH-ES+A128KW and A128GCM ("cty": "JWT" in the JWE
// Protected Header, RFC 7519 §5.2).
func Example_nested() {
	issuerKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	recipientKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)

	signer, err := jwt.NewSigner(jwa.ES256, issuerKey, nil)
	if err != nil {
		log.Fatal(err)
	}
	enc, err := jwt.NewNestedEncrypter(signer, jwa.ECDHESA128KW, jwa.A128GCM, &recipientKey.PublicKey, nil)
	if err != nil {
		log.Fatal(err)
	}
	tok, err := enc.Encrypt(map[string]any{
		"iss": "https://issuer.example", "aud": "https://recipient.example",
		"exp": now.Add(time.Hour).Unix(), "account": "4711",
	})
	if err != nil {
		log.Fatal(err)
	}

	dec, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.ECDHESA128KW},
		ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM},
		Key:                recipientKey,
	})
	if err != nil {
		log.Fatal(err)
	}
	ver, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, Key: &issuerKey.PublicKey})
	if err != nil {
		log.Fatal(err)
	}
	v, err := jwt.NewValidator(jwt.ValidatorOptions{
		Decrypter: dec, Verifier: ver, // both: nested tokens only
		Issuers:   []string{"https://issuer.example"},
		Audiences: []string{"https://recipient.example"},
		Now:       func() time.Time { return now },
	})
	if err != nil {
		log.Fatal(err)
	}
	var private struct {
		Account string `json:"account"`
	}
	t, err := v.Validate(tok, &private)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(t.Outer.Algorithm, t.Outer.ContentType, t.Header.Algorithm, private.Account)
	// Output:
	// ECDH-ES+A128KW JWT ES256 4711
}
