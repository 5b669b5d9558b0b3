package jws_test

// Fuzz targets for the JWS loaders: the compact serialization
// (Verifier.VerifyCompact) and the JSON serializations (Verifier.VerifyJSON
// and Verifier.VerifyEach), with fixed keys and a fixed allow-list.
//
// Beyond "no panic", nothing fuzzed may verify unless it is one of the
// tokens the test signed itself with the key: the signatures are
// deterministic (HMAC and Ed25519), so the seed tokens are the same in every
// fuzzing process. A compact token that verifies must be byte-identical to
// a seed token (the compact form is canonical: strict base64url, RFC 7515
// §2); a JSON token may differ in layout, but each signature that verifies
// must carry exactly the protected header, payload and signature of a seed.
//
// Seeds also include every JWS of the test vectors (Wycheproof, RFC 7520,
// RFC 7515 via latchset-jose, RFC 7797), which must all be refused: they
// were made with other keys.

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// fzHMACKey is a fixed 64-byte HMAC key (long enough for HS512,
// RFC 7518 §3.2).
var fzHMACKey = []byte("fuzz-hmac-key-0123456789abcdef-0123456789abcdef-0123456789abcdef")[:64]

// fzEdKey is a fixed Ed25519 key of this test only (not the RFC 8037 one,
// whose cookbook token would verify).
var fzEdKey = func() ed25519.PrivateKey {
	seed := sha256.Sum256([]byte("josebench jws fuzz ed25519 seed"))
	return ed25519.NewKeyFromSeed(seed[:])
}()

var fzAlgs = []jwa.SignatureAlgorithm{jwa.HS256, jwa.HS512, jwa.EdDSA, jwa.Ed25519}

