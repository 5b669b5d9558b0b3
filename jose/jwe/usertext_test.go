package jwe_test

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"testing"

	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// TestUserText: a key of the wrong kind given to NewEncrypter is named as
// the caller gave it (issue 23 item 2): a private key given for a
// symmetric algorithm is "not *ecdsa.PrivateKey", not the public half the
// caller never passed. For an algorithm that encrypts to a public key, a
// private key is still taken as its public half.
func TestUserText(t *testing.T) {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	x, err := ecdh.X25519().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		alg  jwa.KeyAlgorithm
		key  any
		want string
	}{
		{jwa.A128KW, ec, "jwe: key: jwa: A128KW needs a []byte key, not *ecdsa.PrivateKey: invalid key for algorithm"},
		{jwa.A128GCMKW, x, "jwe: key: jwa: A128GCMKW needs a []byte key, not *ecdh.PrivateKey: invalid key for algorithm"},
		{jwa.Direct, ec, "jwe: dir key: jwa: dir needs a []byte key, not *ecdsa.PrivateKey: invalid key for algorithm"},
		{jwa.PBES2HS256A128KW, ec, "jwe: PBES2-HS256+A128KW needs a []byte password, not *ecdsa.PrivateKey: invalid key for algorithm"},
		{jwa.RSAOAEP256, ec, "jwe: key: jwa: RSA-OAEP-256 needs an *rsa.PublicKey, not *ecdsa.PrivateKey: invalid key for algorithm"},
	} {
		_, err := jwe.NewEncrypter(c.alg, jwa.A128GCM, c.key, nil)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s with %T:\n got %v\nwant %s", c.alg, c.key, err, c.want)
		}
	}
	if _, err := jwe.NewEncrypter(jwa.ECDHES, jwa.A128GCM, ec, nil); err != nil {
		t.Errorf("ECDH-ES with a private key: %v", err)
	}
}
