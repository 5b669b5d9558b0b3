package jwe

import (
	"crypto/cipher"

	"github.com/josebench/josebench/jose/jwa"
)

// prepEntry is a prepared key with its cache identity: an entry of
// Decrypter.cache, and Decrypter.lastPrep, the most recently used one,
// checked first (the first key a Decrypter prepares is only kept there,
// so that a Decrypter made for one token does not pay for the cache).
type prepEntry struct {
	key cacheKey
	p   prepared
}

// maxCached bounds the prepared keys a Decrypter keeps; when that many are
// cached, the next to enter starts a new generation (package keycache).
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
