//go:build go1.27

package jws

import (
	"errors"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
)

// mldsaTKeys returns the fixed AKP JWKs of testdata/keys, by alg.
func mldsaTKeys(t *testing.T) map[jwa.SignatureAlgorithm]*jose.JWK {
	t.Helper()
	keys := map[jwa.SignatureAlgorithm]*jose.JWK{}
	for alg, file := range map[jwa.SignatureAlgorithm]string{jwa.MLDSA44: "mldsa44.json", jwa.MLDSA65: "mldsa65.json", jwa.MLDSA87: "mldsa87.json"} {
		k, err := jose.ParseKey(vectortest.ReadTrimmed(t, "keys", file))
		if err != nil {
			t.Fatal(err)
		}
		keys[alg] = k
	}
	return keys
}

// TestMLDSATokens signs and verifies compact and JSON tokens with AKP JWKs
// (RFC 9964 §2, §4): with the one key, with a JWK Set of all three
// parameter sets (by kid and without), and refuses a key of another
// parameter set, a signature of another key, and the algorithm outside the
// allow-list.
func TestMLDSATokens(t *testing.T) {
	keys := mldsaTKeys(t)
	set := &jose.Set{}
	for _, alg := range []jwa.SignatureAlgorithm{jwa.MLDSA44, jwa.MLDSA65, jwa.MLDSA87} {
		pub := keys[alg].Public()
		pub.KeyID = "k-" + string(alg)
		set.Keys = append(set.Keys, pub)
	}
	payload := []byte(`{"iss":"josebench","pq":true}`)
	for _, alg := range []jwa.SignatureAlgorithm{jwa.MLDSA44, jwa.MLDSA65, jwa.MLDSA87} {
		priv := keys[alg]
		s, err := NewSigner(alg, priv, &SignerOptions{KeyID: "k-" + string(alg)})
		if err != nil {
			t.Fatal(err)
		}
		tok, err := s.Compact(payload)
		if err != nil {
			t.Fatal(err)
		}
		for name, opts := range map[string]VerifyOptions{
			"key":  {Algorithms: []jwa.SignatureAlgorithm{alg}, Key: priv.Public()},
			"go":   {Algorithms: []jwa.SignatureAlgorithm{alg}, Key: priv.Key},
			"set":  {Algorithms: []jwa.SignatureAlgorithm{jwa.MLDSA44, jwa.MLDSA65, jwa.MLDSA87, jwa.ES256}, Keys: set},
			"func": {Algorithms: []jwa.SignatureAlgorithm{alg}, KeyFunc: func(*jose.Header) (any, error) { return priv.Public(), nil }},
		} {
			v, err := NewVerifier(opts)
			if err != nil {
				t.Fatalf("%s %s: %v", alg, name, err)
			}
			m, err := v.VerifyCompact(tok)
			if err != nil || string(m.Payload) != string(payload) || m.Header.Algorithm != string(alg) {
				t.Errorf("%s %s: VerifyCompact = %v", alg, name, err)
			}
		}
		js, err := s.Flattened(payload, nil)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := NewVerifier(VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{alg}, Keys: set})
		if _, err := v.VerifyJSON(js); err != nil {
			t.Errorf("%s: VerifyJSON = %v", alg, err)
		}
		// A token of the same key without kid is found in the set.
		s2, _ := NewSigner(alg, priv.Key, nil)
		tok2, _ := s2.Compact(payload)
		if _, err := v.VerifyCompact(tok2); err != nil {
			t.Errorf("%s without kid: %v", alg, err)
		}

		// Another parameter set's key cannot verify, as one key or by kid.
		for _, other := range []jwa.SignatureAlgorithm{jwa.MLDSA44, jwa.MLDSA65, jwa.MLDSA87} {
			if other == alg {
				continue
			}
			ov, err := NewVerifier(VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{alg}, Key: keys[other].Key})
			if err == nil {
				_, err = ov.VerifyCompact(tok)
			}
			if !errors.Is(err, jose.ErrAlgorithmNotAllowed) && !errors.Is(err, jose.ErrInvalidKey) {
				t.Errorf("%s token, %s key: %v", alg, other, err)
			}
			// The JWK's alg binds it: a JWK of another alg is refused.
			if _, err := NewSigner(alg, keys[other], nil); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
				t.Errorf("NewSigner(%s, %s JWK) = %v", alg, other, err)
			}
		}
		// The alg of the token is swapped for another ML-DSA name: the
		// kid's key is of the wrong parameter set.
		parts := strings.SplitN(string(tok), ".", 3)
		hdr, _ := jose.Base64URLDecode(parts[0])
		for _, other := range []string{"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"} {
			if other == string(alg) {
				continue
			}
			forged := jose.Base64URLEncode([]byte(strings.Replace(string(hdr), string(alg), other, 1))) + "." + parts[1] + "." + parts[2]
			if _, err := v.VerifyCompact([]byte(forged)); err == nil {
				t.Errorf("%s token relabelled %s verified", alg, other)
			}
		}
		// Not allowed: refused before any cryptography.
		ev, _ := NewVerifier(VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, Keys: set})
		if _, err := ev.VerifyCompact(tok); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
			t.Errorf("%s token, ES256 allowed: %v", alg, err)
		}
		// A signature by another key of the same parameter set.
		g, err := jose.GenerateAKP(string(alg))
		if err != nil {
			t.Fatal(err)
		}
		gs, _ := NewSigner(alg, g, &SignerOptions{KeyID: "k-" + string(alg)})
		gtok, _ := gs.Compact(payload)
		if _, err := v.VerifyCompact(gtok); !errors.Is(err, jose.ErrVerificationFailed) {
			t.Errorf("%s token by another key: %v", alg, err)
		}
	}
}
