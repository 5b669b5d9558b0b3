package jws_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// TestMalformedBeforeKeyFunc: a token whose signature or payload is not
// base64url is refused as malformed before the key function is called: a
// key function may verify an x5c chain (NewX5CKeyFunc: up to four public
// RSA operations with the token's keys), fetch a JWK Set or call a KMS,
// none of which a token that cannot verify should cost.
func TestMalformedBeforeKeyFunc(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := jws.NewSigner(jwa.ES256, key, nil)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := s.Compact([]byte("payload"))
	if err != nil {
		t.Fatal(err)
	}
	flat, err := s.Flattened([]byte("payload"), nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	v, err := jws.NewVerifier(jws.VerifyOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.ES256},
		KeyFunc:    func(*jose.Header) (any, error) { calls++; return &key.PublicKey, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.VerifyCompact(tok); err != nil || calls != 1 {
		t.Fatalf("valid token: %v, %d calls", err, calls)
	}
	parts := bytes.Split(tok, []byte("."))
	badSig := bytes.Join([][]byte{parts[0], parts[1], []byte("!!!!")}, []byte("."))
	badPayload := bytes.Join([][]byte{parts[0], []byte("!!!!"), parts[2]}, []byte("."))
	badJSONSig := bytes.Replace(flat, []byte(`"signature":"`), []byte(`"signature":"!!`), 1)
	for name, verify := range map[string]func() error{
		"compact, signature not base64url": func() error { _, err := v.VerifyCompact(badSig); return err },
		"compact, payload not base64url":   func() error { _, err := v.VerifyCompact(badPayload); return err },
		"JSON, signature not base64url":    func() error { _, err := v.VerifyJSON(badJSONSig); return err },
	} {
		calls = 0
		if err := verify(); !errors.Is(err, jose.ErrMalformed) || calls != 0 {
			t.Errorf("%s: %v after %d key function calls, want %v after none", name, err, calls, jose.ErrMalformed)
		}
	}
}
