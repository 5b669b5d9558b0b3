package jsonx

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/josebench/josebench/internal/untrusted"
)

// jsonxValidTexts are accepted by Valid (and, being RFC 8259 texts, by
// encoding/json too).
var jsonxValidTexts = []string{
	`{}`, `[]`, `""`, `0`, `-0`, `1.5e+10`, `-1E-2`, `0.0`, `true`, `false`, `null`,
	" \t\r\n{} \t\r\n",
	`{"a":1,"b":[true,false,null,{"c":"d"}],"e":{"f":{}}}`,
	`["\"\\\/\b\f\n\r\t\u0000\u00e9\uD83D\uDE00"]`,
	`"é😀"`, `"\u0061"`, `{"a":1,"\u0062":2}`,
	`[1, 2 ,3]`, `{ "a" : 1 , "b" : 2 }`,
	`123456789012345678901234567890`, // any size is a number; Int64 checks range
}

// jsonxInvalidTexts are refused by Valid; the value is a fragment of the
// expected error message.
var jsonxInvalidTexts = []struct{ in, msg string }{
	{``, "unexpected end of input"},
	{` `, "unexpected end of input"},
	{`{`, "unexpected end of input"},
	{`{"a"`, "unexpected end of input"},
	{`{"a":`, "unexpected end of input"},
	{`{"a":1`, "unexpected end of input"},
	{`[1`, "unexpected end of input"},
	{`[`, "unexpected end of input"},
	{`"abc`, "unexpected end of input in string"},
	{`"\`, "unexpected end of input in string"},
	{`{"a":1,}`, "looking for a member name"},
	{`{,}`, "looking for a member name"},
	{`{a:1}`, "looking for a member name"},
	{`{'a':1}`, "looking for a member name"},
	{`{"a" 1}`, "after a member name"},
	{`{"a":1 "b":2}`, "after an object member"},
	{`[1,]`, "looking for the beginning of a value"},
	{`[1 2]`, "after an array element"},
	{`{} x`, "trailing data"},
	{`{}{}`, "trailing data"},
	{`1 2`, "trailing data"},
	{"\uFEFF{}", "looking for the beginning of a value"}, // byte order mark
	{"\v{}", "looking for the beginning of a value"},
	{`{"a":1}` + "\x00", "trailing data"},
	{`tru`, "invalid literal"},
	{`nul`, "invalid literal"},
	{`True`, "looking for the beginning of a value"},
	{`truex`, "trailing data"},
	{`NaN`, "looking for the beginning of a value"},
	{`01`, "trailing data"},
	{`-`, "invalid number"},
	{`-a`, "invalid number"},
	{`+1`, "looking for the beginning of a value"},
	{`.5`, "looking for the beginning of a value"},
	{`1.`, "no digit after the decimal point"},
	{`1.e3`, "no digit after the decimal point"},
	{`1e`, "no digit in the exponent"},
	{`1e+`, "no digit in the exponent"},
	{`0x10`, "trailing data"},
	{`"\x"`, "invalid escape"},
	{`"\'"`, "invalid escape"},
	{`"\u12"`, "invalid \\u escape"},
	{`"\u12g4"`, "invalid \\u escape"},
	{`"\uD800"`, "lone surrogate"},
	{`"\uD800x"`, "lone surrogate"},
	{`"\uD800\n"`, "lone surrogate"},
	{`"\uD800\u0041"`, "lone surrogate"},
	{`"\uDC00"`, "lone surrogate"},
	{`"\uDE00\uD83D"`, "lone surrogate"},
	{"\"a\tb\"", "control character"},
	{"\"a\nb\"", "control character"},
	{"\"\x00\"", "control character"},
	{"\"\xff\"", "invalid UTF-8"},
	{"\"\xc3\"", "invalid UTF-8"},
	{"\"\xc0\xaf\"", "invalid UTF-8"},     // overlong "/"
	{"\"\xed\xa0\x80\"", "invalid UTF-8"}, // surrogate encoded in UTF-8
	{`{"a":1,"a":2}`, `duplicate member name "a"`},
	{`{"a":1,"\u0061":2}`, `duplicate member name "a"`},
	{`{"\u0061":1,"a":2}`, `duplicate member name "a"`},
	{`{"é":1,"\u00e9":2}`, `duplicate member name "é"`},
	{`{"\/":1,"/":2}`, `duplicate member name "/"`},
	{`{"x":{"a":1,"a":2}}`, `duplicate member name "a"`},
	{`[{"a":1,"b":{"c":[{"d":1,"d":1}]}}]`, `duplicate member name "d"`},
	{`{"":1,"":2}`, `duplicate member name ""`},
}

func TestJSONXValid(t *testing.T) {
	for _, in := range jsonxValidTexts {
		if err := Valid([]byte(in), Limits{}); err != nil {
			t.Errorf("Valid(%q) = %v, want nil", in, err)
		}
		if !json.Valid([]byte(in)) {
			t.Errorf("encoding/json refuses %q: the test table is wrong", in)
		}
	}
}

func TestJSONXInvalid(t *testing.T) {
	for _, tc := range jsonxInvalidTexts {
		err := Valid([]byte(tc.in), Limits{})
		if err == nil {
			t.Errorf("Valid(%q) = nil, want error containing %q", tc.in, tc.msg)
			continue
		}
		if !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Valid(%q) = %q, want error containing %q", tc.in, err, tc.msg)
		}
		// Internal: no package prefix, which callers would nest under theirs.
		if !strings.HasPrefix(err.Error(), "invalid JSON: ") && !strings.HasPrefix(err.Error(), "duplicate member name ") {
			t.Errorf("Valid(%q) error %q begins with neither \"invalid JSON: \" nor \"duplicate member name \"", tc.in, err)
		}
		var se *SyntaxError
		var de *DuplicateError
		if !errors.As(err, &se) && !errors.As(err, &de) {
			t.Errorf("Valid(%q) = %T, want *SyntaxError or *DuplicateError", tc.in, err)
		}
	}
}

func TestJSONXSyntaxErrorOffset(t *testing.T) {
	err := Valid([]byte(`{"a":1,"b":tru}`), Limits{})
	var se *SyntaxError
	if !errors.As(err, &se) || se.Offset != 11 {
		t.Fatalf("got %v, want *SyntaxError at offset 11", err)
	}
	err = Valid([]byte(`{"a":1,"a":2}`), Limits{})
	var de *DuplicateError
	if !errors.As(err, &de) || de.Offset != 7 || de.Name != "a" {
		t.Fatalf("got %#v, want *DuplicateError for \"a\" at offset 7", err)
	}
}

func TestJSONXDepth(t *testing.T) {
	nest := func(n int, open, close string) []byte {
		return []byte(strings.Repeat(open, n) + strings.Repeat(close, n))
	}
	for _, tc := range []struct {
		name        string
		open, close string
	}{
		{"arrays", "[", "]"},
		{"objects", `{"a":`, "0}"},
	} {
		lim := Limits{MaxDepth: 5}
		// {"a":{"a":...0}} has one more level than "{": n opens, depth n.
		if err := Valid(nest(5, tc.open, tc.close), lim); err != nil && tc.name == "arrays" {
			t.Errorf("%s: depth 5 refused: %v", tc.name, err)
		}
		err := Valid(nest(6, tc.open, tc.close), lim)
		var le *LimitError
		if !errors.As(err, &le) || le.Limit != "depth" || le.Max != 5 {
			t.Errorf("%s: depth 6: got %v, want depth LimitError", tc.name, err)
		}
	}
	// The objects variant of depth 5 is valid JSON: check exactly.
	if err := Valid([]byte(`{"a":{"a":{"a":{"a":{"a":0}}}}}`), Limits{MaxDepth: 5}); err != nil {
		t.Errorf("object depth 5 refused: %v", err)
	}
	// A million opening brackets are refused at the limit, not by running
	// out of stack.
	err := Valid([]byte(strings.Repeat("[", 1e6)), Limits{})
	var le *LimitError
	if !errors.As(err, &le) || le.Offset != DefaultMaxDepth {
		t.Errorf("deep input: got %v, want depth LimitError at offset %d", err, DefaultMaxDepth)
	}
	if !strings.Contains(err.Error(), "nesting deeper than 32") {
		t.Errorf("message %q", err)
	}
}

func jsonxBigObject(n int, dupAt int) []byte {
	b := []byte{'{'}
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		k := i
		if i == dupAt {
			k = 0
		}
		b = append(b, `"m`...)
		b = strconv.AppendInt(b, int64(k), 10)
		b = append(b, `":{"x":1}`...)
	}
	return append(b, '}')
}

func TestJSONXMembers(t *testing.T) {
	lim := Limits{MaxMembers: 1000}
	for _, n := range []int{0, 1, smallObject - 1, smallObject, smallObject + 1, 1000} {
		if err := Valid(jsonxBigObject(n, -1), lim); err != nil {
			t.Errorf("%d members: %v", n, err)
		}
		// Duplicates are found whichever side of the small/map threshold.
		if n > 1 {
			err := Valid(jsonxBigObject(n, n-1), lim)
			var de *DuplicateError
			if !errors.As(err, &de) || de.Name != "m0" {
				t.Errorf("%d members, last duplicate: got %v", n, err)
			}
		}
	}
	// Nested objects are bounded too.
	inner := jsonxBigObject(1001, -1)
	outer := append(append([]byte(`{"a":`), inner...), '}')
	for _, in := range [][]byte{inner, outer} {
		err := Valid(in, lim)
		var le *LimitError
		if !errors.As(err, &le) || le.Limit != "members" || le.Max != 1000 {
			t.Errorf("1001 members: got %v, want members LimitError", err)
		}
		if !strings.Contains(err.Error(), "more than 1000 members") {
			t.Errorf("message %q", err)
		}
	}
	// The member limit is checked before the rest is scanned: an object of
	// 100,000 members costs about the same as one of MaxMembers.
	huge := jsonxBigObject(100000, -1)
	allocs := testing.AllocsPerRun(5, func() {
		if Valid(huge, Limits{MaxMembers: 64}) == nil {
			t.Fatal("huge object accepted")
		}
	})
	if allocs > 64+16 { // at most one name per member kept, the map, the error
		t.Errorf("refusing a 100,000-member object: %v allocations", allocs)
	}
}

func TestJSONXScanObject(t *testing.T) {
	in := []byte(` {"a" : "x", "b\u0063":[1, {"d":null}] ,"e":-1.5e3} `)
	got, err := ParseObject(in, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Member{{"a", []byte(`"x"`)}, {"bc", []byte(`[1, {"d":null}]`)}, {"e", []byte(`-1.5e3`)}}
	if len(got) != len(want) {
		t.Fatalf("got %d members, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Name != want[i].Name || string(got[i].Value) != string(want[i].Value) {
			t.Errorf("member %d: got %q=%s, want %q=%s", i, got[i].Name, got[i].Value, want[i].Name, want[i].Value)
		}
	}
	for _, in := range []string{`[]`, `"a"`, `1`, `null`} {
		err := ScanObject([]byte(in), Limits{}, nil)
		var te *TypeError
		if !errors.As(err, &te) || te.Want != "object" {
			t.Errorf("ScanObject(%s) = %v, want TypeError", in, err)
		}
	}
	if _, err := ParseObject([]byte(`{"a":1}x`), Limits{}); err == nil {
		t.Error("trailing data accepted")
	}
	if _, err := ParseObject(nil, Limits{}); err == nil {
		t.Error("empty input accepted")
	}
	stop := errors.New("stop")
	n := 0
	err = ScanObject([]byte(`{"a":1,"b":2}`), Limits{}, func(name, value []byte) error {
		n++
		return stop
	})
	if err != stop || n != 1 {
		t.Errorf("callback error: got %v after %d calls", err, n)
	}
}

func TestJSONXScanArray(t *testing.T) {
	var got []string
	err := ScanArray([]byte(` [1, "a" ,{"b":[]}] `), Limits{}, func(elem []byte) error {
		got = append(got, string(elem))
		return nil
	})
	if err != nil || strings.Join(got, "|") != `1|"a"|{"b":[]}` {
		t.Errorf("got %q, %v", got, err)
	}
	if err := ScanArray([]byte(`{}`), Limits{}, nil); err == nil {
		t.Error("object accepted as array")
	}
	if err := ScanArray([]byte(``), Limits{}, nil); err == nil {
		t.Error("empty input accepted as array")
	}
	if err := ScanArray([]byte(`[1]]`), Limits{}, nil); err == nil {
		t.Error("trailing data accepted")
	}
	if err := ScanArray([]byte(`[[[1]]]`), Limits{MaxDepth: 2}, nil); err == nil {
		t.Error("depth limit ignored")
	}
}

func TestJSONXString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`""`, ""},
		{`"abc"`, "abc"},
		{`"\"\\\/\b\f\n\r\t"`, "\"\\/\b\f\n\r\t"},
		{`"\u0041\u00e9\u20AC\uD83D\uDE00"`, "Aé€😀"},
		{`"a\u0000b"`, "a\x00b"},
		{`"é😀"`, "é😀"},
		{`"x\ny\u0041z"`, "x\ny" + "Az"},
	} {
		got, err := String([]byte(tc.in))
		if err != nil || got != tc.want {
			t.Errorf("String(%s) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{``, `1`, `null`, `"a`, `"a"b`, `"a" `, `"\uD800"`, "\"\xff\""} {
		if got, err := String([]byte(in)); err == nil {
			t.Errorf("String(%q) = %q, want error", in, got)
		}
	}
	_, err := String([]byte(`123`))
	var te *TypeError
	if !errors.As(err, &te) || te.Got != KindNumber || err.Error() != "must be a string, not a number" {
		t.Errorf("String(123) = %v", err)
	}
	// No escape: the result aliases the input and nothing is allocated.
	raw := []byte(`"HS256"`)
	if n := testing.AllocsPerRun(100, func() { _, _ = StringBytes(raw) }); n != 0 {
		t.Errorf("StringBytes without escapes: %v allocations", n)
	}
}

func TestJSONXStringArray(t *testing.T) {
	got, err := StringArray([]byte(`["a", "b\u0063", ""]`))
	if err != nil || len(got) != 3 || got[0] != "a" || got[1] != "bc" || got[2] != "" {
		t.Errorf("got %q, %v", got, err)
	}
	got, err = StringArray([]byte(`[]`))
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("empty array: got %#v, %v", got, err)
	}
	for _, in := range []string{`"a"`, `{}`, `[1]`, `["a",null]`, `[["a"]]`, `[{"a":1}]`, `["a"`, `["\uD800"]`, ``} {
		if got, err := StringArray([]byte(in)); err == nil {
			t.Errorf("StringArray(%s) = %q, want error", in, got)
		}
	}
}

func TestJSONXInt(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"0", 0}, {"-0", 0}, {"1", 1}, {"-1", -1}, {"600000", 600000},
		{"9223372036854775807", math.MaxInt64},
		{"-9223372036854775808", math.MinInt64},
	} {
		got, err := Int64([]byte(tc.in))
		if err != nil || got != tc.want {
			t.Errorf("Int64(%s) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
		gi, err := Int([]byte(tc.in))
		if err != nil || int64(gi) != tc.want {
			t.Errorf("Int(%s) = %d, %v; want %d", tc.in, gi, err, tc.want)
		}
	}
	for _, tc := range []struct {
		in   string
		kind string // "type", "range" or "syntax"
	}{
		{"9223372036854775808", "range"},
		{"-9223372036854775809", "range"},
		{"18446744073709551616", "range"},
		{"99999999999999999999999999999999999999999", "range"},
		{"1.0", "type"}, {"1e3", "type"}, {"1E3", "type"}, {"-0.5", "type"},
		{`"1"`, "type"}, {"true", "type"}, {"null", "type"}, {"[1]", "type"}, {"", "type"},
		{"01", "syntax"}, {"1 ", "syntax"}, {"-", "syntax"}, {"1.", "syntax"},
	} {
		_, err := Int64([]byte(tc.in))
		var te *TypeError
		var re *RangeError
		var se *SyntaxError
		ok := false
		switch tc.kind {
		case "type":
			ok = errors.As(err, &te)
		case "range":
			ok = errors.As(err, &re) && re.Type == "int64" && re.Number == untrusted.Quote(tc.in)
		case "syntax":
			ok = errors.As(err, &se)
		}
		if !ok {
			t.Errorf("Int64(%q) = %v, want %s error", tc.in, err, tc.kind)
		}
		if _, err := Int([]byte(tc.in)); err == nil {
			t.Errorf("Int(%q) accepted", tc.in)
		} else if tc.kind == "range" && !strings.HasSuffix(err.Error(), "out of range of int") {
			t.Errorf("Int(%q) = %v", tc.in, err)
		}
	}
}

func TestJSONXBool(t *testing.T) {
	if v, err := Bool([]byte("true")); !v || err != nil {
		t.Error("true")
	}
	if v, err := Bool([]byte("false")); v || err != nil {
		t.Error("false")
	}
	for _, in := range []string{"", "tru", "truee", "True", "1", `"true"`, "null"} {
		if _, err := Bool([]byte(in)); err == nil {
			t.Errorf("Bool(%q) accepted", in)
		}
	}
	if !IsNull([]byte("null")) || IsNull([]byte("nul")) || IsNull([]byte(`"null"`)) {
		t.Error("IsNull")
	}
}

func TestJSONXKind(t *testing.T) {
	for in, want := range map[string]Kind{
		"": KindInvalid, "x": KindInvalid, "null": KindNull, "true": KindBool, "false": KindBool,
		"-1": KindNumber, "7": KindNumber, `"`: KindString, "[": KindArray, "{": KindObject,
	} {
		if got := KindOf([]byte(in)); got != want {
			t.Errorf("KindOf(%q) = %v, want %v", in, got, want)
		}
	}
	if Kind(99).String() != "invalid JSON" || KindObject.String() != "object" {
		t.Error("Kind.String")
	}
}

func TestJSONXAppendString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", `""`},
		{"abc", `"abc"`},
		{"a\"b\\c/", `"a\"b\\c/"`},
		{"\b\f\n\r\t\x00\x1f\x7f", `"\b\f\n\r\t\u0000\u001f` + "\x7f\""},
		{"é😀<>&\u2028", `"é😀<>&` + "\u2028\""},
		{"a\xffb\xc3", `"a` + "\uFFFD" + `b` + "\uFFFD" + `"`},
	} {
		got := string(AppendString(nil, tc.in))
		if got != tc.want {
			t.Errorf("AppendString(%q) = %s, want %s", tc.in, got, tc.want)
		}
		if gotb := string(AppendString([]byte("x"), []byte(tc.in))); gotb != "x"+tc.want {
			t.Errorf("AppendString([]byte %q) = %s", tc.in, gotb)
		}
		// The output always reads back, to the input when it is UTF-8.
		back, err := String([]byte(got))
		if err != nil {
			t.Errorf("String(AppendString(%q)): %v", tc.in, err)
		} else if utf8.ValidString(tc.in) && back != tc.in {
			t.Errorf("round trip of %q gave %q", tc.in, back)
		}
	}
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { buf = AppendString(buf[:0], "kid-1\n") }); n != 0 {
		t.Errorf("AppendString into a large enough buffer: %v allocations", n)
	}
}

// TestJSONXAgreesWithEncodingJSON checks that every text Valid accepts is
// accepted by encoding/json with the same string values.
func TestJSONXAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range jsonxValidTexts {
		var v any
		if err := json.Unmarshal([]byte(in), &v); err != nil {
			t.Errorf("encoding/json: %q: %v", in, err)
		}
	}
	for _, in := range []string{`"\u00e9\uD83D\uDE00\"x"`, `"\/\b"`} {
		var want string
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		if got, err := String([]byte(in)); err != nil || got != want {
			t.Errorf("String(%s) = %q, %v; encoding/json says %q", in, got, err, want)
		}
	}
}

