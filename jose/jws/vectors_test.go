package jws

// Published vectors: RFC 7515 Appendix A (latchset/jose copies), RFC 7520
// section 4 (the JOSE cookbook), RFC 7797 section 4 (joserfc copy) and
// RFC 8037 Appendix A.4-A.5 (cookbook curve25519). The files are the shared
// copies at the repository root (testdata/*, licenses beside them).

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
)

func vecKey(t *testing.T, data []byte) *jose.JWK {
	t.Helper()
	k, err := jose.ParseKey(data)
	if err != nil {
		t.Fatalf("ParseKey: %v", err)
	}
	return k
}

// vecSigner returns a Signer that writes exactly the protected header
// bytes hdr (empty: no protected header), as the cookbook gives them.
func vecSigner(t *testing.T, alg jwa.SignatureAlgorithm, key any, hdr []byte) *Signer {
	t.Helper()
	if jwk, ok := key.(*jose.JWK); ok {
		key = jwk.Key
	}
	js, err := jwa.NewSigner(alg, key)
	if err != nil {
		t.Fatal(err)
	}
	s := &Signer{alg: alg, signer: js, sigSize: signatureSize(alg, key), protB64: b64enc.Append(nil, hdr)}
	if len(hdr) > 0 {
		if s.protected, err = jose.ParseHeader(hdr, jose.Limits{}); err != nil {
			t.Fatal(err)
		}
	}
	if s.protected != nil && s.protected.B64 != nil && !*s.protected.B64 {
		s.unencoded = true
	}
	return s
}

func vecVerifier(t *testing.T, alg jwa.SignatureAlgorithm, key any) *Verifier {
	t.Helper()
	v, err := NewVerifier(VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{alg}, Key: key})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestRFC7515AppendixA verifies the examples of RFC 7515 A.1-A.4, A.6 and
