package jws_test

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// rtKey is a signing key and its verification key for one algorithm.
type rtKey struct {
	alg  jwa.SignatureAlgorithm
	priv any
	pub  any
}

var (
	rtOnce sync.Once
	rtKeys []rtKey
)

func rtEC(t testing.TB, c elliptic.Curve) *ecdsa.PrivateKey {
	k, err := ecdsa.GenerateKey(c, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// rtAllKeys returns a key pair for every signature algorithm of jwa.
func rtAllKeys(t testing.TB) []rtKey {
	rtOnce.Do(func() {
		hk := func(n int) []byte { return bytes.Repeat([]byte{0x5a}, n) }
		r := vectortest.RSAKey(t, 2048)
		p256, p384, p521 := rtEC(t, elliptic.P256()), rtEC(t, elliptic.P384()), rtEC(t, elliptic.P521())
		ed := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
		k1, err := jwa.NewSecp256k1PrivateKey(bytes.Repeat([]byte{7}, 32))
		if err != nil {
			t.Fatal(err)
		}
		rtKeys = []rtKey{
			{jwa.HS256, hk(32), hk(32)}, {jwa.HS384, hk(48), hk(48)}, {jwa.HS512, hk(64), hk(64)},
			{jwa.RS256, r, &r.PublicKey}, {jwa.RS384, r, &r.PublicKey}, {jwa.RS512, r, &r.PublicKey},
			{jwa.PS256, r, &r.PublicKey}, {jwa.PS384, r, &r.PublicKey}, {jwa.PS512, r, &r.PublicKey},
			{jwa.ES256, p256, &p256.PublicKey}, {jwa.ES384, p384, &p384.PublicKey}, {jwa.ES512, p521, &p521.PublicKey},
			{jwa.EdDSA, ed, ed.Public()}, {jwa.Ed25519, ed, ed.Public()},
			{jwa.ES256K, k1, k1.PublicKey()},
		}
		rtKeys = append(rtKeys, rtMLDSAKeys(t)...) // none before Go 1.27
	})
	if len(rtKeys) != len(jwa.SignatureAlgorithms()) {
		t.Fatalf("%d keys for %d algorithms", len(rtKeys), len(jwa.SignatureAlgorithms()))
	}
	return rtKeys
}

func rtVerifier(t testing.TB, opts jws.VerifyOptions) *jws.Verifier {
	t.Helper()
	v, err := jws.NewVerifier(opts)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

var rtPayload = []byte("It\u2019s a dangerous business, Frodo, going out your door")

// TestRoundTrip signs with every algorithm in every serialization and
// verifies the result; then every tampered variant fails.
func TestRoundTrip(t *testing.T) {
	for _, k := range rtAllKeys(t) {
		t.Run(string(k.alg), func(t *testing.T) {
			s, err := jws.NewSigner(k.alg, k.priv, &jws.SignerOptions{KeyID: "k1", Type: "JOSE", ContentType: "text/plain", Extra: map[string]any{"x-n": 7}})
			if err != nil {
				t.Fatal(err)
			}
			if s.Algorithm() != k.alg {
				t.Fatalf("Algorithm() = %s", s.Algorithm())
			}
			v := rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{k.alg}, Key: k.pub})
			check := func(name string, msg *jws.Message, err error) {
				t.Helper()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				h := msg.Header
				if !bytes.Equal(msg.Payload, rtPayload) || h.Algorithm != string(k.alg) || h.KeyID != "k1" || h.Type != "JOSE" || h.ContentType != "text/plain" || string(h.Extra["x-n"]) != "7" {
					t.Fatalf("%s: payload %q header %+v", name, msg.Payload, h)
				}
			}

			tok, err := s.Compact(rtPayload)
			if err != nil {
				t.Fatal(err)
			}
			msg, err := v.VerifyCompact(tok)
			check("compact", msg, err)
			rtTamperCompact(t, v, tok)

			det, err := s.CompactDetached(rtPayload)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(det, []byte("..")) {
				t.Fatalf("detached token %s", det)
			}
			msg, err = v.VerifyDetached(det, rtPayload)
			check("detached", msg, err)
			if _, err := v.VerifyDetached(det, []byte("another payload")); !errors.Is(err, jose.ErrVerificationFailed) {
				t.Fatalf("detached, wrong payload: %v", err)
			}

			flat, err := s.Flattened(rtPayload, nil)
			if err != nil {
				t.Fatal(err)
			}
			msg, err = v.VerifyJSON(flat)
			check("flattened", msg, err)
			rtTamperJSON(t, v, flat)

			gen, err := jws.SignGeneral(rtPayload, s)
			if err != nil {
				t.Fatal(err)
			}
			msg, err = v.VerifyJSON(gen)
			check("general", msg, err)
			rtTamperJSON(t, v, gen)

			// Unencoded payload (RFC 7797), compact and JSON.
			su, err := jws.NewSigner(k.alg, k.priv, &jws.SignerOptions{KeyID: "k1", Type: "JOSE", ContentType: "text/plain", Extra: map[string]any{"x-n": 7}, Unencoded: true})
			if err != nil {
				t.Fatal(err)
			}
			tok, err = su.Compact(rtPayload)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(tok, rtPayload) {
				t.Fatalf("unencoded compact does not hold the payload: %s", tok)
			}
			msg, err = v.VerifyCompact(tok)
			check("unencoded compact", msg, err)
			flat, err = su.Flattened(rtPayload, nil)
			if err != nil {
				t.Fatal(err)
			}
			msg, err = v.VerifyJSON(flat)
			check("unencoded flattened", msg, err)
			rtTamperJSON(t, v, flat)
		})
	}
}

// rtTamperCompact changes each segment of tok in turn (one byte flipped
// within the base64url alphabet) and expects every variant to fail.
func rtTamperCompact(t *testing.T, v *jws.Verifier, tok []byte) {
	t.Helper()
	d1 := bytes.IndexByte(tok, '.')
	d2 := d1 + 1 + bytes.IndexByte(tok[d1+1:], '.')
	for _, pos := range []int{0, d1 / 2, d1 - 1, d1 + 1, (d1 + d2) / 2, d2 - 1, d2 + 1, (d2 + len(tok)) / 2, len(tok) - 2} {
		bad := bytes.Clone(tok)
		bad[pos] = rtFlip(bad[pos])
		if _, err := v.VerifyCompact(bad); err == nil {
			t.Fatalf("tampered byte %d accepted: %s", pos, bad)
		}
	}
	for _, bad := range [][]byte{tok[:d2], tok[:len(tok)-1], append(bytes.Clone(tok), 'A'), append(bytes.Clone(tok), '.')} {
		if _, err := v.VerifyCompact(bad); err == nil {
			t.Fatalf("truncated or extended token accepted: %s", bad)
		}
	}
}

func rtFlip(c byte) byte {
	switch {
	case c == 'A':
		return 'B'
	case c == '.':
		return '.'
	default:
		return 'A'
	}
}

// rtTamperJSON changes each member of a JSON serialization in turn.
func rtTamperJSON(t *testing.T, v *jws.Verifier, tok []byte) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(tok, &m); err != nil {
		t.Fatal(err)
	}
	sigObj := m
	if sigs, ok := m["signatures"].([]any); ok {
		sigObj = sigs[0].(map[string]any)
	}
	tamper := func(obj map[string]any, name string) {
		s := obj[name].(string)
		old := s
		if s == "" {
			s = "AAAA"
		} else {
			s = string(rtFlip(s[0])) + s[1:]
		}
		obj[name] = s
		bad, _ := json.Marshal(m)
		if _, err := v.VerifyJSON(bad); err == nil {
			t.Fatalf("tampered %s accepted: %s", name, bad)
		}
		obj[name] = old
	}
	tamper(m, "payload")
	tamper(sigObj, "protected")
	tamper(sigObj, "signature")
}

