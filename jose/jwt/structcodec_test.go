package jwt

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/internal/jsonx"
	"github.com/josebench/josebench/jose/jwa"
)

// richClaims has a field of every kind a plan handles, and some it leaves
// to encoding/json field by field.
type richClaims struct {
	Claims
	S        string            `json:"s"`
	SE       string            `json:"se,omitempty"`
	B        bool              `json:"b"`
	I        int               `json:"i"`
	I8       int8              `json:"i8,omitempty"`
	U        uint32            `json:"u"`
	F        float64           `json:"f"`
	F32      float32           `json:"f32"`
	FE       float64           `json:"fe,omitempty"`
	L        []string          `json:"l"`
	LE       []string          `json:"le,omitempty"`
	LZ       []string          `json:"lz,omitzero"`
	M        map[string]int    `json:"m,omitempty"`
	P        *string           `json:"p,omitempty"`
	Nested   struct{ A int }   `json:"nested"`
	Raw      json.RawMessage   `json:"raw,omitempty"`
	Date     NumericDate       `json:"auth_time,omitempty"`
	Aud      Audience          `json:"other_aud,omitempty"`
	Renamed  string            // "Renamed"
	Skipped  string            `json:"-"`
	private  string            // ignored, as encoding/json does
	Iface    any               `json:"iface,omitempty"`
	Opts     map[string]string `json:",omitempty"`
	Empty    string            `json:",omitempty"`
	ZeroNum  int               `json:"zn,omitzero"`
	Fraction float64           `json:"tiny"`
}

// sameJSON reports whether got and want, JSON texts, hold the same value
// (members in any order); a got that is not JSON fails the test.
func sameJSON(t *testing.T, got, want []byte) bool {
	t.Helper()
	var a, b any
	if err := json.Unmarshal(got, &a); err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	if err := json.Unmarshal(want, &b); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(a, b)
}

func TestStructPlanMatchesEncodingJSON(t *testing.T) {
	p := planOf(reflect.TypeFor[richClaims]())
	if p == nil || p.claims != 0 || p.valid {
		t.Fatalf("plan %+v", p)
	}
	str := "pointed"
	values := []richClaims{
		{},
		{Claims: typicalClaims(), S: "a\"b\\c\n\u00e9<>&", B: true, I: -42, I8: 7, U: 4e9, F: 1.5, F32: 0.25, FE: 3,
			L: []string{"x", ""}, LE: []string{"y"}, LZ: []string{}, M: map[string]int{"k": 1}, P: &str, Raw: json.RawMessage(`{"r":[1,2]}`),
			Date: NewNumericDate(testNow), Aud: Audience{"o"}, Renamed: "r", Skipped: "never", private: "never", Iface: []any{"v", 1.0},
			Opts: map[string]string{"a": "b"}, Empty: "e", ZeroNum: 1, Fraction: 1e-7},
		{F: 1e21, F32: 1e21, Fraction: -2.5e-10, I: math.MinInt64 + 1, U: math.MaxUint32, L: []string{}},
	}
	for i, v := range values {
		got, err := p.appendStruct(nil, reflect.ValueOf(v))
		if err != nil {
			t.Fatal(err)
		}
		// Addressable (a pointer signed), the string fields and the
		// embedded Claims are read through their offsets: the same bytes.
		if viaOffsets, err := p.appendStruct(nil, reflect.ValueOf(&v).Elem()); err != nil || string(viaOffsets) != string(got) {
			t.Fatalf("%d: through the offsets\n%s (%v)\nby value\n%s", i, viaOffsets, err, got)
		}
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if !sameJSON(t, got, want) {
			t.Fatalf("%d: plan wrote\n%s\nencoding/json\n%s", i, got, want)
		}
		if err := jsonx.Valid(got, jsonx.Limits{}); err != nil {
			t.Fatalf("%d: %v", i, err)
		}

		// Decoding: the plan gives what encoding/json gives.
		var viaPlan, viaJSON richClaims
		var sink privateSink
		sink.plan = p
		var c Claims
		if err := parseClaims(want, defaultJSONLimits, &c, &sink); err != nil {
			t.Fatal(err)
		}
		if err := sink.decode(want, defaultJSONLimits, reflect.ValueOf(&viaPlan).Elem(), &c); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(want, &viaJSON); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(viaPlan, viaJSON) {
			t.Fatalf("%d: plan decoded\n%+v\nencoding/json\n%+v", i, viaPlan, viaJSON)
		}
		// The second-scan path (more members than the sink records).
		var viaScan richClaims
		if err := p.decodeStruct(want, defaultJSONLimits, reflect.ValueOf(&viaScan).Elem()); err != nil {
			t.Fatal(err)
		}
		viaScan.Claims = c
		if !reflect.DeepEqual(viaScan, viaJSON) {
			t.Fatalf("%d: scan decoded\n%+v\nencoding/json\n%+v", i, viaScan, viaJSON)
		}
	}
	if _, err := p.appendStruct(nil, reflect.ValueOf(richClaims{F: math.NaN()})); err == nil {
		t.Fatal("NaN encoded")
	}
	if _, err := p.appendStruct(nil, reflect.ValueOf(richClaims{F32: float32(math.Inf(1))})); err == nil {
		t.Fatal("Inf encoded")
	}
	if _, err := p.appendStruct(nil, reflect.ValueOf(richClaims{Iface: func() {}})); err == nil {
		t.Fatal("func encoded")
	}
}

