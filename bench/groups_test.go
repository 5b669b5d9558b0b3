package bench

import (
	"slices"
	"strings"
	"testing"
)

func TestLookupGroup(t *testing.T) {
	for name, want := range map[string]string{
		"HS256": "HS256", "hs256": "HS256", "hmac": "hmac", "HMAC": "hmac",
		"rsa-oaep-256": "RSA-OAEP-256", "ecdh-es+a128kw": "ECDH-ES+A128KW", "kw": "KW", "DIR": "dir",
	} {
		if got, ok := LookupGroup(name); !ok || got != want {
			t.Errorf("LookupGroup(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"", "HS257", "RSAOAEP256", "HS 256", "hs256 "} {
		if got, ok := LookupGroup(name); ok {
			t.Errorf("LookupGroup(%q) = %q, want no group", name, got)
		}
	}
	got, err := ResolveGroups([]string{"jws", "JWS", "hmac", "Jws"})
	if err != nil || !slices.Equal(got, []string{"JWS", "hmac"}) {
		t.Errorf("ResolveGroups = %v, %v", got, err)
	}
}

// TestLookupGroupAmbiguous checks the rule for names that differ only by
// case: the exact spelling wins, and a spelling matching several but none
// exactly is no group.
func TestLookupGroupAmbiguous(t *testing.T) {
	defer func(b []Benchmark) { Benchmarks = b }(Benchmarks)
	Benchmarks = append(slices.Clone(Benchmarks), Benchmark{Name: "XBench", Groups: []string{"JWS", "Xy", "XY"}, Alg: "HS256"})
	for name, want := range map[string]string{"Xy": "Xy", "XY": "XY", "xy": ""} {
		got, ok := LookupGroup(name)
		if got != want || ok != (want != "") {
			t.Errorf("LookupGroup(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	if s := SuggestGroups("xy"); !slices.Equal(s, []string{"Xy", "XY"}) {
		t.Errorf("SuggestGroups(xy) = %v", s)
	}
}

func TestSuggestGroups(t *testing.T) {
	for name, want := range map[string][]string{
		"HS257":                       {"HS256"},                          // one substitution
		"RSASing":                     {"RSASign"},                        // a transposition
		"rsaoaep256":                  {"RSA-OAEP-256"},                   // punctuation left out
		"ECDHESA128":                  {"ECDHESA128KW", "ECDH-ES+A128KW"}, // a prefix of both spellings
		"ES":                          {"ES256", "ES384", "ES512"},        // a prefix of several: the first three
		"Ed2519":                      {"Ed25519"},                        // a deletion
		"JWTNestedES":                 {"JWTNestedES256"},                 // a prefix
		"nothing":                     nil,
		"RSA-OAEP-2566":               {"RSA-OAEP-256"},
		strings.Repeat("HS256", 1000): nil, // far from every group, however long
		strings.Repeat("x", 30):       nil,
		"x":                           nil,
		"":                            nil,
	} {
		if got := SuggestGroups(name); !slices.Equal(got, want) {
			t.Errorf("SuggestGroups(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestUnknownGroupError(t *testing.T) {
	for name, want := range map[string]string{
		"HS257":   `bench: unknown group "HS257" (did you mean HS256? "josebench list" lists the groups)`,
		"ES":      `bench: unknown group "ES" (did you mean ES256, ES384 or ES512? "josebench list" lists the groups)`,
		"nothing": `bench: unknown group "nothing" ("josebench list" lists the `,
		// A long name is quoted cut (a rune is not split), with its length.
		strings.Repeat("h", 100_000):        `bench: unknown group "` + strings.Repeat("h", 64) + `"... (100000 bytes) ("josebench list" lists the `,
		strings.Repeat("h", 63) + "é" + "x": `bench: unknown group "` + strings.Repeat("h", 63) + `"... (66 bytes) ("josebench list" lists the `,
	} {
		got := (&UnknownGroupError{Group: name}).Error()
		if got != want && !(strings.HasSuffix(want, " ") && strings.HasPrefix(got, want) && strings.HasSuffix(got, " groups)")) {
			t.Errorf("%s: %q\nwant %q", name, got, want)
		}
		if strings.Count(got, ",") > 2 {
			t.Errorf("%s: the error lists groups: %q", name, got)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"", "abc", 3}, {"abc", "abc", 0}, {"abc", "abd", 1}, {"abc", "acb", 1}, {"kitten", "sitting", 3}, {"ab", "ba", 1}} {
		if d := editDistance(tt.a, tt.b); d != tt.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, d, tt.d)
		}
		if d := editDistance(tt.b, tt.a); d != tt.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.b, tt.a, d, tt.d)
		}
	}
}
