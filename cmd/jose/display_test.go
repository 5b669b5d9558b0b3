package main

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/josebench/josebench/jose"
)

// hostile are texts a token may hold that a terminal would hide or let
// reorder or rewrite what it shows: bidirectional controls, other format
// characters, the line and paragraph separators, C0 and C1 controls, DEL,
// and a format character beyond U+FFFF (a surrogate pair in JSON).
var hostile = []string{
	"\u202eabc", "x\u2066y\u2069", "\u061c\u200e\u200f", "\u202a\u202b\u202c\u202d",
	"\u2067\u2068", "a\u200bb\u200cc\u200dd", "\u2060", "\ufeffbom", "l\u2028p\u2029",
	"\x1b[2J\x1b[1;1H", "\x7f", "\u0085\u009b", "\U000e0001tag", "\u00ad", "ok\rFAKE",
	// Shown as nothing too (Unicode's Default_Ignorable_Code_Point), though
	// not format characters: variation selectors, the combining grapheme
	// joiner, Hangul fillers, the Khmer inherent vowels, and code points
	// reserved as ignorable (U+2065, U+E0080).
	"hs-1\ufe0f", "a\U000e0100b", "x\u034fy", "\u115f\u1160\u3164\uffa0", "\u17b4\u17b5\u180b\u180f", "\u2065\U000e0080",
}

// hiddenIn returns the first character of s (line breaks aside) that
// the command must not print as it is, and whether there is one: a byte
// that is not UTF-8, a C0 or C1 control or DEL, a bidirectional control,
// another format character (category Cf), U+2028 or U+2029, or another
// character Unicode says to show as nothing (Default_Ignorable_Code_Point:
// a variation selector, a Hangul filler, ...). It is
// written apart from hidden, so that a slip there is caught here.
func hiddenIn(s string) (rune, bool) {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\ufffd"):
		case r < 0x20 && r != '\n', 0x7f <= r && r <= 0x9f:
		case r == 0x061c, r == 0x200e, r == 0x200f, 0x202a <= r && r <= 0x202e, 0x2066 <= r && r <= 0x2069:
		case r == 0x2028, r == 0x2029, unicode.Is(unicode.Cf, r):
		case 0xfe00 <= r && r <= 0xfe0f, 0x180b <= r && r <= 0x180f, 0xe0000 <= r && r <= 0xe0fff,
			r == 0x034f, r == 0x115f, r == 0x1160, r == 0x17b4, r == 0x17b5, r == 0x3164, r == 0xffa0,
			0x2060 <= r && r <= 0x206f, 0xfff0 <= r && r <= 0xfff8:
		default:
			continue
		}
		return r, true
	}
	return 0, false
}

// TestHiddenEveryRune: hidden agrees with hiddenIn, written apart from it
// from Unicode's lists, on every code point (a line break aside, which
// hidden reports and each escaper keeps or escapes as it says).
func TestHiddenEveryRune(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if utf8.ValidRune(r) && r != '\n' {
			if _, want := hiddenIn(string(r)); hidden(r) != want {
				t.Errorf("hidden(%U) = %v, want %v", r, !want, want)
			}
		}
	}
}

