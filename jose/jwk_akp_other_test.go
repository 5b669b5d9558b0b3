//go:build !go1.27

package jose

import (
	"errors"
	"testing"
)

const akpTSupported = false

// TestAKPUnsupported checks that before Go 1.27 a valid ML-DSA AKP key is
// refused as unsupported, by ParseKey and by the generators.
func TestAKPUnsupported(t *testing.T) {
	for alg := range akpTFiles {
		if _, err := ParseKey([]byte(akpTRead(t, alg))); !errors.Is(err, ErrUnsupportedAlgorithm) {
			t.Errorf("%s: ParseKey = %v, want ErrUnsupportedAlgorithm", alg, err)
		}
		if _, err := GenerateAKP(alg); !errors.Is(err, ErrUnsupportedAlgorithm) {
			t.Errorf("GenerateAKP(%s) = %v, want ErrUnsupportedAlgorithm", alg, err)
		}
	}
}
