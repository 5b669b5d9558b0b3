package jwe

import (
	"crypto/cipher"

	"github.com/josebench/josebench/jose/jwa"
)

// prepEntry is the most recently used prepared key: the first one a
// Decrypter prepares (which is not put in the map, so that a Decrypter
// made for one token does not pay for it), then the last one found.
type prepEntry struct {
	key cacheKey
	p   prepared
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
