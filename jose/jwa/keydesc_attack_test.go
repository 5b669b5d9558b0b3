package jwa

import (
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"errors"
	"io"
	"math/big"
	"testing"
)

// ptrSigner is a device whose Public dereferences its receiver: a nil
// *ptrSigner panics when asked.
type ptrSigner struct{ pub crypto.PublicKey }

func (s *ptrSigner) Public() crypto.PublicKey { return s.pub }
func (*ptrSigner) Sign(io.Reader, []byte, crypto.SignerOpts) ([]byte, error) {
	return nil, errors.New("ptrSigner: no key")
}

// panicSigner is a device whose Public panics (unplugged).
type panicSigner struct{}

func (panicSigner) Public() crypto.PublicKey { panic("device unplugged") }
func (panicSigner) Sign(io.Reader, []byte, crypto.SignerOpts) ([]byte, error) {
	return nil, errors.New("panicSigner: no key")
}

type nilParamsCurve struct{ elliptic.Curve }

func (nilParamsCurve) Params() *elliptic.CurveParams { return nil }

// TestDescribeKeyOdd: DescribeKey describes zero values, nil pointers,
// huge keys and devices that panic, without panicking (review rv23t: a nil
// *T crypto.Signer given to HS256, A128KW, dir, PBES2, RSA-OAEP or ECDH-ES
// panicked in the refusal, where the former %T text did not).
func TestDescribeKeyOdd(t *testing.T) {
	huge := new(big.Int).Lsh(big.NewInt(1), 1<<16)
	for _, c := range []struct {
		key  any
		want string
	}{
		{&rsa.PublicKey{}, "an empty RSA public key"},
		{&rsa.PrivateKey{}, "an empty RSA private key"},
		{&rsa.PublicKey{N: huge}, "a 65537-bit RSA public key"},
		{&ecdsa.PublicKey{}, "an ECDSA public key on no curve"},
		{&ecdsa.PublicKey{Curve: nilParamsCurve{}}, "an ECDSA public key on a curve of type jwa.nilParamsCurve"},
		{&ecdh.PrivateKey{}, "an ECDH private key on no curve"},
		{&ecdh.PublicKey{}, "an ECDH public key on no curve"},
		{[]byte(nil), "an empty secret"},
		{(*ptrSigner)(nil), "a nil *jwa.ptrSigner"},
		{&ptrSigner{pub: (*rsa.PublicKey)(nil)}, "a crypto.Signer (*jwa.ptrSigner) holding no public key"},
		{panicSigner{}, "a crypto.Signer (jwa.panicSigner) whose public key could not be read (it panicked)"},
		{(*int)(nil), "a key of Go type *int, which jose does not know"},
	} {
		if got := DescribeKey(c.key); got != c.want {
			t.Errorf("DescribeKey(%T) = %q, want %q", c.key, got, c.want)
		}
	}
	for _, key := range []any{(*ptrSigner)(nil), panicSigner{}} {
		for _, a := range []SignatureAlgorithm{HS256} {
			if _, err := NewSigner(a, key); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("NewSigner(%s, %T): %v", a, key, err)
			}
			if _, err := NewVerifier(a, key); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("NewVerifier(%s, %T): %v", a, key, err)
			}
		}
		for _, a := range []KeyAlgorithm{A128KW, Direct, PBES2HS256A128KW, RSAOAEP, ECDHES} {
			if _, err := NewKeyEncrypter(a, key); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("NewKeyEncrypter(%s, %T): %v", a, key, err)
			}
			if _, err := NewKeyDecrypter(a, key); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("NewKeyDecrypter(%s, %T): %v", a, key, err)
			}
		}
	}
}