// TestGeneralSeveralSignatures signs one payload with three keys, each
// signature with its own unprotected header, and checks VerifyEach.
func TestGeneralSeveralSignatures(t *testing.T) {
	keys := rtAllKeys(t)
	hs, _ := jws.NewSigner(jwa.HS256, keys[0].priv, &jws.SignerOptions{KeyID: "mac"})
	es, _ := jws.NewSigner(jwa.ES256, keys[9].priv, &jws.SignerOptions{Header: &jose.Header{KeyID: "ec"}})
	ed, _ := jws.NewSigner(jwa.EdDSA, keys[12].priv, nil)
	ed, err := ed.WithHeader(&jose.Header{KeyID: "ed", Extra: map[string]json.RawMessage{"note": json.RawMessage(`"hi"`)}})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jws.SignGeneral(rtPayload, hs, es, ed)
	if err != nil {
		t.Fatal(err)
	}
	set := &jose.Set{Keys: []*jose.JWK{
		{Key: &keys[9].priv.(*ecdsa.PrivateKey).PublicKey, KeyID: "ec"},
		{Key: keys[12].pub, KeyID: "ed"},
	}}
	v := rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256, jwa.ES256, jwa.EdDSA}, Keys: set})
	res, pl, err := v.VerifyEach(tok)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pl, rtPayload) || len(res) != 3 {
		t.Fatalf("payload %q, %d results", pl, len(res))
	}
	if !errors.Is(res[0].Err, jose.ErrKeyNotFound) || res[1].Err != nil || res[2].Err != nil {
		t.Fatalf("results %+v", res)
	}
	if res[1].Header.KeyID != "ec" || res[2].Header.KeyID != "ed" || string(res[2].Header.Extra["note"]) != `"hi"` {
		t.Fatalf("headers %+v %+v", res[1].Header, res[2].Header)
	}
	if _, err := v.VerifyJSON(tok); !errors.Is(err, jws.ErrMultipleSignatures) {
		t.Fatalf("VerifyJSON: %v", err)
	}
	// No signature verifies: the error wraps the first one's, payload nil.
	v2 := rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.RS256}, Key: keys[3].pub})
	res, pl, err = v2.VerifyEach(tok)
	if !errors.Is(err, jose.ErrAlgorithmNotAllowed) || pl != nil || len(res) != 3 {
		t.Fatalf("VerifyEach with no usable key: %v %q %d", err, pl, len(res))
	}
	// Every header refused: the reasons are reported, not a payload error
	// (this payload is not base64url).
	bad := []byte(`{"payload":"$.02","signatures":[{"protected":"eyJhbGciOiJIUzUxMiJ9","signature":"AA"}]}`)
	res, _, err = v2.VerifyEach(bad)
	if !errors.Is(err, jose.ErrAlgorithmNotAllowed) || len(res) != 1 || !errors.Is(res[0].Err, jose.ErrAlgorithmNotAllowed) {
		t.Fatalf("VerifyEach, every alg refused: %v %+v", err, res)
	}
	if _, err := v2.VerifyJSON(bad); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
		t.Fatalf("VerifyJSON, alg refused: %v", err)
	}
	// Signers that disagree on b64 cannot share a payload.
	hu, _ := jws.NewSigner(jwa.HS256, keys[0].priv, &jws.SignerOptions{Unencoded: true})
	if _, err := jws.SignGeneral(rtPayload, hs, hu); err == nil {
		t.Fatal("SignGeneral with mixed b64 succeeded")
	}
	if _, err := jws.SignGeneral(rtPayload); err == nil {
		t.Fatal("SignGeneral without signers succeeded")
	}
}

