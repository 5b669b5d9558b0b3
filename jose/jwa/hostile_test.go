package jwa_test

// Hostile input at the algorithm layer: what a token can put in front of a
// key decrypter or content cipher. Every case must be an error, never a
// panic, and the PBES2 count must be refused before any PBKDF2 work.

import (
	"bytes"
	"crypto/ecdh"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/jwa"
)

// TestHostileAESKWUnwrap unwraps encrypted keys of every bad length (empty,
// short, not a multiple of 8) and a well-sized forgery, with the
// decrypters of A128KW, A192KW and A256KW and with jwa.UnwrapKey: always
// ErrDecryption.
func TestHostileAESKWUnwrap(t *testing.T) {
	for _, alg := range []jwa.KeyAlgorithm{jwa.A128KW, jwa.A192KW, jwa.A256KW} {
		key := bytes.Repeat([]byte{0x5a}, alg.KeyWrapSize())
		kd, err := jwa.NewKeyDecrypter(alg, key)
		if err != nil {
			t.Fatalf("%s: %v", alg, err)
		}
		for _, n := range []int{0, 1, 7, 8, 15, 16, 17, 23, 25, 31, 33, 39, 40, 41, 72} {
			t.Run(fmt.Sprintf("%s/%d", alg, n), func(t *testing.T) {
				ek := bytes.Repeat([]byte{0xa6}, n)
				for _, enc := range []jwa.ContentEncryption{jwa.A128GCM, jwa.A256CBCHS512} {
					cek, err := kd.DecryptKey(ek, enc, &jwa.KeyParams{})
					if !errors.Is(err, jwa.ErrDecryption) {
						t.Fatalf("%s: cek %x, err %v: want ErrDecryption", enc, cek, err)
					}
				}
			})
		}
	}
}

