package jwa

import (
	"bytes"
	"crypto"
	"crypto/ecdh"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"io"
	"sync/atomic"
	"testing"

	"github.com/josebench/josebench/jose/internal/vectortest"
)

// kmsRSA is an RSA key as a KMS client exposes it: only crypto.Decrypter.
// strict makes it answer a PKCS #1 v1.5 padding failure with an error (as a
// device that ignores SessionKeyLen would); fail makes every call fail.
type kmsRSA struct {
	key          *rsa.PrivateKey
	strict, fail bool
	calls        atomic.Int32
}

func (k *kmsRSA) Public() crypto.PublicKey { return &k.key.PublicKey }

func (k *kmsRSA) Decrypt(r io.Reader, ct []byte, opts crypto.DecrypterOpts) ([]byte, error) {
	k.calls.Add(1)
	if k.fail {
		return nil, errors.New("kms: service unavailable")
	}
	if o, ok := opts.(*rsa.PKCS1v15DecryptOptions); ok && k.strict {
		_ = o
		return rsa.DecryptPKCS1v15(r, k.key, ct)
	}
	return k.key.Decrypt(r, ct, opts)
}

// kmsECDH is an ECDH key as an HSM exposes it: only ecdh.KeyExchanger.
type kmsECDH struct {
	key *ecdh.PrivateKey
}

func (k *kmsECDH) PublicKey() *ecdh.PublicKey                { return k.key.PublicKey() }
func (k *kmsECDH) Curve() ecdh.Curve                         { return k.key.Curve() }
func (k *kmsECDH) ECDH(peer *ecdh.PublicKey) ([]byte, error) { return k.key.ECDH(peer) }

var (
	_ crypto.Decrypter  = (*kmsRSA)(nil)
	_ ecdh.KeyExchanger = (*kmsECDH)(nil)
)

