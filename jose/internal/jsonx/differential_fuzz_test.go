package jsonx

// A differential fuzz target against encoding/json. For any input and any
// limits, jsonx must accept exactly what encoding/json accepts, save for
// the differences the package documentation lists, each detected here
// without jsonx:
//
//   - invalid UTF-8 anywhere in the text (encoding/json replaces it in
//     strings by U+FFFD), refused as a *SyntaxError;
//   - an escaped lone surrogate, "\ud800" or "\udc00" (encoding/json
//     decodes it to U+FFFD), refused as a *SyntaxError;
//   - two members of one object, at any depth, whose names are equal once
//     unescaped, refused as a *DuplicateError;
//   - nesting deeper than Limits.MaxDepth, a *LimitError "depth";
//   - an object of more than Limits.MaxMembers members, a *LimitError
//     "members".
//
// What both accept must read the same: the token streams (delimiters,
// names, decoded strings, numbers as written, literals) are equal, so every
// string value and name decoded by jsonx equals encoding/json's. And
// AppendString must write, for any bytes, a JSON string that both read
// back as encoding/json's own encoding of those bytes reads back.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// dfSeeds are texts at the edges of the differences above, and strings
// whose special bytes sit at word boundaries.
var dfSeeds = []string{
	`{}`, `[]`, `"a"`, `1`, `{"a":1,"b":[true,false,null],"c":{"d":"e"}}`,
	`{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `{"ab":1,"\u0061b":2}`, `{"axb":1,"ayb":2}`,
	`{"a":{"b":1,"b":2}}`, `[{"a":1},{"a":1}]`,
	`{"a":"\ud800"}`, `{"a":"\udc00"}`, `{"a":"\ud800\u0041"}`, `{"a":"\ud83d\ude00"}`, `{"\ud800":1}`, `["\udfff","\ud800\ue000","\ud7ff\ue000","\udbff\udfff"]`,
	"{\"a\":\"\xff\"}", "{\"a\":\"\xc0\xaf\"}", "{\"a\":\"\xed\xa0\x80\"}", "{\"\xe9\":1}",
	`{"a":"0123456\"89"}`, `{"a":"01234567\\"}`, `{"a":"0123456789abcde\u00e9"}`,
	`{"a":12345678901234567890.12345678e-12345678}`, `{"a":-0}`, `{"a":1e400}`,
	`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
	"\ufeff{}", ` {"a" : 1 } `, `{"a":1}x`, "{\"a\":\"\u2028\u2029<>&\"}",
}

func FuzzDifferential(f *testing.F) {
	for _, s := range dfSeeds {
		f.Add([]byte(s), uint8(0), uint8(0))
	}
	f.Add([]byte(`{"a":{"b":{}}}`), uint8(2), uint8(0))
	f.Add([]byte(`{"a":1,"b":2,"c":3}`), uint8(0), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, depth, members uint8) {
		lim := Limits{MaxDepth: int(depth), MaxMembers: int(members)}
		dfCheckValid(t, data, lim)
		dfCheckPlain(t, data, lim)
		dfCheckAppendString(t, data)
	})
}

// dfCheckPlain checks ScanObjectPlain against ScanObject on data: the same
// members and the same error, and a plain flag set for string values made
// of plain bytes only (for all of them in a text of eight bytes or more),
// whose content is then the decoded string.
func dfCheckPlain(t *testing.T, data []byte, lim Limits) {
	type member struct{ name, value string }
	var want, got []member
	werr := ScanObject(data, lim, func(name, value []byte) error {
		want = append(want, member{string(name), string(value)})
		return nil
	})
	gerr := ScanObjectPlain(data, lim, func(name, value []byte, plain bool) error {
		got = append(got, member{string(name), string(value)})
		isPlain := len(value) >= 2 && value[0] == '"'
		for _, c := range value[min(1, len(value)):max(len(value)-1, 1)] {
			isPlain = isPlain && plain8(c)
		}
		// Exact but for texts of fewer than eight bytes, which the
		// word-at-a-time reading leaves to str (plain false).
		if plain != isPlain && (plain || len(data) >= 8) {
			t.Fatalf("%q: member %q: plain %v for %q", data, name, plain, value)
		}
		if plain {
			if s, err := StringBytes(value); err != nil || string(s) != string(value[1:len(value)-1]) {
				t.Fatalf("%q: member %q: plain, but decodes as %q (%v)", data, name, s, err)
			}
		}
		return nil
	})
	if fmt.Sprint(werr) != fmt.Sprint(gerr) || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%q: ScanObjectPlain %v %q, ScanObject %v %q", data, gerr, got, werr, want)
	}
}

