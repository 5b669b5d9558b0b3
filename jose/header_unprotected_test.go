package jose

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestMergeJOSEHeader: the JOSE Header MergeJOSEHeader makes says which
// members came from unprotected headers (registered or not), as jws and
// jwe key functions need it (an x5c they may not trust); a parsed header
// and a caller's say none did; Clone keeps it; a duplicate name is
// refused.
func TestMergeJOSEHeader(t *testing.T) {
	p := &Header{Algorithm: "ES256", Type: "JWT", Extra: map[string]json.RawMessage{"p": json.RawMessage("1")}}
	shared := &Header{KeyID: "k", X5C: []string{"MIIB"}}
	per := &Header{Extra: map[string]json.RawMessage{"u": json.RawMessage("2")}}
	h, err := MergeJOSEHeader(p, shared, nil, per)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"alg": false, "typ": false, "p": false, "kid": true, "x5c": true, "u": true, "cty": false, "absent": false} {
		if got := h.Unprotected(name); got != want {
			t.Errorf("Unprotected(%q) = %v, want %v", name, got, want)
		}
		if got := h.Clone().Unprotected(name); got != want {
			t.Errorf("Clone: Unprotected(%q) = %v, want %v", name, got, want)
		}
	}
	if h.ValuesOnly() {
		t.Error("a merged header with unprotected members is ValuesOnly")
	}
	// No protected header at all.
	if h, err := MergeJOSEHeader(nil, shared); err != nil || !h.Unprotected("kid") || h.Unprotected("alg") {
		t.Errorf("no protected header: %v", err)
	}
	parsed, _ := ParseHeader([]byte(`{"alg":"ES256","kid":"k","x5c":["MIIB"]}`), Limits{})
	for _, h := range []*Header{parsed, shared, nil} {
		if h.Unprotected("kid") || h.Unprotected("x5c") {
			t.Errorf("Unprotected is true for a header not made by MergeJOSEHeader: %+v", h)
		}
	}
	if _, err := MergeJOSEHeader(p, &Header{Type: "x"}); !errors.Is(err, ErrMalformed) {
		t.Errorf("typ in both: %v", err)
	}
	if _, err := MergeJOSEHeader(p, shared, &Header{KeyID: "x"}); !errors.Is(err, ErrMalformed) {
		t.Errorf("kid in two unprotected headers: %v", err)
	}
}