// TestStructPlanDecodeRefusals: a private claim that does not fit its
// field is an error, as with encoding/json; null leaves a field as is.
func TestStructPlanDecodeRefusals(t *testing.T) {
	p := planOf(reflect.TypeFor[richClaims]())
	for _, in := range []string{
		`{"s":1}`, `{"b":"true"}`, `{"i":1.5}`, `{"i":"1"}`, `{"i8":300}`, `{"u":-1}`, `{"u":"x"}`, `{"f":"1"}`,
		`{"f32":1e39}`, `{"l":"a"}`, `{"l":[1]}`, `{"m":[]}`, `{"nested":1}`, `{"s":"\ud800"}`, `{"l":["\ud800"]}`,
	} {
		var c Claims
		sink := privateSink{plan: p}
		if err := parseClaims([]byte(in), defaultJSONLimits, &c, &sink); err != nil {
			continue // refused by the claims reader already
		}
		var v richClaims
		if err := sink.decode([]byte(in), defaultJSONLimits, reflect.ValueOf(&v).Elem(), &c); err == nil {
			t.Errorf("%s decoded: %+v", in, v)
		}
		if err := p.decodeStruct([]byte(in), defaultJSONLimits, reflect.ValueOf(&v).Elem()); err == nil {
			t.Errorf("%s decoded by the scan", in)
		}
	}
	v := richClaims{S: "kept", I: 3, L: []string{"a"}}
	sink := privateSink{plan: p}
	in := []byte(`{"s":null,"i":null,"l":null,"b":null}`)
	var c Claims
	if err := parseClaims(in, defaultJSONLimits, &c, &sink); err != nil {
		t.Fatal(err)
	}
	if err := sink.decode(in, defaultJSONLimits, reflect.ValueOf(&v).Elem(), &c); err != nil || v.S != "kept" || v.I != 3 || v.L != nil {
		t.Fatalf("null: %+v %v", v, err)
	}
}

type customJSON struct{ X int }

func (customJSON) MarshalJSON() ([]byte, error) { return []byte(`{"custom":true}`), nil }

type textName string

func (t textName) MarshalText() ([]byte, error) { return []byte(strings.ToUpper(string(t))), nil }

