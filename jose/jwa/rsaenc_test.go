package jwa

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"testing"

	"github.com/josebench/josebench/jose/internal/vectortest"
)

// TestRSA1_5Countermeasure checks RFC 7516 §11.5: a bad padding, a bad
// length or a key of the wrong size all yield, without an error, a random
// CEK of enc's size, different each time, and the later content
// decryption fails with ErrDecryption.
func TestRSA1_5Countermeasure(t *testing.T) {
	key := vectortest.RSAKey(t, 2048)
	d, _ := NewKeyDecrypter(RSA1_5, key)
	good, _ := rsa.EncryptPKCS1v15(rand.Reader, &key.PublicKey, bytes.Repeat([]byte{7}, 32))
	if cek, err := d.DecryptKey(good, A128CBCHS256, nil); err != nil || !bytes.Equal(cek, bytes.Repeat([]byte{7}, 32)) {
		t.Fatalf("valid: %x, %v", cek, err)
	}
	short, _ := rsa.EncryptPKCS1v15(rand.Reader, &key.PublicKey, bytes.Repeat([]byte{7}, 16))
	badPad := bytes.Clone(good)
	badPad[10] ^= 0x80
	inputs := map[string][]byte{
		"bad padding":       badPad,
		"16-byte key":       short,
		"empty":             nil,
		"short":             good[:100],
		"long":              append(bytes.Clone(good), 0),
		"above the modulus": bytes.Repeat([]byte{0xff}, 256),
	}
	aead := func(cek []byte) error {
		a, err := NewContentCipher(A128CBCHS256, cek)
		if err != nil {
			return err
		}
		// A message sealed under the right CEK, opened with this one.
		right, _ := NewContentCipher(A128CBCHS256, bytes.Repeat([]byte{7}, 32))
		iv := make([]byte, 16)
		_, err = a.Open(nil, iv, right.Seal(nil, iv, []byte("hi"), nil), nil)
		return err
	}
	for name, ek := range inputs {
		c1, err1 := d.DecryptKey(ek, A128CBCHS256, nil)
		c2, err2 := d.DecryptKey(ek, A128CBCHS256, nil)
		if err1 != nil || err2 != nil || len(c1) != 32 || len(c2) != 32 || bytes.Equal(c1, c2) {
			t.Errorf("%s: %x, %v / %x, %v; want two different random 32-byte CEKs", name, c1, err1, c2, err2)
		}
		if err := aead(c1); !errors.Is(err, ErrDecryption) {
			t.Errorf("%s: content decryption: %v", name, err)
		}
	}
}

// TestRSAOAEPWrongSize: a CEK of the wrong size for enc is a failure.
func TestRSAOAEPWrongSize(t *testing.T) {
	key := vectortest.RSAKey(t, 2048)
	oaep := []KeyAlgorithm{RSAOAEP, RSAOAEP256, RSAOAEP384, RSAOAEP512}
	for i, alg := range oaep {
		e, _ := NewKeyEncrypter(alg, &key.PublicKey)
		d, _ := NewKeyDecrypter(alg, key)
		_, ek, err := e.EncryptKey(nil, A128GCM, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.DecryptKey(ek, A256GCM, nil); !errors.Is(err, ErrDecryption) {
			t.Errorf("%s: 16-byte CEK for A256GCM: %v", alg, err)
		}
		// The OAEP hashes are not interchangeable.
		for j, other := range oaep {
			if i == j {
				continue
			}
			d2, _ := NewKeyDecrypter(other, key)
			if _, err := d2.DecryptKey(ek, A128GCM, nil); !errors.Is(err, ErrDecryption) {
				t.Errorf("%s token decrypted as %s: %v", alg, other, err)
			}
		}
	}
}

// TestRSAKeySizes: 2048 bits and more are accepted, a private key gives
// its public part to an encrypter.
func TestRSAKeySizes(t *testing.T) {
	for _, bits := range []int{2048, 3072, 4096} {
		k := vectortest.RSAKey(t, bits)
		if _, err := NewKeyEncrypter(RSAOAEP256, k); err != nil {
			t.Errorf("%d-bit private key for encryption: %v", bits, err)
		}
		if _, err := NewKeyDecrypter(RSAOAEP256, k); err != nil {
			t.Errorf("%d-bit: %v", bits, err)
		}
	}
	for _, k := range []any{(*rsa.PrivateKey)(nil), (*rsa.PublicKey)(nil), &rsa.PublicKey{}} {
		if _, err := NewKeyEncrypter(RSA1_5, k); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("%#v: %v", k, err)
		}
	}
	if _, err := NewKeyDecrypter(RSA1_5, (*rsa.PrivateKey)(nil)); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("nil private key: %v", err)
	}
}
