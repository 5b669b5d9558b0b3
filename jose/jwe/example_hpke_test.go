package jwe_test

import (
	"crypto/ecdh"
	"crypto/rand"
	"fmt"

	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// HPKE Integrated Encryption (draft-ietf-jose-hpke-encrypt-20, a draft):
// the token has no "enc"; the Decrypter needs no enc allow-list.
func ExampleNewEncrypter_hpke() {
	recipient, err := ecdh.X25519().GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	e, err := jwe.NewEncrypter(jwa.HPKE3, "", recipient.PublicKey(), nil)
	if err != nil {
		panic(err)
	}
	token, err := e.Compact([]byte("post-quantum later, HPKE now"))
	if err != nil {
		panic(err)
	}
	d, err := jwe.NewDecrypter(jwe.DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.HPKE3}, Key: recipient})
	if err != nil {
		panic(err)
	}
	m, err := d.DecryptCompact(token)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s (alg %s, enc %q)\n", m.Plaintext, m.Header.Algorithm, m.Header.Encryption)
	// Output: post-quantum later, HPKE now (alg HPKE-3, enc "")
}
