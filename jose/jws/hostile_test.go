package jws_test

// Hostile input for the JWS loaders. Each test builds a token an attacker
// could send (validly signed where that matters, so that only the defence
// under test can refuse it) and asserts the refusal; costs are asserted by
// allocation measurement (runtime.MemStats.TotalAlloc), never by time.

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// hzHMACKey is a fixed HMAC key long enough for every HS algorithm.
var hzHMACKey = bytes.Repeat([]byte("hostile-hmac-key"), 4)

// hzSign returns a compact JWS of payload under the protected header hdr
// (given as JSON, used byte for byte), signed with jwa directly.
func hzSign(t testing.TB, hdr string, payload string, alg jwa.SignatureAlgorithm, key any) []byte {
	t.Helper()
	s, err := jwa.NewSigner(alg, key)
	if err != nil {
		t.Fatalf("jwa.NewSigner(%s): %v", alg, err)
	}
	input := jose.Base64URLEncode([]byte(hdr)) + "." + jose.Base64URLEncode([]byte(payload))
	sig, err := s.Sign(nil, []byte(input))
	if err != nil {
		t.Fatal(err)
	}
	return []byte(input + "." + jose.Base64URLEncode(sig))
}

func hzVerifier(t testing.TB, opts jws.VerifyOptions) *jws.Verifier {
	t.Helper()
	v, err := jws.NewVerifier(opts)
	if err != nil {
		t.Fatalf("NewVerifier: %v", err)
	}
	return v
}

func hzRSAKey(t testing.TB) *rsa.PrivateKey {
	t.Helper()
	return vectortest.RSAKey(t, 2048)
}

// hzECKey returns a fixed ECDSA key on c.
func hzECKey(t testing.TB, c elliptic.Curve, seed string) *ecdsa.PrivateKey {
	t.Helper()
	h := sha256.Sum256([]byte(seed))
	d := new(big.Int).SetBytes(h[:])
	d.Mod(d, c.Params().N)
	b := make([]byte, (c.Params().N.BitLen()+7)/8)
	k, err := ecdsa.ParseRawPrivateKey(c, d.FillBytes(b))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestHostileAlgNone sends unsecured JWS (RFC 7515 §A.5) with every
// spelling of "none": refused whatever the verifier allows, and "none"
// cannot be allowed or used to sign.
func TestHostileAlgNone(t *testing.T) {
	v := hzVerifier(t, jws.VerifyOptions{Algorithms: jwa.SignatureAlgorithms(), Key: hzHMACKey})
	for _, alg := range []string{"none", "None", "NONE", "nOnE", "none "} {
		for _, sig := range []string{"", "AAAA"} {
			tok := jose.Base64URLEncode([]byte(`{"alg":"`+alg+`"}`)) + ".eyJzdWIiOiJhZG1pbiJ9." + sig
			if msg, err := v.VerifyCompact([]byte(tok)); err == nil {
				t.Errorf("alg %q accepted: %q", alg, msg.Payload)
			}
			flat := fmt.Sprintf(`{"payload":"eyJzdWIiOiJhZG1pbiJ9","protected":%q,"signature":%q}`, jose.Base64URLEncode([]byte(`{"alg":"`+alg+`"}`)), sig)
			if _, err := v.VerifyJSON([]byte(flat)); err == nil {
				t.Errorf("alg %q accepted in JSON", alg)
			}
		}
		if _, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.SignatureAlgorithm(alg)}, Key: hzHMACKey}); err == nil {
			t.Errorf("NewVerifier allows %q", alg)
		}
		if _, err := jws.NewSigner(jwa.SignatureAlgorithm(alg), hzHMACKey, nil); err == nil {
			t.Errorf("NewSigner signs with %q", alg)
		}
	}
}