// plain8 reports whether c stands for itself in a JSON string, as plain
// says, written out.
func plain8(c byte) bool { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\' }

// dfCheckValid compares Valid and ParseObject with encoding/json on data.
func dfCheckValid(t *testing.T, data []byte, lim Limits) {
	verr := Valid(data, lim)
	members, perr := ParseObject(data, lim)
	isObject := bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("{"))
	if isObject && (verr == nil) != (perr == nil) {
		t.Fatalf("Valid says %v, ParseObject %v", verr, perr)
	}
	if !isObject && perr == nil {
		t.Fatalf("ParseObject accepts a text that is not an object: %q", data)
	}

	if !json.Valid(data) {
		if verr == nil {
			t.Fatalf("jsonx accepts what encoding/json refuses: %q", data)
		}
		return
	}
	d := dfDiffer(data, lim.withDefaults())
	if verr == nil {
		if d.any() {
			t.Fatalf("jsonx accepts %q, which it should refuse (%+v)", data, d)
		}
		want := dfStdTokens(t, data)
		var got []string
		if err := dfTokens(&got, data); err != nil {
			t.Fatalf("jsonx refuses a value it accepted: %v", err)
		}
		if !slicesEqual(got, want) {
			t.Fatalf("%q: jsonx reads\n%q\nencoding/json reads\n%q", data, got, want)
		}
		if isObject {
			var std map[string]json.RawMessage
			if err := json.Unmarshal(data, &std); err != nil || len(std) != len(members) {
				t.Fatalf("ParseObject: %d members, encoding/json %d (%v)", len(members), len(std), err)
			}
			for _, m := range members {
				if !bytes.Equal(m.Value, bytes.TrimSpace(std[m.Name])) {
					t.Fatalf("member %q: %q, encoding/json %q", m.Name, m.Value, std[m.Name])
				}
			}
		}
		return
	}
	// Refused: for a reason that holds.
	var se *SyntaxError
	var de *DuplicateError
	var le *LimitError
	switch {
	case errors.As(verr, &se):
		switch {
		case strings.Contains(se.Msg, "UTF-8"):
			if !d.badUTF8 {
				t.Fatalf("%q refused for invalid UTF-8 (%v), but it is valid UTF-8", data, verr)
			}
		case strings.Contains(se.Msg, "surrogate"):
			if !d.loneSurrogate {
				t.Fatalf("%q refused for a lone surrogate (%v), but it has none", data, verr)
			}
		default:
			t.Fatalf("%q: jsonx says %v, encoding/json accepts it (%+v)", data, verr, d)
		}
	case errors.As(verr, &de):
		if d.badUTF8 || d.loneSurrogate {
			break // names decoded differently: the duplicate is not checked here
		}
		if !d.dupNames[de.Name] {
			t.Fatalf("%q refused for a duplicate %q (%v), but it has none", data, de.Name, verr)
		}
	case errors.As(verr, &le):
		if le.Limit == "depth" && d.depth <= lim.withDefaults().MaxDepth ||
			le.Limit == "members" && d.members <= lim.withDefaults().MaxMembers {
			t.Fatalf("%q refused for a limit (%v), but is within it (%+v)", data, verr, d)
		}
	default:
		t.Fatalf("%q: unexpected error %T %v", data, verr, verr)
	}
}

// dfDifferences are the intended differences found in a text that
// encoding/json accepts.
type dfDifferences struct {
	badUTF8       bool
	loneSurrogate bool
	dupNames      map[string]bool // names repeated in one object
	depth         int             // deepest nesting
	members       int             // most members of one object
	lim           Limits
}

func (d *dfDifferences) any() bool {
	return d.badUTF8 || d.loneSurrogate || len(d.dupNames) > 0 || d.depth > d.lim.MaxDepth || d.members > d.lim.MaxMembers
}

// dfDiffer finds the differences in data, a text json.Valid accepts.
func dfDiffer(data []byte, lim Limits) *dfDifferences {
	d := &dfDifferences{dupNames: map[string]bool{}, lim: lim}
	d.badUTF8 = !utf8.Valid(data)
	d.loneSurrogate = dfLoneSurrogate(data)
	type frame struct {
		obj, key bool
		names    map[string]bool
	}
	stack := []*frame{{}}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		top := stack[len(stack)-1]
		if dl, ok := tok.(json.Delim); ok && (dl == '}' || dl == ']') {
			stack = stack[:len(stack)-1]
			continue
		}
		if top.obj && top.key {
			name := tok.(string)
			if top.names[name] {
				d.dupNames[name] = true
			}
			top.names[name] = true
			d.members = max(d.members, len(top.names))
			top.key = false
			continue
		}
		if top.obj {
			top.key = true
		}
		if dl, ok := tok.(json.Delim); ok {
			stack = append(stack, &frame{obj: dl == '{', key: dl == '{', names: map[string]bool{}})
			d.depth = max(d.depth, len(stack)-1)
		}
	}
	// A repeated name makes len(names) smaller than the count of members:
	// count members separately.
	d.members = max(d.members, dfMostMembers(data))
	return d
}

