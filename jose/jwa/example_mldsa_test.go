//go:build go1.27

package jwa_test

import (
	"crypto/mldsa"
	"fmt"

	"github.com/josebench/josebench/jose/jwa"
)

// ML-DSA (RFC 9964) with a key from crypto/mldsa; needs Go 1.27.
func ExampleNewSigner_mldsa() {
	key, err := mldsa.GenerateKey(mldsa.MLDSA65())
	if err != nil {
		panic(err)
	}
	s, err := jwa.NewSigner(jwa.MLDSA65, key)
	if err != nil {
		panic(err)
	}
	input := []byte("eyJhbGciOiJNTC1EU0EtNjUifQ.cGF5bG9hZA")
	sig, err := s.Sign(nil, input)
	if err != nil {
		panic(err)
	}
	v, err := jwa.NewVerifier(jwa.MLDSA65, key.PublicKey())
	if err != nil {
		panic(err)
	}
	fmt.Println(len(sig), v.Verify(input, sig) == nil)
	// An ML-DSA-65 key cannot be used for ML-DSA-44.
	_, err = jwa.NewVerifier(jwa.MLDSA44, key.PublicKey())
	fmt.Println(err)
	// Output:
	// 3309 true
	// jwa: the key is an ML-DSA-65 public key; ML-DSA-44 needs an ML-DSA-44 key: invalid key for algorithm
}
