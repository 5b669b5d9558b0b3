package jwt

// Tests of decoding a validated claims set into the caller's variable
// (Validator.Validate's dst): case folding, embedded *Claims, what a
// refusal leaves in dst, and the claim an error names.

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestCaseFoldedNamesRefused: RFC 7519 §4 claim names are case-sensitive,
// but encoding/json matches struct fields case-insensitively, the last
// match winning. A claims set with two names that differ only in case
// would make the value the Validator checked differ from the one the
// caller's struct receives ("iss" checked, "ISS" decoded); such a claims
// set is refused whenever encoding/json decodes it, at any depth, and the
// caller's variable is left untouched.
func TestCaseFoldedNamesRefused(t *testing.T) {
	v := hsValidator(t, ValidatorOptions{Issuers: []string{"good"}, ExpiryOptional: true})
	const aud = `"aud":"https://api.example"`
	type ownIssuer struct { // no embedded Claims: its own "iss" field
		Iss string `json:"iss"`
	}
	type fallback struct { // a ",string" field: encoding/json decodes it whole
		Claims
		Role string `json:"role"`
		Kind string `json:"kind"`
		N    int    `json:"n,string"`
	}
	type mapField struct {
		Claims
		M map[string]struct{ City string } `json:"m"`
	}
	type nested struct { // a plan, with a field left to encoding/json
		Claims
		Addr struct{ City string } `json:"addr"`
	}
	for _, c := range []struct {
		name    string
		payload string
		dst     func() any
	}{
		{"own iss field", `{` + aud + `,"iss":"good","ISS":"evil"}`, func() any { return new(ownIssuer) }},
		{"fallback struct", `{` + aud + `,"iss":"good","role":"user","ROLE":"admin"}`, func() any { return new(fallback) }},
		{"kelvin sign", `{` + aud + `,"iss":"good","kind":"a","\u212aind":"b"}`, func() any { return new(fallback) }},
		{"nested object", `{` + aud + `,"iss":"good","addr":{"city":"a","CITY":"b"}}`, func() any { return new(nested) }},
		{"map field", `{` + aud + `,"iss":"good","m":{"x":{"city":"a","City":"b"}}}`, func() any { return new(mapField) }},
		{"array of objects", `{` + aud + `,"iss":"good","addr":{"City":"x"},"l":[{"a":1,"A":2}]}`, func() any { return new(fallback) }},
	} {
		dst := c.dst()
		_, err := v.Validate(signRaw(t, []byte(c.payload)), dst)
		if !errors.Is(err, ErrMalformedClaims) || !errors.Is(err, ErrInvalidClaims) {
			t.Errorf("%s: %v, decoded %+v", c.name, err, dst)
		}
	}
	// Names that differ only in case are accepted where nothing folds
	// them: the registered claims, a map of any, a plan's plain fields.
	payload := []byte(`{"aud":"https://api.example","iss":"good","role":"user","ROLE":"admin"}`)
	var plain struct {
		Claims
		Role string `json:"role"`
	}
	if _, err := v.Validate(signRaw(t, payload), &plain); err != nil || plain.Role != "user" || plain.Issuer != "good" {
		t.Fatalf("plan: %+v %v", plain, err)
	}
	var m map[string]any
	if _, err := v.Validate(signRaw(t, payload), &m); err != nil || m["role"] != "user" || m["ROLE"] != "admin" {
		t.Fatalf("map: %v %v", m, err)
	}
	var raw map[string]json.RawMessage
	if _, err := v.Validate(signRaw(t, payload), &raw); err != nil || len(raw) != 4 {
		t.Fatalf("raw map: %v %v", raw, err)
	}
	if _, err := v.Validate(signRaw(t, payload), nil); err != nil {
		t.Fatal(err)
	}
}

