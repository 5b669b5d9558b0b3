package jsonx

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// dfReference is what jsonx must answer for text, by encoding/json and the
// documented differences (no duplicates here: one member per object).
func dfReference(text []byte) bool {
	return json.Valid(text) && utf8.Valid(text) && !dfLoneSurrogate(text)
}

// exact returns a copy of s in a slice of exactly its length and capacity,
// so that a read past the end panics.
func exact(s string) []byte { return append(make([]byte, 0, len(s)), s...) }

// TestWordEdges puts every byte sequence the string scan must stop at
// (quotes, escapes, control characters, non-ASCII and invalid UTF-8,
// escaped surrogates) at every offset 0..15 of a string, with 0..9 plain
// bytes after it, in a value, in a name, alone and at the very end of the
// data; and digit runs ending in every byte that may follow them. Each
// text must be accepted exactly when encoding/json accepts it as valid
// UTF-8 without a lone surrogate, and read the same; and AppendString
// must write each content, and each content cut after the sequence, so
// that it reads back.
func TestWordEdges(t *testing.T) {
	seqs := []string{
		`"`, `\`, `\"`, `\\`, `\/`, `\n`, `\u0041`, `\u00e9`, `\u12`, `\x`,
		"\x00", "\x1f", "\x7f", "\x20",
		"\xc3\xa9", "\xc3", "\xa9", "\xe2\x82\xac", "\xe2\x82", "\xf0\x9f\x98\x80", "\xf0\x9f\x98",
		"\xc0\xaf", "\xe0\x80\xaf", "\xf0\x80\x80\xaf", // overlong
		"\xed\xa0\x80", "\xed\xbf\xbf", "\xf4\x90\x80\x80", "\xff", "\xfe", // surrogates, > U+10FFFF
		`\ud800`, `\udc00`, `\ud800\udc00`, `\ud83d\ude00`, `\ud800\u0041`, `\ud800\\`, `\udbff\udfff`, `\ud800\ud800`, `\udfff`, `\ud7ff`, `\ue000`, `\ud800\ue000`, `\ud800\udbff`, `\udbff\udc00`, `\uDBFF\uDFFF`,
		"\u2028\u2029", "<>&",
	}
	n := 0
	for _, seq := range seqs {
		for k := range 16 {
			for m := range 10 {
				content := strings.Repeat("a", k) + seq + strings.Repeat("b", m)
				// Written by AppendString, content reads back as
				// encoding/json's own encoding of it does.
				dfCheckAppendString(t, exact(content))
				dfCheckAppendString(t, exact(strings.Repeat("a", k)+seq))
				for _, text := range []string{
					`"` + content + `"`,
					`"` + content, // unterminated, at the end
					`{"n":"` + content + `"}`,
					`{"` + content + `":1}`,
					`{"` + content + `":"` + content + `"}`,
					`["` + content + `"]`,
					`{"x":1,"` + content,
				} {
					n++
					data := exact(text)
					want := dfReference(data)
					// ScanObjectPlain reads as ScanObject does,
					// and says which values are plain strings.
					dfCheckPlain(t, data, Limits{})
					err := Valid(data, Limits{})
					if (err == nil) != want {
						t.Fatalf("Valid(%q) = %v, want accepted %v", text, err, want)
					}
					if err != nil {
						continue
					}
					var got []string
					if err := dfTokens(&got, data); err != nil {
						t.Fatalf("%q: %v", text, err)
					}
					if std := dfStdTokens(t, data); !slicesEqual(got, std) {
						t.Fatalf("%q: jsonx %q, encoding/json %q", text, got, std)
					}
				}
			}
		}
	}
	for _, digits := range []string{"1", "-1", "0.1", "1e1", "1.5E-1"} {
		for k := range 18 {
			for _, end := range []string{"", ".", "e", "E", "+", "-", "x", "/", ":", "0", "9", " ", "}", ",", "\xff", ".5", "e+", "E-2"} {
				num := digits + strings.Repeat("7", k) + end
				for _, text := range []string{num, `{"n":` + num + `}`, `[` + num + `,` + num + `]`, `{"n":` + num} {
					n++
					data := exact(text)
					want := dfReference(data)
					if err := Valid(data, Limits{}); (err == nil) != want {
						t.Fatalf("Valid(%q) = %v, want accepted %v", text, err, want)
					}
				}
			}
		}
	}
	t.Logf("%d texts", n)
}

