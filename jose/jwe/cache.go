package jwe

import (
	"crypto/cipher"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

type prepEntry struct {
	key cacheKey
	p   *prepared
}

// headerEntry is a parsed protected header, never handed out: every
// message gets its own copy.
type headerEntry struct {
	enc string // Encoded Protected Header
	h   *jose.Header
}

// maxCachedHeader bounds the encoded size of a cached protected header.
const maxCachedHeader = 1024

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
