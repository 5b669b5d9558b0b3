package main

import (
	"strings"
	"testing"
)

// TestKeyGenerateAKPUsage: an AKP key needs --alg and takes neither --size
// nor --crv (RFC 9964 §4: the algorithm fixes the key).
func TestKeyGenerateAKPUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--kty", "AKP"},
		{"--kty", "AKP", "--alg", "ML-DSA-44", "--size", "256"},
		{"--kty", "AKP", "--alg", "ML-DSA-44", "--crv", "P-256"},
	} {
		code, out, errs := runCLI(t, nil, append([]string{"key", "generate"}, args...)...)
		if code != 2 || out != "" || !strings.HasPrefix(errs, "jose: key generate: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}
