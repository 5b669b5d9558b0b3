package jws

import (
	"testing"

	"github.com/josebench/josebench/jose/jwa"
)

// TestCritNamesAgreeWithJose: a registered JOSE header name (RFC 7515
// §4.1.11 forbids them in "crit"), JWE ones included, is refused as a
// critical extension by NewSigner and NewVerifier alike, as
// headers.CheckCritical refuses it in every token: NewSigner must not make
// tokens no Verifier accepts.
func TestCritNamesAgreeWithJose(t *testing.T) {
	key := make([]byte, 32)
	algs := []jwa.SignatureAlgorithm{jwa.HS256}
	for _, name := range []string{"alg", "kid", "enc", "zip", "epk", "p2c", "x5t#S256"} {
		_, err := NewSigner(jwa.HS256, key, &SignerOptions{Extra: map[string]any{name: "v"}, Critical: []string{name}})
		if err == nil {
			t.Errorf("NewSigner accepted %q in crit", name)
		}
		if _, err := NewVerifier(VerifyOptions{Algorithms: algs, Key: key, Critical: []string{name}}); err == nil {
			t.Errorf("NewVerifier accepted %q as a critical extension", name)
		}
	}
	// b64 is always understood; listing it stays allowed.
	if _, err := NewVerifier(VerifyOptions{Algorithms: algs, Key: key, Critical: []string{"b64"}}); err != nil {
		t.Errorf("NewVerifier refused b64: %v", err)
	}
	// An unregistered extension signs and verifies.
	s, err := NewSigner(jwa.HS256, key, &SignerOptions{Extra: map[string]any{"exp": 1}, Critical: []string{"exp"}})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := s.Compact([]byte("p"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewVerifier(VerifyOptions{Algorithms: algs, Key: key, Critical: []string{"exp"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.VerifyCompact(tok); err != nil {
		t.Errorf("crit exp: %v", err)
	}
}
