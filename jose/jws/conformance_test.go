package jws_test

// RFC 7520 §4 examples as latchset-jose ships them (latchset/jose @
// b58fdb1a, tests/vectors, Apache-2.0, ../../testdata/latchset/LICENSE):
// every compact (.jwsc), flattened (.jwsf) and general (.jwsg) token is
// verified through the public API with its key (.jwk), under an allow-list
// of exactly the example's algorithm, to the payload of the RFC 7520
// cookbook (a detached payload, §4.5, comes from .payl). Each token is also
// refused with the key of another example and with the right key under an
// allow-list that omits its algorithm.

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/keysource"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// cfAlgs gives the algorithm of each RFC 7520 §4 example (§4.8: one per
// signature, in order).
var cfAlgs = map[string][]jwa.SignatureAlgorithm{
	"4.1": {jwa.RS256}, "4.2": {jwa.PS384}, "4.3": {jwa.ES512}, "4.4": {jwa.HS256},
	"4.5": {jwa.HS256}, "4.6": {jwa.HS256}, "4.7": {jwa.HS256},
	"4.8": {jwa.RS256, jwa.ES512, jwa.HS256},
}

func cfKey(t *testing.T, name string) *jose.JWK {
	t.Helper()
	k, err := jose.ParseKey(vectortest.ReadTrimmed(t, "latchset", name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return k
}

func TestConformanceLatchsetRFC7520JWS(t *testing.T) {
	var cb struct {
		Input struct {
			Payload string `json:"payload"`
		} `json:"input"`
	}
	data := vectortest.ReadFile(t, "cookbook", "jws", "4_1.rsa_v15_signature.json")
	if err := json.Unmarshal(data, &cb); err != nil {
		t.Fatal(err)
	}
	payload := []byte(cb.Input.Payload)
	if !bytes.Equal(vectortest.ReadTrimmed(t, "latchset", "non-json/rfc7520_4.5.payl"), payload) {
		t.Fatal("latchset's detached payload differs from the cookbook's")
	}
	tokens := vectortest.LatchsetNames(t, "non-json/rfc7520_4.*.jwsc", "rfc7520_4.*.jwsf", "rfc7520_4.*.jwsg")
	if len(tokens) != 20 {
		t.Fatalf("found %d latchset JWS files, want 20", len(tokens))
	}
	for _, name := range tokens {
		t.Run(name, func(t *testing.T) {
			sec := vectortest.RFC7520Section(name)
			algs, ok := cfAlgs[sec]
			if !ok {
				t.Fatalf("unknown section %q", sec)
			}
			tok := vectortest.ReadTrimmed(t, "latchset", name)
			compact := strings.HasSuffix(name, ".jwsc")
			verify := func(key *jose.JWK, allow []jwa.SignatureAlgorithm) ([]byte, error) {
				v, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: allow, Key: key})
				if err != nil {
					return nil, err
				}
				switch {
				case sec == "4.5":
					m, err := v.VerifyDetached(tok, payload)
					if err != nil {
						return nil, err
					}
					return m.Payload, nil
				case compact:
					m, err := v.VerifyCompact(tok)
					if err != nil {
						return nil, err
					}
					return m.Payload, nil
				case sec == "4.8":
					res, p, err := v.VerifyEach(tok)
					if err != nil {
						return nil, err
					}
					for _, r := range res {
						if r.Err == nil {
							return p, nil
						}
					}
					return nil, res[0].Err
				default:
					m, err := v.VerifyJSON(tok)
					if err != nil {
						return nil, err
					}
					return m.Payload, nil
				}
			}
			var keys []*jose.JWK
			if sec == "4.8" {
				for _, i := range []string{"1", "2", "3"} {
					keys = append(keys, cfKey(t, "rfc7520_4.8."+i+".jwk"))
				}
			} else {
				keys = append(keys, cfKey(t, "rfc7520_"+sec+".jwk"))
			}
			for i, key := range keys {
				alg := algs[i]
				got, err := verify(key, []jwa.SignatureAlgorithm{alg})
				if err != nil {
					t.Fatalf("key %d (%s): %v", i, alg, err)
				}
				if !bytes.Equal(got, payload) {
					t.Fatalf("key %d: payload %q", i, got)
				}
				// The right key with an allow-list without the alg.
				var others []jwa.SignatureAlgorithm
				for _, a := range jwa.SignatureAlgorithms() {
					if a != alg {
						others = append(others, a)
					}
				}
				// A key that can serve none of them (by its type or curve,
				// or by its own "alg", "use" and "key_ops") is refused by
				// NewVerifier; one that can serve some is accepted and
				// the token is refused.
				servesOther := func(k *jose.JWK) bool {
					return slices.ContainsFunc(others, func(a jwa.SignatureAlgorithm) bool {
						return keysource.Fits(a, k) && k.Permits(string(a), jose.OpVerify) == nil
					})
				}
				want := jose.ErrInvalidKey
				if servesOther(key) {
					want = jose.ErrAlgorithmNotAllowed
				}
				if _, err := verify(key, others); !errors.Is(err, want) && sec != "4.8" {
					t.Errorf("key %d: alg %s not in the allow-list: %v, want %v", i, alg, err, want)
				}
				// The same key without its own "alg" (RFC 7517 §4.4),
				// whose type fits another algorithm, passes NewVerifier:
				// the token is refused by the allow-list alone.
				bare := *key
				bare.Algorithm = ""
				if servesOther(&bare) {
					if _, err := verify(&bare, others); !errors.Is(err, jose.ErrAlgorithmNotAllowed) && sec != "4.8" {
						t.Errorf("key %d without alg: alg %s not in the allow-list: %v, want ErrAlgorithmNotAllowed", i, alg, err)
					}
				} else if key.Algorithm != "" && sec != "4.8" {
					t.Errorf("key %d without alg fits no other algorithm: the per-token refusal is not exercised", i)
				}
			}
			// Another key never verifies it: the HMAC key of §4.4 for the
			// RSA and EC examples, another HMAC key for the HMAC ones.
			other := cfKey(t, "rfc7520_4.4.jwk")
			if algs[0] == jwa.HS256 || sec == "4.8" {
				var err error
				if other, err = jose.NewJWK(bytes.Repeat([]byte("other key "), 4)); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := verify(other, jwa.SignatureAlgorithms()); err == nil {
				t.Errorf("verified with another key")
			}
		})
	}
}
