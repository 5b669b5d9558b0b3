package jws_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// TestNewVerifierJWKPermitsNone: a single JWK whose own "alg", "use" or
// "key_ops" permit none of the listed algorithms can never verify a
// token; NewVerifier refuses it as it refuses a key of the wrong type,
// and accepts it when one listed algorithm is permitted.
func TestNewVerifierJWKPermitsNone(t *testing.T) {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		algs []jwa.SignatureAlgorithm
		key  *jose.JWK
	}{
		"alg ES384 on a P-256 key":     {[]jwa.SignatureAlgorithm{jwa.ES256}, &jose.JWK{Key: &ec.PublicKey, Algorithm: "ES384"}},
		"use enc":                      {[]jwa.SignatureAlgorithm{jwa.ES256}, &jose.JWK{Key: &ec.PublicKey, Use: "enc"}},
		"key_ops sign only":            {[]jwa.SignatureAlgorithm{jwa.ES256}, &jose.JWK{Key: ec, KeyOps: []jose.KeyOp{jose.OpSign}}},
		"HMAC key for HS512, HS256 ok": {[]jwa.SignatureAlgorithm{jwa.HS256}, &jose.JWK{Key: make([]byte, 64), Algorithm: "HS512"}},
	} {
		_, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: c.algs, Key: c.key})
		if !errors.Is(err, jose.ErrInvalidKey) {
			t.Errorf("%s: %v, want ErrInvalidKey", name, err)
		}
	}
	if _, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256, jwa.HS512},
		Key: &jose.JWK{Key: make([]byte, 64), Algorithm: "HS512"}}); err != nil {
		t.Errorf("JWK for HS512 with HS256 and HS512 listed: %v", err)
	}
}
