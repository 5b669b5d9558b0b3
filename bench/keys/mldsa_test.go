//go:build go1.27

package keys

import (
	"testing"
)

func TestMLDSA(t *testing.T) {
	seen := map[string]bool{}
	for _, alg := range []string{"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"} {
		k, err := MLDSA(alg)
		if err != nil {
			t.Fatal(err)
		}
		if got := k.PublicKey().Parameters().String(); got != alg {
			t.Errorf("MLDSA(%s) is an %s key", alg, got)
		}
		seen[string(k.Bytes())] = true
		o, err := OtherMLDSA(alg)
		if err != nil {
			t.Fatal(err)
		}
		if o.Equal(k) || o.PublicKey().Parameters() != k.PublicKey().Parameters() {
			t.Errorf("OtherMLDSA(%s) is the same key, or of another parameter set", alg)
		}
	}
	if len(seen) != 3 {
		t.Error("the ML-DSA keys share a seed")
	}
	if _, err := MLDSA("ML-DSA-42"); err == nil {
		t.Error("MLDSA(ML-DSA-42) did not fail")
	}
}