// rtHS returns a HS256 signer and verifier on a fixed key.
func rtHS(t *testing.T, opts *jws.SignerOptions, vopts jws.VerifyOptions) (*jws.Signer, *jws.Verifier) {
	t.Helper()
	key := bytes.Repeat([]byte{0x5a}, 32)
	s, err := jws.NewSigner(jwa.HS256, key, opts)
	if err != nil {
		t.Fatal(err)
	}
	if vopts.Algorithms == nil {
		vopts.Algorithms = []jwa.SignatureAlgorithm{jwa.HS256}
	}
	if vopts.Key == nil && vopts.Keys == nil && vopts.KeyFunc == nil {
		vopts.Key = key
	}
	return s, rtVerifier(t, vopts)
}

// rtForge builds a compact HS256 token over an arbitrary protected header,
// correctly MACed, so that only the header checks can refuse it.
func rtForge(t *testing.T, header string, payload []byte) []byte {
	t.Helper()
	key := bytes.Repeat([]byte{0x5a}, 32)
	in := jose.Base64URLEncode([]byte(header)) + "." + jose.Base64URLEncode(payload)
	sig := rtHMAC(key, []byte(in))
	return []byte(in + "." + jose.Base64URLEncode(sig))
}

// TestRefusals has one case per refusal rule; each token is otherwise
// well-signed, so the error comes from the rule under test.
func TestRefusals(t *testing.T) {
	_, v := rtHS(t, nil, jws.VerifyOptions{})
	_, vCrit := rtHS(t, nil, jws.VerifyOptions{Critical: []string{"exp-x"}})
	_, vSmall := rtHS(t, nil, jws.VerifyOptions{Limits: jose.Limits{MaxTokenSize: 100}})
	_, vHdr := rtHS(t, nil, jws.VerifyOptions{Limits: jose.Limits{MaxHeaderSize: 40}})
	pl := []byte("payload")
	big := `{"alg":"HS256","pad":"` + strings.Repeat("x", 60) + `"}`
	tests := []struct {
		name string
		v    *jws.Verifier
		tok  []byte
		want error
	}{
		{"valid control", v, rtForge(t, `{"alg":"HS256"}`, pl), nil},
		{"alg none", v, []byte("eyJhbGciOiJub25lIn0.cGF5bG9hZA."), jose.ErrAlgorithmNotAllowed},
		{"alg None", v, rtForge(t, `{"alg":"None"}`, pl), jose.ErrAlgorithmNotAllowed},
		{"alg NONE", v, rtForge(t, `{"alg":"NONE"}`, pl), jose.ErrAlgorithmNotAllowed},
		{"alg not allowed", v, rtForge(t, `{"alg":"HS512"}`, pl), jose.ErrAlgorithmNotAllowed},
		{"alg wrong case", v, rtForge(t, `{"alg":"hs256"}`, pl), jose.ErrAlgorithmNotAllowed},
		{"alg missing", v, rtForge(t, `{"kid":"a"}`, pl), jose.ErrMalformed},
		{"alg not a string", v, rtForge(t, `{"alg":1}`, pl), jose.ErrMalformed},
		{"duplicate member", v, rtForge(t, `{"alg":"HS256","alg":"HS256"}`, pl), jose.ErrMalformed},
		{"header not an object", v, rtForge(t, `["HS256"]`, pl), jose.ErrMalformed},
		{"header not JSON", v, rtForge(t, `{alg:HS256}`, pl), jose.ErrMalformed},
		{"crit empty", v, rtForge(t, `{"alg":"HS256","crit":[]}`, pl), jose.ErrMalformed},
		{"crit registered name", v, rtForge(t, `{"alg":"HS256","crit":["alg"]}`, pl), jose.ErrMalformed},
		{"crit not understood", v, rtForge(t, `{"alg":"HS256","crit":["exp-x"],"exp-x":1}`, pl), jose.ErrUnsupportedCritical},
		{"crit understood", vCrit, rtForge(t, `{"alg":"HS256","crit":["exp-x"],"exp-x":1}`, pl), nil},
		{"crit member absent", vCrit, rtForge(t, `{"alg":"HS256","crit":["exp-x"]}`, pl), jose.ErrMalformed},
		{"crit twice", vCrit, rtForge(t, `{"alg":"HS256","crit":["exp-x","exp-x"],"exp-x":1}`, pl), jose.ErrMalformed},
		{"crit not strings", v, rtForge(t, `{"alg":"HS256","crit":[1]}`, pl), jose.ErrMalformed},
		{"b64 without crit", v, rtForge(t, `{"alg":"HS256","b64":false}`, []byte("payload")), jose.ErrMalformed},
		{"b64 not boolean", v, rtForge(t, `{"alg":"HS256","b64":"false","crit":["b64"]}`, pl), jose.ErrMalformed},
		{"one segment", v, []byte("eyJhbGciOiJIUzI1NiJ9"), jose.ErrMalformed},
		{"two segments", v, []byte("eyJhbGciOiJIUzI1NiJ9.cGF5bG9hZA"), jose.ErrMalformed},
		{"four segments", v, append(rtForge(t, `{"alg":"HS256"}`, pl), ".x"...), jose.ErrMalformed},
		{"million dots", v, bytes.Repeat([]byte{'.'}, 1_000_000), jose.ErrMalformed},
		{"empty header", v, []byte(".cGF5bG9hZA.AAAA"), jose.ErrMalformed},
		{"padded base64", v, []byte("eyJhbGciOiJIUzI1NiJ9.cGF5bG9hZA==.AAAA"), jose.ErrMalformed},
		{"bad signature base64", v, []byte("eyJhbGciOiJIUzI1NiJ9.cGF5bG9hZA.A+AA"), jose.ErrMalformed},
		{"bad signature", v, []byte("eyJhbGciOiJIUzI1NiJ9.cGF5bG9hZA.AAAA"), jose.ErrVerificationFailed},
		{"token too large", vSmall, rtForge(t, `{"alg":"HS256"}`, bytes.Repeat([]byte("p"), 100)), jose.ErrLimitExceeded},
		{"header too large", vHdr, rtForge(t, big, nil), jose.ErrLimitExceeded},
		{"header at the limit", vHdr, rtForge(t, `{"alg":"HS256","pad":"`+strings.Repeat("x", 16)+`"}`, nil), nil},
		{"jwk in header ignored", v, rtForge(t, `{"alg":"HS256","jku":"https://attacker.example/keys"}`, pl), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.v.VerifyCompact(tc.tok)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "jws: ") {
				t.Fatalf("error %q lacks the package prefix", err)
			}
		})
	}
}

