package jws

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// candidates is the set of verifiers one signature is tried with; an array,
// so that finding them does not allocate.
type candidates struct {
	v [MaxKeyCandidates]jwa.Verifier
	n int
}

func (c *candidates) add(v jwa.Verifier) bool {
	if c.n == len(c.v) {
		return false
	}
	c.v[c.n] = v
	c.n++
	return true
}

// candidates returns the verifiers for the header h (the JOSE Header, whose
// alg the caller has checked against the allow-list). No key source ever
// reads jwk, jku, x5u or x5c.
func (v *Verifier) candidates(h *jose.Header) (candidates, error) {
	var c candidates
	alg := jwa.SignatureAlgorithm(h.Algorithm)
	switch {
	case v.single != nil:
		for i := range v.single {
			if v.single[i].alg == alg {
				if v.single[i].err != nil {
					return c, v.single[i].err
				}
				c.add(v.single[i].v)
				return c, nil
			}
		}
		return c, fmt.Errorf("jws: alg %q is not allowed: %w", alg, jose.ErrAlgorithmNotAllowed)
	case v.set != nil:
		return v.setCandidates(h, alg)
	default:
		key, err := v.keyFunc(h)
		if err != nil {
			return c, fmt.Errorf("jws: KeyFunc: %w", err)
		}
		if key == nil {
			return c, fmt.Errorf("jws: KeyFunc returned no key: %w", jose.ErrKeyNotFound)
		}
		var jv jwa.Verifier
		if jwk, ok := key.(*jose.JWK); ok && jwk != nil {
			jv, err = v.cache.get(jwk, alg) // prepared once per JWK
		} else {
			jv, err = prepare(alg, key)
		}
		if err != nil {
			return c, err
		}
		c.add(jv)
		return c, nil
	}
}

// setCandidates selects the keys of the JWK Set that may verify a token
// with header h, by the policy of [jose.Select], and returns their
// prepared verifiers. A selected key whose verifier cannot be made (a key
// too weak for alg) is skipped; if none is left, the first such error is
// returned.
func (v *Verifier) setCandidates(h *jose.Header, alg jwa.SignatureAlgorithm) (candidates, error) {
	var c candidates
	var buf [MaxKeyCandidates]*jose.JWK
	keys, err := jose.Select(buf[:0], v.set, alg, h.KeyID, jose.OpVerify, MaxKeyCandidates)
	if err != nil {
		return c, fmt.Errorf("jws: JWK Set: %w", err)
	}
	var firstErr error
	for _, k := range keys {
		jv, err := v.cache.get(k, alg)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		c.add(jv)
	}
	if c.n == 0 {
		return c, firstErr
	}
	return c, nil
}

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