// TestKMSRSA decrypts CEKs encrypted to a local public key with the same
// key behind crypto.Decrypter, for RSA1_5 and every RSA-OAEP*, and
// checks the refusals: a bad encrypted key, another key, a failing device.
func TestKMSRSA(t *testing.T) {
	key := vectortest.RSAKey(t, 2048)
	other := &kmsRSA{key: vectortest.RSAKey(t, 3072)}
	for _, alg := range []KeyAlgorithm{RSA1_5, RSAOAEP, RSAOAEP256, RSAOAEP384, RSAOAEP512} {
		e, err := NewKeyEncrypter(alg, &key.PublicKey)
		if err != nil {
			t.Fatal(err)
		}
		cek, ek, err := e.EncryptKey(nil, A256GCM, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, strict := range []bool{false, true} {
			k := &kmsRSA{key: key, strict: strict}
			d, err := NewKeyDecrypter(alg, k)
			if err != nil {
				t.Fatal(err)
			}
			got, err := d.DecryptKey(ek, A256GCM, nil)
			if err != nil || !bytes.Equal(got, cek) {
				t.Errorf("%s strict=%v: DecryptKey = %x, %v", alg, strict, got, err)
			}
			if k.calls.Load() != 1 {
				t.Errorf("%s: %d device calls", alg, k.calls.Load())
			}
			bad := bytes.Clone(ek)
			bad[len(bad)/2] ^= 1
			od, _ := NewKeyDecrypter(alg, other)
			for name, try := range map[string]func() ([]byte, error){
				"tampered":    func() ([]byte, error) { return d.DecryptKey(bad, A256GCM, nil) },
				"empty":       func() ([]byte, error) { return d.DecryptKey(nil, A256GCM, nil) },
				"wrong size":  func() ([]byte, error) { return d.DecryptKey(ek, A128GCM, nil) },
				"another key": func() ([]byte, error) { return od.DecryptKey(ek, A256GCM, nil) },
				"device down": func() ([]byte, error) {
					k.fail = true
					defer func() { k.fail = false }()
					return d.DecryptKey(ek, A256GCM, nil)
				},
			} {
				if name == "wrong size" && alg == RSA1_5 {
					continue // a random 16-byte CEK: checked below
				}
				got, err := try()
				if alg == RSA1_5 {
					// RFC 7516 §11.5: no error, a random CEK of enc's size.
					got2, err2 := try()
					if err != nil || err2 != nil || len(got) != 32 || bytes.Equal(got, cek) || bytes.Equal(got, got2) {
						t.Errorf("%s strict=%v %s: %x, %v; want a fresh random CEK and no error", alg, strict, name, got, err)
					}
					continue
				}
				if err != ErrDecryption || got != nil {
					t.Errorf("%s strict=%v %s: %x, %v; want ErrDecryption", alg, strict, name, got, err)
				}
			}
			if alg == RSA1_5 {
				got, err := d.DecryptKey(ek, A128GCM, nil)
				if err != nil || len(got) != 16 {
					t.Errorf("RSA1_5 with a CEK of the wrong size: %x, %v", got, err)
				}
			}
		}
	}
}

// TestKMSRSAWrongLength: an encrypted key that is not as long as the
// device's modulus (RFC 8017 §7.1.2, §7.2.2: a decryption error, a public
// fact about the token) is refused without a call to the device, a KMS
// request the token's author would otherwise choose the size of:
// ErrDecryption for RSA-OAEP*, a random CEK and no error for RSA1_5
// (RFC 7516 §11.5), as for any other bad encrypted key.
func TestKMSRSAWrongLength(t *testing.T) {
	key := vectortest.RSAKey(t, 2048)
	for _, alg := range []KeyAlgorithm{RSA1_5, RSAOAEP, RSAOAEP256, RSAOAEP384, RSAOAEP512} {
		k := &kmsRSA{key: key}
		d, err := NewKeyDecrypter(alg, k)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{0, 1, 255, 257, 512, 64 << 10} {
			got, err := d.DecryptKey(make([]byte, n), A256GCM, nil)
			if alg == RSA1_5 {
				if err != nil || len(got) != 32 {
					t.Errorf("%s, %d-byte encrypted key: %x, %v; want a random CEK", alg, n, got, err)
				}
			} else if err != ErrDecryption || got != nil {
				t.Errorf("%s, %d-byte encrypted key: %x, %v; want ErrDecryption", alg, n, got, err)
			}
		}
		if c := k.calls.Load(); c != 0 {
			t.Errorf("%s: %d device calls for encrypted keys not of the modulus's length, want none", alg, c)
		}
	}
}

// TestKMSRSARefused checks that opaque keys that are not RSA, or too small,
// are refused when the decrypter is made.
func TestKMSRSARefused(t *testing.T) {
	small := &kmsRSA{key: vectortest.RSAKey(t, 1024)}
	p256, _ := ecdh.P256().GenerateKey(rand.Reader)
	for _, alg := range []KeyAlgorithm{RSA1_5, RSAOAEP, RSAOAEP256} {
		if _, err := NewKeyDecrypter(alg, small); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("%s with a 1024-bit opaque key: %v", alg, err)
		}
		if _, err := NewKeyDecrypter(alg, &kmsECDH{key: p256}); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("%s with an ECDH key: %v", alg, err)
		}
	}
	if _, err := NewKeyDecrypter(ECDHES, &kmsRSA{key: vectortest.RSAKey(t, 2048)}); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("ECDH-ES with an RSA crypto.Decrypter: %v", err)
	}
}