// TestHostilePBES2Count gives a PBES2 decrypter counts outside its range
// (10^9 as in CVE-2023-50967, 0, negative, one off each bound) and short
// salts: ErrInvalidParameter, before any derivation. The secondary guard:
// 100 refusals take far less than the one derivation of 10^9 iterations
// (minutes) would.
func TestHostilePBES2Count(t *testing.T) {
	kd, err := jwa.NewPBES2Decrypter(jwa.PBES2HS256A128KW, []byte("password"), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	ek := make([]byte, 24)
	salt := make([]byte, 16)
	for _, c := range []struct {
		p2c int
		p2s []byte
	}{
		{1_000_000_000, salt}, {0, salt}, {-1, salt}, {-1 << 62, salt},
		{jwa.DefaultPBES2MinCount - 1, salt}, {jwa.DefaultPBES2MaxCount + 1, salt},
		{jwa.DefaultPBES2MinCount, nil}, {jwa.DefaultPBES2MinCount, make([]byte, 7)},
	} {
		t.Run(fmt.Sprintf("p2c=%d,p2s=%d", c.p2c, len(c.p2s)), func(t *testing.T) {
			start := time.Now()
			for range 100 {
				_, err := kd.DecryptKey(ek, jwa.A128GCM, &jwa.KeyParams{P2C: c.p2c, P2S: c.p2s})
				if !errors.Is(err, jwa.ErrInvalidParameter) {
					t.Fatalf("err = %v, want ErrInvalidParameter", err)
				}
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Fatalf("100 refusals took %v", d)
			}
		})
	}
	t.Run("control", func(t *testing.T) {
		// In range: the key is derived and the forged encrypted key then
		// fails the AES-KW integrity check.
		_, err := kd.DecryptKey(ek, jwa.A128GCM, &jwa.KeyParams{P2C: jwa.DefaultPBES2MinCount, P2S: salt})
		if !errors.Is(err, jwa.ErrDecryption) {
			t.Fatalf("err = %v, want ErrDecryption", err)
		}
	})
}

// TestHostileContentOpen opens ciphertexts with tags and IVs of the wrong
// length, with every content encryption: ErrDecryption, never a panic.
func TestHostileContentOpen(t *testing.T) {
	for _, enc := range jwa.ContentEncryptions() {
		aead, err := jwa.NewContentCipher(enc, bytes.Repeat([]byte{1}, enc.KeySize()))
		if err != nil {
			t.Fatal(err)
		}
		iv := make([]byte, enc.IVSize())
		sealed := aead.Seal(nil, iv, []byte("sixteen byte msg"), []byte("aad"))
		cases := map[string]struct{ iv, ct []byte }{
			"valid":         {iv, sealed},
			"empty":         {iv, nil},
			"tag only":      {iv, sealed[len(sealed)-enc.TagSize():]},
			"tag short 1":   {iv, sealed[:len(sealed)-1]},
			"tag long 1":    {iv, append(bytes.Clone(sealed), 0)},
			"tag doubled":   {iv, append(bytes.Clone(sealed), sealed[len(sealed)-enc.TagSize():]...)},
			"iv empty":      {nil, sealed},
			"iv short":      {iv[:len(iv)-1], sealed},
			"iv long":       {append(bytes.Clone(iv), 0), sealed},
			"ciphertext +1": {iv, append([]byte{0}, sealed...)},
		}
		for name, c := range cases {
			t.Run(fmt.Sprintf("%s/%s", enc, name), func(t *testing.T) {
				pt, err := aead.Open(nil, c.iv, c.ct, []byte("aad"))
				if name == "valid" {
					if err != nil || string(pt) != "sixteen byte msg" {
						t.Fatalf("control: %q, %v", pt, err)
					}
					return
				}
				if !errors.Is(err, jwa.ErrDecryption) {
					t.Fatalf("plaintext %q, err %v: want ErrDecryption", pt, err)
				}
			})
		}
	}
}

// TestHostileECDHPublicKey gives the ECDH-ES decrypter of an X25519 key the
// low-order points, and that of a P-256 key points of other curves: always
// an error.
func TestHostileECDHPublicKey(t *testing.T) {
	x, err := ecdh.X25519().NewPrivateKey(bytes.Repeat([]byte{0x42}, 32))
	if err != nil {
		t.Fatal(err)
	}
	p256, err := ecdh.P256().NewPrivateKey(bytes.Repeat([]byte{0x42}, 32))
	if err != nil {
		t.Fatal(err)
	}
	p384, err := ecdh.P384().NewPrivateKey(bytes.Repeat([]byte{0x42}, 48))
	if err != nil {
		t.Fatal(err)
	}
	var lowOrder []*ecdh.PublicKey
	for _, b := range [][]byte{
		make([]byte, 32),
		append([]byte{1}, make([]byte, 31)...),
		{0xe0, 0xeb, 0x7a, 0x7c, 0x3b, 0x41, 0xb8, 0xae, 0x16, 0x56, 0xe3, 0xfa, 0xf1, 0x9f, 0xc4, 0x6a, 0xda, 0x09, 0x8d, 0xeb, 0x9c, 0x32, 0xb1, 0xfd, 0x86, 0x62, 0x05, 0x16, 0x5f, 0x49, 0xb8, 0x00},
		{0x5f, 0x9c, 0x95, 0xbc, 0xa3, 0x50, 0x8c, 0x24, 0xb1, 0xd0, 0xb1, 0x55, 0x9c, 0x83, 0xef, 0x5b, 0x04, 0x44, 0x5c, 0xc4, 0x58, 0x1c, 0x8e, 0x86, 0xd8, 0x22, 0x4e, 0xdd, 0xd0, 0x9f, 0x11, 0x57},
	} {
		pub, err := ecdh.X25519().NewPublicKey(b)
		if err != nil {
			t.Fatal(err)
		}
		lowOrder = append(lowOrder, pub)
	}
	cases := []struct {
		name string
		priv *ecdh.PrivateKey
		epks []*ecdh.PublicKey
	}{
		{"X25519 low order", x, lowOrder},
		{"P-256 key, other curves", p256, []*ecdh.PublicKey{p384.PublicKey(), x.PublicKey()}},
		{"X25519 key, NIST curve", x, []*ecdh.PublicKey{p256.PublicKey()}},
		{"no epk", p256, []*ecdh.PublicKey{nil}},
	}
	for _, c := range cases {
		for _, alg := range []jwa.KeyAlgorithm{jwa.ECDHES, jwa.ECDHESA128KW} {
			kd, err := jwa.NewKeyDecrypter(alg, c.priv)
			if err != nil {
				t.Fatal(err)
			}
			ek := []byte(nil)
			if alg != jwa.ECDHES {
				ek = make([]byte, 24)
			}
			for i, epk := range c.epks {
				t.Run(fmt.Sprintf("%s/%s/%d", c.name, alg, i), func(t *testing.T) {
					cek, err := kd.DecryptKey(ek, jwa.A128GCM, &jwa.KeyParams{EPK: epk})
					if err == nil {
						t.Fatalf("accepted: cek %x", cek)
					}
				})
			}
		}
	}
}