// TestHostileAlgorithmConfusion: an HS256 token whose HMAC key is the
// public key the verifier holds (in every encoding an attacker could
// guess), a token whose alg differs from the key's alg, and an ES256 token
// for a P-384 key. Each is validly made and must be refused, even with both
// algorithms in the allow-list.
func TestHostileAlgorithmConfusion(t *testing.T) {
	rsaKey := hzRSAKey(t)
	ecKey := hzECKey(t, elliptic.P256(), "hostile es256")
	for _, c := range []struct {
		name string
		pub  any
		alg  jwa.SignatureAlgorithm
	}{{"RSA", &rsaKey.PublicKey, jwa.RS256}, {"EC", &ecKey.PublicKey, jwa.ES256}} {
		pkix, err := x509.MarshalPKIXPublicKey(c.pub)
		if err != nil {
			t.Fatal(err)
		}
		jwk, err := jose.NewJWK(c.pub)
		if err != nil {
			t.Fatal(err)
		}
		jwkJSON, err := json.Marshal(jwk)
		if err != nil {
			t.Fatal(err)
		}
		secrets := map[string][]byte{
			"PKIX DER": pkix,
			"PKIX PEM": pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pkix}),
			"JWK JSON": jwkJSON,
		}
		if rp, ok := c.pub.(*rsa.PublicKey); ok {
			secrets["PKCS1 DER"] = x509.MarshalPKCS1PublicKey(rp)
			secrets["PKCS1 PEM"] = pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: x509.MarshalPKCS1PublicKey(rp)})
		}
		if ep, ok := c.pub.(*ecdsa.PublicKey); ok {
			raw, _ := ep.Bytes()
			secrets["SEC1 point"] = raw
		}
		verifiers := map[string]*jws.Verifier{
			"Go key": hzVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{c.alg, jwa.HS256}, Key: c.pub}),
			"JWK":    hzVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{c.alg, jwa.HS256}, Key: jwk}),
			"Set":    hzVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{c.alg, jwa.HS256}, Keys: &jose.Set{Keys: []*jose.JWK{jwk}}}),
		}
		for sname, secret := range secrets {
			tok := hzSign(t, `{"alg":"HS256"}`, `{"sub":"admin"}`, jwa.HS256, secret)
			for vname, v := range verifiers {
				if _, err := v.VerifyCompact(tok); err == nil {
					t.Errorf("%s key as %s accepted as an HS256 secret by a verifier with a %s", c.name, sname, vname)
				}
			}
		}
	}

	t.Run("alg differs from the key's alg", func(t *testing.T) {
		jwk, err := jose.NewJWK(&rsaKey.PublicKey)
		if err != nil {
			t.Fatal(err)
		}
		jwk.Algorithm = string(jwa.RS256)
		tok := hzSign(t, `{"alg":"PS256"}`, "x", jwa.PS256, rsaKey)
		algs := []jwa.SignatureAlgorithm{jwa.RS256, jwa.PS256}
		if _, err := hzVerifier(t, jws.VerifyOptions{Algorithms: algs, Key: jwk}).VerifyCompact(tok); err == nil {
			t.Error("PS256 token accepted with a key bound to RS256")
		}
		if _, err := hzVerifier(t, jws.VerifyOptions{Algorithms: algs, Keys: &jose.Set{Keys: []*jose.JWK{jwk}}}).VerifyCompact(tok); err == nil {
			t.Error("PS256 token accepted with a set whose key is bound to RS256")
		}
		jwk.Algorithm = ""
		if _, err := hzVerifier(t, jws.VerifyOptions{Algorithms: algs, Key: jwk}).VerifyCompact(tok); err != nil {
			t.Errorf("control: the same token with an unbound key: %v", err)
		}
	})

	t.Run("ES256 for a P-384 key", func(t *testing.T) {
		k384 := hzECKey(t, elliptic.P384(), "hostile p-384")
		input := jose.Base64URLEncode([]byte(`{"alg":"ES256"}`)) + "." + jose.Base64URLEncode([]byte("x"))
		h := sha256.Sum256([]byte(input))
		r, s, err := ecdsa.Sign(rand.Reader, k384, h[:])
		if err != nil {
			t.Fatal(err)
		}
		algs := []jwa.SignatureAlgorithm{jwa.ES256, jwa.ES384}
		v := hzVerifier(t, jws.VerifyOptions{Algorithms: algs, Key: &k384.PublicKey})
		for _, size := range []int{32, 48} {
			if r.BitLen() > 8*size || s.BitLen() > 8*size {
				continue // a P-384 scalar rarely fits 32 bytes
			}
			sig := append(r.FillBytes(make([]byte, size)), s.FillBytes(make([]byte, size))...)
			if _, err := v.VerifyCompact([]byte(input + "." + jose.Base64URLEncode(sig))); err == nil {
				t.Errorf("ES256 signature (%d-byte halves) made with a P-384 key accepted", size)
			}
		}
		// ES384 by the same key verifies: the refusal above is the binding.
		if _, err := v.VerifyCompact(hzSign(t, `{"alg":"ES384"}`, "x", jwa.ES384, k384)); err != nil {
			t.Errorf("control ES384: %v", err)
		}
	})
}

