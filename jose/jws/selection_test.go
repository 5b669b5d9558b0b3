package jws_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// TestSelectionPolicy: the key-selection policy of jose.Select, which jwe
// shares (see jwe.TestSelectionPolicy).
func TestSelectionPolicy(t *testing.T) {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	sign := func(alg jwa.SignatureAlgorithm, key any, kid string) []byte {
		s, err := jws.NewSigner(alg, key, &jws.SignerOptions{KeyID: kid})
		if err != nil {
			t.Fatal(err)
		}
		tok, err := s.Compact([]byte("x"))
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	octs := func(n int, kid string) []*jose.JWK {
		var ks []*jose.JWK
		for i := range n {
			ks = append(ks, &jose.JWK{Key: bytes.Repeat([]byte{byte(i + 1)}, 32), KeyID: kid})
		}
		return ks
	}
	all := jwa.SignatureAlgorithms()
	t.Run("wrong curve not counted", func(t *testing.T) {
		var set jose.Set
		for range jws.MaxKeyCandidates {
			p, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
			set.Keys = append(set.Keys, &jose.JWK{Key: &p.PublicKey})
		}
		set.Keys = append(set.Keys, &jose.JWK{Key: &ec.PublicKey})
		if _, err := rvVerifier(t, jws.VerifyOptions{Algorithms: all, Keys: &set}).VerifyCompact(sign(jwa.ES256, ec, "")); err != nil {
			t.Fatalf("ES256 after %d P-384 keys: %v", jws.MaxKeyCandidates, err)
		}
	})
	t.Run("secp256k1 beside P-256", func(t *testing.T) {
		// ES256K selects the secp256k1 key (RFC 8812 §3.1) and ES256 the
		// P-256 one, from one set without kids; an ES256K token signed
		// with another secp256k1 key is refused.
		k1, err := jwa.GenerateSecp256k1Key()
		if err != nil {
			t.Fatal(err)
		}
		k2, _ := jwa.GenerateSecp256k1Key()
		set := &jose.Set{Keys: []*jose.JWK{{Key: &ec.PublicKey}, {Key: k1.PublicKey()}}}
		v := rvVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256, jwa.ES256K}, Keys: set})
		for _, c := range []struct {
			alg jwa.SignatureAlgorithm
			key any
		}{{jwa.ES256K, k1}, {jwa.ES256, ec}} {
			if _, err := v.VerifyCompact(sign(c.alg, c.key, "")); err != nil {
				t.Errorf("%s: %v", c.alg, err)
			}
		}
		if _, err := v.VerifyCompact(sign(jwa.ES256K, k2, "")); !errors.Is(err, jose.ErrVerificationFailed) {
			t.Errorf("ES256K by another key: %v, want ErrVerificationFailed", err)
		}
		only := rvVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, Keys: set})
		if _, err := only.VerifyCompact(sign(jwa.ES256K, k1, "")); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
			t.Errorf("ES256K not allowed: %v", err)
		}
	})
	t.Run("kid selects one key", func(t *testing.T) {
		set := &jose.Set{Keys: octs(2, "k")}
		tok := sign(jwa.HS256, set.Keys[1].Key, "k")
		if _, err := rvVerifier(t, jws.VerifyOptions{Algorithms: all, Keys: set}).VerifyCompact(tok); !errors.Is(err, jose.ErrKeyNotFound) {
			t.Fatalf("two HMAC keys of one kid: %v, want ErrKeyNotFound", err)
		}
		set.Keys[0].Use = "enc" // cannot verify: does not compete
		if _, err := rvVerifier(t, jws.VerifyOptions{Algorithms: all, Keys: set}).VerifyCompact(tok); err != nil {
			t.Fatalf("one sig and one enc key of one kid: %v", err)
		}
	})
	t.Run("mixed set refused", func(t *testing.T) {
		set := &jose.Set{Keys: append(octs(1, ""), &jose.JWK{Key: &ec.PublicKey})}
		if _, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: all, Keys: set}); !errors.Is(err, jose.ErrInvalidKey) {
			t.Fatalf("mixed set: %v, want ErrInvalidKey", err)
		}
	})
}