// TestB64Refusals covers the RFC 7797 rules on the JSON serialization:
// b64 and crit must be protected, signatures must agree on b64.
func TestB64Refusals(t *testing.T) {
	s, v := rtHS(t, &jws.SignerOptions{Unencoded: true}, jws.VerifyOptions{})
	key := bytes.Repeat([]byte{0x5a}, 32)
	flat, err := s.Flattened([]byte("a.b"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if msg, err := v.VerifyJSON(flat); err != nil || string(msg.Payload) != "a.b" {
		t.Fatalf("unencoded JSON with '.': %v", err)
	}
	if _, err := s.Compact([]byte("a.b")); err == nil {
		t.Fatal("Compact of an unencoded payload with '.' succeeded")
	}
	if _, err := s.Flattened([]byte{0xff}, nil); err == nil {
		t.Fatal("Flattened of a non-UTF-8 unencoded payload succeeded")
	}
	mk := func(prot, hdr string) []byte {
		pb := jose.Base64URLEncode([]byte(prot))
		sig := jose.Base64URLEncode(rtHMAC(key, []byte(pb+".pl")))
		j := `{"payload":"pl","protected":"` + pb + `",`
		if hdr != "" {
			j += `"header":` + hdr + `,`
		}
		return []byte(j + `"signature":"` + sig + `"}`)
	}
	if _, err := v.VerifyJSON(mk(`{"alg":"HS256","b64":false,"crit":["b64"]}`, "")); err != nil {
		t.Fatalf("control: %v", err)
	}
	for name, tok := range map[string][]byte{
		"b64 unprotected":  mk(`{"alg":"HS256","crit":["b64"]}`, `{"b64":false}`),
		"crit unprotected": mk(`{"alg":"HS256","b64":false}`, `{"crit":["b64"]}`),
		"alg twice":        mk(`{"alg":"HS256","b64":false,"crit":["b64"]}`, `{"alg":"HS256"}`),
	} {
		if _, err := v.VerifyJSON(tok); !errors.Is(err, jose.ErrMalformed) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Two signatures disagreeing on b64.
	p1 := jose.Base64URLEncode([]byte(`{"alg":"HS256","b64":false,"crit":["b64"]}`))
	p2 := jose.Base64URLEncode([]byte(`{"alg":"HS256"}`))
	mixed := `{"payload":"pl","signatures":[{"protected":"` + p1 + `","signature":"AA"},{"protected":"` + p2 + `","signature":"AA"}]}`
	if _, _, err := v.VerifyEach([]byte(mixed)); !errors.Is(err, jose.ErrMalformed) {
		t.Fatalf("mixed b64: %v", err)
	}
}

// TestJSONRefusals covers the JSON serialization's structure and limits.
func TestJSONRefusals(t *testing.T) {
	s, v := rtHS(t, nil, jws.VerifyOptions{})
	_, vLim := rtHS(t, nil, jws.VerifyOptions{Limits: jose.Limits{MaxSignatures: 2}})
	flat, _ := s.Flattened(rtPayload, nil)
	gen3, _ := jws.SignGeneral(rtPayload, s, s, s)
	gen2, _ := jws.SignGeneral(rtPayload, s, s)
	if res, _, err := vLim.VerifyEach(gen2); err != nil || len(res) != 2 {
		t.Fatalf("two signatures within the limit: %v", err)
	}
	var m map[string]any
	_ = json.Unmarshal(flat, &m)
	edit := func(f func(map[string]any)) []byte {
		c := map[string]any{}
		for k, v := range m {
			c[k] = v
		}
		f(c)
		b, _ := json.Marshal(c)
		return b
	}
	tests := []struct {
		name string
		v    *jws.Verifier
		tok  []byte
		want error
	}{
		{"too many signatures", vLim, gen3, jose.ErrLimitExceeded},
		{"duplicate member", v, []byte(`{"payload":"","payload":"","protected":"eyJhbGciOiJIUzI1NiJ9","signature":""}`), jose.ErrMalformed},
		{"not JSON", v, []byte(`{"payload"`), jose.ErrMalformed},
		{"no signature", v, edit(func(c map[string]any) { delete(c, "signature") }), jose.ErrMalformed},
		{"no header at all", v, edit(func(c map[string]any) { delete(c, "protected") }), jose.ErrMalformed},
		{"no payload", v, edit(func(c map[string]any) { delete(c, "payload") }), jose.ErrMalformed},
		{"payload not a string", v, edit(func(c map[string]any) { c["payload"] = 1 }), jose.ErrMalformed},
		{"header not an object", v, edit(func(c map[string]any) { c["header"] = "x" }), jose.ErrMalformed},
		{"mixed general and flattened", v, edit(func(c map[string]any) { c["signatures"] = []any{} }), jose.ErrMalformed},
		{"empty signatures", v, []byte(`{"payload":"","signatures":[]}`), jose.ErrMalformed},
		{"signature not an object", v, []byte(`{"payload":"","signatures":[1]}`), jose.ErrMalformed},
		{"no serialization members", v, []byte(`{"payload":""}`), jose.ErrMalformed},
		{"unknown members ignored", v, edit(func(c map[string]any) { c["x-unknown"] = true }), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.v.VerifyJSON(tc.tok)
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := v.VerifyDetached(flat, rtPayload); !errors.Is(err, jose.ErrMalformed) {
		t.Fatalf("VerifyDetached of a JSON token with its payload: %v", err)
	}
	tok, _ := s.Compact(rtPayload)
	if _, err := v.VerifyDetached(tok, rtPayload); !errors.Is(err, jose.ErrMalformed) {
		t.Fatalf("VerifyDetached of a compact token with its payload: %v", err)
	}
	_, vSmall := rtHS(t, nil, jws.VerifyOptions{Limits: jose.Limits{MaxTokenSize: 10}})
	if _, err := vSmall.VerifyDetached([]byte("a..b"), rtPayload); !errors.Is(err, jose.ErrLimitExceeded) {
		t.Fatalf("detached payload over the limit: %v", err)
	}
	if _, err := vSmall.VerifyJSON(flat); !errors.Is(err, jose.ErrLimitExceeded) {
		t.Fatalf("JSON over the limit: %v", err)
	}
	// The unprotected header is bounded like the protected one.
	_, vHdr := rtHS(t, nil, jws.VerifyOptions{Limits: jose.Limits{MaxHeaderSize: 64}})
	bigHdr := edit(func(c map[string]any) { c["header"] = map[string]any{"pad": strings.Repeat("x", 64)} })
	if _, err := vHdr.VerifyJSON(bigHdr); !errors.Is(err, jose.ErrLimitExceeded) {
		t.Fatalf("unprotected header over the limit: %v", err)
	}
	if _, err := v.VerifyJSON(bigHdr); err != nil {
		t.Fatalf("unprotected header within the default limit: %v", err)
	}
	_, vMembers := rtHS(t, nil, jws.VerifyOptions{Limits: jose.Limits{MaxHeaderMembers: 2}})
	many := edit(func(c map[string]any) { c["header"] = map[string]any{"a": 1, "b": 2, "c": 3} })
	if _, err := vMembers.VerifyJSON(many); err == nil {
		t.Fatal("unprotected header with too many members accepted")
	}
}

// TestKeyBinding checks that the key decides which algorithms it verifies:
// Go key type and curve, and a JWK's alg, use and key_ops.
func TestKeyBinding(t *testing.T) {
	keys := rtAllKeys(t)
	hs, rs, es, es384 := keys[0], keys[3], keys[9], keys[10]
	all := jwa.SignatureAlgorithms()
	sign := func(k rtKey) []byte {
		s, err := jws.NewSigner(k.alg, k.priv, nil)
		if err != nil {
			t.Fatal(err)
		}
		tok, _ := s.Compact(rtPayload)
		return tok
	}
	// An RSA public key offered as an HMAC secret (the classic confusion):
	// refused before any MAC is computed.
	rsaPEM := x509.MarshalPKCS1PublicKey(rs.pub.(*rsa.PublicKey))
	sHS, err := jws.NewSigner(jwa.HS256, rsaPEM, nil)
	if err != nil {
		t.Fatal(err)
	}
	forged, _ := sHS.Compact(rtPayload)
	v := rtVerifier(t, jws.VerifyOptions{Algorithms: all, Key: rs.pub})
	if _, err := v.VerifyCompact(forged); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
		t.Fatalf("HS256 with an RSA key: %v", err)
	}
	// ES384 token, P-256 key.
	v = rtVerifier(t, jws.VerifyOptions{Algorithms: all, Key: es.pub})
	if _, err := v.VerifyCompact(sign(es384)); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
		t.Fatalf("ES384 with a P-256 key: %v", err)
	}
	if _, err := v.VerifyCompact(sign(es)); err != nil {
		t.Fatalf("ES256 with its key: %v", err)
	}
	// A private key verifies as its public part.
	v = rtVerifier(t, jws.VerifyOptions{Algorithms: all, Key: es.priv})
	if _, err := v.VerifyCompact(sign(es)); err != nil {
		t.Fatalf("ES256 with the private key: %v", err)
	}
	// JWK alg, use and key_ops. As the one Key, a JWK that permits none
	// of the listed algorithms is refused by NewVerifier; one that
	// permits another listed algorithm (alg HS512) is accepted, and the
	// HS256 token is refused.
	for name, c := range map[string]struct {
		jwk    *jose.JWK
		single error // from NewVerifier with the JWK as Key and every alg listed
	}{
		"alg":     {&jose.JWK{Key: hs.pub, Algorithm: "HS512"}, nil},
		"use":     {&jose.JWK{Key: hs.pub, Use: "enc"}, jose.ErrInvalidKey},
		"key_ops": {&jose.JWK{Key: hs.pub, KeyOps: []jose.KeyOp{jose.OpSign}}, jose.ErrInvalidKey},
	} {
		jwk := c.jwk
		if c.single == nil {
			v := rtVerifier(t, jws.VerifyOptions{Algorithms: all, Key: jwk})
			if _, err := v.VerifyCompact(sign(hs)); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
				t.Errorf("JWK %s: %v", name, err)
			}
		} else if _, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: all, Key: jwk}); !errors.Is(err, c.single) {
			t.Errorf("JWK %s as the one key: %v, want %v", name, err, c.single)
		}
		// With only HS256 listed, none of them is a usable Key.
		if _, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: jwk}); !errors.Is(err, jose.ErrInvalidKey) {
			t.Errorf("JWK %s as the one key for HS256: %v, want ErrInvalidKey", name, err)
		}
		// The same key in a set, found by kid and without one.
		jwk.KeyID = "k"
		v = rtVerifier(t, jws.VerifyOptions{Algorithms: all, Keys: &jose.Set{Keys: []*jose.JWK{jwk}}})
		if _, err := v.VerifyCompact(sign(hs)); !errors.Is(err, jose.ErrKeyNotFound) {
			t.Errorf("JWK %s in a set, no kid: %v", name, err)
		}
		s, _ := jws.NewSigner(jwa.HS256, hs.priv, &jws.SignerOptions{KeyID: "k"})
		tok, _ := s.Compact(rtPayload)
		if _, err := v.VerifyCompact(tok); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
			t.Errorf("JWK %s in a set, by kid: %v", name, err)
		}
	}
	// A JWK the signer may not sign with.
	if _, err := jws.NewSigner(jwa.HS256, &jose.JWK{Key: hs.priv, Algorithm: "HS384"}, nil); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
		t.Fatalf("NewSigner with a JWK for another alg: %v", err)
	}
	// A weak key passes the type check but jwa refuses it.
	v = rtVerifier(t, jws.VerifyOptions{Algorithms: all, Key: []byte("short")})
	if _, err := v.VerifyCompact(sign(hs)); !errors.Is(err, jose.ErrInvalidKey) {
		t.Fatalf("short HMAC key: %v", err)
	}
}

