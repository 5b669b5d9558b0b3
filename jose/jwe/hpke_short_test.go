package jwe

import (
	"bytes"
	"crypto/ecdh"
	"crypto/rand"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// countingExchanger is an ECDH key behind ecdh.KeyExchanger (an HSM) that
// counts its agreements.
type countingExchanger struct {
	key   *ecdh.PrivateKey
	calls *atomic.Int32
}

func (k countingExchanger) PublicKey() *ecdh.PublicKey { return k.key.PublicKey() }
func (k countingExchanger) Curve() ecdh.Curve          { return k.key.Curve() }
func (k countingExchanger) ECDH(p *ecdh.PublicKey) ([]byte, error) {
	k.calls.Add(1)
	return k.key.ECDH(p)
}

// TestHPKEIntegratedShortCiphertext: an HPKE Integrated Encryption token
// whose ciphertext is shorter than the AEAD tag (16 bytes), which no
// plaintext gives, is refused as a failed decryption before the
// decapsulation: no agreement is asked of the device holding the key.
func TestHPKEIntegratedShortCiphertext(t *testing.T) {
	priv, _ := ecdh.P256().GenerateKey(rand.Reader)
	var calls atomic.Int32
	e, err := NewEncrypter(jwa.HPKE0, "", priv.PublicKey(), nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDecrypter(DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.HPKE0}, Key: countingExchanger{priv, &calls}})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := e.Compact(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.DecryptCompact(tok); err != nil || calls.Load() != 1 {
		t.Fatalf("empty plaintext: %v, %d agreements", err, calls.Load())
	}
	parts := bytes.Split(tok, []byte("."))
	for _, ct := range []string{"AA", "AAAAAAAAAAAAAAAAAAAA"} { // 1 and 15 bytes
		calls.Store(0)
		parts[3] = []byte(ct)
		_, err := d.DecryptCompact(bytes.Join(parts, []byte(".")))
		if !errors.Is(err, jose.ErrDecryptionFailed) || calls.Load() != 0 {
			t.Errorf("%d-byte ciphertext: %v after %d agreements, want %v after none", len(ct)*3/4, err, calls.Load(), jose.ErrDecryptionFailed)
		}
	}
}
