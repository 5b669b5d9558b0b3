package jws_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// TestVerifyRefusesEnc: a JWS whose protected or unprotected header holds
// "enc", the member that marks a JWE (RFC 7516 §9), is refused as
// malformed, whatever the value's type, before any key is looked up or
// signature checked: a correctly signed one and one with a wrong signature
// get the same ErrMalformed, never ErrVerificationFailed.
func TestVerifyRefusesEnc(t *testing.T) {
	calls := 0
	v := rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, KeyFunc: func(*jose.Header) (any, error) {
		calls++
		return membersKey, nil
	}})
	wantEnc := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, jose.ErrMalformed) || errors.Is(err, jose.ErrVerificationFailed) || !strings.Contains(err.Error(), `"enc"`) || !strings.Contains(err.Error(), "RFC 7516 §9") {
			t.Errorf("%s: %v, want ErrMalformed naming \"enc\"", what, err)
		}
	}
	good := hs256Compact(`{"alg":"HS256"}`, "payload")
	parts := bytes.Split(good, []byte("."))
	for _, enc := range []string{`"A128GCM"`, `1`, `""`, `null`} {
		tok := hs256Compact(`{"alg":"HS256","enc":`+enc+`}`, "payload")
		_, err := v.VerifyCompact(tok)
		wantEnc("compact "+enc, err)
		bad := append(tok[:bytes.LastIndexByte(tok, '.')+1:bytes.LastIndexByte(tok, '.')+1], parts[2]...) // another header's signature
		_, err = v.VerifyCompact(bad)
		wantEnc("compact, wrong signature, "+enc, err)
		tp := bytes.Split(tok, []byte("."))
		flat := `{"payload":"` + string(tp[1]) + `","protected":"` + string(tp[0]) + `","signature":"` + string(tp[2]) + `"}`
		_, err = v.VerifyJSON([]byte(flat))
		wantEnc("flattened, protected "+enc, err)
		// In the unprotected header, which the signature does not cover.
		flat = `{"payload":"` + string(parts[1]) + `","protected":"` + string(parts[0]) + `","header":{"enc":` + enc + `},"signature":"` + string(parts[2]) + `"}`
		_, err = v.VerifyJSON([]byte(flat))
		wantEnc("flattened, unprotected "+enc, err)
		general := `{"payload":"` + string(parts[1]) + `","signatures":[{"protected":"` + string(parts[0]) + `","header":{"enc":` + enc + `},"signature":"` + string(parts[2]) + `"}]}`
		_, err = v.VerifyJSON([]byte(general))
		wantEnc("general, unprotected "+enc, err)
		res, pl, err := v.VerifyEach([]byte(general))
		wantEnc("VerifyEach "+enc, err)
		if pl != nil || (len(res) == 1 && res[0].Err == nil) {
			t.Errorf("VerifyEach %s: payload %q, results %v", enc, pl, res)
		}
	}
	if calls != 0 {
		t.Errorf("key function called %d times for tokens with enc", calls)
	}
	// The same token without enc verifies, and an unrelated member named
	// like a JWE one in a string is no "enc".
	for _, tok := range [][]byte{good, hs256Compact(`{"alg":"HS256","x":"enc","zip":"DEF"}`, "payload")} {
		if _, err := v.VerifyCompact(tok); err != nil {
			t.Errorf("%s: %v", tok, err)
		}
	}
}

// TestSignerRefusesJWEOnly: NewSigner refuses in SignerOptions.Extra, and
// NewSigner, WithHeader and Flattened refuse in the unprotected header,
// each member only a JWE header has (RFC 7516 §4.1.2-4.1.3, RFC 7518
// §4.6.1, §4.7.1, §4.8.1, and ek), with ErrMalformed naming it: a JWS
// with "enc" would read as a JWE (RFC 7516 §9).
func TestSignerRefusesJWEOnly(t *testing.T) {
	base, err := jws.NewSigner(jwa.HS256, membersKey, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := func(what, name string, err error) {
		t.Helper()
		if !errors.Is(err, jose.ErrMalformed) || !strings.Contains(err.Error(), `header member "`+name+`" is a JWE header member`) {
			t.Errorf("%s %s: %v, want ErrMalformed naming it", what, name, err)
		}
	}
	for _, name := range []string{"enc", "zip", "epk", "apu", "apv", "iv", "tag", "p2s", "p2c", "ek"} {
		_, err := jws.NewSigner(jwa.HS256, membersKey, &jws.SignerOptions{Extra: map[string]any{name: "v", "x": 1}})
		want("Extra", name, err)
		u := &jose.Header{Extra: map[string]json.RawMessage{name: json.RawMessage(`"v"`)}}
		_, err = jws.NewSigner(jwa.HS256, membersKey, &jws.SignerOptions{Header: u})
		want("SignerOptions.Header", name, err)
		_, err = base.WithHeader(u)
		want("WithHeader", name, err)
		_, err = base.Flattened([]byte("p"), u)
		want("Flattened", name, err)
	}
	// The typed fields are the same members.
	for name, u := range map[string]*jose.Header{
		"enc": {Encryption: "A128GCM"}, "zip": {Compression: "DEF"}, "iv": {IV: []byte{}}, "p2c": {P2C: 1000}, "ek": {EK: []byte{1}},
	} {
		_, err := base.WithHeader(u)
		want("WithHeader typed", name, err)
	}
	// Other members still sign, protected and unprotected.
	s, err := jws.NewSigner(jwa.HS256, membersKey, &jws.SignerOptions{Extra: map[string]any{"x": "enc"}, Header: &jose.Header{KeyID: "k"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Flattened([]byte("p"), nil); err != nil {
		t.Fatal(err)
	}
}
