//go:build go1.27

package jose

import (
	"bytes"
	"crypto"
	"crypto/mldsa"
	"crypto/sha256"
	"errors"
	"strings"
	"testing"
)

const akpTSupported = true

// TestAKPParse parses the fixed AKP JWKs, checks that their seed gives
// their public key (as testdata/keys/README.md says they were made), and
// that they marshal back byte for byte and have a public form without priv.
func TestAKPParse(t *testing.T) {
	for alg, params := range map[string]mldsa.Parameters{"ML-DSA-44": mldsa.MLDSA44(), "ML-DSA-65": mldsa.MLDSA65(), "ML-DSA-87": mldsa.MLDSA87()} {
		data := akpTRead(t, alg)
		k, err := ParseKey([]byte(data))
		if err != nil {
			t.Fatalf("%s: %v", alg, err)
		}
		priv, ok := k.Key.(*mldsa.PrivateKey)
		if !ok {
			t.Fatalf("%s: Key is %T", alg, k.Key)
		}
		seed := sha256.Sum256([]byte("josebench " + alg + " test key"))
		want, err := mldsa.NewPrivateKey(params, seed[:])
		if err != nil || !want.Equal(priv) {
			t.Errorf("%s: the key is not the one of testdata/keys/README.md", alg)
		}
		if k.KeyType() != KeyTypeAKP || k.Algorithm != alg || !k.IsPrivate() || k.IsSymmetric() || k.Curve() != "" {
			t.Errorf("%s: KeyType %q, Algorithm %q, IsPrivate %v, Curve %q", alg, k.KeyType(), k.Algorithm, k.IsPrivate(), k.Curve())
		}
		out, err := k.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		m := jwkTMembers(t, out)
		if len(m) != 4 || m["kty"] != "AKP" || m["alg"] != alg || m["priv"] != jwkTMembers(t, []byte(data))["priv"] {
			t.Errorf("%s: marshalled as %.200s", alg, out)
		}
		pub := k.Public()
		if pub.IsPrivate() || pub.Algorithm != alg {
			t.Errorf("%s: Public is private or lost its alg", alg)
		}
		pout, err := pub.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(pout), "priv") {
			t.Errorf("%s: public JWK has priv", alg)
		}
		pk, err := ParseKey(pout)
		if err != nil {
			t.Fatal(err)
		}
		if !priv.PublicKey().Equal(pk.Key.(*mldsa.PublicKey)) {
			t.Errorf("%s: the public JWK holds another key", alg)
		}
		// A seed that does not give pub is refused.
		other := jwkTMutate(t, data, func(m map[string]any) { m["priv"] = Base64URLEncode(make([]byte, 32)) })
		if _, err := ParseKey([]byte(other)); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("%s: priv not matching pub: %v", alg, err)
		}
		// The alg of another parameter set, pub and priv of this one.
		for other := range akpTFiles {
			if other == alg {
				continue
			}
			wrong := jwkTMutate(t, data, func(m map[string]any) { m["alg"] = other })
			if _, err := ParseKey([]byte(wrong)); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("%s key with alg %s: %v", alg, other, err)
			}
		}
	}
}

// TestAKPInvalidPublicKey checks that a pub of the right size that
// crypto/mldsa refuses is refused.
func TestAKPInvalidPublicKey(t *testing.T) {
	// ML-DSA public keys are ρ || t1 with 10-bit t1 coefficients: every
	// encoding of the right size decodes, so the only refusal is its size,
	// checked before parsing (TestAKPMalformed). What remains is that an
	// arbitrary pub parses as a public key, not as a private one.
	data := jwkTMutate(t, akpTRead(t, "ML-DSA-44"), func(m map[string]any) {
		m["pub"] = Base64URLEncode(bytes.Repeat([]byte{0xff}, mldsa.MLDSA44PublicKeySize))
		delete(m, "priv")
	})
	k, err := ParseKey([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if k.IsPrivate() {
		t.Error("a public AKP key is private")
	}
}

// TestAKPThumbprint checks the thumbprint input of RFC 9964 §4: alg, kty and
// pub, in that order, without whitespace; the same for the private key and
// its public form.
func TestAKPThumbprint(t *testing.T) {
	data := akpTRead(t, "ML-DSA-65")
	m := jwkTMembers(t, []byte(data))
	k, err := ParseKey([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256([]byte(`{"alg":"ML-DSA-65","kty":"AKP","pub":"` + m["pub"].(string) + `"}`))
	for _, key := range []*JWK{k, k.Public()} {
		got, err := key.Thumbprint(crypto.SHA256)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want[:]) {
			t.Errorf("thumbprint %x, want %x", got, want)
		}
	}
}

// TestAKPNewJWKAndGenerate checks NewJWK and GenerateAKP with ML-DSA keys.
func TestAKPNewJWKAndGenerate(t *testing.T) {
	for alg := range akpTFiles {
		g, err := GenerateAKP(alg)
		if err != nil {
			t.Fatal(err)
		}
		if g.Algorithm != alg || g.KeyType() != KeyTypeAKP || g.KeyID == "" {
			t.Errorf("GenerateAKP(%s): alg %q, kty %q, kid %q", alg, g.Algorithm, g.KeyType(), g.KeyID)
		}
		tp, _ := g.Thumbprint(crypto.SHA256)
		if g.KeyID != Base64URLEncode(tp) {
			t.Errorf("GenerateAKP(%s): kid is not the thumbprint", alg)
		}
		priv := g.Key.(*mldsa.PrivateKey)
		for _, key := range []any{priv, priv.PublicKey()} {
			j, err := NewJWK(key)
			if err != nil {
				t.Fatal(err)
			}
			if j.Algorithm != alg {
				t.Errorf("NewJWK(%T of %s): alg %q", key, alg, j.Algorithm)
			}
			out, err := j.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			back, err := ParseKey(out)
			if err != nil {
				t.Fatal(err)
			}
			if !jwkTEqualKeys(back.Key, key) {
				t.Errorf("NewJWK(%T of %s) does not round-trip", key, alg)
			}
		}
		// A hand-made JWK whose alg contradicts the key is not marshalled.
		bad := &JWK{Key: priv, Algorithm: "ES256"}
		if _, err := bad.MarshalJSON(); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("JWK of %s with alg ES256: MarshalJSON = %v", alg, err)
		}
		found := false
		for _, f := range AnalyzeKey(bad) {
			found = found || f.Severity == SeverityCritical && strings.Contains(f.Message, "RFC 9964")
		}
		if !found {
			t.Errorf("AnalyzeKey of an %s key with alg ES256: %v", alg, AnalyzeKey(bad))
		}
		for _, f := range AnalyzeKey(g) {
			if f.Severity == SeverityCritical {
				t.Errorf("AnalyzeKey(generated %s): %v", alg, f)
			}
		}
	}
	for _, key := range []any{(*mldsa.PrivateKey)(nil), (*mldsa.PublicKey)(nil)} {
		if _, err := NewJWK(key); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("NewJWK(%T(nil)) = %v", key, err)
		}
	}
	if _, err := GenerateAKP("ML-DSA-42"); !errors.Is(err, ErrUnsupportedAlgorithm) {
		t.Errorf("GenerateAKP(ML-DSA-42) = %v", err)
	}
	if _, err := GenerateKey(GenerateParams{KeyType: KeyTypeAKP}); !errors.Is(err, ErrUnsupportedAlgorithm) {
		t.Errorf("GenerateKey(AKP without alg) = %v", err)
	}
}
