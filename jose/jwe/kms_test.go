package jwe

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

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// kmsDecrypter is an RSA private key reachable only as a crypto.Decrypter,
// as a KMS client exposes it; it counts its calls.
type kmsDecrypter struct {
	key   *rsa.PrivateKey
	calls atomic.Int32
}

func (k *kmsDecrypter) Public() crypto.PublicKey { return &k.key.PublicKey }
func (k *kmsDecrypter) Decrypt(r io.Reader, ct []byte, opts crypto.DecrypterOpts) ([]byte, error) {
	k.calls.Add(1)
	return k.key.Decrypt(r, ct, opts)
}

// kmsExchanger is an ECDH private key reachable only as an
// ecdh.KeyExchanger, as an HSM exposes it.
type kmsExchanger struct{ key *ecdh.PrivateKey }

func (k kmsExchanger) PublicKey() *ecdh.PublicKey             { return k.key.PublicKey() }
func (k kmsExchanger) Curve() ecdh.Curve                      { return k.key.Curve() }
func (k kmsExchanger) ECDH(p *ecdh.PublicKey) ([]byte, error) { return k.key.ECDH(p) }

// TestKMSDecrypt encrypts compact and JSON tokens to public keys and
// decrypts them with the private keys behind crypto.Decrypter and
// ecdh.KeyExchanger, as DecryptOptions.Key and from KeyFunc; a tampered
// encrypted key or ciphertext is the one ErrDecryptionFailed, also for
// RSA1_5 (RFC 7516 §11.5).
func TestKMSDecrypt(t *testing.T) {
	rsaKey := rtRSAKey()
	x25519, _ := ecdh.X25519().GenerateKey(rand.Reader)
	p384, _ := ecdh.P384().GenerateKey(rand.Reader)
	cases := []struct {
		alg    jwa.KeyAlgorithm
		pub    any
		opaque func() any
	}{
		{jwa.RSA1_5, &rsaKey.PublicKey, func() any { return &kmsDecrypter{key: rsaKey} }},
		{jwa.RSAOAEP, &rsaKey.PublicKey, func() any { return &kmsDecrypter{key: rsaKey} }},
		{jwa.RSAOAEP256, &rsaKey.PublicKey, func() any { return &kmsDecrypter{key: rsaKey} }},
		{jwa.ECDHES, x25519.PublicKey(), func() any { return kmsExchanger{x25519} }},
		{jwa.ECDHESA256KW, p384.PublicKey(), func() any { return kmsExchanger{p384} }},
	}
	plaintext := []byte("kept in the vault")
	for _, c := range cases {
		e, err := NewEncrypter(c.alg, jwa.A256GCM, c.pub, nil)
		if err != nil {
			t.Fatal(err)
		}
		tok, err := e.Compact(plaintext)
		if err != nil {
			t.Fatal(err)
		}
		key := c.opaque()
		for name, opts := range map[string]DecryptOptions{
			"Key":     {Key: key},
			"KeyFunc": {KeyFunc: func(*jose.Header) (any, error) { return key, nil }},
		} {
			opts.KeyAlgorithms = []jwa.KeyAlgorithm{c.alg}
			opts.ContentEncryptions = []jwa.ContentEncryption{jwa.A256GCM}
			d, err := NewDecrypter(opts)
			if err != nil {
				t.Fatal(err)
			}
			m, err := d.DecryptCompact(tok)
			if err != nil || !bytes.Equal(m.Plaintext, plaintext) {
				t.Errorf("%s %s: DecryptCompact = %v", c.alg, name, err)
			}
			js, err := e.Flattened(plaintext, []byte("aad"))
			if err != nil {
				t.Fatal(err)
			}
			if m, err := d.DecryptJSON(js); err != nil || !bytes.Equal(m.Plaintext, plaintext) {
				t.Errorf("%s %s: DecryptJSON = %v", c.alg, name, err)
			}
			// Tampering with each part of the token gives the same error.
			parts := bytes.Split(tok, []byte("."))
			for i := 1; i < len(parts); i++ {
				if len(parts[i]) == 0 {
					continue // ECDH-ES has no encrypted key
				}
				raw, err := jose.Base64URLDecode(string(parts[i]))
				if err != nil {
					t.Fatal(err)
				}
				raw[len(raw)/2] ^= 1
				forged := bytes.Join(append(append([][]byte{}, parts[:i]...), append([][]byte{[]byte(jose.Base64URLEncode(raw))}, parts[i+1:]...)...), []byte("."))
				_, err = d.DecryptCompact(forged)
				if !errors.Is(err, jose.ErrDecryptionFailed) {
					t.Errorf("%s %s: part %d tampered: %v, want ErrDecryptionFailed", c.alg, name, i, err)
				}
			}
		}
		if k, ok := key.(*kmsDecrypter); ok && k.calls.Load() == 0 {
			t.Errorf("%s: the crypto.Decrypter was never called", c.alg)
		}
	}
	// An opaque key of the wrong kind for the listed algorithm is refused
	// by the constructor (it fits none of them).
	if _, err := NewDecrypter(DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.RSAOAEP}, ContentEncryptions: []jwa.ContentEncryption{jwa.A256GCM}, Key: kmsExchanger{p384}}); !errors.Is(err, jose.ErrInvalidKey) {
		t.Errorf("RSA-OAEP with an ECDH opaque key: NewDecrypter = %v, want ErrInvalidKey", err)
	}
}