// TestKeySources covers the JWK Set selection rules and KeyFunc.
func TestKeySources(t *testing.T) {
	keys := rtAllKeys(t)
	es, ed := keys[9], keys[12]
	other := rtEC(t, elliptic.P256())
	sES, _ := jws.NewSigner(jwa.ES256, es.priv, &jws.SignerOptions{KeyID: "es"})
	sNoKid, _ := jws.NewSigner(jwa.ES256, es.priv, nil)
	tok, _ := sES.Compact(rtPayload)
	tokNoKid, _ := sNoKid.Compact(rtPayload)
	algs := []jwa.SignatureAlgorithm{jwa.ES256, jwa.EdDSA}

	set := &jose.Set{Keys: []*jose.JWK{
		{Key: &other.PublicKey, KeyID: "other"},
		{Key: ed.pub, KeyID: "es"}, // same kid, another type: not a candidate
		{Key: es.pub, KeyID: "es"},
	}}
	v := rtVerifier(t, jws.VerifyOptions{Algorithms: algs, Keys: set})
	for i := 0; i < 2; i++ { // the second time from the cache
		if _, err := v.VerifyCompact(tok); err != nil {
			t.Fatalf("by kid: %v", err)
		}
		if _, err := v.VerifyCompact(tokNoKid); err != nil {
			t.Fatalf("without kid: %v", err)
		}
	}
	sUnknown, _ := jws.NewSigner(jwa.ES256, es.priv, &jws.SignerOptions{KeyID: "nobody"})
	tokUnknown, _ := sUnknown.Compact(rtPayload)
	if _, err := v.VerifyCompact(tokUnknown); !errors.Is(err, jose.ErrKeyNotFound) {
		t.Fatalf("unknown kid: %v", err)
	}

	// Two keys of one kid that both fit: ambiguous.
	dup := &jose.Set{Keys: []*jose.JWK{{Key: es.pub, KeyID: "es"}, {Key: &other.PublicKey, KeyID: "es"}}}
	v = rtVerifier(t, jws.VerifyOptions{Algorithms: algs, Keys: dup})
	if _, err := v.VerifyCompact(tok); !errors.Is(err, jose.ErrKeyNotFound) {
		t.Fatalf("duplicate kid: %v", err)
	}

	// An unusable entry under the same kid: its type cannot be known.
	dup = &jose.Set{Keys: []*jose.JWK{{Key: es.pub, KeyID: "es"}, {KeyID: "es"}}}
	v = rtVerifier(t, jws.VerifyOptions{Algorithms: algs, Keys: dup})
	if _, err := v.VerifyCompact(tok); !errors.Is(err, jose.ErrKeyNotFound) {
		t.Fatalf("duplicate kid with an unusable entry: %v", err)
	}

	// Without kid, only MaxKeyCandidates keys are tried.
	many := &jose.Set{}
	for range jws.MaxKeyCandidates {
		many.Keys = append(many.Keys, &jose.JWK{Key: &other.PublicKey})
	}
	many.Keys = append(many.Keys, &jose.JWK{Key: es.pub})
	v = rtVerifier(t, jws.VerifyOptions{Algorithms: algs, Keys: many})
	if _, err := v.VerifyCompact(tokNoKid); !errors.Is(err, jose.ErrVerificationFailed) {
		t.Fatalf("key beyond MaxKeyCandidates: %v", err)
	}
	many.Keys = many.Keys[1:]
	v = rtVerifier(t, jws.VerifyOptions{Algorithms: algs, Keys: many})
	if _, err := v.VerifyCompact(tokNoKid); err != nil {
		t.Fatalf("key within MaxKeyCandidates: %v", err)
	}

	// A set mixing secret and public keys is refused.
	mixed := &jose.Set{Keys: []*jose.JWK{{Key: es.pub}, {Key: keys[0].priv}}}
	if _, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: algs, Keys: mixed}); err == nil {
		t.Fatal("mixed set accepted")
	}

	// KeyFunc sees the checked header; its errors are wrapped.
	var seen string
	v = rtVerifier(t, jws.VerifyOptions{Algorithms: algs, KeyFunc: func(h *jose.Header) (any, error) {
		seen = h.KeyID
		if h.KeyID == "es" {
			return &jose.JWK{Key: es.pub}, nil
		}
		if h.KeyID == "" {
			return nil, nil
		}
		return nil, fmt.Errorf("no key %q: %w", h.KeyID, jose.ErrKeyNotFound)
	}})
	if _, err := v.VerifyCompact(tok); err != nil || seen != "es" {
		t.Fatalf("KeyFunc: %v (saw %q)", err, seen)
	}
	if _, err := v.VerifyCompact(tokUnknown); !errors.Is(err, jose.ErrKeyNotFound) || !strings.HasPrefix(err.Error(), "jws: KeyFunc: no key ") {
		t.Fatalf("KeyFunc error: %v", err) // worded as jwe words it
	}
	if _, err := v.VerifyCompact(tokNoKid); !errors.Is(err, jose.ErrKeyNotFound) || err.Error() != "jws: KeyFunc returned no key: "+jose.ErrKeyNotFound.Error() {
		t.Fatalf("KeyFunc nil key: %v", err)
	}
	// A *jose.JWK from KeyFunc is prepared once and reused.
	ej := &jose.JWK{Key: es.pub, Algorithm: "ES256"}
	v = rtVerifier(t, jws.VerifyOptions{Algorithms: algs, KeyFunc: func(*jose.Header) (any, error) { return ej, nil }})
	for range 2 {
		if _, err := v.VerifyCompact(tok); err != nil {
			t.Fatalf("KeyFunc JWK: %v", err)
		}
	}
	sEd, _ := jws.NewSigner(jwa.EdDSA, ed.priv, nil)
	tokEd, _ := sEd.Compact(rtPayload)
	if _, err := v.VerifyCompact(tokEd); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
		t.Fatalf("KeyFunc JWK for another alg: %v", err)
	}

	// KeyFunc is never called for a token refused by the header checks.
	seen = "untouched"
	if _, err := v.VerifyCompact(rtForge(t, `{"alg":"HS256","kid":"es"}`, rtPayload)); !errors.Is(err, jose.ErrAlgorithmNotAllowed) || seen != "untouched" {
		t.Fatalf("KeyFunc called for a refused alg: %v %q", err, seen)
	}
}

