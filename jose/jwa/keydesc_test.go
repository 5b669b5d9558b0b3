package jwa

import (
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"io"
	"testing"

	"github.com/josebench/josebench/jose/internal/vectortest"
)

// descSigner is a crypto.Signer of a device (a KMS, an HSM) whose public
// key may be missing.
type descSigner struct{ pub crypto.PublicKey }

func (s descSigner) Public() crypto.PublicKey { return s.pub }
func (descSigner) Sign(io.Reader, []byte, crypto.SignerOpts) ([]byte, error) {
	return nil, errors.New("descSigner: no key")
}

// descDecrypter is a crypto.Decrypter of a device.
type descDecrypter struct{ descSigner }

func (descDecrypter) Decrypt(io.Reader, []byte, crypto.DecrypterOpts) ([]byte, error) {
	return nil, errors.New("descDecrypter: no key")
}

// TestDescribeKey pins what refusals say a key is: its kind, curve or
// size and half, never a Go type of the standard library (issue 23 item 2).
func TestDescribeKey(t *testing.T) {
	rsaKey := vectortest.RSAKey(t, 2048)
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	x, err := ecdh.X25519().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ed := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	for _, c := range []struct {
		key  any
		want string
	}{
		{nil, "no key"},
		{[]byte{}, "an empty secret"},
		{make([]byte, 32), "a 32-byte secret"},
		{"secret", "a string (a secret or password is a []byte)"},
		{rsaKey, "a 2048-bit RSA private key"},
		{&rsaKey.PublicKey, "a 2048-bit RSA public key"},
		{ec, "a P-256 ECDSA private key"},
		{&ec.PublicKey, "a P-256 ECDSA public key"},
		{(*ecdsa.PublicKey)(nil), "an empty ECDSA public key"},
		{x, "an X25519 ECDH private key"},
		{x.PublicKey(), "an X25519 ECDH public key"},
		{ed, "an Ed25519 private key"},
		{ed.Public(), "an Ed25519 public key"},
		{ed25519.PublicKey(make([]byte, 31)), "an Ed25519 public key of 31 bytes, not 32"},
		{descSigner{&ec.PublicKey}, "a crypto.Signer (jwa.descSigner) holding a P-256 ECDSA public key"},
		{descSigner{nil}, "a crypto.Signer (jwa.descSigner) holding no public key"},
		{descDecrypter{descSigner{&rsaKey.PublicKey}}, "a crypto.Signer (jwa.descDecrypter) holding a 2048-bit RSA public key"},
		{42, "a key of Go type int, which jose does not know"},
	} {
		if got := DescribeKey(c.key); got != c.want {
			t.Errorf("DescribeKey(%T) = %q, want %q", c.key, got, c.want)
		}
	}
}

// TestKeyNeeds pins what refusals say an algorithm needs.
func TestKeyNeeds(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{HS256.KeyNeeds(), "a secret of at least 32 bytes"},
		{HS512.KeyNeeds(), "a secret of at least 64 bytes"},
		{PS384.KeyNeeds(), "an RSA key of at least 2048 bits"},
		{ES384.KeyNeeds(), "a P-384 ECDSA key"},
		{ES256K.KeyNeeds(), "a secp256k1 ECDSA key"},
		{EdDSA.KeyNeeds(), "an Ed25519 key"},
		{MLDSA65.KeyNeeds(), "an ML-DSA-65 key"},
		{SignatureAlgorithm("XS1").KeyNeeds(), "a key of its own type"},
		{A128KW.KeyNeeds(), "a 16-byte secret"},
		{A256GCMKW.KeyNeeds(), "a 32-byte secret"},
		{Direct.KeyNeeds(), "a secret the size of the content encryption's key"},
		{PBES2HS256A128KW.KeyNeeds(), "a password ([]byte)"},
		{RSAOAEP256.KeyNeeds(), "an RSA key of at least 2048 bits"},
		{ECDHESA128KW.KeyNeeds(), "a P-256, P-384, P-521 or X25519 key (ECDH or ECDSA)"},
		{A128CBCHS256.KeyNeeds(), "a 32-byte secret"},
		{A128GCM.KeyNeeds(), "a 16-byte secret"},
	} {
		if c.got != c.want {
			t.Errorf("KeyNeeds = %q, want %q", c.got, c.want)
		}
	}
	for _, a := range HPKEKeyAlgorithms() {
		if n := a.KeyNeeds(); n != "a P-256 key (ECDH or ECDSA)" && n != "a P-384 key (ECDH or ECDSA)" && n != "a P-521 key (ECDH or ECDSA)" && n != "an X25519 key (ECDH)" {
			t.Errorf("%s.KeyNeeds() = %q", a, n)
		}
	}
}

// TestKeyRefusalSentinel: the rewritten refusals keep their sentinel.
func TestKeyRefusalSentinel(t *testing.T) {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewSigner(ES384, ec)
	if want := "jwa: the key is a P-256 ECDSA private key; ES384 needs a P-384 ECDSA key: invalid key for algorithm"; err == nil || err.Error() != want || !errors.Is(err, ErrInvalidKey) {
		t.Errorf("ES384 with a P-256 key: %v, want %s", err, want)
	}
	_, err = NewSigner(ES256, descSigner{nil})
	if want := "jwa: the key is a crypto.Signer (jwa.descSigner) holding no public key; ES256 needs a P-256 ECDSA key: invalid key for algorithm"; err == nil || err.Error() != want || !errors.Is(err, ErrInvalidKey) {
		t.Errorf("ES256 with a signer of no public key: %v, want %s", err, want)
	}
	_, err = NewKeyDecrypter(RSAOAEP, descDecrypter{descSigner{&ec.PublicKey}})
	if want := "jwa: the key is a crypto.Signer (jwa.descDecrypter) holding a P-256 ECDSA public key; RSA-OAEP needs an RSA key of at least 2048 bits: invalid key for algorithm"; err == nil || err.Error() != want || !errors.Is(err, ErrInvalidKey) {
		t.Errorf("RSA-OAEP with a decrypter of an EC key: %v, want %s", err, want)
	}
	_, err = NewKeyDecrypter(ECDHES, &ec.PublicKey)
	if want := "jwa: the key is a P-256 ECDSA public key; ECDH-ES needs the private key to decrypt: invalid key for algorithm"; err == nil || err.Error() != want || !errors.Is(err, ErrInvalidKey) {
		t.Errorf("ECDH-ES decrypting with a public key: %v, want %s", err, want)
	}
	_, err = NewKeyDecrypter(ECDHES, make([]byte, 16))
	if want := "jwa: the key is a 16-byte secret; ECDH-ES needs a P-256, P-384, P-521 or X25519 key (ECDH or ECDSA): invalid key for algorithm"; err == nil || err.Error() != want || !errors.Is(err, ErrInvalidKey) {
		t.Errorf("ECDH-ES with a secret: %v, want %s", err, want)
	}
	_, err = NewKeyEncrypter(A128KW, make([]byte, 32))
	if want := "jwa: the key is a 32-byte secret; A128KW needs a 16-byte secret: invalid key for algorithm"; err == nil || err.Error() != want || !errors.Is(err, ErrInvalidKey) {
		t.Errorf("A128KW with 32 bytes: %v, want %s", err, want)
	}
}