// TestNameHashCollisions: names the duplicate check cannot tell apart by
// their hash bit (equal first and last bytes and length, or any other
// collision modulo 64) are compared byte for byte: distinct ones are
// accepted, equal ones (also once unescaped) refused, on either side of
// the small-object threshold.
func TestNameHashCollisions(t *testing.T) {
	// Every pair of names of one to three bytes from a small alphabet
	// whose hash bits collide.
	alphabet := "az09\u00e9"
	var names []string
	for _, a := range alphabet {
		names = append(names, string(a))
		for _, b := range alphabet {
			names = append(names, string(a)+string(b))
			for _, c := range alphabet {
				names = append(names, string(a)+string(b)+string(c))
			}
		}
	}
	names = append(names, "")
	byBit := map[uint][]string{}
	for _, s := range names {
		bit := nameBit(nameKey([]byte(s)))
		byBit[bit] = append(byBit[bit], s)
	}
	pairs := 0
	obj := func(filler int, a, b string) []byte {
		var sb strings.Builder
		sb.WriteString("{")
		for i := range filler {
			sb.WriteString(`"f` + string(rune('A'+i)) + `":0,`)
		}
		sb.WriteString(`"` + a + `":1,"` + b + `":2}`)
		return []byte(sb.String())
	}
	for _, group := range byBit {
		for i, a := range group {
			for _, b := range group[i:] {
				for _, filler := range []int{0, smallObject - 2, smallObject - 1, smallObject + 3} {
					pairs++
					err := Valid(obj(filler, a, b), Limits{})
					var de *DuplicateError
					if a == b {
						if !errors.As(err, &de) || de.Name != a {
							t.Fatalf("{%q, %q} after %d: %v, want a duplicate", a, b, filler, err)
						}
					} else if err != nil {
						t.Fatalf("{%q, %q} after %d: %v, want accepted", a, b, filler, err)
					}
				}
			}
		}
	}
	// Equal once unescaped, with colliding and non-colliding raw forms.
	for _, c := range [][2]string{
		{"axb", `a\u0078b`}, {"axb", `\u0061xb`}, {"axb", `ax\u0062`}, {`\/`, `/`}, {`\u00e9`, "\u00e9"},
		{`\ud83d\ude00`, "\U0001F600"}, {`\n`, `\u000a`}, {`\u000A`, `\u000a`},
	} {
		for _, filler := range []int{0, smallObject - 1, smallObject + 3} {
			var de *DuplicateError
			if err := Valid(obj(filler, c[0], c[1]), Limits{}); !errors.As(err, &de) {
				t.Errorf("{%q, %q} after %d: %v, want a duplicate", c[0], c[1], filler, err)
			}
		}
	}
	t.Logf("%d pairs", pairs)
}

// TestNameBitsRegistered: the registered names of each kind of JOSE
// object have distinct bits in the duplicate check (see nameBit), and an
// object of all of them with one repeated is still refused.
func TestNameBitsRegistered(t *testing.T) {
	for _, set := range [][]string{
		{"iss", "sub", "aud", "exp", "nbf", "iat", "jti", "scope", "client_id", "azp", "nonce", "auth_time", "acr", "amr", "sid", "cnf", "email", "name", "roles", "groups"},
		{"alg", "enc", "zip", "jku", "jwk", "kid", "x5u", "x5c", "x5t", "x5t#S256", "typ", "cty", "crit", "b64", "epk", "apu", "apv", "iv", "tag", "p2s", "p2c", "url", "nonce"},
		{"kty", "use", "key_ops", "alg", "kid", "x5u", "x5c", "x5t", "x5t#S256", "crv", "x", "y", "d", "n", "e", "p", "q", "dp", "dq", "qi", "k"},
	} {
		bitOf := map[uint]string{}
		for _, name := range set {
			bit := nameBit(nameKey([]byte(name)))
			if prev, ok := bitOf[bit]; ok {
				t.Errorf("%q and %q share bit %d", prev, name, bit)
			}
			bitOf[bit] = name
		}
		// The first name again, after fifteen of them (the small-object
		// path) and after all of them.
		for _, k := range []int{smallObject - 1, len(set)} {
			k = min(k, len(set))
			text := `{"` + strings.Join(set[:k], `":0,"`) + `":0,"` + set[0] + `":1}`
			var de *DuplicateError
			if err := Valid([]byte(text), Limits{}); !errors.As(err, &de) || de.Name != set[0] {
				t.Errorf("%s: %v, want a duplicate %q", text, err, set[0])
			}
		}
	}
}