// TestEmbeddedClaimsPointer: a struct embedding *Claims goes through
// encoding/json, which allocates the pointer only when a registered claim
// is present; the validated claims are set either way, without a panic.
func TestEmbeddedClaimsPointer(t *testing.T) {
	v := hsValidator(t, ValidatorOptions{AnyAudience: true, ExpiryOptional: true})
	type withPtr struct {
		*Claims
		Role string `json:"role"`
	}
	type WithPtr = withPtr
	type deeper struct {
		*WithPtr
		Scope string `json:"scope"`
	}
	for _, payload := range []string{`{"role":"x","scope":"s"}`, `{"role":"x","scope":"s","iss":"i","exp":9999999999}`} {
		var p withPtr
		if _, err := v.Validate(signRaw(t, []byte(payload)), &p); err != nil || p.Role != "x" || p.Claims == nil {
			t.Fatalf("%s: %+v %v", payload, p, err)
		}
		var d deeper
		if _, err := v.Validate(signRaw(t, []byte(payload)), &d); err != nil || d.Scope != "s" || d.WithPtr == nil || d.Claims == nil || d.Role != "x" {
			t.Fatalf("%s: deeper %+v %v", payload, d, err)
		}
		if strings.Contains(payload, "iss") && (p.Issuer != "i" || d.Issuer != "i" || p.Expiry.Unix() != 9999999999) {
			t.Fatalf("%s: registered claims %+v %+v", payload, p.Claims, d.Claims)
		}
	}
	// Through an unexported embedded pointer, which cannot be set: an
	// error, as encoding/json gives.
	type hidden struct {
		*withPtr
		Scope string `json:"scope"`
	}
	var h hidden
	if _, err := v.Validate(signRaw(t, []byte(`{"scope":"s"}`)), &h); !errors.Is(err, ErrMalformedClaims) {
		t.Fatalf("unexported embedded pointer: %+v %v", h, err)
	}
}

// TestRefusedTokenLeavesDstUntouched: a token refused before decoding
// (forged, expired, a folded name) writes nothing into dst, whatever its
// type; only a private claim that does not fit its field leaves the
// fields decoded before it set, as encoding/json does (Validate's doc).
func TestRefusedTokenLeavesDstUntouched(t *testing.T) {
	v := hsValidator(t, ValidatorOptions{AnyAudience: true})
	const good = `"role":"admin","n":"7","exp":9999999999`
	forged := signRaw(t, []byte(`{`+good+`}`))
	forged[len(forged)-2] ^= 1
	type fallback struct {
		Claims
		Role string `json:"role"`
		N    int    `json:"n,string"`
	}
	type plan struct {
		Claims
		Role string `json:"role"`
	}
	for _, c := range []struct {
		name     string
		tok      []byte
		fallOnly bool
	}{
		{"forged", forged, false},
		{"expired", signRaw(t, []byte(`{"role":"admin","n":"7","exp":1}`)), false},
		{"folded", signRaw(t, []byte(`{`+good+`,"ROLE":"x"}`)), true},
	} {
		f, p, m := fallback{Role: "kept"}, plan{Role: "kept"}, map[string]any{"role": "kept"}
		dsts := []any{&f, &p, &m}
		if c.fallOnly {
			dsts = dsts[:1]
		}
		for _, dst := range dsts {
			if _, err := v.Validate(c.tok, dst); err == nil {
				t.Fatalf("%s: accepted into %T", c.name, dst)
			}
		}
		if f.Role != "kept" || f.N != 0 || p.Role != "kept" || len(m) != 1 || m["role"] != "kept" {
			t.Errorf("%s: dst written: %+v %+v %v", c.name, f, p, m)
		}
	}
	// A private claim that does not fit: an error, and the fields before
	// it may be set.
	var p struct {
		Claims
		A string `json:"a"`
		B int    `json:"b"`
	}
	if _, err := v.Validate(signRaw(t, []byte(`{"a":"set","b":"x","exp":9999999999}`)), &p); !errors.Is(err, ErrMalformedClaims) {
		t.Fatal(err)
	}
}

// TestDecodeErrorNamesClaim: a private claim that does not fit its field
// is a ClaimError naming it, through the plan and through encoding/json.
func TestDecodeErrorNamesClaim(t *testing.T) {
	v := hsValidator(t, ValidatorOptions{AnyAudience: true})
	tok := signRaw(t, []byte(`{"a":"set","b":"x","exp":9999999999}`))
	var p struct {
		Claims
		A string `json:"a"`
		B int    `json:"b"`
	}
	var f struct {
		Claims
		A string `json:"a"`
		B int    `json:"b"`
		N int    `json:"n,string"`
	}
	for _, dst := range []any{&p, &f} {
		_, err := v.Validate(tok, dst)
		var ce *ClaimError
		if !errors.As(err, &ce) || ce.Claim != "b" || !errors.Is(err, ErrMalformedClaims) || !strings.Contains(err.Error(), `"b"`) {
			t.Errorf("%T: %v", dst, err)
		}
	}
}
