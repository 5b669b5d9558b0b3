package jwt

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unsafe"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose/internal/jsonx"
)

// The private claims of a plain struct are encoded and decoded here without
// encoding/json's per-call reflection: a struct whose fields are strings,
// booleans, numbers and string slices (and an embedded Claims) gets a plan,
// made once per type, that writes and reads its members directly. Fields of
// other types go through encoding/json one by one; types the plan cannot
// describe exactly (other embedded fields, the ",string" option, names that
// collide, types with their own JSON methods) go through encoding/json as a
// whole. A plan reads member names exactly as written, where encoding/json
// would also match them case-insensitively.

type fieldKind uint8

const (
	kindOther fieldKind = iota // through encoding/json
	kindString
	kindBool
	kindInt
	kindUint
	kindFloat
	kindStrings // []string
)

type fieldPlan struct {
	name      string
	key       string // `,"name":`
	index     int
	offset    uintptr // of the field in the struct (reflect.StructField.Offset)
	kind      fieldKind
	omitEmpty bool
	omitZero  bool
}

type structPlan struct {
	fields []fieldPlan
	claims int // index of the embedded Claims, or -1
	// claimsOffset is the offset of the embedded Claims in the struct,
	// when claims >= 0.
	claimsOffset uintptr
	// valid: what appendStruct writes is always a claims set parseClaims
	// accepts (an embedded Claims, no name of a registered claim, plain
	// fields only, within the default member limit), so Sign need not
	// check it again.
	valid bool
}

var plans sync.Map // reflect.Type → *structPlan (nil: use encoding/json)

var (
	claimsType      = reflect.TypeFor[Claims]()
	marshalerType   = reflect.TypeFor[json.Marshaler]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textMarshaler   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	zeroerType      = reflect.TypeFor[interface{ IsZero() bool }]()
)

// validTagName reports whether name, from a field's tag, is one that
// encoding/json takes as the member name in every Go release: letters,
// digits and the punctuation it allows. A struct with another tag name has
// no plan.
func validTagName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) && !strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c) {
			return false
		}
	}
	return true
}

// lastPlan is the plan planOf returned last: services issue and validate
// one claims type, which then skips the map.
var lastPlan atomic.Pointer[planEntry]

type planEntry struct {
	t reflect.Type
	p *structPlan
}

// planOf returns the plan of struct type t, or nil if t must go through
// encoding/json.
func planOf(t reflect.Type) *structPlan {
	if e := lastPlan.Load(); e != nil && e.t == t {
		return e.p
	}
	var p *structPlan
	if v, ok := plans.Load(t); ok {
		p = v.(*structPlan)
	} else {
		p = makePlan(t)
		plans.Store(t, p)
	}
	lastPlan.Store(&planEntry{t, p})
	return p
}

func hasJSONMethods(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return t.Implements(marshalerType) || pt.Implements(marshalerType) || pt.Implements(unmarshalerType) ||
		t.Implements(textMarshaler) || pt.Implements(textMarshaler) || pt.Implements(textUnmarshaler)
}

