package jwe_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// TestUserText: a key of the wrong kind given to NewEncrypter or
// NewDecrypter is described as the caller gave it, beside what the
// algorithm needs, in words rather than Go types (issue 23 item 2): a
// private key given for a symmetric algorithm is "a P-256 ECDSA private
// key", not the public half the caller never passed. For an algorithm that
// encrypts to a public key, a private key is still taken as its public
// half. The sentinel stays ErrInvalidKey.
func TestUserText(t *testing.T) {
	ec, x := ecKeys(t)
	for _, c := range []struct {
		alg  jwa.KeyAlgorithm
		key  any
		want string
	}{
		{jwa.A128KW, ec, "jwe: NewEncrypter: jwa: the key is a P-256 ECDSA private key; A128KW needs a 16-byte secret: invalid key for algorithm"},
		{jwa.A128KW, make([]byte, 32), "jwe: NewEncrypter: jwa: the key is a 32-byte secret; A128KW needs a 16-byte secret: invalid key for algorithm"},
		{jwa.A128GCMKW, x, "jwe: NewEncrypter: jwa: the key is an X25519 ECDH private key; A128GCMKW needs a 16-byte secret: invalid key for algorithm"},
		{jwa.Direct, ec, "jwe: NewEncrypter: jwa: the key is a P-256 ECDSA private key; dir needs a secret the size of the content encryption's key: invalid key for algorithm"},
		{jwa.PBES2HS256A128KW, ec, "jwe: NewEncrypter: jwa: the key is a P-256 ECDSA private key; PBES2-HS256+A128KW needs a password ([]byte): invalid key for algorithm"},
		{jwa.RSAOAEP256, ec, "jwe: NewEncrypter: jwa: the key is a P-256 ECDSA private key; RSA-OAEP-256 needs an RSA key of at least 2048 bits: invalid key for algorithm"},
		{jwa.ECDHES, make([]byte, 16), "jwe: NewEncrypter: jwa: the key is a 16-byte secret; ECDH-ES needs a P-256, P-384, P-521 or X25519 key (ECDH or ECDSA): invalid key for algorithm"},
	} {
		_, err := jwe.NewEncrypter(c.alg, jwa.A128GCM, c.key, nil)
		if err == nil || err.Error() != c.want || !errors.Is(err, jose.ErrInvalidKey) {
			t.Errorf("%s with %T:\n got %v\nwant %s", c.alg, c.key, err, c.want)
		}
	}
	if _, err := jwe.NewEncrypter(jwa.ECDHES, jwa.A128GCM, ec, nil); err != nil {
		t.Errorf("ECDH-ES with a private key: %v", err)
	}
	// Review rv23t: one "jwe:" and one "key" each, in EncryptGeneral too
	// (was "jwe: recipient 1: jwe: key: jwa: the key is", "jwe: recipient
	// 0: jwe: key management algorithm").
	for _, c := range []struct {
		r    jwe.Recipient
		want string
	}{
		{jwe.Recipient{Algorithm: jwa.A128KW, Key: make([]byte, 32)}, "jwe: recipient 1: jwa: the key is a 32-byte secret; A128KW needs a 16-byte secret: invalid key for algorithm"},
		{jwe.Recipient{Algorithm: "XKW", Key: make([]byte, 16)}, `jwe: recipient 1: key management algorithm "XKW": unsupported algorithm`},
		{jwe.Recipient{Algorithm: jwa.A128KW, Key: (*jose.JWK)(nil)}, "jwe: recipient 1: unsupported JWK: invalid key for algorithm"},
	} {
		ok := jwe.Recipient{Algorithm: jwa.A128KW, Key: make([]byte, 16)}
		_, err := jwe.EncryptGeneral(jwa.A128GCM, []byte("x"), nil, nil, ok, c.r)
		if err == nil || err.Error() != c.want {
			t.Errorf("EncryptGeneral:\n got %v\nwant %s", err, c.want)
		}
	}
	if _, err := jwe.NewEncrypter("XKW", jwa.A128GCM, make([]byte, 16), nil); err == nil || err.Error() != `jwe: NewEncrypter: key management algorithm "XKW": unsupported algorithm` || !errors.Is(err, jose.ErrUnsupportedAlgorithm) {
		t.Errorf("NewEncrypter(XKW): %v", err)
	}
	rsaKey := vectortest.RSAKey(t, 2048)
	decrypter := func(algs []jwa.KeyAlgorithm, encs []jwa.ContentEncryption, key any) error {
		_, err := jwe.NewDecrypter(jwe.DecryptOptions{KeyAlgorithms: algs, ContentEncryptions: encs, Key: key})
		return err
	}
	gcm := []jwa.ContentEncryption{jwa.A128GCM}
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"A128KW with a 32-byte secret", decrypter([]jwa.KeyAlgorithm{jwa.A128KW}, gcm, make([]byte, 32)),
			"jwe: DecryptOptions: the key is a 32-byte secret; A128KW needs a 16-byte secret: invalid key for algorithm"},
		{"key wraps of several sizes", decrypter([]jwa.KeyAlgorithm{jwa.A128KW, jwa.A192KW, jwa.A128GCMKW}, gcm, make([]byte, 32)),
			"jwe: DecryptOptions: the key is a 32-byte secret; A128KW and A128GCMKW need a 16-byte secret; A192KW needs a 24-byte secret: invalid key for algorithm"},
		{"RSA-OAEP with an EC key", decrypter([]jwa.KeyAlgorithm{jwa.RSAOAEP}, gcm, ec),
			"jwe: DecryptOptions: the key is a P-256 ECDSA private key; RSA-OAEP needs an RSA key of at least 2048 bits: invalid key for algorithm"},
		{"RSA-OAEP with a public key", decrypter([]jwa.KeyAlgorithm{jwa.RSAOAEP, jwa.RSAOAEP256}, gcm, &rsaKey.PublicKey),
			"jwe: DecryptOptions: the key is a 2048-bit RSA public key; RSA-OAEP and RSA-OAEP-256 need the private key to decrypt: invalid key for algorithm"},
		{"ECDH-ES with a public key", decrypter([]jwa.KeyAlgorithm{jwa.ECDHES}, gcm, &ec.PublicKey),
			"jwe: DecryptOptions: the key is a P-256 ECDSA public key; ECDH-ES needs the private key to decrypt: invalid key for algorithm"},
		{"dir with a key of no listed size", decrypter([]jwa.KeyAlgorithm{jwa.Direct}, []jwa.ContentEncryption{jwa.A128GCM, jwa.A256GCM}, make([]byte, 24)),
			"jwe: DecryptOptions: the key is a 24-byte secret; dir with A128GCM needs a 16-byte secret; dir with A256GCM needs a 32-byte secret: invalid key for algorithm"},
		{"no key source", decrypter([]jwa.KeyAlgorithm{jwa.Direct}, gcm, nil),
			"jwe: DecryptOptions: exactly one of Key, Keys, KeyFunc and KeyFuncContext must be set"},
	} {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.name, c.err, c.want)
		}
		if strings.HasSuffix(c.want, ": "+jose.ErrInvalidKey.Error()) && !errors.Is(c.err, jose.ErrInvalidKey) {
			t.Errorf("%s: %v does not wrap ErrInvalidKey", c.name, c.err)
		}
	}
}

