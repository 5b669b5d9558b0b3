package jws_test

import (
	"crypto/x509"
	"testing"

	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// BenchmarkX5C measures VerifyCompact with NewX5CKeyFunc: a legitimate
// ES256 token whose x5c holds leaf and intermediate, and the worst a token
// can make it do at the default bounds, four valid certificates parsed and
// a chain built that ends at an untrusted root, beside the same token
// verified with its key given directly.
func BenchmarkX5C(b *testing.B) {
	t := b
	root := x5cIssue(t, nil, true, nil)
	inter := x5cIssue(t, root, true, nil)
	leaf := x5cIssue(t, inter, false, nil)
	roots := x509.NewCertPool()
	roots.AddCert(root.cert)
	otherRoot := x5cIssue(t, nil, true, nil)
	ca := x5cIssue(t, otherRoot, true, nil)
	chain := []*x5cCA{ca}
	for range 2 {
		ca = x5cIssue(t, ca, true, nil)
		chain = append([]*x5cCA{ca}, chain...)
	}
	deep := x5cIssue(t, ca, false, nil)
	kf, err := jws.NewX5CKeyFunc(jws.X5COptions{Verify: x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}}})
	if err != nil {
		b.Fatal(err)
	}
	algs := []jwa.SignatureAlgorithm{jwa.ES256}
	vx, _ := jws.NewVerifier(jws.VerifyOptions{Algorithms: algs, KeyFunc: kf})
	vk, _ := jws.NewVerifier(jws.VerifyOptions{Algorithms: algs, Key: &leaf.key.PublicKey})
	good := x5cToken(t, leaf.key, x5cChain(leaf, inter))
	worst := x5cToken(t, deep.key, x5cChain(append([]*x5cCA{deep}, chain...)...))
	for _, c := range []struct {
		name    string
		v       *jws.Verifier
		tok     []byte
		wantErr bool
	}{
		{"legit-key-given", vk, good, false},
		{"legit-x5c-leaf-intermediate", vx, good, false},
		{"worst-x5c-4-certificates-untrusted-root", vx, worst, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			if _, err := c.v.VerifyCompact(c.tok); (err != nil) != c.wantErr {
				b.Fatalf("error %v, want error %v", err, c.wantErr)
			}
			b.ReportAllocs()
			for b.Loop() {
				c.v.VerifyCompact(c.tok)
			}
		})
	}
}
