package jwe_test

import (
	"fmt"
	"log"

	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// Encrypt and decrypt many tokens reusing one token buffer and one Message:
// with "dir", once the buffers are large enough, a round trip allocates
// nothing. The Message is overwritten by each call, so its Plaintext and
// Header are used (or copied) before the next one.
func ExampleDecrypter_DecryptCompactInto() {
	key := []byte("0123456789abcdef") // 16 bytes for A128GCM; use crypto/rand in practice
	enc, err := jwe.NewEncrypter(jwa.Direct, jwa.A128GCM, key, &jwe.EncrypterOptions{KeyID: "k1"})
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

	var token []byte
	var msg jwe.Message
	for _, plaintext := range []string{"first", "second, longer", "third"} {
		token, err = enc.AppendCompact(token[:0], []byte(plaintext))
		if err != nil {
			log.Fatal(err)
		}
		if err := dec.DecryptCompactInto(&msg, token); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s (kid %s)\n", msg.Plaintext, msg.Header.KeyID)
	}

	// A token that fails to decrypt leaves the Message empty.
	token = token[:len(token)-1]
	err = dec.DecryptCompactInto(&msg, token)
	fmt.Println(err != nil, len(msg.Plaintext), msg.Header == nil)
	// Output:
	// first (kid k1)
	// second, longer (kid k1)
	// third (kid k1)
	// true 0 true
}
