package jws_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// x5cCA is a certificate and its key, for building test chains.
type x5cCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

var x5cSerial int64

// x5cIssue makes a certificate for a new P-256 key, signed by parent (self-
// signed if parent is nil); edit adjusts the template first.
func x5cIssue(t testing.TB, parent *x5cCA, ca bool, edit func(*x509.Certificate)) *x5cCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	x5cSerial++
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(x5cSerial),
		Subject:               pkix.Name{CommonName: "josebench test " + big.NewInt(x5cSerial).String()},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(time.Hour),
		BasicConstraintsValid: true,
		IsCA:                  ca,
	}
	if ca {
		tmpl.KeyUsage = x509.KeyUsageCertSign
	} else {
		tmpl.KeyUsage = x509.KeyUsageDigitalSignature
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}
	}
	if edit != nil {
		edit(tmpl)
	}
	signer, parentCert := crypto.Signer(key), tmpl
	if parent != nil {
		signer, parentCert = parent.key, parent.cert
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parentCert, &key.PublicKey, signer)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &x5cCA{cert, key}
}

func x5cChain(cs ...*x5cCA) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = base64.StdEncoding.EncodeToString(c.cert.Raw)
	}
	return out
}

// x5cToken signs payload with key under a protected header carrying x5c.
func x5cToken(t testing.TB, key *ecdsa.PrivateKey, x5c []string) []byte {
	t.Helper()
	s, err := jws.NewSigner(jwa.ES256, key, &jws.SignerOptions{Extra: map[string]any{"x5c": x5c}})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := s.Compact([]byte(`{"sub":"x5c"}`))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestX5CKeyFunc verifies tokens whose key comes from a verified x5c chain
// (root → intermediate → leaf), and refuses expired, wrong-usage,
// untrusted-root, oversized and malformed chains, tokens without x5c, and
// a valid chain with a signature by another key.
func TestX5CKeyFunc(t *testing.T) {
	root := x5cIssue(t, nil, true, nil)
	inter := x5cIssue(t, root, true, nil)
	leaf := x5cIssue(t, inter, false, nil)
	roots := x509.NewCertPool()
	roots.AddCert(root.cert)
	opts := jws.X5COptions{Verify: x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}}}
	verifier := func(o jws.X5COptions) *jws.Verifier {
		t.Helper()
		kf, err := jws.NewX5CKeyFunc(o)
		if err != nil {
			t.Fatal(err)
		}
		v, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, KeyFunc: kf})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	v := verifier(opts)
	m, err := v.VerifyCompact(x5cToken(t, leaf.key, x5cChain(leaf, inter)))
	if err != nil || string(m.Payload) != `{"sub":"x5c"}` {
		t.Fatalf("valid chain: %v", err)
	}

	otherRoot := x5cIssue(t, nil, true, nil)
	otherInter := x5cIssue(t, otherRoot, true, nil)
	expired := x5cIssue(t, inter, false, func(c *x509.Certificate) {
		c.NotBefore, c.NotAfter = time.Now().Add(-48*time.Hour), time.Now().Add(-24*time.Hour)
	})
	noSign := x5cIssue(t, inter, false, func(c *x509.Certificate) { c.KeyUsage = x509.KeyUsageKeyEncipherment })
	serverOnly := x5cIssue(t, inter, false, func(c *x509.Certificate) { c.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth} })
	untrusted := x5cIssue(t, otherInter, false, nil)
	// A chain of four intermediates: root → i1 → i2 → i3 → i4 → deep.
	ca := inter
	var deepChain []*x5cCA
	for range 3 {
		ca = x5cIssue(t, ca, true, nil)
		deepChain = append([]*x5cCA{ca}, deepChain...)
	}
	deep := x5cIssue(t, ca, false, nil)

	bigCert := strings.Repeat("A", 4*(jws.DefaultX5CMaxBytes/3+3))
	for _, c := range []struct {
		name string
		tok  []byte
		opts jws.X5COptions
		want error
	}{
		{"expired leaf", x5cToken(t, expired.key, x5cChain(expired, inter)), opts, jose.ErrKeyNotFound},
		{"valid chain, checked in the future", x5cToken(t, leaf.key, x5cChain(leaf, inter)), jws.X5COptions{Verify: x509.VerifyOptions{Roots: roots, KeyUsages: opts.Verify.KeyUsages, CurrentTime: time.Now().Add(48 * time.Hour)}}, jose.ErrKeyNotFound},
		{"key usage without digitalSignature", x5cToken(t, noSign.key, x5cChain(noSign, inter)), opts, jose.ErrKeyNotFound},
		{"extended key usage serverAuth only", x5cToken(t, serverOnly.key, x5cChain(serverOnly, inter)), opts, jose.ErrKeyNotFound},
		{"untrusted root", x5cToken(t, untrusted.key, x5cChain(untrusted, otherInter)), opts, jose.ErrKeyNotFound},
		{"intermediate missing", x5cToken(t, leaf.key, x5cChain(leaf)), opts, jose.ErrKeyNotFound},
		{"chain of 6 with at most 5", x5cToken(t, deep.key, x5cChain(append([]*x5cCA{deep}, append(deepChain, inter)...)...)), jws.X5COptions{Verify: opts.Verify, MaxCertificates: 5}, jose.ErrLimitExceeded},
		{"5 certificates with at most 4", x5cToken(t, deep.key, x5cChain(append([]*x5cCA{deep}, append(deepChain, inter)...)...)), opts, jose.ErrLimitExceeded},
		// Not base64 DER at all: refused by the count before any decoding.
		{"5 garbage entries", x5cToken(t, leaf.key, []string{"AAAA", "AAAA", "AAAA", "AAAA", "AAAA"}), opts, jose.ErrLimitExceeded},
		{"not DER", x5cToken(t, leaf.key, []string{"AAAA"}), opts, jose.ErrMalformed},
		{"no x5c", func() []byte {
			s, _ := jws.NewSigner(jwa.ES256, leaf.key, nil)
			tok, _ := s.Compact([]byte("x"))
			return tok
		}(), opts, jose.ErrKeyNotFound},
		{"valid chain, signed by another key", x5cToken(t, inter.key, x5cChain(leaf, inter)), opts, jose.ErrVerificationFailed},
	} {
		o := c.opts
		_, err := verifier(o).VerifyCompact(c.tok)
		t.Logf("%s: %v", c.name, err)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	// More DER bytes than the bound, in one entry that is not even a
	// certificate: refused by its size before decoding. (A token cannot
	// carry it under the default header size limit; the key function is
	// called directly.)
	kf, _ := jws.NewX5CKeyFunc(opts)
	if _, err := kf(&jose.Header{X5C: []string{bigCert}}); !errors.Is(err, jose.ErrLimitExceeded) {
		t.Errorf("too many bytes: %v", err)
	}
	// With a longer bound the deep chain verifies.
	deepTok := x5cToken(t, deep.key, x5cChain(append([]*x5cCA{deep}, append(deepChain, inter)...)...))
	if _, err := verifier(jws.X5COptions{Verify: opts.Verify, MaxCertificates: 5, MaxChainLength: 6}).VerifyCompact(deepTok); err != nil {
		t.Errorf("chain of 6 with at most 6: %v", err)
	}
	// An intermediate given by the caller instead of the token.
	pool := x509.NewCertPool()
	pool.AddCert(inter.cert)
	if _, err := verifier(jws.X5COptions{Verify: x509.VerifyOptions{Roots: roots, Intermediates: pool, KeyUsages: opts.Verify.KeyUsages}}).VerifyCompact(x5cToken(t, leaf.key, x5cChain(leaf))); err != nil {
		t.Errorf("intermediate from the options: %v", err)
	}
	if _, err := jws.NewX5CKeyFunc(jws.X5COptions{}); err == nil {
		t.Error("NewX5CKeyFunc without roots succeeded")
	}
}