// fzVerifier verifies with the HMAC key for HS* and the Ed25519 key for
// EdDSA and Ed25519.
func fzVerifier(t testing.TB) *jws.Verifier {
	v, err := jws.NewVerifier(jws.VerifyOptions{
		Algorithms: fzAlgs,
		KeyFunc: func(h *jose.Header) (any, error) {
			if strings.HasPrefix(h.Algorithm, "HS") {
				return fzHMACKey, nil
			}
			return fzEdKey.Public(), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// fzTriple is what a signature of a JWS JSON Serialization covers.
type fzTriple struct{ protected, payload, signature string }

// fzSeeds holds the tokens signed with the fuzz keys.
type fzSeeds struct {
	compact  map[string][]byte // token -> payload
	triples  map[fzTriple]bool
	payloads map[string]bool
	json     [][]byte
}

func fzMakeSeeds(t testing.TB) *fzSeeds {
	s := &fzSeeds{compact: map[string][]byte{}, triples: map[fzTriple]bool{}, payloads: map[string]bool{}}
	payloads := [][]byte{nil, []byte("foo"), []byte(`{"iss":"joe","exp":1300819380}`), {0, 1, 2, 0xff}, []byte("$.02")}
	type cfg struct {
		alg  jwa.SignatureAlgorithm
		opts *jws.SignerOptions
	}
	cfgs := []cfg{
		{jwa.HS256, nil},
		{jwa.HS256, &jws.SignerOptions{KeyID: "k1", Type: "JWT"}},
		{jwa.HS512, &jws.SignerOptions{ContentType: "json", Extra: map[string]any{"x": []int{1}}}},
		{jwa.EdDSA, nil},
		{jwa.Ed25519, &jws.SignerOptions{KeyID: "ed"}},
		{jwa.HS256, &jws.SignerOptions{Unencoded: true}},
		{jwa.EdDSA, &jws.SignerOptions{Unencoded: true, KeyID: "u"}},
	}
	var signers []*jws.Signer
	for _, c := range cfgs {
		var key any = fzHMACKey
		if !strings.HasPrefix(string(c.alg), "HS") {
			key = fzEdKey
		}
		sg, err := jws.NewSigner(c.alg, key, c.opts)
		if err != nil {
			t.Fatalf("NewSigner(%s, %+v): %v", c.alg, c.opts, err)
		}
		signers = append(signers, sg)
	}
	for _, p := range payloads {
		s.payloads[string(p)] = true
		for i, sg := range signers {
			unencoded := cfgs[i].opts != nil && cfgs[i].opts.Unencoded
			if !(unencoded && bytes.Contains(p, []byte("."))) {
				tok, err := sg.Compact(p)
				if err != nil {
					t.Fatalf("Compact: %v", err)
				}
				s.compact[string(tok)] = p
			}
			if det, err := sg.CompactDetached(p); err == nil {
				s.json = append(s.json, det) // a detached token is refused by VerifyCompact
			}
			fl, err := sg.Flattened(p, nil)
			if err != nil {
				if unencoded && !utf8.Valid(p) {
					continue // RFC 7797 §5.3: no place for it in JSON
				}
				t.Fatalf("Flattened: %v", err)
			}
			s.json = append(s.json, fl)
			hdr := new(jose.Header)
			hdr.KeyID = "unprotected-kid"
			if cfgs[i].opts != nil && cfgs[i].opts.KeyID != "" {
				hdr.KeyID = ""
				hdr.Type = "unprotected-typ"
				if cfgs[i].opts.Type != "" {
					hdr = nil
				}
			}
			if fl, err := sg.Flattened(p, hdr); err == nil {
				s.json = append(s.json, fl)
			}
		}
		g1, err := jws.SignGeneral(p, signers[0])
		if err != nil {
			t.Fatalf("SignGeneral: %v", err)
		}
		g2, err := jws.SignGeneral(p, signers[1], signers[3], signers[4])
		if err != nil {
			t.Fatalf("SignGeneral: %v", err)
		}
		s.json = append(s.json, g1, g2)
	}
	for _, data := range s.json {
		for _, tr := range fzTriples(data) {
			s.triples[tr] = true
		}
	}
	return s
}

// fzTriples reads the (protected, payload, signature) of each signature of
// a JWS JSON Serialization with encoding/json, by exact member names.
func fzTriples(data []byte) []fzTriple {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return nil
	}
	str := func(m map[string]json.RawMessage, name string) string {
		var s string
		_ = json.Unmarshal(m[name], &s)
		return s
	}
	payload := str(top, "payload")
	var out []fzTriple
	if raw, ok := top["signatures"]; ok {
		var sigs []map[string]json.RawMessage
		_ = json.Unmarshal(raw, &sigs)
		for _, sig := range sigs {
			out = append(out, fzTriple{str(sig, "protected"), payload, str(sig, "signature")})
		}
		return out
	}
	return []fzTriple{{str(top, "protected"), payload, str(top, "signature")}}
}

// fzVectorTokens returns the JWS of the test vectors: compact tokens and
// JSON serializations, as found in the files.
func fzVectorTokens(f *testing.F) [][]byte {
	var out [][]byte
	add := func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, []byte(v))
		case map[string]any:
			if b, err := json.Marshal(v); err == nil {
				out = append(out, b)
			}
		}
	}
	for _, name := range []string{"json_web_signature_test", "json_web_crypto_test", "json_web_key_test"} {
		data := vectortest.ReadFile(f, "wycheproof", name+".json")
		var file struct {
			TestGroups []struct {
				Tests []struct {
					JWS any `json:"jws"`
				} `json:"tests"`
			} `json:"testGroups"`
		}
		if err := json.Unmarshal(data, &file); err != nil {
			f.Fatal(err)
		}
		for _, g := range file.TestGroups {
			for _, tc := range g.Tests {
				add(tc.JWS)
			}
		}
	}
	names := vectortest.Glob(f, "cookbook/jws/*.json", "cookbook/*/jws.json", "cookbook/rfc7797/*.json")
	for _, name := range append(names, vectortest.Path("joserfc", "jws_rfc7797.json")) {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		var v struct {
			Output map[string]any `json:"output"`
		}
		if json.Unmarshal(data, &v) == nil {
			for _, o := range v.Output {
				add(o)
			}
		}
	}
	out = append(out, vectortest.ReadAllTrimmed(f, "latchset/non-json/*.jwsc", "latchset/*.jwsf", "latchset/*.jwsg")...)
	if len(out) < 400 {
		f.Fatalf("only %d vector tokens found", len(out))
	}
	return out
}

