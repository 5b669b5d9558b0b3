package jws

import (
	"sync"
	"sync/atomic"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// verifierCache holds the prepared verifier (or the reason there is none)
// of each (JWK, alg) pair met so far, up to maxCached entries.
type verifierCache struct {
	m sync.Map // cacheKey -> prepared
	n atomic.Int32
}

type cacheKey struct {
	k   *jose.JWK
	alg jwa.SignatureAlgorithm
}

func (vc *verifierCache) get(k *jose.JWK, alg jwa.SignatureAlgorithm) (jwa.Verifier, error) {
	ck := cacheKey{k, alg}
	if p, ok := vc.m.Load(ck); ok {
		p := p.(*prepared)
		return p.v, p.err
	}
	jv, err := prepare(alg, k)
	if vc.n.Load() < maxCached {
		if _, loaded := vc.m.LoadOrStore(ck, &prepared{alg: alg, v: jv, err: err}); !loaded {
			vc.n.Add(1)
		}
	}
	return jv, err
}

// maxCached bounds the prepared verifiers kept for the keys of a JWK Set.
const maxCached = 1024

// prepared is the verifier of one key for one alg, or why there is none.
type prepared struct {
	alg jwa.SignatureAlgorithm
	v   jwa.Verifier
	err error
}
