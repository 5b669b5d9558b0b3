package jwe

import (
	"crypto/cipher"

	"github.com/josebench/josebench/jose/jwa"
)

type prepEntry struct {
	key cacheKey
	p   *prepared
}

// maxCached bounds the prepared keys a Decrypter keeps.
const maxCached = 256

// fixedKey is the cache identity of DecryptOptions.Key.
type fixedKey struct{}

type cacheKey struct {
	id  any // fixedKey{} or a *jose.JWK of the set
	alg jwa.KeyAlgorithm
	enc jwa.ContentEncryption
}

// prepared is the key management of one key for one alg, and for "dir" the
// content cipher too.
type prepared struct {
	kd   jwa.KeyDecrypter
	aead cipher.AEAD // dir only
}
