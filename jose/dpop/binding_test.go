package dpop

import (
	"errors"
	"testing"

	"github.com/josebench/josebench/jose"
)

// TestBinding checks cnf.jkt (RFC 9449 §6.1) and the Bearer refusal of §7.2.
func TestBinding(t *testing.T) {
	const jkt = "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"
	for _, tt := range []struct {
		claims, want string
		bad          bool
	}{
		{`{"sub":"x","cnf":{"jkt":"` + jkt + `"}}`, jkt, false},
		{`{"sub":"x","cnf":{"x5t#S256":"abc"}}`, "", false},
		{`{"sub":"x"}`, "", false},
		{`{"cnf":"x"}`, "", true},
		{`{"cnf":{"jkt":1}}`, "", true},
		// A "cnf" "jkt" that is there but empty, or not a string, is a
		// token meant to be bound: refused, never read as unbound.
		{`{"sub":"x","cnf":{"jkt":""}}`, "", true},
		{`{"cnf":{"jkt":null}}`, "", true},
		{`{"cnf":{"jkt":{"x":1}}}`, "", true},
		{`{"cnf":{"jkt":["` + jkt + `"]}}`, "", true},
		{`{"cnf":null}`, "", true},
		{`[1]`, "", true},
		{`{"cnf":{"jkt":"a"},"cnf":{"jkt":"b"}}`, "", true},
	} {
		got, err := TokenBinding([]byte(tt.claims))
		if got != tt.want || (err != nil) != tt.bad {
			t.Errorf("TokenBinding(%s) = %q, %v", tt.claims, got, err)
		}
		if err != nil && !errors.Is(err, jose.ErrMalformed) {
			t.Errorf("TokenBinding(%s): %v does not wrap jose.ErrMalformed", tt.claims, err)
		}
	}
	p := &Proof{Thumbprint: jkt}
	if err := CheckBinding(jkt, p); err != nil {
		t.Error(err)
	}
	wantRefusal(t, CheckBinding("", p), ErrBinding, CodeInvalidToken)
	wantRefusal(t, CheckBinding(jkt[1:]+"A", p), ErrBinding, CodeInvalidToken)
	wantRefusal(t, CheckBinding(jkt, nil), ErrBinding, CodeInvalidToken)
	if err := CheckBearer(""); err != nil {
		t.Error(err)
	}
	wantRefusal(t, CheckBearer(jkt), ErrBoundBearer, CodeInvalidToken)
}