// TestHostileCritical signs tokens whose crit is unknown, empty, names an
// absent or registered member, or is in the unprotected header; all must
// be refused. A crit the caller declares is accepted.
func TestHostileCritical(t *testing.T) {
	algs := []jwa.SignatureAlgorithm{jwa.HS256}
	v := hzVerifier(t, jws.VerifyOptions{Algorithms: algs, Key: hzHMACKey})
	refused := map[string]string{
		"unknown":         `{"alg":"HS256","crit":["exp"],"exp":1}`,
		"empty":           `{"alg":"HS256","crit":[]}`,
		"absent":          `{"alg":"HS256","crit":["exp"]}`,
		"registered":      `{"alg":"HS256","crit":["alg"]}`,
		"duplicate":       `{"alg":"HS256","crit":["b64","b64"],"b64":true}`,
		"not an array":    `{"alg":"HS256","crit":"exp","exp":1}`,
		"b64 not crit":    `{"alg":"HS256","b64":false}`,
		"crit b64 absent": `{"alg":"HS256","crit":["b64"]}`,
	}
	for name, hdr := range refused {
		t.Run(name, func(t *testing.T) {
			_, err := v.VerifyCompact(hzSign(t, hdr, "x", jwa.HS256, hzHMACKey))
			if err == nil {
				t.Fatal("accepted")
			}
			t.Logf("refused: %v", err)
		})
	}
	t.Run("declared", func(t *testing.T) {
		vv := hzVerifier(t, jws.VerifyOptions{Algorithms: algs, Key: hzHMACKey, Critical: []string{"exp"}})
		if _, err := vv.VerifyCompact(hzSign(t, refused["unknown"], "x", jwa.HS256, hzHMACKey)); err != nil {
			t.Fatalf("declared crit refused: %v", err)
		}
	})
	t.Run("unprotected", func(t *testing.T) {
		vv := hzVerifier(t, jws.VerifyOptions{Algorithms: algs, Key: hzHMACKey, Critical: []string{"exp"}})
		parts := strings.Split(string(hzSign(t, `{"alg":"HS256","exp":1}`, "x", jwa.HS256, hzHMACKey)), ".")
		flat := fmt.Sprintf(`{"payload":%q,"protected":%q,"header":{"crit":["exp"]},"signature":%q}`, parts[1], parts[0], parts[2])
		if _, err := vv.VerifyJSON([]byte(flat)); err == nil {
			t.Fatal("crit in the unprotected header accepted")
		}
		if _, err := vv.VerifyJSON([]byte(fmt.Sprintf(`{"payload":%q,"protected":%q,"signature":%q}`, parts[1], parts[0], parts[2]))); err != nil {
			t.Fatalf("control: %v", err)
		}
	})
}

