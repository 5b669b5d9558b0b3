//go:build !go1.27

package main

import (
	"strings"
	"testing"
)

// TestAKPUnsupported: before Go 1.27 an ML-DSA key cannot be generated:
// the build does not know the algorithm.
func TestAKPUnsupported(t *testing.T) {
	code, out, errs := runCLI(t, nil, "key", "generate", "--kty", "AKP", "--alg", "ML-DSA-44")
	if code == 0 || out != "" || !strings.Contains(errs, "--alg ML-DSA-44: unknown algorithm") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
