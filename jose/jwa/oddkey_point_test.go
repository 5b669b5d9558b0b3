package jwa

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"errors"
	"fmt"
	"math/big"
	"testing"
)

// TestECDHESKeyWithoutPoint pins that an ECDSA key with a curve but no
// point (nil X or Y) or no scalar (nil D) is refused by the ECDH-ES
// constructors with ErrInvalidKey: they reached its ECDH method, which
// dereferenced the nil big.Int (review rvlast).
func TestECDHESKeyWithoutPoint(t *testing.T) {
	c := elliptic.P256()
	g := c.Params()
	keys := []struct {
		name string
		key  any
	}{
		{"public, curve only", &ecdsa.PublicKey{Curve: c}},
		{"public, no Y", &ecdsa.PublicKey{Curve: c, X: g.Gx}},
		{"private, curve only", &ecdsa.PrivateKey{PublicKey: ecdsa.PublicKey{Curve: c}}},
		{"private, point but no D", &ecdsa.PrivateKey{PublicKey: ecdsa.PublicKey{Curve: c, X: g.Gx, Y: g.Gy}}},
	}
	for _, k := range keys {
		for _, alg := range []KeyAlgorithm{ECDHES, ECDHESA128KW} {
			for op, f := range map[string]func() error{
				"NewKeyEncrypter": func() error { _, err := NewKeyEncrypter(alg, k.key); return err },
				"NewKeyDecrypter": func() error { _, err := NewKeyDecrypter(alg, k.key); return err },
			} {
				if op == "NewKeyEncrypter" && k.name == "private, point but no D" {
					continue // encrypts to its public point, which is whole
				}
				err := func() (err error) {
					defer func() {
						if r := recover(); r != nil {
							err = fmt.Errorf("panic: %v", r)
						}
					}()
					return f()
				}()
				if !errors.Is(err, ErrInvalidKey) {
					t.Errorf("%s(%s) with an ECDSA key %s: %v, want ErrInvalidKey", op, alg, k.name, err)
				}
			}
		}
	}
}

// TestRSAKeyEncryptionExponent pins that RSA key encryption refuses, when
// made, an RSA key whose public exponent is below 3 or even, as the RSA
// signatures do: NewKeyEncrypter and NewKeyDecrypter accepted it and every
// EncryptKey then failed in crypto/rsa (review rvlast).
func TestRSAKeyEncryptionExponent(t *testing.T) {
	n := new(big.Int).Lsh(big.NewInt(1), 2047)
	n.Add(n, big.NewInt(1))
	for _, e := range []int{0, -3, 1, 2, 65536} {
		for _, alg := range []KeyAlgorithm{RSAOAEP, RSAOAEP256, RSA1_5} {
			if _, err := NewKeyEncrypter(alg, &rsa.PublicKey{N: n, E: e}); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("NewKeyEncrypter(%s) with E=%d: %v, want ErrInvalidKey", alg, e, err)
			}
			if _, err := NewKeyDecrypter(alg, &rsa.PrivateKey{PublicKey: rsa.PublicKey{N: n, E: e}}); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("NewKeyDecrypter(%s) with E=%d: %v, want ErrInvalidKey", alg, e, err)
			}
		}
	}
}