// TestHostileEmbeddedJWK signs a token with the attacker's key and puts
// that key in the "jwk" header (RFC 7515 §4.1.3): verification must use
// only the caller's keys, whatever the key source.
func TestHostileEmbeddedJWK(t *testing.T) {
	attacker := hzECKey(t, elliptic.P256(), "attacker")
	victim := hzECKey(t, elliptic.P256(), "victim")
	ajwk, err := jose.NewJWK(&attacker.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	aj, _ := json.Marshal(ajwk)
	vjwk, _ := jose.NewJWK(&victim.PublicKey)
	vjwk.KeyID = "victim"
	hdr := `{"alg":"ES256","kid":"victim","jwk":` + string(aj) + `}`
	tok := hzSign(t, hdr, `{"sub":"admin"}`, jwa.ES256, attacker)
	algs := []jwa.SignatureAlgorithm{jwa.ES256}
	for name, opts := range map[string]jws.VerifyOptions{
		"Key":     {Algorithms: algs, Key: &victim.PublicKey},
		"Keys":    {Algorithms: algs, Keys: &jose.Set{Keys: []*jose.JWK{vjwk}}},
		"KeyFunc": {Algorithms: algs, KeyFunc: func(*jose.Header) (any, error) { return &victim.PublicKey, nil }},
	} {
		if _, err := hzVerifier(t, opts).VerifyCompact(tok); err == nil {
			t.Errorf("%s: token signed with the embedded attacker key accepted", name)
		}
	}
	// The same header signed by the victim verifies: the jwk member itself
	// is carried, not a reason to refuse.
	good := hzSign(t, hdr, `{"sub":"admin"}`, jwa.ES256, victim)
	if _, err := hzVerifier(t, jws.VerifyOptions{Algorithms: algs, Key: &victim.PublicKey}).VerifyCompact(good); err != nil {
		t.Errorf("control: %v", err)
	}
}

// TestHostileSizes: 10 MB of dots, a header of 100,000 members, deeply
// nested JSON, a 1 MB kid, 100,000 signatures. Refused by the documented
// limits with allocation far below the input (default limits) or at most
// about the input (limits raised so that the header or JSON limits act).
func TestHostileSizes(t *testing.T) {
	b64 := jose.Base64URLEncode
	members := new(strings.Builder)
	members.WriteString(`{"alg":"HS256"`)
	for i := range 100000 {
		fmt.Fprintf(members, `,"m%d":0`, i)
	}
	members.WriteString("}")
	nested := `{"alg":"HS256","x":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "}"
	kid := `{"alg":"HS256","kid":"` + strings.Repeat("k", 1<<20) + `"}`
	sig := "." + b64(make([]byte, 32))
	cases := []struct {
		name  string
		token []byte
		raise jose.Limits
	}{
		{"10MB of dots", bytes.Repeat([]byte("."), 10<<20), jose.Limits{MaxTokenSize: 16 << 20}},
		{"100000 header members", []byte(b64([]byte(members.String())) + ".eA" + sig), jose.Limits{MaxTokenSize: 4 << 20, MaxHeaderSize: 4 << 20}},
		{"nesting 100000 deep", []byte(b64([]byte(nested)) + ".eA" + sig), jose.Limits{MaxTokenSize: 4 << 20, MaxHeaderSize: 4 << 20}},
		{"1MB kid", []byte(b64([]byte(kid)) + ".eA" + sig), jose.Limits{MaxTokenSize: 4 << 20, MaxHeaderSize: 4 << 20}},
		{"10MB payload", []byte(b64([]byte(`{"alg":"HS256"}`)) + "." + strings.Repeat("A", 10<<20) + sig), jose.Limits{MaxTokenSize: 16 << 20}},
	}
	for _, c := range cases {
		for _, raised := range []bool{false, true} {
			name, lim := c.name+"/default limits", jose.Limits{}
			if raised {
				name, lim = c.name+"/raised size limits", c.raise
			}
			t.Run(name, func(t *testing.T) {
				v := hzVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: hzHMACKey, Limits: lim})
				var err error
				alloc := vectortest.BytesAllocated(func() { _, err = v.VerifyCompact(c.token) })
				if err == nil {
					t.Fatal("accepted")
				}
				bound := uint64(64 << 10)
				if raised {
					bound = uint64(2 * len(c.token))
				}
				t.Logf("%d-byte token refused, %d bytes allocated (bound %d): %v", len(c.token), alloc, bound, err)
				if !raised && !errors.Is(err, jose.ErrLimitExceeded) {
					t.Errorf("err = %v, want ErrLimitExceeded", err)
				}
				if raised && (c.name == "100000 header members" || c.name == "nesting 100000 deep") && !errors.Is(err, jose.ErrLimitExceeded) {
					t.Errorf("err = %v, want ErrLimitExceeded", err)
				}
				if alloc > bound {
					t.Errorf("allocated %d bytes, more than %d", alloc, bound)
				}
			})
		}
	}
	t.Run("JSON 100000 signatures", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(`{"payload":"eA","signatures":[`)
		for i := range 100000 {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`{"protected":"eyJhbGciOiJIUzI1NiJ9","signature":"AAAA"}`)
		}
		b.WriteString(`]}`)
		data := []byte(b.String())
		v := hzVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: hzHMACKey, Limits: jose.Limits{MaxTokenSize: 16 << 20}})
		for name, f := range map[string]func() error{
			"VerifyJSON": func() error { _, err := v.VerifyJSON(data); return err },
			"VerifyEach": func() error { _, _, err := v.VerifyEach(data); return err },
		} {
			var err error
			alloc := vectortest.BytesAllocated(func() { err = f() })
			if !errors.Is(err, jose.ErrLimitExceeded) {
				t.Errorf("%s: err = %v, want ErrLimitExceeded", name, err)
			}
			if alloc > uint64(len(data)) {
				t.Errorf("%s: allocated %d bytes for a %d-byte input", name, alloc, len(data))
			}
		}
	})
	t.Run("JSON 10MB of brackets", func(t *testing.T) {
		data := []byte(`{"payload":` + strings.Repeat("[", 5<<20) + strings.Repeat("]", 5<<20) + "}")
		v := hzVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: hzHMACKey, Limits: jose.Limits{MaxTokenSize: 16 << 20}})
		var err error
		alloc := vectortest.BytesAllocated(func() { _, err = v.VerifyJSON(data) })
		if !errors.Is(err, jose.ErrLimitExceeded) && !errors.Is(err, jose.ErrMalformed) {
			t.Fatalf("err = %v", err)
		}
		if alloc > 64<<10 {
			t.Errorf("allocated %d bytes for a %d-byte input", alloc, len(data))
		}
	})
}
