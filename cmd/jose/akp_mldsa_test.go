//go:build go1.27

package main

import (
	"os"
	"strings"
	"testing"
)

// TestAKPSignVerify generates ML-DSA keys from the shell, signs and verifies
// with them, and refuses a token verified under another parameter set.
func TestAKPSignVerify(t *testing.T) {
	for _, alg := range []string{"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"} {
		keys := newKeyPair(t, "--kty", "AKP", "--alg", alg)
		data, err := os.ReadFile(keys.private)
		if err != nil {
			t.Fatal(err)
		}
		k := parseKey(t, data)
		if k.KeyType() != "AKP" || k.Algorithm != alg || k.Use != "sig" {
			t.Errorf("%s: kty %q, alg %q, use %q", alg, k.KeyType(), k.Algorithm, k.Use)
		}
		payload := []byte(`{"sub":"pq"}`)
		tok := mustRun(t, payload, "sign", "--alg", alg, "--key", keys.private)
		out := mustRun(t, tok, "verify", "--alg", alg, "--key", keys.public)
		if !strings.Contains(string(out), `"sub":"pq"`) {
			t.Errorf("%s: verify printed %q", alg, out)
		}
		other := "ML-DSA-44"
		if alg == other {
			other = "ML-DSA-65"
		}
		if code, _, _ := runCLI(t, tok, "verify", "--alg", other, "--key", keys.public); code == 0 {
			t.Errorf("%s token verified as %s", alg, other)
		}
	}
}
