package jws

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
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

// setCandidates selects keys of the JWK Set: by kid when the token has one
// (one entry at most of that kid may have alg's key type), otherwise every
// key that fits
// alg; at most MaxKeyCandidates, in set order.
// Keys whose kid matches but that do not fit alg make the error
// ErrAlgorithmNotAllowed rather than ErrKeyNotFound.
func (v *Verifier) setCandidates(h *jose.Header, alg jwa.SignatureAlgorithm) (candidates, error) {
	var c candidates
	kid := h.KeyID
	if kid != "" {
		// RFC 7517 §4.5: keys sharing a kid must differ in type. Two
		// entries of alg's key type (or an unusable entry, whose type
		// cannot be trusted) under the token's kid make the choice
		// ambiguous.
		found, same, kty := false, 0, keyTypeFor(alg)
		for _, k := range v.set.Keys {
			if k == nil || k.KeyID != kid {
				continue
			}
			found = true
			if k.Key == nil || k.KeyType() == kty {
				same++
			}
		}
		if !found {
			return c, fmt.Errorf("jws: no key with kid %q: %w", kid, jose.ErrKeyNotFound)
		}
		if same > 1 {
			return c, fmt.Errorf("jws: %d keys of type %s share kid %q: %w", same, kty, kid, jose.ErrKeyNotFound)
		}
	}
	var firstErr error
	for _, k := range v.set.Keys {
		if k == nil || k.Key == nil || (kid != "" && k.KeyID != kid) {
			continue
		}
		jv, err := v.cache.get(k, alg)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if !c.add(jv) {
			break
		}
	}
	if c.n == 0 {
		if kid != "" && firstErr != nil {
			return c, firstErr
		}
		return c, fmt.Errorf("jws: no key fits alg %q: %w", alg, jose.ErrKeyNotFound)
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

// keyTypeFor returns the JWK "kty" of alg's keys (RFC 7518 §6.1,
// RFC 8037 §2).
func keyTypeFor(alg jwa.SignatureAlgorithm) string {
	switch alg {
	case jwa.HS256, jwa.HS384, jwa.HS512:
		return "oct"
	case jwa.RS256, jwa.RS384, jwa.RS512, jwa.PS256, jwa.PS384, jwa.PS512:
		return "RSA"
	case jwa.ES256, jwa.ES384, jwa.ES512:
		return "EC"
	}
	return "OKP"
}

// keyFits reports whether key is of the type (and curve) alg needs
// (RFC 7518 §3.1). Private keys fit as their public part does.
func keyFits(alg jwa.SignatureAlgorithm, key any) bool {
	switch alg {
	case jwa.HS256, jwa.HS384, jwa.HS512:
		_, ok := key.([]byte)
		return ok
	case jwa.RS256, jwa.RS384, jwa.RS512, jwa.PS256, jwa.PS384, jwa.PS512:
		switch key.(type) {
		case *rsa.PublicKey, *rsa.PrivateKey:
			return true
		}
	case jwa.ES256:
		return ecCurve(key) == elliptic.P256()
	case jwa.ES384:
		return ecCurve(key) == elliptic.P384()
	case jwa.ES512:
		return ecCurve(key) == elliptic.P521()
	case jwa.EdDSA, jwa.Ed25519:
		switch key.(type) {
		case ed25519.PublicKey, ed25519.PrivateKey:
			return true
		}
	}
	return false
}

func ecCurve(key any) elliptic.Curve {
	switch k := key.(type) {
	case *ecdsa.PublicKey:
		if k != nil {
			return k.Curve
		}
	case *ecdsa.PrivateKey:
		if k != nil {
			return k.Curve
		}
	}
	return nil
}
