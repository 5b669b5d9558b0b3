package jwa

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose/internal/vectortest"
)

// sigDevice is a signing key held in a device (a KMS, an HSM), reachable
// only as a crypto.Signer; answer replaces its signatures.
type sigDevice struct {
	s      crypto.Signer
	answer func(sig []byte) ([]byte, error)
}

func (d sigDevice) Public() crypto.PublicKey { return d.s.Public() }
func (d sigDevice) Sign(r io.Reader, digest []byte, o crypto.SignerOpts) ([]byte, error) {
	sig, err := d.s.Sign(r, digest, o)
	if err != nil || d.answer == nil {
		return sig, err
	}
	return d.answer(sig)
}

// sigDeviceKeys are a local signing key for each asymmetric signature
// algorithm, ES256K included (ML-DSA: TestMLDSASignerDevice, Go 1.27).
func sigDeviceKeys(t *testing.T) map[SignatureAlgorithm]crypto.Signer {
	t.Helper()
	rsaKey := vectortest.RSAKey(t, 2048)
	m := map[SignatureAlgorithm]crypto.Signer{RS256: rsaKey, RS512: rsaKey, PS256: rsaKey, PS384: rsaKey}
	for alg, c := range map[SignatureAlgorithm]elliptic.Curve{ES256: elliptic.P256(), ES384: elliptic.P384(), ES512: elliptic.P521()} {
		k, err := ecdsa.GenerateKey(c, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		m[alg] = k
	}
	_, ed, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	m[EdDSA], m[Ed25519] = ed, ed
	k256, err := GenerateSecp256k1Key()
	if err != nil {
		t.Fatal(err)
	}
	m[ES256K] = k256
	return m
}

// sigCheckDevice signs with key behind a device answering each way:
// honestly (the signature verifies), with an error (ErrKeyDevice wrapping
// it), with a signature of the wrong size (a megabyte too long
// included) or not DER, or of the right form
// that does not verify with the device's public key (a bit flipped in its
// last byte, as a fault in the device's computation would: ErrKeyDevice,
// the device failed, and the signature is not returned; nothing an
// attacker sends reaches a signer).
func sigCheckDevice(t *testing.T, alg SignatureAlgorithm, key crypto.Signer) {
	t.Helper()
	for name, answer := range map[string]func([]byte) ([]byte, error){
		"honest": nil,
		"error":  func([]byte) ([]byte, error) { return nil, errHSM },
		"short":  func(sig []byte) ([]byte, error) { return sig[:len(sig)-1], nil },
		"long":   func(sig []byte) ([]byte, error) { return append(sig, 0), nil },
		"none":   func([]byte) ([]byte, error) { return nil, nil },
		"huge":   func(sig []byte) ([]byte, error) { return append(bytes.Clone(sig), make([]byte, 1<<20)...), nil },
		"faulty": func(sig []byte) ([]byte, error) {
			sig = bytes.Clone(sig)
			sig[len(sig)-1] ^= 1
			return sig, nil
		},
	} {
		s, err := NewSigner(alg, sigDevice{key, answer})
		if err != nil {
			t.Fatal(err)
		}
		sig, err := s.Sign(nil, []byte("signing input"))
		if name == "honest" {
			v, verr := NewVerifier(alg, key.Public())
			if err != nil || verr != nil || v.Verify([]byte("signing input"), sig) != nil {
				t.Errorf("%s: honest device: %v, %v", alg, err, verr)
			}
			continue
		}
		if sig != nil || !errors.Is(err, ErrKeyDevice) || (name == "error" && !errors.Is(err, errHSM)) ||
			!strings.HasPrefix(err.Error(), "jwa: "+string(alg)) || !strings.HasSuffix(err.Error(), ": "+ErrKeyDevice.Error()) {
			t.Errorf("%s: device answering %s: %x, %v; want \"jwa: %s ...: %v\"", alg, name, sig, err, alg, ErrKeyDevice)
		}
	}
}

// TestSignerDevice: a signing device's failure is ErrKeyDevice, for every
// asymmetric signature algorithm.
func TestSignerDevice(t *testing.T) {
	for alg, key := range sigDeviceKeys(t) {
		sigCheckDevice(t, alg, key)
	}
}

// optsIgnoringDevice is an RSA key in a device bound to one padding, which
// signs with RSASSA-PKCS1-v1_5 whatever it is asked (a KMS key whose
// signing algorithm is fixed at its creation, behind a client that drops
// the options).
type optsIgnoringDevice struct{ s crypto.Signer }

func (d optsIgnoringDevice) Public() crypto.PublicKey { return d.s.Public() }
func (d optsIgnoringDevice) Sign(r io.Reader, digest []byte, o crypto.SignerOpts) ([]byte, error) {
	return d.s.Sign(r, digest, o.HashFunc())
}

// wrongKeyDevice signs with another key than the one its Public method
// returns (a KMS handle whose key was rotated after the Signer was made).
type wrongKeyDevice struct{ pub, s crypto.Signer }

func (d wrongKeyDevice) Public() crypto.PublicKey { return d.pub.Public() }
func (d wrongKeyDevice) Sign(r io.Reader, digest []byte, o crypto.SignerOpts) ([]byte, error) {
	return d.s.Sign(r, digest, o)
}

// TestSignerDeviceWrongAlgorithm: a device whose signature has the form
// of the algorithm but is not its signature with the public key the
// Signer was made for (PKCS #1 v1.5 for PS256, another key's ECDSA) is
// refused with ErrKeyDevice, not sent out in a token no one can verify.
func TestSignerDeviceWrongAlgorithm(t *testing.T) {
	rsaKey := vectortest.RSAKey(t, 2048)
	k1, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k2, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		alg SignatureAlgorithm
		key crypto.Signer
	}{
		{PS256, optsIgnoringDevice{rsaKey}},
		{ES256, wrongKeyDevice{pub: k1, s: k2}},
	} {
		s, err := NewSigner(tt.alg, tt.key)
		if err != nil {
			t.Fatal(err)
		}
		sig, err := s.Sign(nil, []byte("signing input"))
		if sig != nil || !errors.Is(err, ErrKeyDevice) {
			t.Errorf("%s with %T: %x, %v; want %v", tt.alg, tt.key, sig, err, ErrKeyDevice)
		}
	}
}

// TestSignerDeviceInPlace: a device's signature appended over the signing
// input (dst and signingInput sharing one array, as a local key allows:
// Sign(buf[:0], buf)) is checked against the signing input, not the
// bytes the signature overwrote: an honest device is not an
// ErrKeyDevice. Local keys sign so already.
func TestSignerDeviceInPlace(t *testing.T) {
	input := []byte("signing input of some length, longer than any signature's start")
	for alg, key := range sigDeviceKeys(t) {
		for _, k := range []crypto.Signer{key, sigDevice{s: key}} {
			s, err := NewSigner(alg, k)
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, len(input), len(input)+1024)
			copy(buf, input)
			sig, err := s.Sign(buf[:0], buf)
			v, verr := NewVerifier(alg, key.Public())
			if err != nil || verr != nil || v.Verify(input, sig) != nil {
				t.Errorf("%s with %T, in place: %v, %v", alg, k, err, verr)
			}
		}
	}
}
