package oidc

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwt"
)

// TestTokenHash checks at_hash and c_hash against the examples of OpenID
// Connect Core 1.0 (Appendix A.3: at_hash of an access token, A.4: c_hash
// of a code, both in ID tokens signed with RS256), and the hash of every
// algorithm.
func TestTokenHash(t *testing.T) {
	for _, c := range []struct{ token, want string }{
		{"jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y", "77QmUPtjPfzWtF2AnpK9RQ"},                // Core A.3
		{"Qcb0Orv1zh30vL1MPRsbm-diHiMwcLyZvn1arpZv-Jxf_11jnpEX3Tgfvk", "LDktKdoQak3Pk0cnXxCltA"}, // Core A.4
	} {
		if got, err := TokenHash(jwa.RS256, c.token); err != nil || got != c.want {
			t.Errorf("TokenHash(RS256, %q) = %q, %v; want %q", c.token, got, err, c.want)
		}
	}
	half := func(sum []byte) string { return base64.RawURLEncoding.EncodeToString(sum[:len(sum)/2]) }
	s256, s384, s512 := sha256.Sum256([]byte("tok")), sha512.Sum384([]byte("tok")), sha512.Sum512([]byte("tok"))
	for alg, want := range map[jwa.SignatureAlgorithm]string{
		jwa.HS256: half(s256[:]), jwa.RS256: half(s256[:]), jwa.PS256: half(s256[:]), jwa.ES256: half(s256[:]), "ES256K": half(s256[:]),
		jwa.HS384: half(s384[:]), jwa.RS384: half(s384[:]), jwa.PS384: half(s384[:]), jwa.ES384: half(s384[:]),
		jwa.HS512: half(s512[:]), jwa.RS512: half(s512[:]), jwa.PS512: half(s512[:]), jwa.ES512: half(s512[:]),
		jwa.EdDSA: half(s512[:]), jwa.Ed25519: half(s512[:]),
	} {
		if got, err := TokenHash(alg, "tok"); err != nil || got != want {
			t.Errorf("TokenHash(%s) = %q, %v; want %q", alg, got, err, want)
		}
	}
	for _, alg := range []jwa.SignatureAlgorithm{"none", "", jwa.MLDSA44, "RS256 "} {
		if _, err := TokenHash(alg, "tok"); !errors.Is(err, jose.ErrUnsupportedAlgorithm) {
			t.Errorf("TokenHash(%q): %v", alg, err)
		}
	}
}

// TestVerifyHashes: at_hash and c_hash of a verified ID token, with the
// hash of its alg.
func TestVerifyHashes(t *testing.T) {
	k1, e1 := rsaKey(t, "rsa2048.pem", "k1"), ecKey(t, "e1")
	idp := newIDP(t, k1, e1)
	p := newTestProvider(t, idp, nil, Options{})
	v, err := NewIDTokenVerifier(p, VerifierOptions{ClientID: testClient, Algorithms: []jwa.SignatureAlgorithm{jwa.RS256, jwa.ES256}, Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	const at, code = "jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y", "Qcb0Orv1zh30vL1MPRsbm-diHiMwcLyZvn1arpZv-Jxf_11jnpEX3Tgfvk"
	for _, key := range []struct {
		k   *jose.JWK
		alg jwa.SignatureAlgorithm
	}{{k1, jwa.RS256}, {e1, jwa.ES256}} {
		id, err := v.Verify(t.Context(), sign(t, key.k, key.alg, "", idp.claims(`,"at_hash":"77QmUPtjPfzWtF2AnpK9RQ","c_hash":"LDktKdoQak3Pk0cnXxCltA"`)), Expect{})
		if err != nil {
			t.Fatal(err)
		}
		if err := id.VerifyAccessToken(at); err != nil {
			t.Errorf("%s at_hash: %v", key.alg, err)
		}
		if err := id.VerifyCode(code); err != nil {
			t.Errorf("%s c_hash: %v", key.alg, err)
		}
		for _, err := range []error{id.VerifyAccessToken(at + "x"), id.VerifyCode(at), id.VerifyAccessToken("")} {
			if !errors.Is(err, ErrHashMismatch) || !errors.Is(err, jwt.ErrInvalidClaims) {
				t.Errorf("%s: wrong token: %v", key.alg, err)
			}
		}
	}
	id, err := v.Verify(t.Context(), sign(t, k1, jwa.RS256, "", idp.claims("")), Expect{})
	if err != nil {
		t.Fatal(err)
	}
	if err := id.VerifyAccessToken(at); !errors.Is(err, ErrHashMismatch) {
		t.Errorf("absent at_hash: %v", err)
	}
	if err := id.VerifyCode(code); !errors.Is(err, ErrHashMismatch) {
		t.Errorf("absent c_hash: %v", err)
	}
	// An IDToken made by hand, without its JWT: no alg, no hash.
	if err := (&IDToken{AccessTokenHash: "x"}).VerifyAccessToken(at); !errors.Is(err, jose.ErrUnsupportedAlgorithm) {
		t.Errorf("no header: %v", err)
	}
}
