package jws_test

import (
	"fmt"

	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// Sign and verify many tokens reusing one token buffer and one Message:
// once the buffers are large enough, a round trip allocates nothing. The
// Message is overwritten by each call, so its Payload and Header are used
// (or copied) before the next one.
func ExampleVerifier_VerifyCompactInto() {
	key := []byte("0123456789abcdef0123456789abcdef")
	signer, err := jws.NewSigner(jwa.HS256, key, &jws.SignerOptions{KeyID: "k1"})
	if err != nil {
		panic(err)
	}
	verifier, err := jws.NewVerifier(jws.VerifyOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.HS256},
		Key:        key,
	})
	if err != nil {
		panic(err)
	}

	var token []byte
	var msg jws.Message
	for _, payload := range []string{"first", "second, longer", "third"} {
		token, err = signer.AppendCompact(token[:0], []byte(payload))
		if err != nil {
			panic(err)
		}
		if err := verifier.VerifyCompactInto(&msg, token); err != nil {
			panic(err)
		}
		fmt.Printf("%s (kid %s)\n", msg.Payload, msg.Header.KeyID)
	}

	// A refused token leaves the Message empty.
	token[len(token)-1] ^= 1
	err = verifier.VerifyCompactInto(&msg, token)
	fmt.Println(err != nil, len(msg.Payload), msg.Header == nil)
	// Output:
	// first (kid k1)
	// second, longer (kid k1)
	// third (kid k1)
	// true 0 true
}