// fzCheckError checks that a refusal wraps one of the jose sentinel errors.
func fzCheckError(t *testing.T, err error) {
	t.Helper()
	vectortest.CheckErrorText(t, err)
	for _, target := range []error{
		jose.ErrMalformed, jose.ErrUnsupportedAlgorithm, jose.ErrAlgorithmNotAllowed,
		jose.ErrLimitExceeded, jose.ErrKeyNotFound, jose.ErrVerificationFailed,
		jose.ErrInvalidKey, jose.ErrUnsupportedCritical,
	} {
		if errors.Is(err, target) {
			return
		}
	}
	t.Fatalf("error %q wraps no jose sentinel error", err)
}

// fzLong is a name or value longer than any error may repeat; the headers
// of fzLongHeaders put it where errors name a member or a value.
var (
	fzLong        = strings.Repeat("\u00e9", 1000)
	fzLongHeaders = []string{
		`{"alg":"` + fzLong + `"}`, `{"alg":"HS256","` + fzLong + `":1,"` + fzLong + `":2}`,
		`{"alg":"HS256","crit":["` + fzLong + `"],"` + fzLong + `":1}`, `{"alg":"HS256","kid":"` + fzLong + `"}`,
	}
)

func FuzzVerifyCompact(f *testing.F) {
	seeds := fzMakeSeeds(f)
	v := fzVerifier(f)
	for tok := range seeds.compact {
		f.Add([]byte(tok))
	}
	for _, tok := range fzVectorTokens(f) {
		if !bytes.HasPrefix(tok, []byte("{")) {
			f.Add(tok)
		}
	}
	f.Add([]byte(".."))
	f.Add([]byte("eyJhbGciOiJub25lIn0.Zm9v."))
	for _, h := range fzLongHeaders {
		f.Add([]byte(jose.Base64URLEncode([]byte(h)) + ".Zm9v.AAAA"))
	}
	f.Fuzz(func(t *testing.T, token []byte) {
		msg, err := v.VerifyCompact(token)
		if err != nil {
			fzCheckError(t, err)
			return
		}
		want, ok := seeds.compact[string(token)]
		if !ok {
			t.Fatalf("a token not signed by the test verified: %q (payload %q)", token, msg.Payload)
		}
		if !bytes.Equal(msg.Payload, want) {
			t.Fatalf("payload %q, signed %q", msg.Payload, want)
		}
		if msg.Header == nil || !slices.Contains(fzAlgs, jwa.SignatureAlgorithm(msg.Header.Algorithm)) {
			t.Fatalf("verified message with header %+v", msg.Header)
		}
	})
}

func FuzzVerifyJSON(f *testing.F) {
	seeds := fzMakeSeeds(f)
	v := fzVerifier(f)
	for _, tok := range seeds.json {
		f.Add(tok)
	}
	for _, tok := range fzVectorTokens(f) {
		if bytes.HasPrefix(tok, []byte("{")) {
			f.Add(tok)
		}
	}
	f.Add([]byte(`{"payload":"","signatures":[]}`))
	for _, h := range fzLongHeaders {
		f.Add([]byte(`{"payload":"Zm9v","protected":"` + jose.Base64URLEncode([]byte(h)) + `","signature":"AAAA"}`))
		f.Add([]byte(`{"payload":"Zm9v","header":` + h + `,"signature":"AAAA"}`))
	}
	f.Add([]byte(`{"payload":"","` + fzLong + `":1,"` + fzLong + `":2}`))
	f.Add([]byte(`{"payload":"","protected":"","signature":"","signatures":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		triples := fzTriples(data)
		msg, err := v.VerifyJSON(data)
		if err != nil {
			fzCheckError(t, err)
		} else {
			if len(triples) != 1 || !seeds.triples[triples[0]] {
				t.Fatalf("a JWS not signed by the test verified: %s (read as %+v)", data, triples)
			}
			if !seeds.payloads[string(msg.Payload)] {
				t.Fatalf("verified payload %q was never signed", msg.Payload)
			}
		}
		results, payload, err := v.VerifyEach(data)
		if err != nil {
			fzCheckError(t, err)
			return
		}
		verified := 0
		for _, r := range results {
			if r.Err != nil {
				fzCheckError(t, r.Err)
				continue
			}
			verified++
			if r.Index < 0 || r.Index >= len(triples) || !seeds.triples[triples[r.Index]] {
				t.Fatalf("signature %d of a JWS not signed by the test verified: %s", r.Index, data)
			}
		}
		if verified > 0 && !seeds.payloads[string(payload)] {
			t.Fatalf("verified payload %q was never signed", payload)
		}
	})
}