// A.7, reproduces the deterministic ones (A.1 HMAC, A.2 RSASSA-PKCS1-v1_5)
// from their header bytes, and refuses the unsecured A.5.
func TestRFC7515AppendixA(t *testing.T) {
	tests := []struct {
		name      string
		alg       jwa.SignatureAlgorithm
		reproduce bool
	}{
		{"A.1", jwa.HS256, true},
		{"A.2", jwa.RS256, true},
		{"A.3", jwa.ES256, false},
		{"A.4", jwa.ES512, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			key := vecKey(t, vectortest.ReadFile(t, "latchset/rfc7515_"+tc.name+".jwk"))
			tok := bytes.TrimSpace(vectortest.ReadFile(t, "latchset/non-json/rfc7515_"+tc.name+".jwsc"))
			msg, err := vecVerifier(t, tc.alg, key).VerifyCompact(tok)
			if err != nil {
				t.Fatalf("VerifyCompact: %v", err)
			}
			wantPayload := []byte(`"iss":"joe"`)
			if tc.name == "A.4" {
				wantPayload = []byte("Payload")
			}
			if msg.Header.Algorithm != string(tc.alg) || !bytes.Contains(msg.Payload, wantPayload) {
				t.Fatalf("got alg %q payload %q", msg.Header.Algorithm, msg.Payload)
			}
			if tc.reproduce {
				h, p, _, _ := splitCompact(tok)
				hdr, _ := jose.Base64URLDecode(h)
				pl, _ := jose.Base64URLDecode(p)
				got, err := vecSigner(t, tc.alg, key, hdr).Compact(pl)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, tok) {
					t.Fatalf("Compact:\n got %s\nwant %s", got, tok)
				}
			}
			// Another alg in the allow-list only: refused before crypto,
			// by NewVerifier when the key can serve none of the list.
			other := map[jwa.SignatureAlgorithm]jwa.SignatureAlgorithm{jwa.HS256: jwa.HS384, jwa.RS256: jwa.PS256}[tc.alg]
			if other != "" {
				if _, err := vecVerifier(t, other, key).VerifyCompact(tok); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
					t.Fatalf("alg outside the allow-list: %v", err)
				}
			}
			if _, err := NewVerifier(VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.EdDSA}, Key: key}); !errors.Is(err, jose.ErrInvalidKey) {
				t.Fatalf("NewVerifier with a key fitting no listed alg: %v", err)
			}
		})
	}

	t.Run("A.5 unsecured is refused", func(t *testing.T) {
		tok := bytes.TrimSpace(vectortest.ReadFile(t, "latchset/non-json/rfc7515_A.5.jwsc"))
		key := vecKey(t, vectortest.ReadFile(t, "latchset/rfc7515_A.1.jwk"))
		v := vecVerifier(t, jwa.HS256, key)
		if _, err := v.VerifyCompact(tok); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
			t.Fatalf("VerifyCompact(A.5) = %v, want ErrAlgorithmNotAllowed", err)
		}
	})

	t.Run("A.6 general", func(t *testing.T) {
		// The keys of A.2 and A.3, with the kids the A.6 headers name.
		set, err := jose.ParseSet(vectortest.ReadFile(t, "latchset/rfc7515_A.6.jwkset"))
		if err != nil {
			t.Fatal(err)
		}
		set.Keys[0].KeyID = "2010-12-29"
		set.Keys[1].KeyID = "e9bc097a-ce51-4036-9562-d2ade882db0d"
		v, err := NewVerifier(VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.RS256, jwa.ES256}, Keys: set})
		if err != nil {
			t.Fatal(err)
		}
		tok := vectortest.ReadFile(t, "latchset/rfc7515_A.6.jwsg")
		res, pl, err := v.VerifyEach(tok)
		if err != nil {
			t.Fatalf("VerifyEach: %v", err)
		}
		if len(res) != 2 || res[0].Err != nil || res[1].Err != nil || !bytes.Contains(pl, []byte(`"iss":"joe"`)) {
			t.Fatalf("VerifyEach: %+v %q", res, pl)
		}
		if res[0].Header.KeyID != "2010-12-29" || res[1].Header.Algorithm != "ES256" {
			t.Fatalf("headers: %+v %+v", res[0].Header, res[1].Header)
		}
		if _, err := v.VerifyJSON(tok); !errors.Is(err, ErrMultipleSignatures) || !errors.Is(err, jose.ErrMalformed) {
			t.Fatalf("VerifyJSON of two signatures: %v", err)
		}
		// Only ES256 allowed: the RS256 signature is refused, the other
		// verifies.
		v2, _ := NewVerifier(VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, Keys: set})
		res, pl, err = v2.VerifyEach(tok)
		if err != nil || !errors.Is(res[0].Err, jose.ErrAlgorithmNotAllowed) || res[1].Err != nil || pl == nil {
			t.Fatalf("VerifyEach ES256 only: %v %+v", err, res)
		}
	})

	t.Run("A.7 flattened", func(t *testing.T) {
		key := vecKey(t, vectortest.ReadFile(t, "latchset/rfc7515_A.7.jwk"))
		msg, err := vecVerifier(t, jwa.ES256, key).VerifyJSON(vectortest.ReadFile(t, "latchset/rfc7515_A.7.jwsf"))
		if err != nil {
			t.Fatal(err)
		}
		if msg.Header.KeyID != "e9bc097a-ce51-4036-9562-d2ade882db0d" || msg.Header.Algorithm != "ES256" {
			t.Fatalf("header %+v", msg.Header)
		}
	})
}

type vecCookbook struct {
	Title        string `json:"title"`
	Reproducible bool   `json:"reproducible"`
	Input        struct {
		Payload string          `json:"payload"`
		Key     json.RawMessage `json:"key"`
		Alg     string          `json:"alg"`
	} `json:"input"`
	Signing struct {
		ProtectedB64 string          `json:"protected_b64u"`
		Unprotected  json.RawMessage `json:"unprotected"`
		Sig          string          `json:"sig"`
	} `json:"signing"`
	Output struct {
		Compact  string          `json:"compact"`
		JSON     json.RawMessage `json:"json"`
		JSONFlat json.RawMessage `json:"json_flat"`
	} `json:"output"`
}

