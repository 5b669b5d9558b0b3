package jws_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// x5cIssueFor makes a code-signing leaf certificate for key, named cn,
// issued by parent.
func x5cIssueFor(t testing.TB, parent *x5cCA, key *ecdsa.PrivateKey, cn string) *x5cCA {
	t.Helper()
	x5cSerial++
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(x5cSerial),
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent.cert, &key.PublicKey, parent.key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &x5cCA{cert, key}
}

// sameChain reports whether got is the chain of the certificates want.
func sameChain(got []*x509.Certificate, want ...*x5cCA) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if !got[i].Equal(want[i].cert) {
			return false
		}
	}
	return true
}

// x5cPKI is a root, an intermediate, and the code-signing options.
type x5cPKI struct {
	root, inter *x5cCA
	verify      x509.VerifyOptions
}

func newX5CPKI(t testing.TB) *x5cPKI {
	p := &x5cPKI{root: x5cIssue(t, nil, true, nil)}
	p.inter = x5cIssue(t, p.root, true, nil)
	roots := x509.NewCertPool()
	roots.AddCert(p.root.cert)
	p.verify = x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}}
	return p
}

func (p *x5cPKI) verifier(t testing.TB, o jws.X5COptions) *jws.Verifier {
	t.Helper()
	if o.Verify.Roots == nil {
		o.Verify = p.verify
	}
	kf, err := jws.NewX5CKeyFunc(o)
	if err != nil {
		t.Fatal(err)
	}
	return rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, KeyFunc: kf})
}

// TestX5CChainOnMessage is issue 18 finding 11, first half: the chain
// NewX5CKeyFunc verified comes back on the Message and on each
// SignatureResult, leaf to root, in every serialization; a Message that did
// not verify, or whose key was not certified, has none.
func TestX5CChainOnMessage(t *testing.T) {
	p := newX5CPKI(t)
	alice := x5cIssue(t, p.inter, false, nil)
	bob := x5cIssue(t, p.inter, false, nil)
	v := p.verifier(t, jws.X5COptions{})
	payload := []byte(`{"sub":"x5c"}`)

	tok := x5cToken(t, alice.key, x5cChain(alice, p.inter))
	m, err := v.VerifyCompact(tok)
	if err != nil || !sameChain(m.Chain, alice, p.inter, p.root) {
		t.Fatalf("compact: %v, chain %d certificates", err, len(m.Chain))
	}
	var reused jws.Message
	if err := v.VerifyCompactInto(&reused, tok); err != nil || !sameChain(reused.Chain, alice, p.inter, p.root) {
		t.Fatalf("VerifyCompactInto: %v", err)
	}
	if err := v.VerifyCompactInto(&reused, tok[:len(tok)-2]); err == nil || reused.Chain != nil {
		t.Fatalf("VerifyCompactInto of a bad token: %v, chain %v", err, reused.Chain)
	}

	signer := func(c *x5cCA) *jws.Signer {
		s, err := jws.NewSigner(jwa.ES256, c.key, &jws.SignerOptions{Extra: map[string]any{"x5c": x5cChain(c, p.inter)}})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	flat, _ := signer(alice).Flattened(payload, nil)
	if m, err := v.VerifyJSON(flat); err != nil || !sameChain(m.Chain, alice, p.inter, p.root) {
		t.Fatalf("flattened: %v", err)
	}
	// A general token: each signature gets its own signer's chain; a
	// signature that fails gets none.
	bad, _ := jws.NewSigner(jwa.ES256, bob.key, &jws.SignerOptions{Extra: map[string]any{"x5c": x5cChain(alice, p.inter)}})
	general, _ := jws.SignGeneral(payload, signer(alice), signer(bob), bad)
	res, _, err := v.VerifyEach(general)
	if err != nil || len(res) != 3 {
		t.Fatalf("general: %v", err)
	}
	if !sameChain(res[0].Chain, alice, p.inter, p.root) || !sameChain(res[1].Chain, bob, p.inter, p.root) {
		t.Errorf("general: chains of %d and %d certificates", len(res[0].Chain), len(res[1].Chain))
	}
	if !errors.Is(res[2].Err, jose.ErrVerificationFailed) || res[2].Chain != nil {
		t.Errorf("signature by another key than the leaf's: %v, chain %v", res[2].Err, res[2].Chain)
	}

	// The chain verified, not x5c: an intermediate from the options.
	pool := x509.NewCertPool()
	pool.AddCert(p.inter.cert)
	vo := p.verify
	vo.Intermediates = pool
	vi := p.verifier(t, jws.X5COptions{Verify: vo})
	if m, err := vi.VerifyCompact(x5cToken(t, alice.key, x5cChain(alice))); err != nil || !sameChain(m.Chain, alice, p.inter, p.root) {
		t.Errorf("intermediate from the options: %v", err)
	}

	// A key given directly has no chain.
	vk := rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, Key: &alice.key.PublicKey})
	if m, err := vk.VerifyCompact(tok); err != nil || m.Chain != nil {
		t.Errorf("Key: %v, chain %v", err, m.Chain)
	}
}

