package jwt

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// Validate decodes into the caller's own variable: encoding/json merges
// into its maps, pointers and fields, the fields decoded before a failure
// stay set, what encoding/json does not write (unexported fields, fields
// tagged "-", a mutex another goroutine holds) is left alone, and a dst
// that is not a pointer is refused in encoding/json's words. These tests
// pin that for any change to how dst is reached (a copy of dst decoded
// and copied back, tried on 2026-12-04 to keep dst from escaping, lost
// writes and locks there: see BenchmarkRatio's doc).

// mergeDst goes through encoding/json as a whole (an embedded struct
// other than Claims, which a plan does not take); Role has its own
// UnmarshalJSON.
type mergeDst struct {
	Claims
	embeddedMixin
	Role  upperRole         `json:"role"`
	Extra map[string]string `json:"extra"`
	Ptr   *int              `json:"ptr"`
	Kept  string            `json:"kept"`
}

type upperRole string

func (r *upperRole) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*r = upperRole(strings.ToUpper(s))
	return nil
}

// planMergeDst has a plan, with a map field decoded by encoding/json on
// its own (kindOther) and a slice of a named string type (kindStrings).
type planMergeDst struct {
	Claims
	Extra map[string]string `json:"extra"`
	Roles []upperRoleName   `json:"roles"`
	Kept  string            `json:"kept"`
	Sub   partialSub        `json:"part"`
}

type partialSub struct {
	B string `json:"b"`
	C int    `json:"c"`
}

type upperRoleName string

func TestValidateDstMerges(t *testing.T) {
	v := hsValidator(t, ValidatorOptions{AnyAudience: true})
	tok := signRaw(t, []byte(`{"exp":9999999999,"role":"admin","extra":{"b":"2"},"ptr":7,"roles":["r1","r2"]}`))

	n := 1
	m := map[string]string{"a": "1"}
	d := mergeDst{Extra: m, Ptr: &n, Kept: "kept"}
	if _, err := v.Validate(tok, &d); err != nil {
		t.Fatal(err)
	}
	if d.Role != "ADMIN" || d.Kept != "kept" || d.Ptr != &n || n != 7 || d.Expiry.Unix() != 9999999999 {
		t.Errorf("through encoding/json: %+v, *Ptr %d", d, n)
	}
	if reflect.ValueOf(d.Extra).UnsafePointer() != reflect.ValueOf(m).UnsafePointer() || len(m) != 2 || m["b"] != "2" {
		t.Errorf("through encoding/json: the map was not merged into: %v, %v", d.Extra, m)
	}

	if planOf(reflect.TypeFor[mergeDst]()) != nil || planOf(reflect.TypeFor[planMergeDst]()) == nil {
		t.Fatal("mergeDst has a plan, or planMergeDst has none")
	}
	m2 := map[string]string{"a": "1"}
	p := planMergeDst{Extra: m2, Kept: "kept"}
	if _, err := v.Validate(tok, &p); err != nil {
		t.Fatal(err)
	}
	if p.Kept != "kept" || !reflect.DeepEqual(p.Roles, []upperRoleName{"r1", "r2"}) || len(p.Roles) != cap(p.Roles) || p.Expiry.Unix() != 9999999999 {
		t.Errorf("through the plan: %+v", p)
	}
	if reflect.ValueOf(p.Extra).UnsafePointer() != reflect.ValueOf(m2).UnsafePointer() || len(m2) != 2 || m2["b"] != "2" {
		t.Errorf("through the plan: the map was not merged into: %v, %v", p.Extra, m2)
	}
	// null empties a []string field, as encoding/json does.
	if _, err := v.Validate(signRaw(t, []byte(`{"exp":9999999999,"roles":null}`)), &p); err != nil || p.Roles != nil {
		t.Errorf("roles null: %v, %v", err, p.Roles)
	}
}

// TestValidateDstPartial: a claims set that encoding/json fails on midway
// leaves the members decoded before the failure in dst, as decoding into
// dst itself did.
func TestValidateDstPartial(t *testing.T) {
	v := hsValidator(t, ValidatorOptions{AnyAudience: true})
	tok := signRaw(t, []byte(`{"exp":9999999999,"kept":"new","role":7}`))
	d := mergeDst{Kept: "old"}
	if _, err := v.Validate(tok, &d); !errors.Is(err, ErrMalformedClaims) {
		t.Fatalf("role 7: %v", err)
	}
	var want mergeDst
	wantErr := json.Unmarshal([]byte(`{"exp":9999999999,"kept":"new","role":7}`), &want)
	if wantErr == nil || d.Kept != want.Kept {
		t.Errorf("after the failure: Kept %q, encoding/json's %q (%v)", d.Kept, want.Kept, wantErr)
	}
	// A field the plan hands to encoding/json alone, which fails in it
	// after setting a part of it.
	p := planMergeDst{Sub: partialSub{B: "old"}}
	if _, err := v.Validate(signRaw(t, []byte(`{"exp":9999999999,"part":{"b":"new","c":"x"}}`)), &p); !errors.Is(err, ErrMalformedClaims) {
		t.Fatalf("c \"x\": %v", err)
	}
	var wantSub partialSub
	if err := json.Unmarshal([]byte(`{"b":"new","c":"x"}`), &wantSub); err == nil || p.Sub != wantSub {
		t.Errorf("after the failure in a field: %+v, encoding/json's %+v (%v)", p.Sub, wantSub, err)
	}
}