// TestStructPlanFallbacks: the types a plan does not describe go through
// encoding/json whole, and still work end to end.
func TestStructPlanFallbacks(t *testing.T) {
	type inner struct{ A string }
	type withInner struct {
		Claims
		inner
	}
	type stringOpt struct {
		Claims
		N int `json:"n,string"`
	}
	type collide struct {
		Claims
		Scope  string `json:"scope"`
		Scope2 string `json:"SCOPE"`
	}
	type registeredName struct {
		Exp int64 `json:"exp"`
	}
	type zeroOther struct {
		Claims
		T time.Time `json:"t,omitzero"`
	}
	type claimsTagged struct {
		Claims `json:"c"`
	}
	for name, typ := range map[string]reflect.Type{
		"embedded other":  reflect.TypeFor[withInner](),
		",string":         reflect.TypeFor[stringOpt](),
		"case collision":  reflect.TypeFor[collide](),
		"registered name": reflect.TypeFor[registeredName](),
		"omitzero other":  reflect.TypeFor[zeroOther](),
		"tagged Claims":   reflect.TypeFor[claimsTagged](),
		"own marshaler":   reflect.TypeFor[customJSON](),
		"not a struct":    reflect.TypeFor[map[string]any](),
	} {
		if p := planOf(typ); p != nil {
			t.Errorf("%s: has a plan", name)
		}
	}
	if p := planOf(reflect.TypeFor[struct {
		N textName `json:"n"`
	}]()); p == nil || p.fields[0].kind != kindOther {
		t.Error("a TextMarshaler field is not left to encoding/json")
	}

	s := mustSigner(t, jwa.HS256, hsKey, nil)
	v := hsValidator(t, ValidatorOptions{})
	in := stringOpt{Claims: typicalClaims(), N: 42}
	tok := mustSign(t, s, &in)
	var out stringOpt
	if _, err := v.Validate(tok, &out); err != nil || out.N != 42 || out.Issuer != in.Issuer {
		t.Fatalf("fallback round trip: %+v %v", out, err)
	}
	// A plan struct without an embedded Claims: its output is checked.
	type plain struct {
		Scope string `json:"scope"`
		Exp   int64  `json:"e"`
	}
	if _, err := s.Sign(plain{Scope: "x"}); err != nil {
		t.Fatal(err)
	}
	// More private claims than the sink records: decoded by a second scan.
	type many struct {
		Claims
		A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q string
	}
	m := many{Claims: typicalClaims(), A: "a", Q: "q", H: "h"}
	var got many
	if _, err := v.Validate(mustSign(t, s, &m), &got); err != nil || got.A != "a" || got.Q != "q" || got.H != "h" || got.Issuer != m.Issuer {
		t.Fatalf("many: %+v %v", got, err)
	}
	var bad struct {
		Claims
		A int
	}
	if _, err := v.Validate(mustSign(t, s, &m), &bad); !errors.Is(err, ErrMalformedClaims) {
		t.Fatalf("string into int: %v", err)
	}
	if p := planOf(reflect.TypeFor[many]()); !p.valid {
		t.Fatal("many is a valid plan")
	}
}

type alwaysZero string

func (alwaysZero) IsZero() bool { return true }

// TestStructPlanTagEdgeCases: a tag name encoding/json finds invalid
// (it then uses the Go field name) and an omitzero field whose type has
// its own IsZero method are written and read as encoding/json does.
func TestStructPlanTagEdgeCases(t *testing.T) {
	type badTag struct {
		Claims
		X string `json:"a\"b"`
		Y string `json:"ok,omitempty"`
	}
	type ownZero struct {
		Claims
		Z alwaysZero `json:"z,omitzero"`
	}
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	v := hsValidator(t, ValidatorOptions{AnyAudience: true, ExpiryOptional: true})
	for _, in := range []any{&badTag{X: "x", Y: "y"}, &ownZero{Z: "z"}} {
		want, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		tok := mustSign(t, s, in)
		got, err := v.Validate(tok, nil)
		if err != nil {
			t.Fatal(err)
		}
		if string(got.Payload) != string(want) {
			t.Errorf("%T: signed %s, encoding/json writes %s", in, got.Payload, want)
		}
		// Decoding encoding/json's text gives encoding/json's value.
		viaJSON := reflect.New(reflect.TypeOf(in).Elem()).Interface()
		if err := json.Unmarshal(want, viaJSON); err != nil {
			t.Fatal(err)
		}
		viaV := reflect.New(reflect.TypeOf(in).Elem()).Interface()
		if _, err := v.Validate(signRaw(t, want), viaV); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(viaV, viaJSON) {
			t.Errorf("%T: decoded %+v, encoding/json %+v", in, viaV, viaJSON)
		}
	}
}

