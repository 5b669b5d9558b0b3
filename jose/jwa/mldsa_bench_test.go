//go:build go1.27

package jwa

import (
	"crypto/mldsa"
	"testing"
)

// BenchmarkMLDSA44 compares ML-DSA-44 signing and verification through
// NewSigner and NewVerifier with the bare crypto/mldsa calls, in one run:
//
//	GOTOOLCHAIN=go1.27.3 go test -run=NONE -bench=MLDSA44 -count=5 ./jose/jwa
func BenchmarkMLDSA44(b *testing.B) {
	key := mldsaTestKey(b, mldsa.MLDSA44(), "bench")
	input := []byte("eyJhbGciOiJNTC1EU0EtNDQifQ.eyJpc3MiOiJqb3NlYmVuY2gifQ")
	s, err := NewSigner(MLDSA44, key)
	if err != nil {
		b.Fatal(err)
	}
	v, err := NewVerifier(MLDSA44, key.PublicKey())
	if err != nil {
		b.Fatal(err)
	}
	sig, err := s.Sign(nil, input)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("primitive/sign", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := key.Sign(nil, input, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("jwa/Sign", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, mldsa.MLDSA44SignatureSize)
		for b.Loop() {
			if _, err := s.Sign(buf[:0], input); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("primitive/verify", func(b *testing.B) {
		b.ReportAllocs()
		pub := key.PublicKey()
		for b.Loop() {
			if err := mldsa.Verify(pub, input, sig, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("jwa/Verify", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := v.Verify(input, sig); err != nil {
				b.Fatal(err)
			}
		}
	})
}
