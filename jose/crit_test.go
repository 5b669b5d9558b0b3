package jose

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestCheckCritical(t *testing.T) {
	hdr := func(t *testing.T, s string) *Header {
		t.Helper()
		h, err := ParseHeader([]byte(s), Limits{})
		if err != nil {
			t.Fatalf("ParseHeader(%s): %v", s, err)
		}
		return h
	}
	understood := []string{"exp", "b64"}
	tests := []struct {
		name string
		p, u string // u empty: no unprotected header
		want error
	}{
		{"no crit", `{"alg":"HS256"}`, "", nil},
		{"understood and present", `{"alg":"HS256","crit":["exp"],"exp":1}`, "", nil},
		{"b64 is an extension", `{"alg":"HS256","crit":["b64"],"b64":false}`, "", nil},
		{"present in the unprotected header", `{"alg":"HS256","crit":["exp"]}`, `{"exp":1}`, nil},
		{"not understood", `{"alg":"HS256","crit":["foo"],"foo":1}`, "", ErrUnsupportedCritical},
		{"absent", `{"alg":"HS256","crit":["exp"]}`, "", ErrMalformed},
		{"registered", `{"alg":"HS256","crit":["kid"],"kid":"a"}`, "", ErrMalformed},
		{"registered JWE name", `{"alg":"dir","crit":["enc"],"enc":"A128GCM"}`, "", ErrMalformed},
		{"in the unprotected header", `{"alg":"HS256"}`, `{"crit":["exp"],"exp":1}`, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var u *Header
			if tt.u != "" {
				u = hdr(t, tt.u)
			}
			err := CheckCritical(hdr(t, tt.p), understood, u, nil)
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("CheckCritical = %v, want %v", err, tt.want)
			}
		})
	}
	// ParseHeader refuses these; a caller can still build them by hand.
	for _, crit := range [][]string{{}, {"exp", "exp"}} {
		h := &Header{Algorithm: "HS256", Critical: crit, Extra: map[string]json.RawMessage{"exp": json.RawMessage("1")}}
		if err := CheckCritical(h, understood); !errors.Is(err, ErrMalformed) {
			t.Errorf("CheckCritical(crit %q) = %v, want ErrMalformed", crit, err)
		}
	}
}