// dfMostMembers counts the members of each object of data (json.Valid) by
// its top-level commas and returns the largest count.
func dfMostMembers(data []byte) int {
	type frame struct {
		obj   bool
		count int
	}
	var stack []frame
	most := 0
	inStr := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inStr {
			switch c {
			case '\\':
				i++
			case '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
			if n := len(stack); n > 0 && stack[n-1].obj && stack[n-1].count == 0 {
				stack[n-1].count = 1
			}
		case '{', '[':
			stack = append(stack, frame{obj: c == '{'})
		case '}', ']':
			if top := stack[len(stack)-1]; top.obj {
				most = max(most, top.count)
			}
			stack = stack[:len(stack)-1]
		case ',':
			if n := len(stack); stack[n-1].obj {
				stack[n-1].count++
			}
		}
	}
	return most
}

// dfLoneSurrogate reports whether data (json.Valid) holds a \u escape of a
// surrogate that is not a high one followed at once by an escaped low one.
func dfLoneSurrogate(data []byte) bool {
	hex := func(i int) int {
		v, err := strconv.ParseUint(string(data[i:i+4]), 16, 16)
		if err != nil {
			panic(err) // json.Valid checked the escape
		}
		return int(v)
	}
	inStr := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if !inStr {
			inStr = c == '"'
			continue
		}
		switch c {
		case '"':
			inStr = false
		case '\\':
			if data[i+1] != 'u' {
				i++
				continue
			}
			r := hex(i + 2)
			switch {
			case 0xdc00 <= r && r <= 0xdfff:
				return true
			case 0xd800 <= r && r <= 0xdbff:
				if i+12 > len(data) || data[i+6] != '\\' || data[i+7] != 'u' {
					return true
				}
				if r2 := hex(i + 8); r2 < 0xdc00 || r2 > 0xdfff {
					return true
				}
				i += 6
			}
			i += 5
		}
	}
	return false
}

// dfStdTokens is encoding/json's token stream of data.
func dfStdTokens(t *testing.T, data []byte) []string {
	var out []string
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch v := tok.(type) {
		case json.Delim:
			out = append(out, v.String())
		case string:
			out = append(out, "s:"+v)
		case json.Number:
			out = append(out, "n:"+v.String())
		case bool:
			out = append(out, strconv.FormatBool(v))
		case nil:
			out = append(out, "null")
		default:
			t.Fatalf("token %T", tok)
		}
	}
	return out
}

// dfTokens appends jsonx's token stream of raw, a value Valid accepted.
func dfTokens(out *[]string, raw []byte) error {
	raw = bytes.Trim(raw, " \t\r\n")
	deep := Limits{MaxDepth: 1 << 20, MaxMembers: 1 << 30}
	switch KindOf(raw) {
	case KindObject:
		*out = append(*out, "{")
		err := ScanObject(raw, deep, func(name, value []byte) error {
			*out = append(*out, "s:"+string(name))
			return dfTokens(out, value)
		})
		*out = append(*out, "}")
		return err
	case KindArray:
		*out = append(*out, "[")
		err := ScanArray(raw, deep, func(elem []byte) error { return dfTokens(out, elem) })
		*out = append(*out, "]")
		return err
	case KindString:
		s, err := String(raw)
		*out = append(*out, "s:"+s)
		return err
	case KindNumber:
		if _, err := Int64(raw); err != nil && !errors.As(err, new(*TypeError)) && !errors.As(err, new(*RangeError)) {
			return err
		}
		*out = append(*out, "n:"+string(raw))
	case KindBool:
		b, err := Bool(raw)
		*out = append(*out, strconv.FormatBool(b))
		return err
	case KindNull:
		if !IsNull(raw) {
			return errors.New("not null")
		}
		*out = append(*out, "null")
	default:
		return errors.New("invalid value")
	}
	return nil
}

// dfCheckAppendString checks that AppendString writes s as a JSON string
// both parsers read back as encoding/json's own encoding of s reads back.
func dfCheckAppendString(t *testing.T, s []byte) {
	std, err := json.Marshal(string(s))
	if err != nil {
		t.Fatal(err)
	}
	var want string
	if err := json.Unmarshal(std, &want); err != nil {
		t.Fatal(err)
	}
	if utf8.Valid(s) && want != string(s) {
		t.Fatalf("encoding/json round trip of %q gives %q", s, want)
	}
	prefix := []byte(`x"\`)
	for _, out := range [][]byte{AppendString(nil, s), AppendString(nil, string(s)), AppendString(prefix, s)[len(prefix):]} {
		var got string
		if err := json.Unmarshal(out, &got); err != nil || got != want {
			t.Fatalf("AppendString(%q) = %q, encoding/json reads %q (%v), want %q", s, out, got, err, want)
		}
		if err := Valid(out, Limits{}); err != nil {
			t.Fatalf("AppendString(%q) = %q, refused by Valid: %v", s, out, err)
		}
		if got, err := String(out); err != nil || got != want {
			t.Fatalf("AppendString(%q) = %q, String reads %q (%v), want %q", s, out, got, err, want)
		}
	}
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
