package jws_test

import (
	"crypto/sha1"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// TestX5CThumbprints: a token whose "x5t" or "x5t#S256" (RFC 7515 §4.1.7,
// §4.1.8) is not the thumbprint of the leaf of its "x5c" is refused by
// NewX5CKeyFunc, as jose.ParseJWK refuses such a JWK: the header would
// name a certificate the chain verified is not, and an application that
// reads the thumbprint (to pin a signer, or to log it) would be told of
// another signer than Message.Chain's. Thumbprints of the leaf verify.
func TestX5CThumbprints(t *testing.T) {
	root := x5cIssue(t, nil, true, nil)
	inter := x5cIssue(t, root, true, nil)
	leaf := x5cIssue(t, inter, false, nil)
	other := x5cIssue(t, inter, false, nil) // another certificate of the same CA
	roots := x509.NewCertPool()
	roots.AddCert(root.cert)
	kf, err := jws.NewX5CKeyFunc(jws.X5COptions{Verify: x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}}})
	if err != nil {
		t.Fatal(err)
	}
	v, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, KeyFunc: kf})
	if err != nil {
		t.Fatal(err)
	}
	s1 := func(c *x5cCA) string { d := sha1.Sum(c.cert.Raw); return base64.RawURLEncoding.EncodeToString(d[:]) }
	s256 := func(c *x5cCA) string {
		d := sha256.Sum256(c.cert.Raw)
		return base64.RawURLEncoding.EncodeToString(d[:])
	}
	for _, c := range []struct {
		name  string
		extra map[string]any
		ok    bool
	}{
		{"x5t of the leaf", map[string]any{"x5t": s1(leaf)}, true},
		{"x5t#S256 of the leaf", map[string]any{"x5t#S256": s256(leaf)}, true},
		{"both of the leaf", map[string]any{"x5t": s1(leaf), "x5t#S256": s256(leaf)}, true},
		{"x5t of another certificate", map[string]any{"x5t": s1(other)}, false},
		{"x5t#S256 of another certificate", map[string]any{"x5t#S256": s256(other)}, false},
		{"x5t#S256 of the intermediate", map[string]any{"x5t#S256": s256(inter)}, false},
		{"x5t of the leaf, x5t#S256 of another", map[string]any{"x5t": s1(leaf), "x5t#S256": s256(other)}, false},
	} {
		c.extra["x5c"] = x5cChain(leaf, inter)
		s, err := jws.NewSigner(jwa.ES256, leaf.key, &jws.SignerOptions{Extra: c.extra})
		if err != nil {
			t.Fatal(err)
		}
		tok, err := s.Compact([]byte("x"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = v.VerifyCompact(tok)
		if c.ok && err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if !c.ok && !errors.Is(err, jose.ErrKeyNotFound) {
			t.Errorf("%s: %v, want %v", c.name, err, jose.ErrKeyNotFound)
		}
	}
}