// TestKMSECDH decrypts with an opaque ecdh.KeyExchanger for ECDH-ES and
// ECDH-ES+A128KW on P-256, P-521 and X25519, and refuses an epk on another
// curve and another key. The device's answers other than the secret are
// TestDHDeviceAnswers's, for every Diffie-Hellman algorithm.
func TestKMSECDH(t *testing.T) {
	for _, curve := range []ecdh.Curve{ecdh.P256(), ecdh.P521(), ecdh.X25519()} {
		priv, _ := curve.GenerateKey(rand.Reader)
		otherPriv, _ := curve.GenerateKey(rand.Reader)
		k := &kmsECDH{key: priv}
		for _, alg := range []KeyAlgorithm{ECDHES, ECDHESA128KW} {
			e, err := NewKeyEncrypter(alg, k) // the opaque key stands for its public key
			if err != nil {
				t.Fatal(err)
			}
			params := KeyParams{APU: []byte("Alice"), APV: []byte("Bob")}
			cek, ek, err := e.EncryptKey(nil, A128GCM, &params)
			if err != nil {
				t.Fatal(err)
			}
			d, err := NewKeyDecrypter(alg, k)
			if err != nil {
				t.Fatal(err)
			}
			got, err := d.DecryptKey(ek, A128GCM, &params)
			if err != nil || !bytes.Equal(got, cek) {
				t.Errorf("%s %v: DecryptKey = %x, %v", alg, curve, got, err)
			}
			od, _ := NewKeyDecrypter(alg, &kmsECDH{key: otherPriv})
			if got, err := od.DecryptKey(ek, A128GCM, &params); err == nil && bytes.Equal(got, cek) {
				t.Errorf("%s %v: another key gives the CEK", alg, curve)
			} else if alg == ECDHESA128KW && err != ErrDecryption {
				t.Errorf("%s %v: another key: %v, want ErrDecryption", alg, curve, err)
			}
		}
	}
	// An epk on another curve than the opaque key's.
	priv, _ := ecdh.P256().GenerateKey(rand.Reader)
	x, _ := ecdh.X25519().GenerateKey(rand.Reader)
	d, _ := NewKeyDecrypter(ECDHES, &kmsECDH{key: priv})
	if _, err := d.DecryptKey(nil, A128GCM, &KeyParams{EPK: x.PublicKey()}); !errors.Is(err, ErrInvalidParameter) {
		t.Errorf("epk on X25519 for a P-256 key: %v", err)
	}
	// A key exchanger whose public key is not on its curve.
	if _, err := NewKeyDecrypter(ECDHES, &kmsLyingECDH{kmsECDH{key: priv}, x.PublicKey()}); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("ecdh.KeyExchanger with a public key on another curve: %v", err)
	}
}

type kmsLyingECDH struct {
	kmsECDH
	pub *ecdh.PublicKey
}

func (k *kmsLyingECDH) PublicKey() *ecdh.PublicKey { return k.pub }

// TestKMSHPKE encrypts to an opaque ecdh.KeyExchanger (its public half, as
// for ECDH-ES) and decrypts with it, for HPKE Key Encryption on P-256 and
// X25519; an opaque key on the wrong curve for the suite is refused.
func TestKMSHPKE(t *testing.T) {
	for alg, curve := range map[KeyAlgorithm]ecdh.Curve{HPKE0KE: ecdh.P256(), HPKE3KE: ecdh.X25519()} {
		priv, _ := curve.GenerateKey(rand.Reader)
		k := &kmsECDH{key: priv}
		e, err := NewKeyEncrypter(alg, k)
		if err != nil {
			t.Fatalf("%s: NewKeyEncrypter(opaque key): %v", alg, err)
		}
		var params KeyParams
		cek, ek, err := e.EncryptKey(nil, A128GCM, &params)
		if err != nil {
			t.Fatal(err)
		}
		d, err := NewKeyDecrypter(alg, k)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := d.DecryptKey(ek, A128GCM, &params); err != nil || !bytes.Equal(got, cek) {
			t.Errorf("%s: DecryptKey = %x, %v; want the CEK", alg, got, err)
		}
	}
	x, _ := ecdh.X25519().GenerateKey(rand.Reader)
	if _, err := NewKeyEncrypter(HPKE0KE, &kmsECDH{key: x}); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("HPKE-0-KE with an opaque X25519 key: %v, want ErrInvalidKey", err)
	}
}
