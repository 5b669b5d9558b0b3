package untrusted

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuote(t *testing.T) {
	a64 := strings.Repeat("a", 64)
	for _, c := range []struct{ in, want string }{
		{"", `""`},
		{"kid", `"kid"`},
		{"a\"b\\c\n\x00\xff", `"a\"b\\c\n\x00\xff"`},
		{a64, strconv.Quote(a64)},
		{a64 + "b", `"` + a64 + `…" (65 bytes)`},
		{strings.Repeat("a", 600000), `"` + a64 + `…" (600000 bytes)`},
		// A character across the cut is left out whole: é is 2 bytes,
		// € 3, 𝄞 4.
		{strings.Repeat("a", 63) + "é" + a64, `"` + a64[:63] + `…" (129 bytes)`},
		{strings.Repeat("a", 62) + "€" + a64, `"` + a64[:62] + `…" (129 bytes)`},
		{strings.Repeat("a", 61) + "𝄞" + a64, `"` + a64[:61] + `…" (129 bytes)`},
		{strings.Repeat("a", 60) + "𝄞" + a64, `"` + a64[:60] + `𝄞…" (128 bytes)`},
		// Invalid UTF-8 is escaped byte by byte, as %q does.
		{strings.Repeat("\xff", 100), `"` + strings.Repeat(`\xff`, 64) + `…" (100 bytes)`},
		{strings.Repeat("\x80", 100), `"` + strings.Repeat(`\x80`, 64) + `…" (100 bytes)`},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%.80q) = %s, want %s", c.in, got, c.want)
		}
		if got := Quote([]byte(c.in)); got != c.want {
			t.Errorf("Quote([]byte(%.80q)) = %s, want %s", c.in, got, c.want)
		}
	}
	type alg string
	if got := Quote(alg("RS256")); got != `"RS256"` {
		t.Errorf("Quote(alg) = %s", got)
	}
}

// TestQuoteBound: whatever the text, the result is at most
// 4·MaxQuoted+30 bytes and valid UTF-8.
func TestQuoteBound(t *testing.T) {
	for _, s := range []string{
		strings.Repeat("\x00", 1<<20), strings.Repeat("\u2028", 1<<18), strings.Repeat("\U0010FFFF", 1<<18),
		strings.Repeat("\xf0\x9d\x84", 1000), strings.Repeat("a", 1<<20),
	} {
		q := Quote(s)
		if len(q) > 4*MaxQuoted+30 || !utf8.ValidString(q) {
			t.Errorf("%d bytes (%q...)", len(q), q[:20])
		}
	}
}

func FuzzQuote(f *testing.F) {
	f.Add("kid")
	f.Add(strings.Repeat("é", 40))
	f.Fuzz(func(t *testing.T, s string) {
		q := Quote(s)
		if len(q) > 4*MaxQuoted+30 || !utf8.ValidString(q) {
			t.Fatalf("%d bytes", len(q))
		}
		// Error and QuoteList are bounded and printable too.
		if e := Error(errors.New(s)).Error(); len(e) > MaxErrorText+32 || !printable(e) {
			t.Fatalf("Error: %d bytes: %q", len(e), e)
		}
		if l := QuoteList([]string{s, s, s, s, s}); len(l) > MaxListText+32 || !utf8.ValidString(l) {
			t.Fatalf("QuoteList: %d bytes", len(l))
		}
		if len(s) <= MaxQuoted {
			if q != strconv.Quote(s) {
				t.Fatalf("%s, want %q", q, s)
			}
			return
		}
		body, _, ok := strings.Cut(q, `…" (`)
		if !ok || !strings.HasSuffix(q, " bytes)") {
			t.Fatalf("no length: %s", q)
		}
		prefix, err := strconv.Unquote(body + `"`)
		if err != nil || !strings.HasPrefix(s, prefix) || len(prefix) > MaxQuoted || len(prefix) < MaxQuoted-3 {
			t.Fatalf("prefix %q of %d bytes: %v", prefix, len(prefix), err)
		}
		if utf8.ValidString(s) && !utf8.ValidString(prefix) {
			t.Fatalf("a valid text cut inside a character: %q", prefix)
		}
	})
}

