package jws

import (
	"bytes"
	"errors"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/hdrcache"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
)

func cacheSize(v *Verifier) int { return v.headers.Len() }

// TestHeaderCache checks that the protected-header cache is transparent:
// only verified, flat headers enter it; a hit gives an equal header that
// the caller may modify freely; refusals still happen on a hit.
func TestHeaderCache(t *testing.T) {
	key := bytes.Repeat([]byte{3}, 32)
	s, err := NewSigner(jwa.HS256, key, &SignerOptions{KeyID: "c", Type: "JWT"})
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewVerifier(VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: key})
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := s.Compact([]byte("one"))

	// A bad signature does not enter the cache.
	bad := bytes.Clone(tok)
	bad[len(bad)-2] ^= 1
	if _, err := v.VerifyCompact(bad); err == nil {
		t.Fatal("bad signature accepted")
	}
	if n := cacheSize(v); n != 0 {
		t.Fatalf("%d cached headers after a failure", n)
	}

	// The first verification only notes the header; the second keeps it.
	if _, err := v.VerifyCompact(tok); err != nil || cacheSize(v) != 0 {
		t.Fatalf("first verify: %v, %d cached", err, cacheSize(v))
	}
	m1, err := v.VerifyCompact(tok)
	if err != nil || cacheSize(v) != 1 {
		t.Fatalf("second verify: %v, %d cached", err, cacheSize(v))
	}
	m1.Header.KeyID = "changed by the caller"
	m1.Header.Critical = append(m1.Header.Critical, "x")
	tok2, _ := s.Compact([]byte("two"))
	m2, err := v.VerifyCompact(tok2)
	if err != nil {
		t.Fatal(err)
	}
	if m2.Header == m1.Header || m2.Header.KeyID != "c" || m2.Header.Type != "JWT" || m2.Header.Algorithm != "HS256" || string(m2.Payload) != "two" {
		t.Fatalf("cached header: %+v %q", m2.Header, m2.Payload)
	}
	// A hit still verifies the signature.
	bad = bytes.Clone(tok2)
	bad[len(bad)-2] ^= 1
	if _, err := v.VerifyCompact(bad); !errors.Is(err, jose.ErrVerificationFailed) {
		t.Fatalf("bad signature on a cached header: %v", err)
	}
	// And the detached checks.
	if _, err := v.VerifyDetached(tok2, []byte("two")); !errors.Is(err, jose.ErrMalformed) {
		t.Fatalf("VerifyDetached with an attached payload: %v", err)
	}

	// Headers with members other than strings are not cached.
	s2, _ := NewSigner(jwa.HS256, key, &SignerOptions{Extra: map[string]any{"n": []int{1}}})
	tok3, _ := s2.Compact([]byte("three"))
	for range 2 {
		m, err := v.VerifyCompact(tok3)
		if err != nil || string(m.Header.Extra["n"]) != "[1]" {
			t.Fatalf("extra header: %v %+v", err, m)
		}
	}
	if n := cacheSize(v); n != 1 {
		t.Fatalf("%d cached headers, want 1", n)
	}

	// The cache is bounded.
	for i := range hdrcache.MaxEntries + 8 {
		si, _ := NewSigner(jwa.HS256, key, &SignerOptions{KeyID: string(rune('A' + i))})
		ti, _ := si.Compact(nil)
		for range 2 {
			if _, err := v.VerifyCompact(ti); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n := cacheSize(v); n != hdrcache.MaxEntries {
		t.Fatalf("%d cached headers, want %d", n, hdrcache.MaxEntries)
	}
}

// TestVerifierCacheRenews checks that the prepared-verifier cache renews
// itself instead of filling up for good: a KeyFunc that returns a new
// *jose.JWK for each new key (a rotating remote set) goes through more
// than maxCached keys, and then a key met before the cap filled and a key
// first met after it are each verified from the cache again, without
// allocating; the entries never exceed maxCached.
func TestVerifierCacheRenews(t *testing.T) {
	type signed struct {
		jwk *jose.JWK
		tok []byte
	}
	mk := func(i int) signed {
		secret := bytes.Repeat([]byte{byte(i), byte(i >> 8), 0x5c}, 11)
		s, err := NewSigner(jwa.HS256, secret, nil) // one header for all: the header cache stays warm
		if err != nil {
			t.Fatal(err)
		}
		tok, err := s.Compact([]byte("payload"))
		if err != nil {
			t.Fatal(err)
		}
		return signed{&jose.JWK{Key: secret}, tok}
	}
	var cur *jose.JWK
	v, err := NewVerifier(VerifyOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.HS256},
		KeyFunc:    func(*jose.Header) (any, error) { return cur, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	var m Message
	verify := func(s signed) error {
		cur = s.jwk
		return v.VerifyCompactInto(&m, s.tok)
	}
	old := mk(0) // in use all along
	for i := 1; i <= maxCached+maxCached/2; i++ {
		for _, s := range []signed{mk(i), old} {
			if err := verify(s); err != nil {
				t.Fatalf("key %d: %v", i, err)
			}
		}
		if n := v.cache.Len(); n > maxCached {
			t.Fatalf("%d prepared verifiers cached after %d keys, cap %d", n, i, maxCached)
		}
	}
	steady := mk(maxCached * 2) // first met after the cap
	for _, s := range []signed{old, steady} {
		if err := verify(s); err != nil {
			t.Fatal(err)
		}
		if err := vectortest.ZeroAllocs(t, "verification with a cached key", 100, func() error { return verify(s) }); err != nil {
			t.Fatal(err)
		}
	}
}