// TestNewVerifierKeyFitsNone: a single key that can serve none of the
// listed algorithms is refused by NewVerifier, not on every token with an
// error that reads like an attack.
func TestNewVerifierKeyFitsNone(t *testing.T) {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		algs []jwa.SignatureAlgorithm
		key  any
	}{
		"string for HS256":       {[]jwa.SignatureAlgorithm{jwa.HS256}, "secret"},
		"P-256 for RS256":        {[]jwa.SignatureAlgorithm{jwa.RS256}, &ec.PublicKey},
		"P-256 for ES384":        {[]jwa.SignatureAlgorithm{jwa.ES384, jwa.ES512}, ec},
		"JWK of P-256 for HS256": {[]jwa.SignatureAlgorithm{jwa.HS256}, &jose.JWK{Key: &ec.PublicKey}},
	} {
		_, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: c.algs, Key: c.key})
		if !errors.Is(err, jose.ErrInvalidKey) {
			t.Errorf("%s: %v, want ErrInvalidKey", name, err)
		}
	}
	// A key that fits some algorithms keeps the per-token refusal of the
	// others.
	v := rvVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.RS256, jwa.ES256}, Key: &ec.PublicKey})
	s, _ := jws.NewSigner(jwa.HS256, rvHKey, nil)
	tok, _ := s.Compact([]byte("x"))
	if _, err := v.VerifyCompact(tok); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
		t.Errorf("HS256 token: %v, want ErrAlgorithmNotAllowed", err)
	}
}

// TestNewVerifierKeyPermitsNone: a single JWK whose own "alg", "use" or
// "key_ops" (RFC 7517 §4.2-4.4) permit none of the listed algorithms is
// refused by NewVerifier with ErrInvalidKey, as jose.Select drops it from a
// set; a JWK that permits some keeps the per-token refusal of the others.
func TestNewVerifierKeyPermitsNone(t *testing.T) {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	es256 := []jwa.SignatureAlgorithm{jwa.ES256}
	for name, c := range map[string]struct {
		algs []jwa.SignatureAlgorithm
		key  *jose.JWK
	}{
		"alg ES384, ES256 listed":           {es256, &jose.JWK{Key: &ec.PublicKey, Algorithm: "ES384"}},
		"alg HS256, HS256 and ES256 listed": {[]jwa.SignatureAlgorithm{jwa.HS256, jwa.ES256}, &jose.JWK{Key: &ec.PublicKey, Algorithm: "HS256"}},
		"use enc":                           {es256, &jose.JWK{Key: &ec.PublicKey, Use: jose.UseEncryption}},
		"key_ops sign only":                 {es256, &jose.JWK{Key: &ec.PublicKey, KeyOps: []jose.KeyOp{jose.OpSign}}},
		"key_ops empty":                     {es256, &jose.JWK{Key: &ec.PublicKey, KeyOps: []jose.KeyOp{}}},
		"oct with use enc":                  {[]jwa.SignatureAlgorithm{jwa.HS256, jwa.HS512}, &jose.JWK{Key: rvHKey, Use: jose.UseEncryption}},
		"oct for HS512, HS256 listed":       {[]jwa.SignatureAlgorithm{jwa.HS256}, &jose.JWK{Key: bytes.Repeat([]byte{1}, 64), Algorithm: "HS512"}},
	} {
		_, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: c.algs, Key: c.key})
		if !errors.Is(err, jose.ErrInvalidKey) {
			t.Errorf("%s: %v, want ErrInvalidKey", name, err)
		}
	}
	// A JWK for ES256 with ES256 and ES384 listed is accepted: ES256
	// tokens verify, ES384 tokens are refused one by one.
	jwk := &jose.JWK{Key: &ec.PublicKey, Algorithm: "ES256", Use: jose.UseSignature, KeyOps: []jose.KeyOp{jose.OpVerify}}
	v := rvVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256, jwa.ES384}, Key: jwk})
	s, _ := jws.NewSigner(jwa.ES256, ec, nil)
	tok, _ := s.Compact([]byte("x"))
	if _, err := v.VerifyCompact(tok); err != nil {
		t.Errorf("ES256 token: %v", err)
	}
	hdr := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"ES384"}`))
	tok384 := []byte(hdr + ".eA." + strings.Repeat("A", 128))
	if _, err := v.VerifyCompact(tok384); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
		t.Errorf("ES384 token: %v, want ErrAlgorithmNotAllowed", err)
	}
}
