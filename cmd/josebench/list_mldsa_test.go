//go:build go1.27

package main

import (
	"strings"
	"testing"
)

// TestListMLDSA: with Go 1.27, josebench list shows the MLDSA group and its
// benchmarks (RFC 9964).
func TestListMLDSA(t *testing.T) {
	code, out, _ := runCLI(t, "list")
	if code != 0 || !strings.Contains(out, "\nMLDSA ") || !strings.Contains(out, "MLDSA44Bench MLDSA65Bench MLDSA87Bench") {
		t.Errorf("list:\n%s", out)
	}
	code, out, _ = runCLI(t, "list", "--group", "ML-DSA-65")
	if code != 0 || strings.Count(out, "\n") != 3 || !strings.Contains(out, "MLDSA65Bench/benchVerification/alg=ML-DSA-65") {
		t.Errorf("list --group ML-DSA-65: exit %d\n%s", code, out)
	}
}