// offsetClaims puts the embedded Claims after other fields, so that its
// offset is not 0, beside string fields of a named type, omitted or not.
type offsetClaims struct {
	N     int       `json:"n"`
	Scope scopeName `json:"scope"`
	Claims
	Empty  scopeName `json:"empty,omitempty"`
	Zero   string    `json:"zero,omitzero"`
	Last   string    `json:"last"`
	Absent string    `json:"absent,omitempty"`
}

type scopeName string

// TestPlanOffsets: a plan reads and writes the string fields and the
// embedded Claims of a struct through their offsets (appendStruct for a
// pointer, privateSink.decode): at any offset, of a named string type, and
// omitted when empty as encoding/json omits them; and through Sign and
// Validate the struct comes back as it was.
func TestPlanOffsets(t *testing.T) {
	p := planOf(reflect.TypeFor[offsetClaims]())
	if p == nil || !p.valid || p.claimsOffset == 0 {
		t.Fatalf("plan %+v", p)
	}
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	v := hsValidator(t, ValidatorOptions{Issuers: []string{"https://issuer.example"}})
	for i, in := range []offsetClaims{
		{N: 1, Scope: "read", Claims: typicalClaims(), Empty: "e", Zero: "z", Last: "l"},
		{N: 2, Scope: "a\"b", Claims: typicalClaims(), Last: "\u00e9"},
		{Claims: typicalClaims()},
	} {
		want, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, claims := range []any{&in, in} {
			got, err := encodeClaims(nil, claims)
			if err != nil {
				t.Fatal(err)
			}
			if !sameJSON(t, got, want) {
				t.Fatalf("%d (%T): plan wrote\n%s\nencoding/json\n%s", i, claims, got, want)
			}
		}
		var out offsetClaims
		if _, err := v.Validate(mustSign(t, s, &in), &out); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(out, in) {
			t.Errorf("%d: decoded\n%+v\nsigned\n%+v", i, out, in)
		}
	}
}

// TestPlanOffsetsConcurrent: goroutines signing and validating structs of
// two types with different layouts (the embedded Claims at offset 0 and
// not), so that lastPlan changes between them all the time, each read
// and write through the offsets of its own type's plan: every struct
// comes back as it was signed (run with -race and -d=checkptr).
func TestPlanOffsetsConcurrent(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	v := hsValidator(t, ValidatorOptions{Issuers: []string{"https://issuer.example"}})
	at := typicalAccessToken()
	oc := offsetClaims{N: 1, Scope: "read", Claims: typicalClaims(), Empty: "e", Zero: "z", Last: "l"}
	// sign returns the token of claims, or one that does not validate
	// (t.Fatal is for the test's goroutine only).
	sign := func(claims any) []byte {
		tok, err := s.Sign(claims)
		if err != nil {
			return []byte(err.Error())
		}
		return tok
	}
	done := make(chan error, 4)
	for g := range 4 {
		go func() {
			for i := range 200 {
				var err error
				if (g+i)%2 == 0 {
					var out accessToken
					if _, err = v.Validate(sign(&at), &out); err == nil && !reflect.DeepEqual(out, at) {
						err = errors.New("accessToken decoded as " + out.Scope + "/" + out.ClientID)
					}
				} else {
					var out offsetClaims
					if _, err = v.Validate(sign(&oc), &out); err == nil && !reflect.DeepEqual(out, oc) {
						err = errors.New("offsetClaims decoded as " + string(out.Scope) + "/" + out.Last)
					}
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
