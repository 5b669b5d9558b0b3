package jwt

import (
	"reflect"
	"testing"

	"github.com/josebench/josebench/jose/jwa"
)

// hiddenClaims is Claims under an unexported alias, so that a struct
// embedding it has an unexported embedded field of type Claims (whose
// exported fields encoding/json still promotes).
type hiddenClaims = Claims

// hiddenPlan embeds Claims unexported, beside plain fields (a plan).
type hiddenPlan struct {
	hiddenClaims
	Scope string `json:"scope"`
}

// hiddenOther embeds Claims unexported, beside a field the plan leaves
// to encoding/json.
type hiddenOther struct {
	hiddenClaims
	Extra map[string]int `json:"extra"`
}

// hiddenJSON embeds Claims unexported, in a struct with no plan (the
// ",string" option): encoding/json encodes and decodes it.
type hiddenJSON struct {
	hiddenClaims
	N int `json:"n,string"`
}

// TestUnexportedEmbeddedClaims: a struct that embeds Claims through an
// unexported alias signs by value and by pointer alike, and validates
// into its Claims, through a plan or encoding/json, rather than making
// reflect panic (reflect.Value.Interface of an unexported field).
func TestUnexportedEmbeddedClaims(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	v := hsValidator(t, ValidatorOptions{Issuers: []string{"https://issuer.example"}})
	for _, c := range []struct {
		in  any
		out func() any
	}{
		{hiddenPlan{hiddenClaims: typicalClaims(), Scope: "read"}, func() any { return new(hiddenPlan) }},
		{hiddenOther{hiddenClaims: typicalClaims(), Extra: map[string]int{"a": 1}}, func() any { return new(hiddenOther) }},
		{hiddenJSON{hiddenClaims: typicalClaims(), N: 7}, func() any { return new(hiddenJSON) }},
	} {
		ptr := reflect.New(reflect.TypeOf(c.in))
		ptr.Elem().Set(reflect.ValueOf(c.in))
		var toks []string
		for _, claims := range []any{c.in, ptr.Interface()} {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%T: Sign panicked: %v", claims, r)
					}
				}()
				toks = append(toks, string(mustSign(t, s, claims)))
			}()
		}
		if len(toks) != 2 || toks[0] != toks[1] {
			t.Errorf("%T: by value and by pointer: %q", c.in, toks)
			continue
		}
		out := c.out()
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%T: Validate panicked: %v", out, r)
				}
			}()
			if _, err := v.Validate([]byte(toks[0]), out); err != nil {
				t.Errorf("%T: %v", out, err)
			}
		}()
		if got := reflect.ValueOf(out).Elem().Interface(); !reflect.DeepEqual(got, c.in) {
			t.Errorf("decoded\n%+v\nsigned\n%+v", got, c.in)
		}
	}
}
