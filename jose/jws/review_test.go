package jws_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rsa"
	"crypto/sha256"
	"errors"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

var rvHKey = bytes.Repeat([]byte{0x5a}, 32)

// rvToken builds a compact HS256-MACed token over an arbitrary header and
// raw payload segment.
func rvToken(header, pseg string) []byte {
	in := jose.Base64URLEncode([]byte(header)) + "." + pseg
	m := hmac.New(sha256.New, rvHKey)
	m.Write([]byte(in))
	return []byte(in + "." + jose.Base64URLEncode(m.Sum(nil)))
}

func rvVerifier(t *testing.T, opts jws.VerifyOptions) *jws.Verifier {
	t.Helper()
	v, err := jws.NewVerifier(opts)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestRVKeyFuncBinding: whatever KeyFunc returns, the key must fit the
// token's alg.
func TestRVKeyFuncBinding(t *testing.T) {
	r := vectortest.RSAKey(t, 2048)
	rsaJWK, err := jose.NewJWK(&r.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	rsaJWK.Algorithm = "RS384"
	s, err := jws.NewSigner(jwa.RS256, r, nil)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := s.Compact([]byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	hsJWK, _ := jose.NewJWK(rvHKey)
	unsupported, err := jose.ParseSet([]byte(`{"keys":[{"kty":"XYZ","kid":"a"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		key  any
		want error
	}{
		{"JWK alg differs", rsaJWK, jose.ErrAlgorithmNotAllowed},
		{"bytes for RS256", []byte("0123456789abcdef0123456789abcdef"), jose.ErrAlgorithmNotAllowed},
		{"oct JWK for RS256", hsJWK, jose.ErrAlgorithmNotAllowed},
		{"nil", nil, jose.ErrKeyNotFound},
		{"nil JWK", (*jose.JWK)(nil), nil},
		{"unsupported entry", unsupported.Keys[0], nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := rvVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.RS256}, KeyFunc: func(*jose.Header) (any, error) { return c.key, nil }})
			m, err := v.VerifyCompact(tok)
			if err == nil || m != nil {
				t.Fatal("verified")
			}
			if c.want != nil && !errors.Is(err, c.want) {
				t.Fatalf("err %v, want %v", err, c.want)
			}
		})
	}
}

// TestRVNoneSpellings: no spelling of none is accepted or allowed.
func TestRVNoneSpellings(t *testing.T) {
	for _, a := range []string{"none", "None", "NONE", "nOnE"} {
		if _, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.SignatureAlgorithm(a)}, Key: rvHKey}); err == nil {
			t.Errorf("%s allowed", a)
		}
		v := rvVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: rvHKey})
		tok := []byte(jose.Base64URLEncode([]byte(`{"alg":"`+a+`"}`)) + ".eA.")
		if _, err := v.VerifyCompact(tok); err == nil {
			t.Errorf("%s verified", a)
		}
		if _, err := v.VerifyJSON([]byte(`{"payload":"eA","header":{"alg":"` + a + `"},"signature":""}`)); err == nil {
			t.Errorf("%s verified (JSON)", a)
		}
	}
}

// TestRVCritB64 covers crit and b64 edge cases.
func TestRVCritB64(t *testing.T) {
	v := rvVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: rvHKey})
	for _, c := range []struct {
		name, hdr, pseg string
		ok              bool
	}{
		{"empty crit", `{"alg":"HS256","crit":[]}`, "eA", false},
		{"crit null", `{"alg":"HS256","crit":null}`, "eA", false},
		{"crit b64 absent", `{"alg":"HS256","crit":["b64"]}`, "eA", false},
		{"b64 without crit", `{"alg":"HS256","b64":false}`, "x", false},
		{"b64 false", `{"alg":"HS256","b64":false,"crit":["b64"]}`, "x y", true},
		{"b64 true", `{"alg":"HS256","b64":true,"crit":["b64"]}`, "eA", true},
		{"crit alg", `{"alg":"HS256","crit":["alg"]}`, "eA", false},
		{"crit unknown", `{"alg":"HS256","crit":["exp"],"exp":1}`, "eA", false},
		{"crit not array", `{"alg":"HS256","crit":"b64","b64":false}`, "x", false},
		{"b64 string", `{"alg":"HS256","b64":"false","crit":["b64"]}`, "x", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := v.VerifyCompact(rvToken(c.hdr, c.pseg))
			if (err == nil) != c.ok {
				t.Fatalf("err %v, want ok=%v", err, c.ok)
			}
		})
	}
	// RFC 7797 §5.2: a compact token cannot carry an unencoded payload
	// containing '.'.
	hdr := jose.Base64URLEncode([]byte(`{"alg":"HS256","b64":false,"crit":["b64"]}`))
	in := hdr + ".a.b"
	m := hmac.New(sha256.New, rvHKey)
	m.Write([]byte(in))
	if _, err := v.VerifyCompact([]byte(in + "." + jose.Base64URLEncode(m.Sum(nil)))); err == nil {
		t.Fatal("compact unencoded payload with '.' verified")
	}
}

// TestRVShortInputs: short and odd inputs never panic.
func TestRVShortInputs(t *testing.T) {
	v := rvVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: rvHKey})
	for _, in := range []string{"", ".", "..", "...", "a..", "..a", "{", "{}", `{"signatures":[]}`, `{"signatures":[{}]}`, `{"payload":"","signatures":[{"signature":""}]}`, " ", "\x00", `{"payload":"eA","protected":"","signature":""}`} {
		_, err1 := v.VerifyCompact([]byte(in))
		_, err2 := v.VerifyJSON([]byte(in))
		_, _, err3 := v.VerifyEach([]byte(in))
		_, err4 := v.VerifyDetached([]byte(in), nil)
		for i, err := range []error{err1, err2, err3, err4} {
			if !vectortest.WrapsAny(err, rvSentinels...) {
				t.Errorf("%q, call %d: error %v wraps no jose sentinel", in, i, err)
			}
		}
	}
}

// rvSentinels are the errors every refusal of a token wraps.
var rvSentinels = []error{jose.ErrMalformed, jose.ErrAlgorithmNotAllowed, jose.ErrLimitExceeded, jose.ErrKeyNotFound,
	jose.ErrVerificationFailed, jose.ErrUnsupportedCritical, jose.ErrUnsupportedAlgorithm}

// TestRVNilKeys: a nil key of a supported type (a caller bug) is an error
// of NewSigner and of the verification, not a panic.
func TestRVNilKeys(t *testing.T) {
	for _, k := range []any{(*rsa.PublicKey)(nil), (*rsa.PrivateKey)(nil), (*ecdsa.PublicKey)(nil), (*ecdsa.PrivateKey)(nil),
		ed25519.PublicKey(nil), ed25519.PrivateKey(nil), []byte(nil), &rsa.PublicKey{}, &ecdsa.PublicKey{}, &rsa.PrivateKey{}, &ecdsa.PrivateKey{}, (*jose.JWK)(nil)} {
		for _, a := range jwa.SignatureAlgorithms() {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%T %s: panic %v", k, a, r)
					}
				}()
				if _, err := jws.NewSigner(a, k, nil); err == nil {
					t.Errorf("%T %s: NewSigner succeeded", k, a)
				}
				v, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{a}, KeyFunc: func(*jose.Header) (any, error) { return k, nil }})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := v.VerifyCompact([]byte(jose.Base64URLEncode([]byte(`{"alg":"`+string(a)+`"}`)) + ".eA.AAAA")); err == nil {
					t.Errorf("%T %s: verified", k, a)
				}
			}()
		}
	}
}