// TestDecryptKeyText: a key refused while decrypting says jwe and key
// once (review rv23t: was "jwe: key: jose: key \"a\" is for alg …" and
// "jwe: dir key for A128GCM: jwa: the key is …; dir with A128GCM needs").
func TestDecryptKeyText(t *testing.T) {
	e, err := jwe.NewEncrypter(jwa.Direct, jwa.A128GCM, make([]byte, 16), nil)
	if err != nil {
		t.Fatal(err)
	}
	dirTok, err := e.Compact([]byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	e, err = jwe.NewEncrypter(jwa.A128GCMKW, jwa.A128GCM, make([]byte, 16), nil)
	if err != nil {
		t.Fatal(err)
	}
	gcmkwTok, err := e.Compact([]byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	gcm := []jwa.ContentEncryption{jwa.A128GCM}
	for _, c := range []struct {
		name string
		opts jwe.DecryptOptions
		tok  []byte
		want string
	}{
		{"dir key of KeyFunc too short", jwe.DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.Direct}, ContentEncryptions: gcm,
			KeyFunc: func(*jose.Header) (any, error) { return make([]byte, 5), nil }}, dirTok,
			"jwe: decryption: jwa: the key is a 5-byte secret; dir with A128GCM needs a 16-byte secret: invalid key for algorithm"},
		{"JWK of KeyFunc for another alg", jwe.DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.A128GCMKW}, ContentEncryptions: gcm,
			KeyFunc: func(*jose.Header) (any, error) {
				return &jose.JWK{Key: make([]byte, 16), KeyID: "a", Algorithm: "A128KW"}, nil
			}}, gcmkwTok,
			`jwe: KeyFunc: jose: key "a" is for alg "A128KW", not "A128GCMKW": algorithm not allowed`},
		{"JWK Key for another of the algs", jwe.DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.A128KW, jwa.A128GCMKW}, ContentEncryptions: gcm,
			Key: &jose.JWK{Key: make([]byte, 16), KeyID: "a", Algorithm: "A128KW"}}, gcmkwTok,
			`jwe: DecryptOptions: jose: key "a" is for alg "A128KW", not "A128GCMKW": algorithm not allowed`},
	} {
		d, err := jwe.NewDecrypter(c.opts)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, err = d.DecryptCompact(c.tok)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.name, err, c.want)
		}
	}
}
