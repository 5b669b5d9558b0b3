//go:build !go1.27

package jws

import (
	"crypto/ed25519"
	"errors"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// TestMLDSAUnsupported checks that before Go 1.27 the ML-DSA names are
// refused as unsupported, by NewSigner and in an allow-list.
func TestMLDSAUnsupported(t *testing.T) {
	key := ed25519.NewKeyFromSeed(make([]byte, 32))
	for _, alg := range []jwa.SignatureAlgorithm{jwa.MLDSA44, jwa.MLDSA65, jwa.MLDSA87} {
		if _, err := NewSigner(alg, key, nil); !errors.Is(err, jose.ErrUnsupportedAlgorithm) {
			t.Errorf("NewSigner(%s) = %v", alg, err)
		}
		if _, err := NewVerifier(VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{alg}, Key: key.Public()}); !errors.Is(err, jose.ErrUnsupportedAlgorithm) {
			t.Errorf("NewVerifier(%s) = %v", alg, err)
		}
	}
}