func makePlan(t reflect.Type) *structPlan {
	if t.Kind() != reflect.Struct {
		return nil
	}
	// The promoted methods of an embedded Claims (Registered) are fine;
	// JSON methods of the struct itself are not.
	pt := reflect.PointerTo(t)
	if pt.Implements(marshalerType) || pt.Implements(unmarshalerType) || pt.Implements(textMarshaler) || pt.Implements(textUnmarshaler) {
		return nil
	}
	p := &structPlan{claims: -1}
	// The registered names are read by parseClaims, never as fields:
	// a struct with a field of such a name goes to encoding/json.
	names := map[string]bool{}
	for _, n := range []string{"iss", "sub", "aud", "exp", "nbf", "iat", "jti"} {
		names[n] = true
	}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		if f.Anonymous {
			if f.Type == claimsType && tag == "" && p.claims < 0 {
				p.claims, p.claimsOffset = i, f.Offset
				continue
			}
			return nil
		}
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		switch {
		case name == "":
			name = f.Name
		case !validTagName(name):
			// encoding/json's treatment of such a tag differs between
			// Go releases (1.26 falls back to the field name, 1.27 does
			// not): let it decide.
			return nil
		}
		fp := fieldPlan{name: name, index: i, offset: f.Offset, key: string(jsonx.AppendString([]byte(","), name)) + ":"}
		for opts != "" {
			var o string
			o, opts, _ = strings.Cut(opts, ",")
			switch o {
			case "omitempty":
				fp.omitEmpty = true
			case "omitzero":
				fp.omitZero = true
			case "string":
				return nil
			}
		}
		if names[strings.ToLower(name)] || names[name] {
			return nil // a collision encoding/json resolves by its own rules
		}
		names[name], names[strings.ToLower(name)] = true, true
		if !hasJSONMethods(f.Type) {
			switch f.Type.Kind() {
			case reflect.String:
				fp.kind = kindString
			case reflect.Bool:
				fp.kind = kindBool
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				fp.kind = kindInt
			case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
				fp.kind = kindUint
			case reflect.Float32, reflect.Float64:
				fp.kind = kindFloat
			case reflect.Slice:
				if e := f.Type.Elem(); e.Kind() == reflect.String && !hasJSONMethods(e) {
					fp.kind = kindStrings
				}
			}
		}
		if fp.omitZero && (fp.kind == kindOther || f.Type.Implements(zeroerType) || reflect.PointerTo(f.Type).Implements(zeroerType)) {
			return nil // an IsZero method decides: leave it to encoding/json
		}
		p.fields = append(p.fields, fp)
	}
	p.valid = p.claims >= 0 && len(p.fields)+7 <= jsonx.DefaultMaxMembers
	for _, fp := range p.fields {
		p.valid = p.valid && fp.kind != kindOther
	}
	return p
}

// claimsAt returns the embedded Claims (p.claims >= 0) of the struct at
// base, a variable of the type p is the plan of (planOf): claimsOffset is
// that of a field of type Claims in that type. Through the address, not
// reflect, which does not hand out the field when its name is unexported
// (an alias of Claims), though encoding/json fills it and it is part of
// the caller's variable.
func (p *structPlan) claimsAt(base unsafe.Pointer) *Claims {
	return (*Claims)(unsafe.Add(base, p.claimsOffset))
}

// appendStruct appends the JSON object of v, a struct with plan p. When
// v is addressable (a pointer was signed), its string fields and its
// embedded Claims are read through their offsets (see privateSink.decode,
// claimsAt), the other fields by reflection. A struct signed by value whose embedded
// Claims has an unexported name (an alias), which reflect does not hand
// out, is copied to a variable of its own first.
func (p *structPlan) appendStruct(dst []byte, v reflect.Value) ([]byte, error) {
	if p.claims >= 0 && !v.CanAddr() && !v.Field(p.claims).CanInterface() {
		a := reflect.New(v.Type()).Elem()
		a.Set(v)
		v = a
	}
	var base unsafe.Pointer
	if v.CanAddr() {
		base = unsafe.Pointer(v.UnsafeAddr())
	}
	start := len(dst)
	if p.claims >= 0 {
		var c *Claims
		if base != nil {
			c = p.claimsAt(base)
		} else {
			cv := v.Field(p.claims).Interface().(Claims)
			c = &cv
		}
		if ce := c.check(); ce != nil {
			return nil, ce
		}
		dst = c.appendMembers(dst)
	}
	// Each member is written after a comma (fieldPlan.key), the first of
	// which closeObject replaces.
	for i := range p.fields {
		fp := &p.fields[i]
		if fp.kind == kindString && base != nil {
			// omitempty and omitzero omit the same strings: "".
			s := *(*string)(unsafe.Add(base, fp.offset))
			if s == "" && (fp.omitEmpty || fp.omitZero) {
				continue
			}
			dst = jsonx.AppendString(append(dst, fp.key...), s)
			continue
		}
		f := v.Field(fp.index)
		if (fp.omitZero && f.IsZero()) || (fp.omitEmpty && isEmpty(f)) {
			continue
		}
		dst = append(dst, fp.key...)
		var err error
		if dst, err = fp.appendValue(dst, f); err != nil {
			if de := (*dateError)(nil); errors.As(err, &de) {
				return nil, de.d.claimError(fp.name, de.err)
			}
			return nil, fmt.Errorf("field %s: %w", fp.name, err)
		}
	}
	return closeObject(dst, start), nil
}

