package jsonx

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// The word-at-a-time scanners against encoding/json: random strings and
// numbers of every length near the word boundaries, made of the bytes that
// matter (quotes, escapes, control characters, non-ASCII bytes, digits),
// inside an object and at the very end of the data, must be accepted by
// Valid exactly when encoding/json accepts them (as valid UTF-8, which
// jsonx requires), and AppendString must write what String reads back.
func TestScannerAgreesWithEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("ab09\"\\/nu\x00\x1f\x7f\xc3\xa9\xff\xed\xa0 .eE+-")
	for range 200000 {
		b := make([]byte, r.IntN(20))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		for _, text := range []string{`"` + string(b) + `"`, `{"k":"` + string(b) + `","z":1}`, `{"` + string(b) + `":1}`, string(b), `[` + string(b) + `,1]`} {
			want := json.Valid([]byte(text)) && utf8.ValidString(text) && !loneSurrogate(text)
			if got := Valid([]byte(text), Limits{}) == nil; got != want {
				t.Fatalf("Valid(%q) = %v, encoding/json %v", text, got, want)
			}
		}
		enc := AppendString(nil, b)
		got, err := String(enc)
		if err != nil || (utf8.Valid(b) && got != string(b)) {
			t.Fatalf("AppendString(%q) = %q, read back %q, %v", b, enc, got, err)
		}
	}
}

// loneSurrogate reports whether a text encoding/json accepts holds an
// escaped lone surrogate, which jsonx refuses (RFC 7493 §2.1).
func loneSurrogate(text string) bool {
	var v any
	if json.Unmarshal([]byte(text), &v) != nil {
		return false
	}
	return Valid([]byte(text), Limits{}) != nil && containsEscapedSurrogate(text)
}

func containsEscapedSurrogate(s string) bool {
	for i := 0; i+5 < len(s); i++ {
		if s[i] == '\\' && s[i+1] == 'u' && (s[i+2] == 'd' || s[i+2] == 'D') {
			return true
		}
	}
	return false
}