func vecLoadCookbook(t *testing.T, name string) *vecCookbook {
	t.Helper()
	var c vecCookbook
	if err := json.Unmarshal(vectortest.ReadFile(t, name), &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

// TestCookbook runs RFC 7520 §4.1-4.7 and RFC 8037 A.4-A.5: every output
// verifies through every API it suits, and the deterministic ones (4.1,
// 4.4-4.7, A.4) are reproduced byte for byte from the header bytes given.
func TestCookbook(t *testing.T) {
	files := []string{
		"cookbook/jws/4_1.rsa_v15_signature.json",
		"cookbook/jws/4_2.rsa-pss_signature.json",
		"cookbook/jws/4_3.ecdsa_signature.json",
		"cookbook/jws/4_4.hmac-sha2_integrity_protection.json",
		"cookbook/jws/4_5.signature_with_detached_content.json",
		"cookbook/jws/4_6.protecting_specific_header_fields.json",
		"cookbook/jws/4_7.protecting_content_only.json",
		"cookbook/curve25519/jws.json",
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			c := vecLoadCookbook(t, f)
			alg := jwa.SignatureAlgorithm(c.Input.Alg)
			key := vecKey(t, c.Input.Key)
			var pub any = key
			if !key.IsSymmetric() {
				pub = key.Public()
			}
			payload := []byte(c.Input.Payload)
			detached := strings.HasPrefix(filepath.Base(f), "4_5")
			v := vecVerifier(t, alg, pub)
			verify := func(name string, fn func() (*Message, error)) {
				t.Helper()
				msg, err := fn()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if !bytes.Equal(msg.Payload, payload) || msg.Header.Algorithm != c.Input.Alg {
					t.Fatalf("%s: payload %q alg %q", name, msg.Payload, msg.Header.Algorithm)
				}
			}
			if c.Output.Compact != "" {
				tok := []byte(c.Output.Compact)
				if detached {
					verify("VerifyDetached(compact)", func() (*Message, error) { return v.VerifyDetached(tok, payload) })
					if _, err := v.VerifyCompact(tok); !errors.Is(err, jose.ErrVerificationFailed) {
						t.Fatalf("VerifyCompact of a detached token: %v", err)
					}
				} else {
					verify("VerifyCompact", func() (*Message, error) { return v.VerifyCompact(tok) })
				}
			}
			for name, j := range map[string]json.RawMessage{"json": c.Output.JSON, "json_flat": c.Output.JSONFlat} {
				if j == nil {
					continue
				}
				if detached {
					verify("VerifyDetached("+name+")", func() (*Message, error) { return v.VerifyDetached(j, payload) })
					continue
				}
				verify("VerifyJSON("+name+")", func() (*Message, error) { return v.VerifyJSON(j) })
				res, pl, err := v.VerifyEach(j)
				if err != nil || len(res) != 1 || res[0].Err != nil || !bytes.Equal(pl, payload) {
					t.Fatalf("VerifyEach(%s): %v %+v", name, err, res)
				}
			}
			if !c.Reproducible {
				return
			}
			hdr, err := jose.Base64URLDecode(c.Signing.ProtectedB64)
			if err != nil {
				t.Fatal(err)
			}
			s := vecSigner(t, alg, key, hdr)
			var unprot *jose.Header
			if c.Signing.Unprotected != nil {
				if unprot, err = jose.ParseHeader(c.Signing.Unprotected, jose.Limits{}); err != nil {
					t.Fatal(err)
				}
			}
			if c.Output.Compact != "" {
				var got []byte
				if detached {
					got, err = s.CompactDetached(payload)
				} else {
					got, err = s.Compact(payload)
				}
				if err != nil || string(got) != c.Output.Compact {
					t.Fatalf("compact: %v\n got %s\nwant %s", err, got, c.Output.Compact)
				}
			}
			if c.Output.JSONFlat != nil {
				got, err := s.Flattened(payload, unprot)
				if err != nil {
					t.Fatal(err)
				}
				if detached {
					got = vecDropPayload(t, got)
				}
				if !vectortest.SameJSON(t, got, c.Output.JSONFlat) {
					t.Fatalf("flattened:\n got %s\nwant %s", got, c.Output.JSONFlat)
				}
			}
			if c.Output.JSON != nil {
				s2 := *s
				s2.unprotected = unprot
				got, err := SignGeneral(payload, &s2)
				if err != nil {
					t.Fatal(err)
				}
				if detached {
					got = vecDropPayload(t, got)
				}
				if !vectortest.SameJSON(t, got, c.Output.JSON) {
					t.Fatalf("general:\n got %s\nwant %s", got, c.Output.JSON)
				}
			}
		})
	}
}

func vecDropPayload(t *testing.T, j []byte) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(j, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "payload")
	out, _ := json.Marshal(m)
	return out
}

