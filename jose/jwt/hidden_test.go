package jwt

import (
	"fmt"
	"reflect"
	"strings"
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

// Shapes of embedding for TestEmbeddingShapes: Claims reached through
// an unexported alias by pointer, two levels down (by value or pointer,
// under exported or unexported names), or through an embedded interface.
type (
	hiddenPtr struct {
		*hiddenClaims
		Scope string `json:"scope"`
	}
	hiddenInner struct{ hiddenClaims }
	HiddenInner struct{ hiddenClaims }
	hiddenTwo   struct {
		hiddenInner
		Scope string `json:"scope"`
	}
	hiddenTwoExported struct {
		HiddenInner
		Scope string `json:"scope"`
	}
	hiddenTwoPtr struct {
		*hiddenInner
		Scope string `json:"scope"`
	}
	hiddenTwoPtrExported struct {
		*HiddenInner
		Scope string `json:"scope"`
	}
	Registerer    interface{ Registered() *Claims }
	embeddedIface struct {
		Registerer
		Scope string `json:"scope"`
	}
	embeddedIfaceHidden struct {
		registered
		Scope string `json:"scope"`
	}
)

// TestEmbeddingShapes: none of these shapes makes Sign panic, by value or
// by pointer (both give the same token), and Validate and ValidateInto
// decode the registered claims into the Claims the struct reaches, or
// fail, as encoding/json does, where the Claims sit behind a nil pointer
// to an unexported type. (An embedded interface left nil panics, as
// encoding/json does with a method promoted through it: Registered is
// called.)
func TestEmbeddingShapes(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	v := hsValidator(t, ValidatorOptions{Issuers: []string{"https://issuer.example"}})
	tc := typicalClaims()
	tok := mustSign(t, s, hiddenPlan{hiddenClaims: tc, Scope: "read"})
	for _, in := range []any{
		hiddenPtr{&tc, "read"}, hiddenPtr{nil, "read"},
		hiddenTwo{hiddenInner{tc}, "read"}, hiddenTwoExported{HiddenInner{tc}, "read"},
		hiddenTwoPtr{&hiddenInner{tc}, "read"}, hiddenTwoPtr{nil, "read"},
		hiddenTwoPtrExported{&HiddenInner{tc}, "read"},
		embeddedIface{&tc, "read"}, embeddedIface{nil, "read"}, embeddedIfaceHidden{&tc, "read"},
	} {
		p := reflect.New(reflect.TypeOf(in))
		p.Elem().Set(reflect.ValueOf(in))
		var toks []string
		for _, c := range []any{in, p.Interface()} {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("Sign(%T %+v) panicked: %v", c, c, r)
					}
				}()
				b, err := s.Sign(c)
				toks = append(toks, string(b)+fmt.Sprint(err))
			}()
		}
		if len(toks) == 2 && toks[0] != toks[1] {
			t.Errorf("%T %+v: by value and by pointer: %q", in, in, toks)
		}
	}
	for _, c := range []struct {
		dst     func() any
		wantErr bool
	}{
		{func() any { return &hiddenPtr{hiddenClaims: new(Claims)} }, false},
		{func() any { return new(hiddenPtr) }, true},
		{func() any { return new(hiddenTwo) }, false},
		{func() any { return new(hiddenTwoExported) }, false},
		{func() any { return &hiddenTwoPtr{hiddenInner: new(hiddenInner)} }, false},
		{func() any { return new(hiddenTwoPtr) }, true},
		{func() any { return new(hiddenTwoPtrExported) }, false},
		{func() any { return &embeddedIface{Registerer: new(Claims)} }, false},
		{func() any { return &embeddedIfaceHidden{registered: new(Claims)} }, false},
	} {
		for _, into := range []bool{false, true} {
			dst := c.dst()
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("panicked: %v", r)
					}
				}()
				if into {
					err = v.ValidateInto(new(Token), tok, dst)
				} else {
					_, err = v.Validate(tok, dst)
				}
			}()
			switch {
			case c.wantErr && err == nil:
				t.Errorf("%T (ValidateInto %v): no error for a Claims behind a nil pointer to an unexported type", dst, into)
			case c.wantErr && strings.Contains(err.Error(), "panicked"), !c.wantErr && err != nil:
				t.Errorf("%T (ValidateInto %v): %v", dst, into, err)
			case !c.wantErr:
				got := *dst.(registered).Registered()
				if !reflect.DeepEqual(got, tc) || reflect.ValueOf(dst).Elem().FieldByName("Scope").String() != "read" {
					t.Errorf("%T (ValidateInto %v): decoded %+v", dst, into, dst)
				}
			}
		}
	}
}
