//go:build !go1.27

package jose

import (
	"errors"
	"runtime"
	"testing"
)

const akpTSupported = false

// TestAKPUnsupported checks that before Go 1.27 a valid ML-DSA AKP key is
// refused as unsupported, by ParseKey and by the generators, with the
// reason jwa gives (SignatureAlgorithm.UnsupportedReason): the Go release
// ML-DSA needs; a name that is no AKP algorithm is not a matter of the
// release, and is refused as with Go 1.27 (TestGenerateAKPNotAKP).
func TestAKPUnsupported(t *testing.T) {
	needs := " needs a build with Go 1.27 or later (crypto/mldsa); this one is " + runtime.Version() + ": unsupported algorithm"
	for alg := range akpTFiles {
		if _, err := ParseKey([]byte(akpTRead(t, alg))); !errors.Is(err, ErrUnsupportedAlgorithm) || err.Error() != "jose: jwk: AKP key for "+alg+needs {
			t.Errorf("%s: ParseKey = %v, want ErrUnsupportedAlgorithm", alg, err)
		}
		if _, err := GenerateAKP(alg); !errors.Is(err, ErrUnsupportedAlgorithm) || err.Error() != `jose: generate: AKP algorithm "`+alg+`"`+needs {
			t.Errorf("GenerateAKP(%s) = %v, want ErrUnsupportedAlgorithm", alg, err)
		}
	}
	if _, err := GenerateAKP("ML-DSA-99"); err == nil || err.Error() != `jose: generate: AKP algorithm "ML-DSA-99": want ML-DSA-44, ML-DSA-65 or ML-DSA-87: unsupported algorithm` {
		t.Errorf("GenerateAKP of an unknown name: %v", err)
	}
}