// TestHeaderKeysIgnored signs with an attacker's key and puts that key in
// the header ("jwk", RFC 7515 §4.1.3) and a URL to it ("jku", "x5u"):
// none is used, the token fails against the verifier's own key.
func TestHeaderKeysIgnored(t *testing.T) {
	keys := rtAllKeys(t)
	es := keys[9]
	attacker := rtEC(t, elliptic.P256())
	ajwk, err := jose.NewJWK(&attacker.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	s, err := jws.NewSigner(jwa.ES256, attacker, &jws.SignerOptions{Extra: map[string]any{
		"jwk": ajwk, "jku": "https://attacker.example/jwks", "x5u": "https://attacker.example/cert",
	}})
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := s.Compact(rtPayload)
	v := rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, Key: es.pub})
	if _, err := v.VerifyCompact(tok); !errors.Is(err, jose.ErrVerificationFailed) {
		t.Fatalf("token signed by the header's key: %v", err)
	}
	set := &jose.Set{Keys: []*jose.JWK{{Key: es.pub}}}
	v = rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, Keys: set})
	if _, err := v.VerifyCompact(tok); !errors.Is(err, jose.ErrVerificationFailed) {
		t.Fatalf("token signed by the header's key, set: %v", err)
	}
}

// TestNewVerifierOptions covers the configuration errors.
func TestNewVerifierOptions(t *testing.T) {
	key := bytes.Repeat([]byte{1}, 32)
	for name, opts := range map[string]jws.VerifyOptions{
		"no algorithms":  {Key: key},
		"none":           {Algorithms: []jwa.SignatureAlgorithm{"none"}, Key: key},
		"None":           {Algorithms: []jwa.SignatureAlgorithm{jwa.HS256, "None"}, Key: key},
		"unknown alg":    {Algorithms: []jwa.SignatureAlgorithm{"HS1"}, Key: key},
		"no key":         {Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}},
		"two keys":       {Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: key, Keys: &jose.Set{}},
		"crit alg":       {Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: key, Critical: []string{"alg"}},
		"empty JWK":      {Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: &jose.JWK{}},
		"crit registerd": {Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: key, Critical: []string{"kid"}},
	} {
		if _, err := jws.NewVerifier(opts); err == nil {
			t.Errorf("%s: accepted", name)
		} else if !strings.HasPrefix(err.Error(), "jws: ") {
			t.Errorf("%s: error %q lacks the prefix", name, err)
		}
	}
	if _, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{"none"}, Key: key}); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
		t.Errorf("none: %v", err)
	}
}