func TestError(t *testing.T) {
	if Error(nil) != nil {
		t.Error("Error(nil) is not nil")
	}
	short := errors.New("json: cannot unmarshal string into Go value of type int")
	if Error(short) != short {
		t.Error("a short error is not returned as it is")
	}
	long := fmt.Errorf("parse %q: %w", strings.Repeat("é", 1000), os.ErrInvalid)
	got := Error(long)
	want := long.Error()[:255] + "… (2026 bytes)" // "parse \"" is 7 bytes: an é straddles byte 256
	if got.Error() != want {
		t.Errorf("Error(long) = %s, want %s", got, want)
	}
	if !errors.Is(got, os.ErrInvalid) || errors.Unwrap(got) != long {
		t.Error("the cut error does not wrap the original")
	}
}

// TestErrorEscapes: what another package's error repeats of the input is
// printed escaped, as Quote escapes it, so that no error carries a
// terminal escape sequence, a bidirectional override or invalid UTF-8
// into a log (an x509 HostnameError repeats a certificate's DNS names, an
// encoding/json error a map key of the token, raw); printable text is
// kept as it is, and the escaped text is cut as a long one is.
func TestErrorEscapes(t *testing.T) {
	for _, c := range []struct {
		in, want string
		cut      bool // want is the text kept, then "… (N bytes)"
	}{
		{"x509: certificate is valid for \x1b]0;pwned\x07a.example, not b.example",
			`x509: certificate is valid for \x1b]0;pwned\aa.example, not b.example: invalid argument`, false},
		{"json: cannot unmarshal number \x1b[2J into Go value of type int", `json: cannot unmarshal number \x1b[2J into Go value of type int: invalid argument`, false},
		{"name \u202egnp.exe\x7f\u0085\xff \"é\" \\ 𝄞", `name \u202egnp.exe\x7f\u0085\xff "é" \ 𝄞: invalid argument`, false},
		{strings.Repeat("\x00", 300), strings.Repeat(`\x00`, 64), true},
		// An escape is kept whole: 250 bytes, then \x1b, ": " and no more.
		{strings.Repeat("a", 250) + "\x1b", strings.Repeat("a", 250) + `\x1b: `, true},
	} {
		err := fmt.Errorf("%s: %w", c.in, os.ErrInvalid)
		got := Error(err)
		want := c.want
		if c.cut {
			want += "… (" + strconv.Itoa(len(err.Error())) + " bytes)"
		}
		if got.Error() != want {
			t.Errorf("Error(%q) = %q, want %q", err.Error(), got.Error(), want)
		}
		if !errors.Is(got, os.ErrInvalid) || errors.Unwrap(got) != err {
			t.Errorf("Error(%q) does not wrap the original", err.Error())
		}
		for _, r := range got.Error() {
			if !strconv.IsPrint(r) {
				t.Errorf("Error(%q) keeps %U", err.Error(), r)
			}
		}
	}
}

func TestQuoteList(t *testing.T) {
	type op string
	a64 := strings.Repeat("a", 64)
	ctl := strings.Repeat("\x01", 100)
	for _, c := range []struct {
		in   []op
		want string
	}{
		{nil, `[]`},
		{[]op{"sign"}, `["sign"]`},
		{[]op{"sign", "verify"}, `["sign" "verify"]`},
		{[]op{"a", "b", "c", "d"}, `["a" "b" "c" "d"]`},
		{[]op{"a", "b", "c", "d", "e"}, `["a" "b" "c" "d" … (5 values)]`},
		// Long values: cut, and fewer of them shown.
		{[]op{op(a64 + "b"), op(a64 + "c"), op(a64 + "d"), op(a64 + "e")},
			`["` + a64 + `…" (65 bytes) "` + a64 + `…" (65 bytes) "` + a64 + `…" (65 bytes) … (4 values)]`},
		{[]op{op(ctl), op(ctl)}, `["` + strings.Repeat(`\x01`, 64) + `…" (100 bytes) … (2 values)]`},
	} {
		if got := QuoteList(c.in); got != c.want {
			t.Errorf("QuoteList(%.80q) = %s, want %s", c.in, got, c.want)
		}
	}
	// Whatever the values, the list stays within a few hundred bytes.
	for _, v := range []string{"", "a", a64, ctl, strings.Repeat("\xff", 1000)} {
		vals := make([]string, 1000)
		for i := range vals {
			vals[i] = v
		}
		if got := QuoteList(vals); len(got) > MaxListText+32 || !utf8.ValidString(got) {
			t.Errorf("1000 values of %d bytes: %d bytes: %.100s", len(v), len(got), got)
		}
	}
}
