package jws

import (
	"context"
	"crypto"
	"crypto/x509"
	"errors"
	"fmt"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/keytext"
	"github.com/josebench/josebench/jose/jwa"
)

// candidates is the set of verifiers one signature is tried with; an array,
// so that finding them does not allocate. chain is the certificate chain of
// the one key of a *CertifiedKey.
type candidates struct {
	v     [MaxKeyCandidates]jwa.Verifier
	n     int
	chain []*x509.Certificate
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
// alg the caller has checked against the allow-list) of a token verified
// under ctx, which bounds the wait on a key function; *lookups counts the
// calls of the key function the token has cost (Limits.MaxKeyLookups). No
// key source ever reads jwk, jku, x5u or x5c.
func (v *Verifier) candidates(ctx context.Context, lookups *int, h *jose.Header) (candidates, error) {
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
		return c, fmt.Errorf("jws: alg %s is not allowed: %w", untrusted.Quote(alg), jose.ErrAlgorithmNotAllowed)
	case v.set != nil:
		return v.setCandidates(v.set, h, alg)
	default:
		key, err := v.keyFunc.Call(ctx, lookups, h)
		if err != nil {
			return c, err
		}
		if set, ok := key.(*jose.Set); ok {
			// Selected as from Keys, its JWKs prepared once and cached.
			return v.setCandidates(set, h, alg)
		}
		if ck, ok := key.(*CertifiedKey); ok {
			if ck == nil || ck.Key == nil {
				return c, fmt.Errorf("jws: key source returned a CertifiedKey without a key: %w", jose.ErrKeyNotFound)
			}
			if _, isSet := ck.Key.(*jose.Set); isSet {
				return c, fmt.Errorf("jws: key source returned a CertifiedKey holding a JWK Set: %w", jose.ErrKeyNotFound)
			}
			if len(ck.Chain) > 0 {
				if !leafHolds(ck.Chain[0], ck.Key) {
					return c, fmt.Errorf("jws: key source returned a CertifiedKey whose leaf certificate does not hold its key: %w", jose.ErrInvalidKey)
				}
				c.chain = ck.Chain
			}
			key = ck.Key
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

// leafHolds reports whether the public key of the certificate leaf is the
// public key of key (a Go key or a *jose.JWK holding one): a chain that
// vouches for another key must not be reported as the signer's. A secret
// key is held by no certificate.
func leafHolds(leaf *x509.Certificate, key any) bool {
	if leaf == nil {
		return false
	}
	if jwk, ok := key.(*jose.JWK); ok {
		if jwk == nil {
			return false
		}
		key = jwk.Key
	}
	if priv, ok := key.(interface{ Public() crypto.PublicKey }); ok {
		key = priv.Public()
	}
	pub, ok := leaf.PublicKey.(interface{ Equal(crypto.PublicKey) bool })
	return ok && key != nil && pub.Equal(key)
}

// setCandidates selects the keys of the JWK Set set that may verify a token
// with header h, by the policy of [jose.Select], and returns their
// prepared verifiers. A selected key whose verifier cannot be made (a key
// too weak for alg) is skipped; if none is left, the first such error is
// returned.
func (v *Verifier) setCandidates(set *jose.Set, h *jose.Header, alg jwa.SignatureAlgorithm) (candidates, error) {
	var c candidates
	var buf [MaxKeyCandidates]*jose.JWK
	keys, err := jose.Select(buf[:0], set, alg, h.KeyID, jose.OpVerify, MaxKeyCandidates, nil)
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

// MaxKeyCandidates is the largest number of keys of a JWK Set tried for one
// signature whose header has no "kid" (RFC 7515 §4.1.4). All signatures of
// a token together cost at most [jose.Limits.MaxKeyAttempts]
// verifications (4 by default).
const MaxKeyCandidates = 4

// prepare makes the jwa.Verifier of key for alg, after checking that key
// fits alg: its Go type and curve, and for a JWK its alg, use and key_ops.
// A key that does not fit is ErrAlgorithmNotAllowed.
func prepare(alg jwa.SignatureAlgorithm, key any) (jwa.Verifier, error) {
	if jwk, ok := key.(*jose.JWK); ok {
		if jwk == nil || jwk.Key == nil {
			return nil, fmt.Errorf("jws: JWK holds no usable key: %w", jose.ErrKeyNotFound)
		}
		if err := jwk.Permits(string(alg), jose.OpVerify); err != nil {
			return nil, errAlgNotAllowed(err) // jose's words, under no bare "jws:"
		}
		key = jwk.Key
	}
	if !alg.FitsKey(key) {
		return nil, fmt.Errorf("jws: %s: %w", keytext.One(jwa.DescribeKey(key), string(alg), alg.KeyNeeds()), jose.ErrAlgorithmNotAllowed)
	}
	jv, err := jwa.NewVerifier(alg, key)
	if err != nil {
		return nil, fmt.Errorf("jws: key: %w", err)
	}
	return jv, nil
}

// errAlgNotAllowed makes err wrap ErrAlgorithmNotAllowed, as Permits
// promises.
func errAlgNotAllowed(err error) error {
	if errors.Is(err, jose.ErrAlgorithmNotAllowed) {
		return err
	}
	return fmt.Errorf("%w: %w", err, jose.ErrAlgorithmNotAllowed)
}