func isEmpty(f reflect.Value) bool {
	switch f.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return f.Len() == 0
	case reflect.Pointer, reflect.Interface:
		return f.IsNil()
	case reflect.Float32, reflect.Float64:
		return f.Float() == 0
	case reflect.Struct:
		return false
	}
	return f.IsZero()
}

func (fp *fieldPlan) appendValue(dst []byte, f reflect.Value) ([]byte, error) {
	switch fp.kind {
	case kindString:
		return jsonx.AppendString(dst, f.String()), nil
	case kindBool:
		return strconv.AppendBool(dst, f.Bool()), nil
	case kindInt:
		return strconv.AppendInt(dst, f.Int(), 10), nil
	case kindUint:
		return strconv.AppendUint(dst, f.Uint(), 10), nil
	case kindFloat:
		return appendFloat(dst, f.Float(), f.Type().Bits())
	case kindStrings:
		if f.IsNil() {
			return append(dst, "null"...), nil
		}
		dst = append(dst, '[')
		for i := range f.Len() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonx.AppendString(dst, f.Index(i).String())
		}
		return append(dst, ']'), nil
	}
	b, err := json.Marshal(f.Interface())
	if err != nil {
		return nil, err
	}
	return append(dst, b...), nil
}

// appendFloat writes f as encoding/json does (ES6 number formatting).
func appendFloat(dst []byte, f float64, bits int) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, errors.New("unsupported float value " + strconv.FormatFloat(f, 'g', -1, bits))
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21)) {
		format = 'e'
	}
	n := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, bits)
	if format == 'e' {
		// clean up e-09 to e-9
		if m := len(dst) - n; m >= 4 && dst[len(dst)-4] == 'e' && dst[len(dst)-3] == '-' && dst[len(dst)-2] == '0' {
			dst[len(dst)-2] = dst[len(dst)-1]
			dst = dst[:len(dst)-1]
		}
	}
	return dst, nil
}

// decode decodes the private members recorded by parseClaims into v, an
// addressable struct with plan s.plan, and sets its embedded Claims to c.
// A struct whose claims could not all be recorded is decoded with a second
// scan of data.
//
// The string fields and the embedded Claims are set through their offsets
// in the struct (fieldPlan.offset, claimsAt), which the plan read from v's
// type: the plan is that of v's type (planOf), so each offset is that of a
// field of the type the plan says, and v is addressable. The string fields
// are exported (the plan has no others), hence settable; the embedded
// Claims may have an unexported name (see claimsAt).
func (s *privateSink) decode(data []byte, lim jsonx.Limits, v reflect.Value, c *Claims) error {
	p := s.plan
	base := unsafe.Pointer(v.UnsafeAddr())
	if s.overflow {
		if err := p.decodeStruct(data, lim, v); err != nil {
			return err
		}
	} else {
		for _, r := range s.raw[:s.n] {
			fp := &p.fields[r.field]
			value := data[r.start:r.end]
			if r.plain && fp.kind == kindString {
				// A field of kind string, whatever its named type.
				*(*string)(unsafe.Add(base, fp.offset)) = s.pool.plain(value)
				continue
			}
			if err := fp.decodeValue(value, v.Field(fp.index), &s.pool, lim); err != nil {
				return &fieldError{fp.name, err}
			}
		}
	}
	if p.claims >= 0 {
		*p.claimsAt(base) = *c
	}
	return nil
}

