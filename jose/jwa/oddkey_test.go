package jwa

import (
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// oddSigner is a caller's own crypto.Signer whose Public dereferences its
// receiver, as most do: a nil *oddSigner panics when asked for its key.
type oddSigner struct{ pub crypto.PublicKey }

func (s *oddSigner) Public() crypto.PublicKey { return s.pub }
func (s *oddSigner) Sign(io.Reader, []byte, crypto.SignerOpts) ([]byte, error) {
	return nil, errors.New("oddSigner: no signing")
}

// panicPubSigner is a crypto.Signer whose Public panics.
type panicPubSigner struct{}

func (panicPubSigner) Public() crypto.PublicKey { panic("panicPubSigner: no public key") }
func (panicPubSigner) Sign(io.Reader, []byte, crypto.SignerOpts) ([]byte, error) {
	return nil, errors.New("panicPubSigner: no signing")
}

// TestOddKeysRefused pins that a malformed key of a caller — a nil pointer
// of its own crypto.Signer type, a Signer whose Public panics or returns
// nil, a zero standard-library key, an Ed25519 key of the wrong length — is
// refused by every constructor with an error wrapping ErrInvalidKey, never
// a panic.
func TestOddKeysRefused(t *testing.T) {
	keys := []struct {
		name string
		key  any
	}{
		{"nil *oddSigner", (*oddSigner)(nil)},
		{"Signer whose Public panics", panicPubSigner{}},
		{"Signer whose Public returns nil", &oddSigner{}},
		{"Signer whose Public returns a nil *ecdsa.PublicKey", &oddSigner{pub: (*ecdsa.PublicKey)(nil)}},
		{"Signer holding a zero ecdsa.PublicKey", &oddSigner{pub: &ecdsa.PublicKey{}}},
		{"Signer holding a zero rsa.PublicKey", &oddSigner{pub: &rsa.PublicKey{}}},
		{"Signer holding a 5-byte ed25519.PublicKey", &oddSigner{pub: ed25519.PublicKey(make([]byte, 5))}},
		{"zero ecdsa.PublicKey", &ecdsa.PublicKey{}},
		{"zero ecdsa.PrivateKey", &ecdsa.PrivateKey{}},
		{"new(ed25519.PrivateKey)", new(ed25519.PrivateKey)},
		{"empty ed25519.PrivateKey", ed25519.PrivateKey{}},
		{"5-byte ed25519.PublicKey", ed25519.PublicKey(make([]byte, 5))},
		{"zero ecdh.PrivateKey", &ecdh.PrivateKey{}},
		{"zero ecdh.PublicKey", &ecdh.PublicKey{}},
		{"zero rsa.PrivateKey", &rsa.PrivateKey{}},
		{"zero rsa.PublicKey", &rsa.PublicKey{}},
	}
	type op struct {
		name string
		do   func(key any) error
	}
	var ops []op
	for _, alg := range []SignatureAlgorithm{RS256, PS256, ES256, EdDSA} {
		ops = append(ops,
			op{"NewSigner(" + string(alg) + ")", func(k any) error { _, err := NewSigner(alg, k); return err }},
			op{"NewVerifier(" + string(alg) + ")", func(k any) error { _, err := NewVerifier(alg, k); return err }},
		)
	}
	for _, alg := range []KeyAlgorithm{RSAOAEP, ECDHES} {
		ops = append(ops,
			op{"NewKeyEncrypter(" + string(alg) + ")", func(k any) error { _, err := NewKeyEncrypter(alg, k); return err }},
			op{"NewKeyDecrypter(" + string(alg) + ")", func(k any) error { _, err := NewKeyDecrypter(alg, k); return err }},
		)
	}
	try := func(name string, f func() error) (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("%s panicked: %v", name, r)
				t.Error(err)
			}
		}()
		return f()
	}
	for _, k := range keys {
		for _, o := range ops {
			name := o.name + " with " + k.name
			err := try(name, func() error { return o.do(k.key) })
			if err == nil {
				t.Errorf("%s: no error", name)
			} else if !errors.Is(err, ErrInvalidKey) {
				t.Errorf("%s: %v, want one wrapping ErrInvalidKey", name, err)
			} else if msg := err.Error(); !strings.HasPrefix(msg, "jwa: ") || !strings.Contains(msg, " needs ") {
				t.Errorf("%s: %q, want a refusal saying what the algorithm needs", name, msg)
			}
		}
		for _, alg := range []SignatureAlgorithm{RS256, PS256, ES256, EdDSA} {
			name := string(alg) + ".FitsKey with " + k.name
			try(name, func() error {
				if alg.FitsKey(k.key) {
					t.Errorf("%s: true", name)
				}
				return nil
			})
		}
		for _, alg := range []KeyAlgorithm{RSAOAEP, ECDHES} {
			name := string(alg) + ".FitsKey with " + k.name
			try(name, func() error {
				if alg.FitsKey(k.key) {
					t.Errorf("%s: true", name)
				}
				return nil
			})
		}
		try("DescribeKey with "+k.name, func() error { DescribeKey(k.key); return nil })
	}
}
