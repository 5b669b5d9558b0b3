package jws

import (
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/keycache"
	"github.com/josebench/josebench/jose/jwa"
)

// verifierCache holds the prepared verifier (or the reason there is none)
// of each (JWK, alg) pair met, at most maxCached of them, renewed by
// generations when full (package keycache): keys that are no longer
// used (a rotating remote set) are dropped, keys still used enter again.
type verifierCache struct {
	c keycache.Cache[cacheKey, prepared]
}

type cacheKey struct {
	k   *jose.JWK
	alg jwa.SignatureAlgorithm
}

func (vc *verifierCache) get(k *jose.JWK, alg jwa.SignatureAlgorithm) (jwa.Verifier, error) {
	ck := cacheKey{k, alg}
	if p, ok := vc.c.Get(ck); ok {
		return p.v, p.err
	}
	jv, err := prepare(alg, k)
	p := vc.c.Put(ck, &prepared{alg: alg, v: jv, err: err})
	return p.v, p.err
}

// Len returns the number of prepared verifiers cached.
func (vc *verifierCache) Len() int { return vc.c.Len() }

// maxCached bounds the prepared verifiers kept for the keys of JWK Sets.
const maxCached = 1024

// prepared is the verifier of one key for one alg, or why there is none.
type prepared struct {
	alg jwa.SignatureAlgorithm
	v   jwa.Verifier
	err error
}