// decodeStruct decodes the private members of data, a claims set that
// parseClaims accepted, into v, an addressable struct with plan p; the
// registered members are skipped (the caller sets the embedded Claims).
func (p *structPlan) decodeStruct(data []byte, lim jsonx.Limits, v reflect.Value) error {
	pool := stringPool{src: data}
	return jsonx.ScanObject(data, lim, func(name, raw []byte) error {
		for i := range p.fields {
			fp := &p.fields[i]
			if fp.name == string(name) {
				if err := fp.decodeValue(raw, v.Field(fp.index), &pool, lim); err != nil {
					return &fieldError{fp.name, err}
				}
				return nil
			}
		}
		return nil
	})
}

// fieldError is a private claim that does not fit its field.
type fieldError struct {
	claim string
	err   error
}

func (e *fieldError) Error() string {
	return "claim " + untrusted.Quote(e.claim) + ": " + untrusted.Error(e.err).Error()
}
func (e *fieldError) Unwrap() error { return e.err }

func (fp *fieldPlan) decodeValue(raw []byte, f reflect.Value, pool *stringPool, lim jsonx.Limits) error {
	if fp.kind != kindOther && jsonx.IsNull(raw) {
		if fp.kind == kindStrings {
			f.SetZero()
		}
		return nil // as encoding/json: null leaves a value unchanged
	}
	mismatch := func() error {
		return fmt.Errorf("%s cannot be decoded into %s", jsonx.KindOf(raw), f.Type())
	}
	switch fp.kind {
	case kindString:
		if jsonx.KindOf(raw) != jsonx.KindString {
			return mismatch()
		}
		s, err := pool.value(raw)
		if err != nil {
			return err
		}
		f.SetString(s)
		return nil
	case kindBool:
		b, err := jsonx.Bool(raw)
		if err != nil {
			return mismatch()
		}
		f.SetBool(b)
		return nil
	case kindInt:
		if jsonx.KindOf(raw) != jsonx.KindNumber {
			return mismatch()
		}
		n, err := strconv.ParseInt(string(raw), 10, f.Type().Bits())
		if err != nil {
			return fmt.Errorf("number %s does not fit %s", untrusted.Quote(raw), f.Type())
		}
		f.SetInt(n)
		return nil
	case kindUint:
		if jsonx.KindOf(raw) != jsonx.KindNumber {
			return mismatch()
		}
		n, err := strconv.ParseUint(string(raw), 10, f.Type().Bits())
		if err != nil {
			return fmt.Errorf("number %s does not fit %s", untrusted.Quote(raw), f.Type())
		}
		f.SetUint(n)
		return nil
	case kindFloat:
		if jsonx.KindOf(raw) != jsonx.KindNumber {
			return mismatch()
		}
		x, err := strconv.ParseFloat(string(raw), f.Type().Bits())
		if err != nil {
			return fmt.Errorf("number %s does not fit %s", untrusted.Quote(raw), f.Type())
		}
		f.SetFloat(x)
		return nil
	case kindStrings:
		if jsonx.KindOf(raw) != jsonx.KindArray {
			return mismatch()
		}
		var out []string
		err := jsonx.ScanArray(raw, jsonx.Limits{}, func(elem []byte) error {
			if jsonx.IsNull(elem) {
				out = append(out, "")
				return nil
			}
			if jsonx.KindOf(elem) != jsonx.KindString {
				return mismatch()
			}
			s, err := pool.value(elem)
			out = append(out, s)
			return err
		})
		if err != nil {
			return err
		}
		if out == nil {
			out = []string{}
		}
		s := reflect.MakeSlice(f.Type(), len(out), len(out))
		for i, e := range out {
			s.Index(i).SetString(e)
		}
		f.Set(s)
		return nil
	}
	if err := checkFoldedNames(raw, lim); err != nil {
		return err
	}
	return json.Unmarshal(raw, f.Addr().Interface())
}
