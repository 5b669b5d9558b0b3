package bench

import (
	"slices"
	"strings"
	"testing"
)

func TestFilter(t *testing.T) {
	vs, err := Select(DefaultConfig().Measure, []string{"hmac", "RSA-OAEP"})
	if err != nil {
		t.Fatal(err)
	}
	ids := func(vs []Variant) []string {
		var s []string
		for i := range vs {
			s = append(s, vs[i].ID())
		}
		return s
	}
	for _, tt := range []struct {
		pattern string
		want    []string
	}{
		// Anywhere in the name, as go test -bench and phpbench.
		{"alg=HS384", []string{"HS384Bench/benchSignature/alg=HS384", "HS384Bench/benchVerification/alg=HS384", "HS384Bench/benchRoundTrip/alg=HS384"}},
		// Across the parts of the name.
		{"^HS256Bench/benchVerification/", []string{"HS256Bench/benchVerification/alg=HS256"}},
		{"benchDecryption/.*enc=A256GCM/bits=4096$", []string{"RSAOAEPBench/benchDecryption/alg=RSA-OAEP/enc=A256GCM/bits=4096"}},
		// Case matters unless asked otherwise, as in Go.
		{"hs384", nil},
		{"(?i)hs384bench/benchsig", []string{"HS384Bench/benchSignature/alg=HS384"}},
		// The name has no BenchmarkSuite/ prefix.
		{"^BenchmarkSuite/", nil},
	} {
		re, err := CompileFilter(tt.pattern)
		if err != nil {
			t.Fatalf("%s: %v", tt.pattern, err)
		}
		if got := ids(Filter(vs, re)); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.pattern, got, tt.want)
		}
	}
	// Anywhere means in the parameters too: HS384 is also the HMAC of
	// A192CBC-HS384 (RSA-OAEP with 3 key sizes, 3 subjects).
	re, _ := CompileFilter("HS384")
	if n := len(Filter(vs, re)); n != 3+3*3 {
		t.Errorf("HS384: %d variants, want 12", n)
	}
	// Order kept: every RSA-OAEP decryption, in suite order.
	re, _ = CompileFilter("RSAOAEPBench/benchDecryption")
	all := ids(vs)
	got := ids(Filter(vs, re))
	if len(got) != 6*3 {
		t.Errorf("%d RSA-OAEP decryptions", len(got))
	}
	for i := 1; i < len(got); i++ {
		if slices.Index(all, got[i-1]) >= slices.Index(all, got[i]) {
			t.Errorf("order changed at %s", got[i])
		}
	}
	if _, err := CompileFilter("HS(256"); err == nil || !strings.HasPrefix(err.Error(), `bench: --filter "HS(256" is not a valid Go regular expression: `) || !strings.Contains(err.Error(), "missing closing )") {
		t.Errorf("invalid pattern: %v", err)
	}
}
