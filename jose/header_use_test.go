package jose

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
)

// TestHeaderUse is issue 18 finding 10(d): a header read for a JWS leaves
// the members only JWE defines unread, and one read for a JWE leaves b64
// unread (RFC 7515 §4, RFC 7516 §4: members not understood are ignored):
// whatever their type, they are kept in Extra as written; the header read
// for both (ParseHeader) still refuses them. Every member a kind reads keeps
// its rules (TestHeaderParseErrors).
func TestHeaderUse(t *testing.T) {
	jweOnly := map[string]string{
		"enc": `1`, "zip": `1`, "epk": `"k"`, "apu": `"!"`, "apv": `2`, "iv": `[]`, "tag": `{}`,
		"p2s": `null`, "p2c": `-1`, "ek": `""`,
	}
	jwsOnly := map[string]string{"b64": `"false"`}
	check := func(use HeaderUse, name, value string, read bool) {
		t.Helper()
		data := []byte(`{"alg":"HS256",` + `"` + name + `":` + value + `}`)
		h, err := use.Parse(data, Limits{})
		if read {
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("%s, %s: %s: %v, want ErrMalformed", useName(use), name, value, err)
			}
			return
		}
		if err != nil {
			t.Errorf("%s, %s: %s: %v", useName(use), name, value, err)
			return
		}
		if string(h.Extra[name]) != value || !h.Has(name) || !slices.Contains(h.Names(), name) {
			t.Errorf("%s, %s: Extra %q, Has %v", useName(use), name, h.Extra, h.Has(name))
		}
		// Written and read back with the same kind, the member is kept.
		out, err := h.AppendJSON(nil)
		if err != nil {
			t.Errorf("%s, %s: AppendJSON: %v", useName(use), name, err)
			return
		}
		back, err := use.Parse(out, Limits{})
		if err != nil || !hdrEqual(h, back) {
			t.Errorf("%s, %s: read back %s: %v", useName(use), name, out, err)
		}
	}
	for name, value := range jweOnly {
		if JWSHeader.Reads(name) || !JWEHeader.Reads(name) || !AnyHeader.Reads(name) {
			t.Errorf("Reads(%q)", name)
		}
		check(JWSHeader, name, value, false)
		check(JWEHeader, name, value, true)
		check(AnyHeader, name, value, true)
	}
	for name, value := range jwsOnly {
		if !JWSHeader.Reads(name) || JWEHeader.Reads(name) || !AnyHeader.Reads(name) {
			t.Errorf("Reads(%q)", name)
		}
		check(JWEHeader, name, value, false)
		check(JWSHeader, name, value, true)
		check(AnyHeader, name, value, true)
	}
	// The members both read keep their rules in both.
	for i := range headerMembers {
		name := headerMembers[i].name
		_, jweOnly := jweOnly[name]
		_, jwsOnly := jwsOnly[name]
		if !jweOnly && !jwsOnly {
			if !JWSHeader.Reads(name) || !JWEHeader.Reads(name) {
				t.Errorf("Reads(%q) is false for a member both define", name)
			}
			check(JWSHeader, name, `1.5`, true)
			check(JWEHeader, name, `1.5`, true)
		}
	}
	if AnyHeader.Reads("exp") || JWSHeader.Reads("exp") {
		t.Error(`Reads("exp"), an unregistered name`)
	}
	// A valid JWE member in a JWS header is unread too: its typed field
	// stays empty.
	h, err := JWSHeader.Parse([]byte(`{"alg":"HS256","zip":"DEF","b64":false,"crit":["b64"]}`), Limits{})
	if err != nil || h.Compression != "" || string(h.Extra["zip"]) != `"DEF"` || h.B64 == nil {
		t.Errorf("JWS header with zip: %+v, %v", h, err)
	}
	// Set gives it its typed field, and it leaves Extra.
	if err := h.Set("zip", "DEF"); err != nil || h.Compression != "DEF" || h.Extra["zip"] != nil {
		t.Errorf("Set zip: %+v, %v", h, err)
	}
	if _, err := h.AppendJSON(nil); err != nil {
		t.Errorf("AppendJSON after Set: %v", err)
	}
	// AppendJSON still refuses a registered name in Extra that both kinds
	// read, or one whose typed field is set too (it would be written
	// twice).
	for name, h := range map[string]*Header{
		"alg in Extra":                  {Extra: map[string]json.RawMessage{"alg": json.RawMessage(`"HS256"`)}},
		"zip in Extra and typed":        {Compression: "DEF", Extra: map[string]json.RawMessage{"zip": json.RawMessage(`1`)}},
		"b64 in Extra and typed":        {B64: new(bool), Extra: map[string]json.RawMessage{"b64": json.RawMessage(`1`)}},
		"x5c in Extra":                  {Extra: map[string]json.RawMessage{"x5c": json.RawMessage(`1`)}},
		"kid in Extra":                  {Extra: map[string]json.RawMessage{"kid": json.RawMessage(`"k"`)}},
		"ek in Extra, typed ek present": {EK: []byte{1}, Extra: map[string]json.RawMessage{"ek": json.RawMessage(`1`)}},
	} {
		if _, err := h.AppendJSON(nil); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: AppendJSON %v, want ErrMalformed", name, err)
		}
	}
}

func useName(u HeaderUse) string {
	return [...]string{"AnyHeader", "JWSHeader", "JWEHeader"}[u]
}
