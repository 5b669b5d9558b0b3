//go:build !go1.27

package main

import (
	"strings"
	"testing"
)

// TestAKPUnsupported: before Go 1.27 an ML-DSA key cannot be generated,
// nor a token signed or verified, and --alg says why: the build, not the
// name (issue 23).
func TestAKPUnsupported(t *testing.T) {
	for _, args := range [][]string{
		{"key", "generate", "--kty", "AKP", "--alg", "ML-DSA-44"},
		{"sign", "--alg", "ML-DSA-65", "--key", kEd},
		{"verify", "--alg", "EdDSA,ML-DSA-87", "--key", kEd, tEd},
	} {
		code, out, errs := runCLI(t, nil, args...)
		if code != exitUsage || out != "" || !strings.Contains(errs, ": ML-DSA needs a build with Go 1.27 or later (this one is go1.") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}