// TestCookbookMultipleSignatures is RFC 7520 §4.8: three signatures
// (RS256, ES512, HS256) over one payload, keys found by kid in a set.
func TestCookbookMultipleSignatures(t *testing.T) {
	set, err := jose.ParseSet(vectortest.ReadFile(t, "latchset/rfc7520_4.8.jwkset"))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Input struct {
			Payload string `json:"payload"`
		} `json:"input"`
		Output struct {
			JSON json.RawMessage `json:"json"`
		} `json:"output"`
	}
	if err := json.Unmarshal(vectortest.ReadFile(t, "cookbook/jws/4_8.multiple_signatures.json"), &c); err != nil {
		t.Fatal(err)
	}
	v, err := NewVerifier(VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.RS256, jwa.ES512, jwa.HS256}, Keys: set})
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range [][]byte{c.Output.JSON, vectortest.ReadFile(t, "latchset/rfc7520_4.8.jwsg")} {
		res, pl, err := v.VerifyEach(tok)
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != 3 || string(pl) != c.Input.Payload {
			t.Fatalf("%d results, payload %q", len(res), pl)
		}
		for i, r := range res {
			if r.Err != nil || r.Index != i {
				t.Errorf("signature %d: %+v", i, r)
			}
		}
	}
	// HS256 not allowed: two of three verify, and the third says why.
	v2, _ := NewVerifier(VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.RS256, jwa.ES512}, Keys: set})
	res, _, err := v2.VerifyEach(c.Output.JSON)
	if err != nil || res[0].Err != nil || res[1].Err != nil || !errors.Is(res[2].Err, jose.ErrAlgorithmNotAllowed) {
		t.Fatalf("%v %+v", err, res)
	}
}

// TestRFC7797 runs RFC 7797 §4.1 and §4.2 (and the b64=true and safe
// payload variants of the joserfc file): compact and flattened outputs are
// reproduced byte for byte and verify.
func TestRFC7797(t *testing.T) {
	var f struct {
		Payload string `json:"payload"`
		Tests   []struct {
			Name      string          `json:"name"`
			Payload   string          `json:"payload"`
			Protected json.RawMessage `json:"protected"`
			Compact   string          `json:"compact"`
			Flattened json.RawMessage `json:"flattened_json"`
		} `json:"tests"`
	}
	if err := json.Unmarshal(vectortest.ReadFile(t, "joserfc/jws_rfc7797.json"), &f); err != nil {
		t.Fatal(err)
	}
	key := vecKey(t, vectortest.ReadFile(t, "latchset/rfc7515_A.1.jwk"))
	v := vecVerifier(t, jwa.HS256, key)
	for _, tc := range f.Tests {
		t.Run(tc.Name, func(t *testing.T) {
			payload := []byte(f.Payload)
			if tc.Payload != "" {
				payload = []byte(tc.Payload)
			}
			h, _, _, ok := splitCompact([]byte(tc.Compact))
			if !ok {
				t.Fatal("bad compact vector")
			}
			hdr, _ := jose.Base64URLDecode(h)
			if !vectortest.SameJSON(t, hdr, tc.Protected) {
				t.Fatalf("vector header %s != %s", hdr, tc.Protected)
			}
			s := vecSigner(t, jwa.HS256, key, hdr)
			tok := []byte(tc.Compact)
			var got []byte
			var err error
			var msg *Message
			if s.unencoded && bytes.IndexByte(payload, '.') >= 0 {
				// §4.2: the payload "$.02" holds a '.', so the compact
				// form is detached.
				got, err = s.CompactDetached(payload)
				if _, cerr := s.Compact(payload); cerr == nil {
					t.Error("Compact of an unencoded payload with '.' succeeded")
				}
				msg, _ = v.VerifyDetached(tok, payload)
			} else {
				got, err = s.Compact(payload)
				msg, _ = v.VerifyCompact(tok)
			}
			if err != nil || string(got) != tc.Compact {
				t.Fatalf("compact: %v\n got %s\nwant %s", err, got, tc.Compact)
			}
			if msg == nil || !bytes.Equal(msg.Payload, payload) {
				t.Fatalf("compact does not verify: %+v", msg)
			}
			flat, err := s.Flattened(payload, nil)
			if err != nil || !vectortest.SameJSON(t, flat, tc.Flattened) {
				t.Fatalf("flattened: %v\n got %s\nwant %s", err, flat, tc.Flattened)
			}
			msg, err = v.VerifyJSON(tc.Flattened)
			if err != nil || !bytes.Equal(msg.Payload, payload) {
				t.Fatalf("VerifyJSON: %v", err)
			}
		})
	}
	// The public API produces §4.2's header byte for byte.
	s, err := NewSigner(jwa.HS256, key, &SignerOptions{Unencoded: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.CompactDetached([]byte("$.02"))
	if err != nil || string(got) != f.Tests[1].Compact {
		t.Fatalf("NewSigner(Unencoded): %v %s", err, got)
	}
}
