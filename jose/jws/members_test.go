package jws_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

var membersKey = bytes.Repeat([]byte{0x5a}, 32)

// hs256Compact signs payload under the protected header JSON hdr, as
// written, with HS256 and membersKey.
func hs256Compact(hdr, payload string) []byte {
	input := b64enc.Append(nil, []byte(hdr))
	input = append(input, '.')
	input = b64enc.Append(input, []byte(payload))
	mac := hmac.New(sha256.New, membersKey)
	mac.Write(input)
	return b64enc.Append(append(input, '.'), mac.Sum(nil))
}

// TestJWEMembersIgnored is issue 18 finding 10(d): the members only JWE
// defines (RFC 7516 §4.1, RFC 7518 §4.6-4.8, and ek) mean nothing in a JWS,
// so a Verifier ignores them, whatever their type, as RFC 7515 §4 says of
// members it does not understand: a valid JWS with "zip": 1 verifies (go-jose
// and jwx accept it; it was refused as malformed). They are kept in the
// Header's Extra. The members a JWS reads keep their rules. "enc" is the
// exception: it marks a JWE (RFC 7516 §9) and is refused
// (TestVerifyRefusesEnc).
func TestJWEMembersIgnored(t *testing.T) {
	v := rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: membersKey})
	for _, member := range []string{
		`"zip":1`, `"zip":"DEF"`, `"iv":"not base64url!"`, `"tag":[]`, `"epk":"k"`, `"epk":{"kty":"oct","k":"AAAA"}`,
		`"apu":1`, `"apv":{}`, `"p2s":null`, `"p2c":-1`, `"p2c":"many"`, `"ek":""`,
		`"zip":1,"iv":1,"tag":1,"epk":1,"apu":1,"apv":1,"p2s":1,"p2c":1.5,"ek":1`,
	} {
		hdr := `{"alg":"HS256",` + member + `}`
		m, err := v.VerifyCompact(hs256Compact(hdr, "payload"))
		if err != nil {
			t.Errorf("%s: %v", hdr, err)
			continue
		}
		name := member[1 : strings.IndexByte(member[1:], '"')+1]
		if !m.Header.Has(name) || m.Header.Extra[name] == nil || m.Header.Compression != "" {
			t.Errorf("%s: %s not kept in Extra: %q", hdr, name, m.Header.Extra)
		}
		// In an unprotected header of the JSON serialization too.
		tok := hs256Compact(`{"alg":"HS256"}`, "payload")
		parts := bytes.Split(tok, []byte("."))
		flat := `{"payload":"` + string(parts[1]) + `","protected":"` + string(parts[0]) + `","header":{` + member + `},"signature":"` + string(parts[2]) + `"}`
		if _, err := v.VerifyJSON([]byte(flat)); err != nil {
			t.Errorf("unprotected %s: %v", member, err)
		}
	}
	// What a JWS reads is still checked.
	for _, member := range []string{`"kid":1`, `"typ":""`, `"b64":"false"`, `"x5c":[]`, `"crit":[]`, `"jwk":1`} {
		hdr := `{"alg":"HS256",` + member + `}`
		if _, err := v.VerifyCompact(hs256Compact(hdr, "payload")); !errors.Is(err, jose.ErrMalformed) {
			t.Errorf("%s: %v, want ErrMalformed", hdr, err)
		}
	}
}

// TestEmptyProtected is issue 18 finding 10(a): in a JWS JSON
// Serialization a signature without a protected header has no "protected"
// member (RFC 7515 §7.2.1); "protected": "" was accepted (the JWE parser
// refuses it, and so does go-jose). It is refused as malformed in both the
// flattened and the general form, before any key is used.
func TestEmptyProtected(t *testing.T) {
	calls := 0
	v := rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, KeyFunc: func(*jose.Header) (any, error) {
		calls++
		return membersKey, nil
	}})
	// The signature of a JWS without protected header: over "." || payload.
	mac := hmac.New(sha256.New, membersKey)
	mac.Write([]byte(".cGF5bG9hZA"))
	sig := string(b64enc.Append(nil, mac.Sum(nil)))
	absent := `{"payload":"cGF5bG9hZA","header":{"alg":"HS256"},"signature":"` + sig + `"}`
	if _, err := v.VerifyJSON([]byte(absent)); err != nil {
		t.Fatalf("no protected member: %v", err)
	}
	calls = 0
	for _, tok := range []string{
		`{"payload":"cGF5bG9hZA","protected":"","header":{"alg":"HS256"},"signature":"` + sig + `"}`,
		`{"payload":"cGF5bG9hZA","signatures":[{"protected":"","header":{"alg":"HS256"},"signature":"` + sig + `"}]}`,
	} {
		_, err := v.VerifyJSON([]byte(tok))
		if !errors.Is(err, jose.ErrMalformed) || !strings.Contains(err.Error(), `"protected" is empty`) {
			t.Errorf("%s: %v, want ErrMalformed", tok, err)
		}
		if _, _, err := v.VerifyEach([]byte(tok)); !errors.Is(err, jose.ErrMalformed) {
			t.Errorf("VerifyEach %s: %v", tok, err)
		}
	}
	if calls != 0 {
		t.Errorf("key function called %d times for refused tokens", calls)
	}
}

// TestIgnoredMembersDisjoint: a member a JWS does not read is still a
// member of the JOSE Header, so the protected and unprotected headers may
// not both hold it (RFC 7515 §7.2.1), typed or kept in Extra.
func TestIgnoredMembersDisjoint(t *testing.T) {
	v := rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: membersKey})
	for _, c := range []struct{ protected, unprotected string }{
		{`"zip":"DEF"`, `"zip":1`},
		{`"epk":1`, `"epk":1`},
		{`"x":1`, `"x":1`},
		{`"kid":"a"`, `"kid":"a"`},
	} {
		tok := hs256Compact(`{"alg":"HS256",`+c.protected+`}`, "payload")
		parts := bytes.Split(tok, []byte("."))
		flat := `{"payload":"` + string(parts[1]) + `","protected":"` + string(parts[0]) + `","header":{` + c.unprotected + `},"signature":"` + string(parts[2]) + `"}`
		if _, err := v.VerifyJSON([]byte(flat)); !errors.Is(err, jose.ErrMalformed) || !strings.Contains(err.Error(), "more than one header") {
			t.Errorf("%s in both headers: %v, want ErrMalformed", c.protected, err)
		}
	}
}