// shownQuote is how a message shows the text s a token holds: quoted as
// strconv.Quote does, and what that keeps of what hiddenIn finds (a
// variation selector, ...) escaped as \uXXXX or \UXXXXXXXX.
func shownQuote(s string) string {
	var b strings.Builder
	for _, r := range strconv.Quote(s) {
		switch _, h := hiddenIn(string(r)); {
		case !h:
			b.WriteRune(r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	return b.String()
}

// runTerm is runCLI with standard input and output a terminal, or not,
// as stdinTerm and stdoutTerm say (the check the command makes, injected).
func runTerm(t *testing.T, stdinTerm, stdoutTerm bool, stdin []byte, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	in := bytes.NewReader(stdin)
	s := &streams{stdin: in, stdout: &out, stderr: &errb, now: func() time.Time { return testTime }}
	s.terminal = func(v any) bool {
		switch v {
		case s.stdin:
			return stdinTerm
		case s.stdout:
			return stdoutTerm
		}
		return false
	}
	code = runWith(s, args)
	return code, out.String(), errb.String()
}

// TestEscapeJSON: escapeJSON writes each hidden character of a string as
// \uXXXX (a surrogate pair beyond U+FFFF), a byte that is not UTF-8 as
// \ufffd, and keeps everything else, escapes too: the text is JSON that
// decodes to the same values, with nothing hidden in it.
func TestEscapeJSON(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"a":"b"}`, `{"a":"b"}`},
		{"{\"sub\":\"\u202eabc\"}", `{"sub":"\u202eabc"}`},
		{"[\"\u2066\u2069\u061c\u200e\u200f\"]", `["\u2066\u2069\u061c\u200e\u200f"]`},
		{"\"\u200b\u200c\u200d\u2060\ufeff\u00ad\"", `"\u200b\u200c\u200d\u2060\ufeff\u00ad"`},
		{"\"\u2028\u2029\x7f\u0085\"", `"\u2028\u2029\u007f\u0085"`},
		{"\"\U000e0001\"", `"\udb40\udc01"`},
		{"{\"k\u202e\":\"v\"}", `{"k\u202e":"v"}`},
		{"\"a\xffb\"", `"a\ufffdb"`},
		{`"\u202e \" \\ é 日本 🙂"`, `"\u202e \" \\ é 日本 🙂"`},
		{"{\n  \"a\": [\n    1,\n    \"\u00e9\u202e\"\n  ]\n}\n", "{\n  \"a\": [\n    1,\n    \"\u00e9\\u202e\"\n  ]\n}\n"},
		// A carriage return between values (JSON whitespace) would move
		// the cursor back over what is shown: it becomes a line break,
		// or goes before one.
		{"{\"a\":\"x\",\r\"b\":[\r\r\n1]}\r\n", "{\"a\":\"x\",\n\"b\":[\n\n1]}\n"},
		// At the end of the text, after a string, a number or a literal.
		{"\"x\"\r", "\"x\"\n"},
		{"\r-1.5e3\r\r", "\n-1.5e3\n\n"},
		{"[true\r,null\r\r\n]\r", "[true\n,null\n\n]\n"},
	} {
		got := escapeJSON([]byte(tt.in))
		if string(got) != tt.want {
			t.Errorf("escapeJSON(%q) = %q, want %q", tt.in, got, tt.want)
		}
		checkSameJSON(t, []byte(tt.in), got)
	}
}

// checkSameJSON checks that out, escapeJSON's result for in, is valid
// JSON that decodes to the value in decodes to, with nothing hidden.
func checkSameJSON(t *testing.T, in, out []byte) {
	t.Helper()
	var a, b any
	if err := json.Unmarshal(in, &a); err != nil {
		t.Fatalf("%q: %v", in, err)
	}
	if err := json.Unmarshal(out, &b); err != nil {
		t.Errorf("escapeJSON(%q) = %q: not JSON: %v", in, out, err)
		return
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("escapeJSON(%q) = %q decodes to %q, want %q", in, out, b, a)
	}
	if r, ok := hiddenIn(string(out)); ok {
		t.Errorf("escapeJSON(%q) = %q holds %U", in, out, r)
	}
}

// TestEscapeJSONRandom: escapeJSON keeps the values of JSON made of
// strings of hidden, printable and invalid characters, as
// encoding/json writes them (which escapes some itself) and as raw text.
func TestEscapeJSONRandom(t *testing.T) {
	alphabet := []rune("a\"\\/é日🙂 \t\n\x00\x1b\x7f\u0085\u009f\u00ad\u061c\u200b\u200e\u202e\u2028\u2029\u2066\u2069\ufeff\U000e0001\U0001d173\ufffd")
	rng := rand.New(rand.NewPCG(23, 1))
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		if rng.IntN(8) == 0 {
			b.WriteByte(0xff)
		}
		s := b.String()
		enc, _ := json.Marshal(map[string]string{s: s})
		checkSameJSON(t, enc, escapeJSON(enc))
		// The same text as raw JSON, as a payload may hold it: only
		// what JSON requires escaped (", \ and C0 controls).
		raw := []byte(`["` + strings.NewReplacer(`"`, `\"`, `\`, `\\`, "\x00", `\u0000`, "\x1b", `\u001b`, "\t", `\t`, "\n", `\n`).Replace(s) + `"]`)
		checkSameJSON(t, raw, escapeJSON(raw))
	}
}

// TestEscapeText: escapeText, for a payload that is not JSON on a
// terminal, keeps line breaks and tabs (and CR before LF), and escapes the
// rest of what is hidden as Go quotes it.
func TestEscapeText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"hello\nworld\t!\r\n", "hello\nworld\t!\r\n"},
		{"ok\rFAKE", `ok\rFAKE`},
		{"\x1b[2J\x00\x7f", `\x1b[2J\x00\x7f`},
		{"\u202eabc\u2066\u2069", `\u202eabc\u2066\u2069`},
		{"\u0085\u200b\ufeff\u2028", `\u0085\u200b\ufeff\u2028`},
		{"\U000e0001", `\U000e0001`},
		{"a\xffb\xc3", `a\xffb\xc3`},
		{`é 日本 🙂 \x1b`, `é 日本 🙂 \x1b`},
	} {
		if got := string(escapeText([]byte(tt.in))); got != tt.want {
			t.Errorf("escapeText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, s := range hostile {
		if r, ok := hiddenIn(string(escapeText([]byte(s)))); ok {
			t.Errorf("escapeText(%q) holds %U", s, r)
		}
	}
}

// TestSafeLine: a message is one line with nothing hidden, whatever it
// holds; what is printable is kept.
func TestSafeLine(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`kid "a" not found`, `kid "a" not found`},
		{"kid \u202eabc", `kid \u202eabc`},
		{"a\nb\rc\td", `a\nb\rc\td`},
		{"\x1b[2K\xff", `\x1b[2K\xff`},
		{"é \ufffd", "é \ufffd"},
	} {
		if got := safeLine(tt.in); got != tt.want {
			t.Errorf("safeLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// hs256Key is the secret of testdata/keys/hs256.jwk.
func hs256Key(t *testing.T) []byte {
	t.Helper()
	k, err := jose.ParseKey(readFile(t, "keys", "hs256.jwk"))
	if err != nil {
		t.Fatal(err)
	}
	return k.Key.([]byte)
}

// signHS256 returns the compact JWS of header and payload, both as
// they are, MACed with the key of hs256.jwk.
func signHS256(t *testing.T, header, payload string) string {
	t.Helper()
	in := base64.RawURLEncoding.EncodeToString([]byte(header)) + "." + base64.RawURLEncoding.EncodeToString([]byte(payload))
	mac := hmac.New(sha256.New, hs256Key(t))
	mac.Write([]byte(in))
	return in + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// rawJSONString is s as a JSON string, with nothing escaped that JSON does
// not require: the hidden characters stay raw in the token.
func rawJSONString(s string) string {
	return `"` + strings.NewReplacer(`"`, `\"`, `\`, `\\`, "\x1b", `\u001b`, "\r", `\r`).Replace(s) + `"`
}

// TestTokenTextEscaped: what inspect, verify (JSON payload, on a
// terminal), jwt validate, key public and set public print of a token or
// key holding hidden characters (in a header member, the kid, a claim, a
// member name) is valid JSON that decodes to the same values, with
// nothing hidden in it (issue 23).
func TestTokenTextEscaped(t *testing.T) {
	for _, h := range hostile {
		q := rawJSONString(h)
		header := `{"alg":"HS256","kid":"hs-1","x":` + q + `}`
		claims := `{"sub":` + q + `,` + q + `:1,"aud":["api",` + q + `]}`
		tok := signHS256(t, header, claims)
		key := `{"kty":"oct","k":"2kXxrg8MVKrDpEY45XkKiYgHqvowzE3ApChyAqgmCQY","kid":` + q + `,"alg":"HS256"}`
		pub := `{"kty":"OKP","crv":"Ed25519","x":"FwLNAOp8DNATv3XMQRDKn9jGgV9kHEP6sRVn3b1bEMg","kid":` + q + `}`
		keyFile := writeTemp(t, "key.jwk", []byte(key))
		setFile := writeTemp(t, "set.json", []byte(`{"keys":[`+pub+`]}`))
		for _, c := range []struct {
			name   string
			args   []string
			source string // the JSON the output must decode to, or "" for an object whose member is named
			member string
		}{
			{"inspect header", []string{"inspect", tok}, header, "header"},
			{"inspect payload", []string{"inspect", tok}, claims, "payload"},
			{"verify", []string{"verify", "--alg", "HS256", "--key", kHS256, tok}, claims, ""},
			{"jwt validate", []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--any-audience", "--no-exp", tok}, claims, ""},
			{"key public", []string{"key", "public", writeTemp(t, "ed.jwk", []byte(pub[:len(pub)-1]+`,"d":"HCFLLUNSV7Q6APppDuCcOubLPVZfwLe2gA1q0SEk5ug"}`))}, pub, ""},
			{"set public", []string{"set", "public", setFile}, `{"keys":[` + pub + `]}`, ""},
			{"key convert", []string{"key", "convert", "--to", "jwk", keyFile}, key, ""},
		} {
			code, out, stderr := runTerm(t, false, true, nil, c.args...)
			if code != exitOK {
				t.Errorf("%s %q: exit %d, stderr %q", c.name, h, code, stderr)
				continue
			}
			if r, ok := hiddenIn(out); ok {
				t.Errorf("%s %q: prints %U as it is:\n%s", c.name, h, r, out)
			}
			var got, want any
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Errorf("%s %q: not JSON: %v\n%s", c.name, h, err, out)
				continue
			}
			if c.member != "" {
				got = got.(map[string]any)[c.member]
			}
			if err := json.Unmarshal([]byte(c.source), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %q: decodes to %q, want %q", c.name, h, got, want)
			}
		}
	}
}

// TestPayloadToTerminal: "jose verify" and "jose decrypt" write the
// payload as it is to a pipe or a file, and with --raw; to a terminal,
// escaped: a JSON payload as the same JSON, other text with Go's escapes.
func TestPayloadToTerminal(t *testing.T) {
	for _, p := range append([]string{"plain text\n", `{"a":"b"}`, "\xff\x00binary", "{\"sub\":\"mallory\",\"admin\":true,\"z\":[\r{\"sub\":\"alice\"}]     }"}, hostile...) {
		for _, payload := range []string{p, `{"sub":` + rawJSONString(p) + `}`} {
			tok := string(mustRun(t, []byte(payload), "sign", "--alg", "HS256", "--key", kHS256))
			jwe := string(mustRun(t, []byte(payload), "encrypt", "--alg", "A128KW", "--enc", "A128GCM", "--key", kA128KW))
			for _, args := range [][]string{
				{"verify", "--alg", "HS256", "--key", kHS256},
				{"decrypt", "--alg", "A128KW", "--enc", "A128GCM", "--key", kA128KW},
			} {
				in := tok
				if args[0] == "decrypt" {
					in = jwe
				}
				for _, c := range []struct {
					term, raw bool
				}{{false, false}, {false, true}, {true, true}, {true, false}} {
					a := append([]string(nil), args...)
					if c.raw {
						a = append(a, "--raw")
					}
					code, out, stderr := runTerm(t, false, c.term, nil, append(a, in)...)
					if code != exitOK {
						t.Fatalf("%s %q: exit %d, stderr %q", args[0], payload, code, stderr)
					}
					if !c.term || c.raw {
						if out != payload {
							t.Errorf("%s %q (terminal %v, --raw %v): wrote %q, want the bytes as they are", args[0], payload, c.term, c.raw, out)
						}
						continue
					}
					if r, ok := hiddenIn(out); ok {
						t.Errorf("%s %q to a terminal: wrote %U as it is: %q", args[0], payload, r, out)
					}
					want := string(escapeText([]byte(payload)))
					if utf8.ValidString(payload) && json.Valid([]byte(payload)) {
						want = string(escapeJSON([]byte(payload)))
						checkSameJSON(t, []byte(payload), []byte(out))
					}
					if out != want {
						t.Errorf("%s %q to a terminal: wrote %q, want %q", args[0], payload, out, want)
					}
				}
			}
		}
	}
}

// TestErrorTextEscaped: a message that names what a token holds (a kid
// no key has, a typ, a crit name, an alg, a duplicate member name, an aud
// or iss) or a file holds (a kid) is one line with nothing hidden: the
// text is quoted and escaped as strconv.Quote does, not printed as it is
// (issue 23).
func TestErrorTextEscaped(t *testing.T) {
	for _, h := range hostile {
		q := rawJSONString(h)
		set := writeTemp(t, "set.json", []byte(`{"keys":[`+string(readFile(t, "keys", "hs256.jwk"))+`,{"kty":"oct","k":"2kXxrg8MVKrDpEY45XkKiYgHqvowzE3ApChyAqgmCQY","kid":`+q+`}]}`))
		for _, c := range []struct {
			name string
			args []string
		}{
			{"kid", []string{"verify", "--alg", "HS256", "--key", kSet, signHS256(t, `{"alg":"HS256","kid":`+q+`}`, "x")}},
			{"typ", []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--any-audience", "--no-exp", signHS256(t, `{"alg":"HS256","typ":`+q+`}`, "{}")}},
			{"crit", []string{"verify", "--alg", "HS256", "--key", kHS256, signHS256(t, `{"alg":"HS256","crit":[`+q+`],`+q+`:1}`, "x")}},
			{"alg", []string{"verify", "--alg", "HS256", "--key", kHS256, signHS256(t, `{"alg":`+q+`}`, "x")}},
			{"header name", []string{"inspect", signHS256(t, `{"alg":"HS256",`+q+`:1,`+q+`:2}`, "x")}},
			{"claim", []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api", "--no-exp", signHS256(t, `{"alg":"HS256"}`, `{"aud":`+q+`}`)}},
			{"iss", []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--any-audience", "--iss", "me", "--no-exp", signHS256(t, `{"alg":"HS256"}`, `{"iss":`+q+`}`)}},
			{"set kid", []string{"sign", "--alg", "HS256", "--key", set, "--kid", "nope"}},
			{"set remove", []string{"set", "remove", "--kid", "nope", set}},
			{"key analyze", []string{"key", "analyze", set}},
		} {
			code, out, stderr := runTerm(t, false, true, []byte("x"), c.args...)
			if code == exitOK {
				t.Errorf("%s %q: exit 0, stdout %q", c.name, h, out)
				continue
			}
			if r, ok := hiddenIn(out + stderr); ok {
				t.Errorf("%s %q: prints %U as it is: stdout %q, stderr %q", c.name, h, r, out, stderr)
			}
			if !strings.Contains(out+stderr, shownQuote(h)) {
				t.Errorf("%s %q: does not name %s: stdout %q, stderr %q", c.name, h, shownQuote(h), out, stderr)
			}
			if n := strings.Count(stderr, "\n"); n != 1 || !strings.HasSuffix(stderr, "\n") {
				t.Errorf("%s %q: %d lines on standard error: %q", c.name, h, n, stderr)
			}
		}
	}
}

// TestStdinNotice: a command about to read its input from a terminal
// says so on standard error, once, and how to give it instead when it is
// the argument left out; on a pipe or a file it says nothing.
func TestStdinNotice(t *testing.T) {
	hs := readFile(t, "tokens", "hs256.jwt")
	const (
		token  = "jose: reading the token from standard input (end with Ctrl-D); give it, or its file, as an argument to skip this\n"
		ofFile = "from standard input (end with Ctrl-D); give its file as an argument to skip this\n"
	)
	for _, tt := range []struct {
		name string
		in   []byte
		args []string
		want string // the notice; the rest of stderr is the run's
	}{
		{"verify", hs, []string{"verify", "--alg", "HS256", "--key", kHS256}, token},
		{"verify -", hs, []string{"verify", "--alg", "HS256", "--key", kHS256, "-"}, "jose: reading the token from standard input (end with Ctrl-D)\n"},
		{"inspect", hs, []string{"inspect"}, token},
		{"decrypt", readFile(t, "tokens", "a128kw.jwe"), []string{"decrypt", "--alg", "A128KW", "--enc", "A128GCM", "--key", kA128KW}, token},
		{"jwt validate", hs, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--any-audience", "--no-exp"}, token},
		{"sign", []byte("hi"), []string{"sign", "--alg", "HS256", "--key", kHS256}, "jose: reading the payload " + ofFile},
		{"encrypt", []byte("hi"), []string{"encrypt", "--alg", "A128KW", "--enc", "A128GCM", "--key", kA128KW}, "jose: reading the plaintext " + ofFile},
		{"key public", readFile(t, "keys", "ec.jwk"), []string{"key", "public"}, "jose: reading the key " + ofFile},
		{"key analyze", readFile(t, "keys", "ec.jwk"), []string{"key", "analyze"}, "jose: reading the key or JWK Set " + ofFile},
		{"set public", readFile(t, "keys", "set.json"), []string{"set", "public"}, "jose: reading the JWK Set " + ofFile},
		{"key -", readFile(t, "keys", "hs256.jwk"), []string{"sign", "--alg", "HS256", "--key", "-", "testdata/tokens/payload.txt"}, "jose: reading the key or JWK Set from standard input (end with Ctrl-D)\n"},
		{"secret", []byte("correct horse battery staple 123"), []string{"sign", "--alg", "HS256", "--secret-file", "-", "testdata/tokens/payload.txt"},
			"jose: reading the secret from standard input (end with Ctrl-D); the terminal shows what you type, and a line break before Ctrl-D is part of the secret\n"},
		{"access token", hs, []string{"dpop", "proof", "--key", kEC, "--method", "GET", "--url", "https://server.example/", "--access-token", "-"}, "jose: reading the access token from standard input (end with Ctrl-D)\n"},
		// Nothing read from standard input: no notice.
		{"argument", nil, []string{"verify", "--alg", "HS256", "--key", kHS256, tHS256}, ""},
		{"generate", nil, []string{"key", "generate", "--kty", "EC"}, ""},
	} {
		tt.want = strings.ReplaceAll(tt.want, "Ctrl-D", endOfInput())
		code, out, stderr := runTerm(t, true, false, tt.in, tt.args...)
		if code != exitOK || stderr != tt.want {
			t.Errorf("%s: exit %d, stdout %q, stderr %q, want %q", tt.name, code, out, stderr, tt.want)
		}
		// Not a terminal: the same run, silent.
		code, out, stderr = runTerm(t, false, false, tt.in, tt.args...)
		if code != exitOK || stderr != "" {
			t.Errorf("%s, not a terminal: exit %d, stdout %q, stderr %q", tt.name, code, out, stderr)
		}
	}
	// The notice is written before the read: a terminal that has sent
	// nothing yet sees it first.
	var errb bytes.Buffer
	s := &streams{stdout: &bytes.Buffer{}, stderr: &errb, now: func() time.Time { return testTime }, terminal: func(any) bool { return true }}
	s.stdin = readerFunc(func([]byte) (int, error) {
		if errb.Len() == 0 {
			t.Error("standard input read before the notice")
		}
		return 0, io.EOF
	})
	runWith(s, []string{"inspect"})
}

// readerFunc is an io.Reader of a function.
type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// TestHiddenGolden pins what inspect and a refusal print of a token
// whose header, kid and claims hold a right-to-left override, an
// isolate, a zero-width space, a BOM, a line separator, an escape
// sequence and DEL: \uXXXX in the JSON, Go's escapes in the message.
func TestHiddenGolden(t *testing.T) {
	q := rawJSONString
	// The MAC is deterministic: the golden files hold the token.
	tok := signHS256(t, `{"alg":"HS256","kid":`+q("\u202ehs-1")+`,"x":`+q("\u2066a\u2069b\u200bc\ufeffd\u2028")+`}`, `{"sub":`+q("\u202eabc")+`,"name":`+q("\x1b[2J\x1b[31mroot\x7f")+`}`)
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"hidden-inspect", []string{"inspect", tok}},
		{"hidden-verify-kid", []string{"verify", "--alg", "HS256", "--key", kSet, tok}},
		{"hidden-jwt-validate", []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--any-audience", "--no-exp", "--sub", "abc", tok}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkGolden(t, tt.name, "", testTime, tt.args)
		})
	}
}

// TestJSONKeepsHTMLCharacters: the JSON the command prints keeps <, >
// and & as they are, not as encoding/json's \u003c, \u003e and \u0026
// for HTML: inspect shows the URL a claim holds.
func TestJSONKeepsHTMLCharacters(t *testing.T) {
	const url = "https://a.example/?a=1&b=<2>"
	tok := signHS256(t, `{"alg":"HS256","x5u":"`+url+`"}`, `{"u":"`+url+`"}`)
	key := writeTemp(t, "key.jwk", []byte(`{"kty":"oct","k":"2kXxrg8MVKrDpEY45XkKiYgHqvowzE3ApChyAqgmCQY","kid":"`+url+`"}`))
	for _, args := range [][]string{
		{"inspect", tok},
		{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--any-audience", "--no-exp", tok},
		{"key", "convert", "--to", "jwk", key},
	} {
		out := string(mustRun(t, nil, args...))
		if !strings.Contains(out, `"`+url+`"`) {
			t.Errorf("%s: want %s as it is:\n%s", args[0], url, out)
		}
	}
}

// TestInspectInvalidUTF8Payload: a payload that looks like JSON but holds
// a byte that is not UTF-8 is shown as "payload_base64url", its bytes,
// not as JSON in which that byte would read as U+FFFD.
func TestInspectInvalidUTF8Payload(t *testing.T) {
	payload := "{\"sub\":\"a\xffb\"}"
	out := mustRun(t, nil, "inspect", signHS256(t, `{"alg":"HS256"}`, payload))
	var got struct {
		Payload       json.RawMessage `json:"payload"`
		PayloadBase64 string          `json:"payload_base64url"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.Payload != nil || got.PayloadBase64 != base64.RawURLEncoding.EncodeToString([]byte(payload)) {
		t.Errorf("inspect of %q:\n%s\nwant payload_base64url only", payload, out)
	}
}

// TestArgTextEscaped: what the command repeats of its arguments (an
// unknown command or flag) is escaped as what it repeats of a token:
// nothing hidden reaches standard error.
func TestArgTextEscaped(t *testing.T) {
	for _, h := range []string{"\x1b[2J", "x\u202e", "hs\ufe0f"} {
		for _, args := range [][]string{{"ver" + h}, {"key", "pub" + h}, {"inspect", "--x" + h}} {
			code, out, stderr := runTerm(t, false, true, nil, args...)
			if code != exitUsage {
				t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, stderr)
			}
			if r, ok := hiddenIn(stderr); ok || strings.Count(stderr, "\n") != 1 {
				t.Errorf("%q: prints %U as it is, or not one line: %q", args, r, stderr)
			}
		}
	}
}