// TestX5CUnprotected is issue 18 finding 11, second half: an x5c from an
// unprotected header, which the signature does not cover, is refused
// unless X5COptions.AllowUnprotected: otherwise anyone holding the token
// could swap in another trusted certificate of the signer's key (here one
// naming another subject) and be believed.
func TestX5CUnprotected(t *testing.T) {
	p := newX5CPKI(t)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	alice := x5cIssueFor(t, p.inter, key, "alice")
	admin := x5cIssueFor(t, p.inter, key, "admin") // the same key, another subject
	payload := []byte(`{"sub":"x5c"}`)
	s, err := jws.NewSigner(jwa.ES256, key, &jws.SignerOptions{Header: &jose.Header{X5C: x5cChain(alice, p.inter)}})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := s.Flattened(payload, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The x5c swapped by someone who holds the token: the signature still
	// verifies, as the header is not signed.
	var j map[string]any
	if err := json.Unmarshal(tok, &j); err != nil {
		t.Fatal(err)
	}
	j["header"].(map[string]any)["x5c"] = x5cChain(admin, p.inter)
	swapped, _ := json.Marshal(j)

	for _, tk := range [][]byte{tok, swapped} {
		_, err := p.verifier(t, jws.X5COptions{}).VerifyJSON(tk)
		if !errors.Is(err, jose.ErrKeyNotFound) || !strings.Contains(err.Error(), "unprotected") {
			t.Errorf("default: %v, want ErrKeyNotFound for an unprotected x5c", err)
		}
	}
	allow := p.verifier(t, jws.X5COptions{AllowUnprotected: true})
	m, err := allow.VerifyJSON(tok)
	if err != nil || !sameChain(m.Chain, alice, p.inter, p.root) {
		t.Fatalf("AllowUnprotected: %v", err)
	}
	// Opted in, the swap goes through: the chain tells what was verified.
	m, err = allow.VerifyJSON(swapped)
	if err != nil || !sameChain(m.Chain, admin, p.inter, p.root) || m.Chain[0].Subject.CommonName != "admin" {
		t.Fatalf("AllowUnprotected, swapped: %v", err)
	}
	// Provenance is per signature: in a general token whose first
	// signature carries x5c protected and the second unprotected, only the
	// first verifies by default; x5c in both headers of one signature is
	// refused before the key function (RFC 7515 §7.2.1).
	sp1, _ := jws.NewSigner(jwa.ES256, key, &jws.SignerOptions{Extra: map[string]any{"x5c": x5cChain(alice, p.inter)}})
	general, err := jws.SignGeneral(payload, sp1, s)
	if err != nil {
		t.Fatal(err)
	}
	res, _, err := p.verifier(t, jws.X5COptions{}).VerifyEach(general)
	if err != nil || len(res) != 2 || res[0].Err != nil || !sameChain(res[0].Chain, alice, p.inter, p.root) ||
		!errors.Is(res[1].Err, jose.ErrKeyNotFound) || res[1].Chain != nil {
		t.Errorf("general, x5c protected then unprotected: %v, %+v", err, res)
	}
	both, _ := sp1.Flattened(payload, nil)
	if err := json.Unmarshal(both, &j); err != nil {
		t.Fatal(err)
	}
	j["header"] = map[string]any{"x5c": x5cChain(admin, p.inter)}
	both, _ = json.Marshal(j)
	if _, err := allow.VerifyJSON(both); !errors.Is(err, jose.ErrMalformed) {
		t.Errorf("x5c in both headers: %v, want ErrMalformed", err)
	}
	// In the protected header the same swap breaks the signature.
	sp, _ := jws.NewSigner(jwa.ES256, key, &jws.SignerOptions{Extra: map[string]any{"x5c": x5cChain(alice, p.inter)}})
	ptok, _ := sp.Compact(payload)
	m, err = p.verifier(t, jws.X5COptions{}).VerifyCompact(ptok)
	if err != nil || m.Chain[0].Subject.CommonName != "alice" {
		t.Fatalf("protected x5c: %v", err)
	}
}

// TestCertifiedKey: a key source of the caller's may return a
// *CertifiedKey; its key verifies and its chain is reported. One without a
// key, or holding a set, finds no key; one whose chain's leaf does not hold
// its key is refused (review finding: the chain of another certificate was
// reported as the signer's).
func TestCertifiedKey(t *testing.T) {
	p := newX5CPKI(t)
	leaf := x5cIssue(t, p.inter, false, nil)
	chain := []*x509.Certificate{leaf.cert, p.inter.cert, p.root.cert}
	other := []*x509.Certificate{x5cIssue(t, p.inter, false, nil).cert, p.inter.cert, p.root.cert}
	tok := x5cToken(t, leaf.key, x5cChain(leaf))
	for _, c := range []struct {
		name string
		key  any
		want error
	}{
		{"Go key", &jws.CertifiedKey{Key: &leaf.key.PublicKey, Chain: chain}, nil},
		{"JWK", &jws.CertifiedKey{Key: &jose.JWK{Key: &leaf.key.PublicKey}, Chain: chain}, nil},
		{"no key", &jws.CertifiedKey{Chain: chain}, jose.ErrKeyNotFound},
		{"nil", (*jws.CertifiedKey)(nil), jose.ErrKeyNotFound},
		{"set", &jws.CertifiedKey{Key: &jose.Set{}, Chain: chain}, jose.ErrKeyNotFound},
		// The leaf must hold the key: otherwise Message.Chain would name
		// a signer that did not sign.
		{"another leaf", &jws.CertifiedKey{Key: &leaf.key.PublicKey, Chain: other}, jose.ErrInvalidKey},
		{"another leaf, JWK", &jws.CertifiedKey{Key: &jose.JWK{Key: &leaf.key.PublicKey}, Chain: other}, jose.ErrInvalidKey},
		{"nil leaf", &jws.CertifiedKey{Key: &leaf.key.PublicKey, Chain: []*x509.Certificate{nil}}, jose.ErrInvalidKey},
	} {
		v := rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256},
			KeyFunc: func(*jose.Header) (any, error) { return c.key, nil }})
		m, err := v.VerifyCompact(tok)
		switch {
		case c.want == nil && (err != nil || !sameChain(m.Chain, leaf, p.inter, p.root)):
			t.Errorf("%s: %v", c.name, err)
		case c.want != nil && !errors.Is(err, c.want):
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	// An empty chain is no chain: the key verifies and Message.Chain is
	// nil, as for a key returned alone.
	v := rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256},
		KeyFunc: func(*jose.Header) (any, error) {
			return &jws.CertifiedKey{Key: &leaf.key.PublicKey, Chain: []*x509.Certificate{}}, nil
		}})
	if m, err := v.VerifyCompact(tok); err != nil || m.Chain != nil {
		t.Errorf("empty chain: %v, chain %v", err, m.Chain)
	}
	// A chain cannot certify a secret key.
	hs, _ := jws.NewSigner(jwa.HS256, membersKey, nil)
	htok, _ := hs.Compact([]byte("payload"))
	vh := rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256},
		KeyFunc: func(*jose.Header) (any, error) { return &jws.CertifiedKey{Key: membersKey, Chain: chain}, nil }})
	if _, err := vh.VerifyCompact(htok); !errors.Is(err, jose.ErrInvalidKey) {
		t.Errorf("HMAC key with a chain: %v, want ErrInvalidKey", err)
	}
}