var jsonxHeader = []byte(`{"alg":"HS256","typ":"JWT","kid":"2010-12-29"}`)

func TestJSONXAllocs(t *testing.T) {
	n := testing.AllocsPerRun(100, func() {
		err := ScanObject(jsonxHeader, Limits{}, func(name, value []byte) error {
			_, err := StringBytes(value)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Errorf("ScanObject of a small header: %v allocations, want 0", n)
	}
}

func BenchmarkScanObject(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(jsonxHeader)))
	for b.Loop() {
		err := ScanObject(jsonxHeader, Limits{}, func(name, value []byte) error {
			_, err := StringBytes(value)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// jsonxClaims is the claims set of a typical access token, as jwt's
// benchmarks sign it: seven registered claims and two private ones.
var jsonxClaims = []byte(`{"iss":"https://issuer.example","sub":"user-1234","aud":"https://api.example","exp":1796130000,"nbf":1796126340,"iat":1796126340,"jti":"b9c1f3c2-5a4e-4f7e-9d0a-1c2b3d4e5f60","scope":"read write","client_id":"client-42"}`)

// BenchmarkValid is the bare strict scan, without decoding, of a small
// header and of a typical claims set.
func BenchmarkValid(b *testing.B) {
	for _, c := range []struct {
		name string
		data []byte
	}{{"header", jsonxHeader}, {"claims", jsonxClaims}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.data)))
			for b.Loop() {
				if err := Valid(c.data, Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkScanObjectClaims is the strict scan of a typical claims set
// through ScanObject, as jwt reads it, with a callback that only counts.
func BenchmarkScanObjectClaims(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(jsonxClaims)))
	n := 0
	count := func(name, value []byte) error { n++; return nil }
	for b.Loop() {
		if err := ScanObject(jsonxClaims, Limits{}, count); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendString writes the string values of a typical claims
// set (as jwt's Signer does), into a buffer that does not grow.
func BenchmarkAppendString(b *testing.B) {
	values := []string{"https://issuer.example", "user-1234", "https://api.example",
		"b9c1f3c2-5a4e-4f7e-9d0a-1c2b3d4e5f60", "read write", "client-42"}
	n := 0
	for _, v := range values {
		n += len(v)
	}
	b.ReportAllocs()
	b.SetBytes(int64(n))
	buf := make([]byte, 0, 512)
	for b.Loop() {
		buf = buf[:0]
		for _, v := range values {
			buf = AppendString(buf, v)
		}
	}
}

func BenchmarkParseObject(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(jsonxHeader)))
	for b.Loop() {
		if _, err := ParseObject(jsonxHeader, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestJSONXDuplicateMessageTruncated(t *testing.T) {
	name := strings.Repeat("n", 10000)
	err := Valid([]byte(`{"`+name+`":1,"`+name+`":2}`), Limits{})
	var de *DuplicateError
	if !errors.As(err, &de) || de.Name != name {
		t.Fatalf("got %v", err)
	}
	want := `duplicate member name "` + name[:64] + `…" (10000 bytes) at offset 10006`
	if err.Error() != want {
		t.Errorf("message of %d bytes: %.200s", len(err.Error()), err)
	}
}

// TestObjectIntegers checks the object scanner's own reading of integer
// members against the reading of the same numbers as array elements
// (number, through value): the same acceptance, and the same error at the
// same offset (the texts hold no '}', ']' or ',' of their own).
func TestObjectIntegers(t *testing.T) {
	for _, num := range []string{
		"1", "7", "1796130000", "253402300799", "123456789012345678901234567890",
		"1.5", "1796130000.25", "1e9", "1E9", "1e+9", "12e-3", "1.", "1e", "1e+", "1.e5",
		"0", "01", "-1", "-", "1x", "1 ", "1 \t", "1.5.5", "1e5e5", "1-", "9a", "12345678x", "123456789.",
	} {
		obj, arr := `{"a":`+num+`}`, `[`+num+`]`
		errObj, errArr := Valid([]byte(obj), Limits{}), Valid([]byte(arr), Limits{})
		if (errObj == nil) != (errArr == nil) {
			t.Errorf("%q: as a member %v, as an element %v", num, errObj, errArr)
			continue
		}
		var so, sa *SyntaxError
		if errors.As(errObj, &so) && errors.As(errArr, &sa) {
			if so.Offset-len(`{"a":`) != sa.Offset-len(`[`) || so.Msg != sa.Msg && !strings.Contains(so.Msg, "object") {
				t.Errorf("%q: as a member %v, as an element %v", num, errObj, errArr)
			}
		}
	}
}