// TestSignerOptions covers the header a Signer writes and its refusals.
func TestSignerOptions(t *testing.T) {
	key := bytes.Repeat([]byte{1}, 32)
	s, err := jws.NewSigner(jwa.HS256, key, &jws.SignerOptions{
		KeyID: "k\"1", Type: "JWT", Extra: map[string]any{"b": []int{1}, "a": "x", "exp-x": true},
		Critical: []string{"exp-x"}, Unencoded: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := s.CompactDetached([]byte("p"))
	hdr, _ := jose.Base64URLDecode(tok[:bytes.IndexByte(tok, '.')])
	want := `{"alg":"HS256","kid":"k\"1","typ":"JWT","b64":false,"crit":["b64","exp-x"],"a":"x","b":[1],"exp-x":true}`
	if string(hdr) != want {
		t.Fatalf("header\n got %s\nwant %s", hdr, want)
	}
	// The JWK's kid is the default.
	s, _ = jws.NewSigner(jwa.HS256, &jose.JWK{Key: key, KeyID: "from-jwk"}, nil)
	tok, _ = s.Compact(nil)
	hdr, _ = jose.Base64URLDecode(tok[:bytes.IndexByte(tok, '.')])
	if string(hdr) != `{"alg":"HS256","kid":"from-jwk"}` {
		t.Fatalf("header %s", hdr)
	}
	for name, tc := range map[string]struct {
		alg  jwa.SignatureAlgorithm
		key  any
		opts *jws.SignerOptions
	}{
		"none":                {"none", key, nil},
		"unknown alg":         {"XS256", key, nil},
		"wrong key type":      {jwa.RS256, key, nil},
		"short HMAC key":      {jwa.HS256, key[:8], nil},
		"empty JWK":           {jwa.HS256, &jose.JWK{}, nil},
		"extra alg":           {jwa.HS256, key, &jws.SignerOptions{Extra: map[string]any{"alg": "x"}}},
		"extra crit":          {jwa.HS256, key, &jws.SignerOptions{Extra: map[string]any{"crit": []string{"x"}}}},
		"extra unmarshalable": {jwa.HS256, key, &jws.SignerOptions{Extra: map[string]any{"f": func() {}}}},
		"critical registered": {jwa.HS256, key, &jws.SignerOptions{Critical: []string{"kid"}}},
		"critical b64":        {jwa.HS256, key, &jws.SignerOptions{Critical: []string{"b64"}}},
		"critical absent":     {jwa.HS256, key, &jws.SignerOptions{Critical: []string{"x"}}},
		"critical twice":      {jwa.HS256, key, &jws.SignerOptions{Extra: map[string]any{"x": 1}, Critical: []string{"x", "x"}}},
		"extra bad jwk":       {jwa.HS256, key, &jws.SignerOptions{Extra: map[string]any{"jwk": "not a key"}}},
		"header with crit":    {jwa.HS256, key, &jws.SignerOptions{Header: &jose.Header{Critical: []string{"x"}}}},
		"header repeats kid":  {jwa.HS256, key, &jws.SignerOptions{KeyID: "a", Header: &jose.Header{KeyID: "b"}}},
	} {
		if _, err := jws.NewSigner(tc.alg, tc.key, tc.opts); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	s, _ = jws.NewSigner(jwa.HS256, key, &jws.SignerOptions{KeyID: "a"})
	if _, err := s.Flattened(nil, &jose.Header{KeyID: "b"}); err == nil {
		t.Error("Flattened with kid in both headers succeeded")
	}
	if _, err := s.WithHeader(&jose.Header{B64: new(bool)}); err == nil {
		t.Error("WithHeader with b64 succeeded")
	}
}

// TestCryptoSigner signs through a crypto.Signer that is not one of the
// standard key types (a KMS or HSM, say).
func TestCryptoSigner(t *testing.T) {
	k := rtEC(t, elliptic.P256())
	s, err := jws.NewSigner(jwa.ES256, rtOpaque{k}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := s.Compact(rtPayload)
	if err != nil {
		t.Fatal(err)
	}
	v := rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, Key: &k.PublicKey})
	if _, err := v.VerifyCompact(tok); err != nil {
		t.Fatal(err)
	}
	r := vectortest.RSAKey(t, 2048)
	s, err = jws.NewSigner(jwa.PS256, rtOpaque{r}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tok, err = s.Compact(rtPayload)
	if err != nil {
		t.Fatal(err)
	}
	v = rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.PS256}, Key: &r.PublicKey})
	if _, err := v.VerifyCompact(tok); err != nil {
		t.Fatal(err)
	}
}

type rtOpaque struct{ crypto.Signer }

// TestConcurrentVerify runs one Verifier on a JWK Set from many goroutines
// (go test -race checks the cache).
func TestConcurrentVerify(t *testing.T) {
	keys := rtAllKeys(t)
	es := keys[9]
	set := &jose.Set{Keys: []*jose.JWK{{Key: es.pub, KeyID: "a"}, {Key: keys[12].pub, KeyID: "b"}}}
	v := rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256, jwa.EdDSA}, Keys: set})
	s1, _ := jws.NewSigner(jwa.ES256, es.priv, &jws.SignerOptions{KeyID: "a"})
	s2, _ := jws.NewSigner(jwa.EdDSA, keys[12].priv, &jws.SignerOptions{KeyID: "b"})
	t1, _ := s1.Compact(rtPayload)
	t2, _ := s2.Compact(rtPayload)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tok := t1
			if i%2 == 1 {
				tok = t2
			}
			for range 10 {
				if _, err := v.VerifyCompact(tok); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func rtHMAC(key, in []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(in)
	return m.Sum(nil)
}