// TestValidateDstNotPointer: a dst that is not a non-nil pointer is
// refused with encoding/json's error for it, and the error names its type
// as %T does.
func TestValidateDstNotPointer(t *testing.T) {
	v := hsValidator(t, ValidatorOptions{AnyAudience: true})
	payload := []byte(`{"exp":9999999999,"role":"admin"}`)
	tok := signRaw(t, payload)
	for _, dst := range []any{mergeDst{}, (*mergeDst)(nil), map[string]any{}} {
		_, err := v.Validate(tok, dst)
		want := json.Unmarshal(payload, dst)
		var ce *ClaimError
		if !errors.As(err, &ce) || want == nil || !strings.Contains(err.Error(), want.Error()) || !strings.Contains(ce.Detail, reflect.TypeOf(dst).String()) {
			t.Errorf("%T: %v, encoding/json says %v", dst, err, want)
		}
	}
}

// TestValidateDstIndirect: a *any and a pointer to a nil pointer are
// decoded as encoding/json decodes them (a map; a new struct).
func TestValidateDstIndirect(t *testing.T) {
	v := hsValidator(t, ValidatorOptions{AnyAudience: true})
	payload := []byte(`{"exp":9999999999,"role":"admin","kept":"k"}`)
	tok := signRaw(t, payload)
	var a, wantA any
	if _, err := v.Validate(tok, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(payload, &wantA); err != nil || !reflect.DeepEqual(a, wantA) {
		t.Errorf("*any: %v, encoding/json %v (%v)", a, wantA, err)
	}
	var p *mergeDst
	if _, err := v.Validate(tok, &p); err != nil {
		t.Fatal(err)
	}
	if p == nil || p.Role != "ADMIN" || p.Kept != "k" || p.Expiry.Unix() != 9999999999 {
		t.Errorf("**mergeDst: %+v", p)
	}
}

// duringDecode, when set, is called by a decodeHook's UnmarshalJSON: the
// caller's other goroutines (or code of its own) acting on dst while
// encoding/json decodes.
var duringDecode func()

type decodeHook int

func (h *decodeHook) UnmarshalJSON(b []byte) error {
	if duringDecode != nil {
		duringDecode()
	}
	return json.Unmarshal(b, (*int)(h))
}

type embeddedMixin struct{ Mixed string }

// stateful has what encoding/json never writes: a mutex, an unexported
// field, a field tagged "-", and a pointer the caller set to that field.
type stateful struct {
	mu   sync.Mutex
	n    int
	Skip int        `json:"-"`
	Self *int       `json:"self"`
	H    decodeHook `json:"h"`
}

// statefulWhole goes through encoding/json as a whole (embeddedMixin);
// statefulPlan has a plan, its stateful field decoded on its own.
type statefulWhole struct {
	Claims
	embeddedMixin
	stateful
}

type statefulPlan struct {
	Claims
	S stateful `json:"s"`
}

// TestValidateDstLeavesOtherFields: what encoding/json does not write in
// dst (a mutex locked meanwhile, an unexported field, a field tagged "-"
// written through a pointer that dst holds) is left as decoding into the
// variable leaves it (a copy of dst decoded and copied back would put
// back stale values).
func TestValidateDstLeavesOtherFields(t *testing.T) {
	v := hsValidator(t, ValidatorOptions{AnyAudience: true})
	defer func() { duringDecode = nil }()
	check := func(name string, s *stateful) {
		t.Helper()
		if s.mu.TryLock() {
			t.Errorf("%s: the mutex locked during the decoding is unlocked after it", name)
		}
		if s.n != 42 || s.Skip != 5 || *s.Self != 5 || s.H != 3 {
			t.Errorf("%s: n %d, Skip %d, *Self %d, H %d; want 42, 5, 5, 3", name, s.n, s.Skip, *s.Self, s.H)
		}
	}

	if planOf(reflect.TypeFor[statefulWhole]()) != nil || planOf(reflect.TypeFor[statefulPlan]()) == nil {
		t.Fatal("statefulWhole has a plan, or statefulPlan has none")
	}
	var w statefulWhole
	w.Self = &w.Skip
	duringDecode = func() { w.mu.Lock(); w.n = 42 }
	if _, err := v.Validate(signRaw(t, []byte(`{"exp":9999999999,"Mixed":"m","self":5,"h":3}`)), &w); err != nil {
		t.Fatal(err)
	}
	check("through encoding/json", &w.stateful)
	if w.Mixed != "m" || w.Expiry.Unix() != 9999999999 {
		t.Errorf("through encoding/json: Mixed %q, exp %v", w.Mixed, w.Expiry)
	}

	var p statefulPlan
	p.S.Self = &p.S.Skip
	duringDecode = func() { p.S.mu.Lock(); p.S.n = 42 }
	if _, err := v.Validate(signRaw(t, []byte(`{"exp":9999999999,"s":{"self":5,"h":3}}`)), &p); err != nil {
		t.Fatal(err)
	}
	check("through the plan", &p.S)
}

// registeredInside keeps its registered claims in an unexported field, which
// its Registered method returns: decodeInto sets them there.
type registeredInside struct {
	embeddedMixin
	c Claims
}

func (h *registeredInside) Registered() *Claims { return &h.c }

// TestValidateDstRegisteredUnexported: the Claims a Registered method
// returns from an unexported field, which encoding/json does not reach,
// are set.
func TestValidateDstRegisteredUnexported(t *testing.T) {
	v := hsValidator(t, ValidatorOptions{AnyAudience: true})
	var h registeredInside
	if _, err := v.Validate(signRaw(t, []byte(`{"exp":9999999999,"Mixed":"m"}`)), &h); err != nil {
		t.Fatal(err)
	}
	if h.Mixed != "m" || h.c.Expiry.Unix() != 9999999999 {
		t.Errorf("Mixed %q, the Claims Registered returns %+v", h.Mixed, h.c)
	}
}
