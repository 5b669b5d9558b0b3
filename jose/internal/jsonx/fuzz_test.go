package jsonx

// Fuzzing of the strict JSON reader, differential against encoding/json:
// whatever jsonx accepts, encoding/json must accept and read the same way,
// and jsonx must never accept what RFC 8259 or the package documentation
// refuses (duplicate names, invalid UTF-8, lone surrogates).

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/josebench/josebench/jose/internal/vectortest"
)

// fzJSONSeeds are hand-written corner cases; the JOSE headers and keys of
// the test vectors are added by FuzzParseObject.
var fzJSONSeeds = []string{
	`{}`, ` { "a" : 1 } `, `{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `{"a":{"b":{"c":[1,2,{"d":null}]}}}`,
	`{"a":"\ud800"}`, `{"a":"\ud83d\ude00"}`, `{"a":"\u00e9\n\t\/\\\""}`, "{\"a\":\"\xff\"}",
	`{"n":-0.0e+10}`, `{"n":01}`, `{"n":1.}`, `{"n":+1}`, `[1,2]`, `"x"`, `{"a":1}x`, "\ufeff{}",
	`{"alg":"HS256","crit":["b64"],"b64":false}`, `{"a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
	`{"a":true,"b":false,"c":null,"d":1e400}`,
	`{"` + strings.Repeat("\u00e9", 1200) + `":1,"` + strings.Repeat("\u00e9", 1200) + `":2}`,
}

func FuzzParseObject(f *testing.F) {
	for _, s := range fzJSONSeeds {
		f.Add([]byte(s))
	}
	for _, dir := range []string{"../../../testdata/cookbook/jwk", "../../../testdata/latchset"} {
		names, _ := filepath.Glob(filepath.Join(dir, "*.jwk*"))
		more, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, name := range append(names, more...) {
			if data, err := os.ReadFile(name); err == nil && len(data) < 8<<10 {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		members, err := ParseObject(data, Limits{})
		verr := Valid(data, Limits{})
		vectortest.CheckErrorText(t, err)
		vectortest.CheckErrorText(t, verr)
		if err != nil {
			if verr == nil && bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("{")) {
				t.Fatalf("Valid accepts an object ParseObject refuses (%v)", err)
			}
			return
		}
		if verr != nil {
			t.Fatalf("ParseObject accepts what Valid refuses: %v", verr)
		}
		// Accepted: encoding/json must agree, member by member.
		if !json.Valid(data) {
			t.Fatalf("jsonx accepts invalid JSON %q", data)
		}
		if !utf8.Valid(data) {
			t.Fatalf("jsonx accepts invalid UTF-8 %q", data)
		}
		var std map[string]json.RawMessage
		if err := json.Unmarshal(data, &std); err != nil {
			t.Fatalf("encoding/json refuses an object jsonx accepts: %v", err)
		}
		seen := map[string]bool{}
		for _, m := range members {
			if seen[m.Name] {
				t.Fatalf("duplicate member %q accepted", m.Name)
			}
			seen[m.Name] = true
			want, ok := std[m.Name]
			if !ok {
				t.Fatalf("member %q unknown to encoding/json (names decoded differently)", m.Name)
			}
			if !bytes.Equal(m.Value, bytes.TrimSpace(want)) {
				t.Fatalf("member %q: value %q, encoding/json %q", m.Name, m.Value, want)
			}
			if err := Valid(m.Value, Limits{}); err != nil {
				t.Fatalf("member %q: value %q not valid on its own: %v", m.Name, m.Value, err)
			}
			if KindOf(m.Value) == KindString {
				got, err := String(m.Value)
				var s string
				if jerr := json.Unmarshal(m.Value, &s); jerr != nil || err != nil || got != s {
					t.Fatalf("member %q: String %q (%v), encoding/json %q (%v)", m.Name, got, err, s, jerr)
				}
				if !utf8.ValidString(got) {
					t.Fatalf("member %q: decoded string is not UTF-8", m.Name)
				}
			}
		}
		if len(seen) != len(std) {
			t.Fatalf("%d members, encoding/json sees %d", len(seen), len(std))
		}
	})
}
