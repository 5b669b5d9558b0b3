//go:build !go1.27

package jwa

import (
	"errors"
	"testing"
)

func sigMLDSACases(testing.TB) []sigCase { return nil }

func sigMLDSAKeyKinds(testing.TB, map[string]any, map[SignatureAlgorithm][]string, map[SignatureAlgorithm][]string) {
}

// TestMLDSAUnsupported checks that a build older than Go 1.27 refuses the
// ML-DSA names as unsupported, with every kind of key, and does not list them.
func TestMLDSAUnsupported(t *testing.T) {
	if MLDSASupported() {
		t.Fatal("MLDSASupported() = true before Go 1.27")
	}
	k := sigKeys(t)
	for _, alg := range []SignatureAlgorithm{MLDSA44, MLDSA65, MLDSA87} {
		if alg.Known() {
			t.Errorf("%s.Known() = true", alg)
		}
		for _, key := range []any{k.ed, k.p256, k.hmac, nil} {
			if _, err := NewSigner(alg, key); !errors.Is(err, ErrUnsupportedAlgorithm) {
				t.Errorf("NewSigner(%s, %T) = %v, want ErrUnsupportedAlgorithm", alg, key, err)
			}
			if _, err := NewVerifier(alg, key); !errors.Is(err, ErrUnsupportedAlgorithm) {
				t.Errorf("NewVerifier(%s, %T) = %v, want ErrUnsupportedAlgorithm", alg, key, err)
			}
		}
	}
	for _, a := range SignatureAlgorithms() {
		if a == MLDSA44 || a == MLDSA65 || a == MLDSA87 {
			t.Errorf("SignatureAlgorithms lists %s", a)
		}
	}
}

func sigMLDSASkipBit(SignatureAlgorithm, int, int) bool { return false }
