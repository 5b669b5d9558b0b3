package jwa_test

import (
	"bytes"
	"crypto/aes"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/josebench/josebench/jose/jwa"
)

// Wrap a 128-bit key with a 128-bit key-encryption key: RFC 3394 §4.1.
func ExampleWrapKey() {
	kek, _ := hex.DecodeString("000102030405060708090A0B0C0D0E0F")
	key, _ := hex.DecodeString("00112233445566778899AABBCCDDEEFF")
	block, _ := aes.NewCipher(kek)
	wrapped, _ := jwa.WrapKey(nil, block, key)
	fmt.Printf("%X\n", wrapped)
	unwrapped, err := jwa.UnwrapKey(nil, block, wrapped)
	fmt.Println(bytes.Equal(unwrapped, key), err)
	// Output:
	// 1FA68B0A8112B447AEF34BD8FB5A7B829D3E862371D2CFE5
	// true <nil>
}

// The sender and the recipient of an ECDH-ES+A256KW message on X25519: the
// sender's EncryptKey fills in the ephemeral public key, which travels in
// the JWE header as "epk" and is given back to the recipient's DecryptKey.
func ExampleNewKeyEncrypter() {
	recipient, _ := ecdh.X25519().GenerateKey(rand.Reader)

	enc, _ := jwa.NewKeyEncrypter(jwa.ECDHESA256KW, recipient.PublicKey())
	params := &jwa.KeyParams{APU: []byte("Alice"), APV: []byte("Bob")}
	cek, encryptedKey, _ := enc.EncryptKey(nil, jwa.A256GCM, params)

	dec, _ := jwa.NewKeyDecrypter(jwa.ECDHESA256KW, recipient)
	got, err := dec.DecryptKey(encryptedKey, jwa.A256GCM, params)
	fmt.Println(len(cek), len(encryptedKey), bytes.Equal(got, cek), err)

	// The CEK keys the content encryption.
	aead, _ := jwa.NewContentCipher(jwa.A256GCM, cek)
	iv := make([]byte, jwa.A256GCM.IVSize())
	rand.Read(iv)
	sealed := aead.Seal(nil, iv, []byte("hello"), []byte("protected header"))
	plain, err := aead.Open(nil, iv, sealed, []byte("protected header"))
	fmt.Printf("%s %v\n", plain, err)
	// Output:
	// 32 40 true <nil>
	// hello <nil>
}
