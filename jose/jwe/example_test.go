package jwe_test

import (
	"fmt"
	"log"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// Encrypt with a shared 128-bit key ("dir", A128GCM) and decrypt, accepting
// only that algorithm pair.
func Example() {
	key := []byte("0123456789abcdef") // 16 bytes for A128GCM; use crypto/rand in practice

	enc, err := jwe.NewEncrypter(jwa.Direct, jwa.A128GCM, key, &jwe.EncrypterOptions{ContentType: "text/plain"})
	if err != nil {
		log.Fatal(err)
	}
	token, err := enc.Compact([]byte("Live long and prosper."))
	if err != nil {
		log.Fatal(err)
	}

	dec, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.Direct},
		ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM},
		Key:                key,
	})
	if err != nil {
		log.Fatal(err)
	}
	msg, err := dec.DecryptCompact(token)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(msg.Header.ContentType)
	fmt.Println(string(msg.Plaintext))
	// Output:
	// text/plain
	// Live long and prosper.
}

// Encrypt one message to two recipients with the general JSON
// serialization; each decrypts it with its own key, found in a JWK Set by
// "kid".
func ExampleEncryptGeneral() {
	alice := []byte("alice's 16B key!")
	bob := []byte("bob's 32-byte key for A256KW....")

	token, err := jwe.EncryptGeneral(jwa.A256GCM, []byte("meet at noon"), nil, nil,
		jwe.Recipient{Algorithm: jwa.A128KW, Key: alice, Header: &jose.Header{KeyID: "alice"}},
		jwe.Recipient{Algorithm: jwa.A256KW, Key: bob, Header: &jose.Header{KeyID: "bob"}},
	)
	if err != nil {
		log.Fatal(err)
	}

	bobKeys := &jose.Set{Keys: []*jose.JWK{{Key: bob, KeyID: "bob", Algorithm: "A256KW"}}}
	dec, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.A256KW},
		ContentEncryptions: []jwa.ContentEncryption{jwa.A256GCM},
		Keys:               bobKeys,
	})
	if err != nil {
		log.Fatal(err)
	}
	msg, err := dec.DecryptJSON(token)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %s\n", msg.Header.KeyID, msg.Plaintext)
	// Output:
	// bob: meet at noon
}
