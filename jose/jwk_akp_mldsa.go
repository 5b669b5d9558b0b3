//go:build go1.27

package jose

import (
	"bytes"
	"crypto"
	"crypto/mldsa"
	"fmt"

	"github.com/josebench/josebench/internal/untrusted"
)

// akpParams returns the FIPS 204 parameter set of an AKP alg.
func akpParams(alg string) (mldsa.Parameters, bool) {
	switch alg {
	case "ML-DSA-44":
		return mldsa.MLDSA44(), true
	case "ML-DSA-65":
		return mldsa.MLDSA65(), true
	case "ML-DSA-87":
		return mldsa.MLDSA87(), true
	}
	return mldsa.Parameters{}, false
}

// akpBuild builds an ML-DSA key from pub and priv, whose sizes the caller
// has checked: the public key alone, or the private key derived from the
// seed priv, which must give pub (RFC 9964 §4).
func akpBuild(alg string, pub, priv []byte) (any, error) {
	params, ok := akpParams(alg)
	if !ok {
		return nil, jwkErrorf(ErrUnsupportedAlgorithm, "unsupported AKP algorithm %s", untrusted.Quote(alg))
	}
	pk, err := mldsa.NewPublicKey(params, pub)
	if err != nil {
		return nil, jwkErrorf(ErrInvalidKey, "member \"pub\": %v", err)
	}
	if priv == nil {
		return pk, nil
	}
	sk, err := mldsa.NewPrivateKey(params, priv)
	if err != nil {
		return nil, jwkErrorf(ErrInvalidKey, "member \"priv\": %v", err)
	}
	if !bytes.Equal(sk.PublicKey().Bytes(), pub) {
		return nil, jwkErrorf(ErrInvalidKey, "member \"priv\": does not match \"pub\"")
	}
	return sk, nil
}

// akpKeyType returns "AKP" for an ML-DSA key, and "" otherwise.
func akpKeyType(key any) string {
	if akpAlgorithm(key) != "" {
		return KeyTypeAKP
	}
	return ""
}

// akpAlgorithm returns the alg of an ML-DSA key (its parameter set's name,
// "ML-DSA-44", RFC 9964 §2), and "" for other keys.
func akpAlgorithm(key any) string {
	var pub *mldsa.PublicKey
	switch k := key.(type) {
	case *mldsa.PublicKey:
		pub = k
	case *mldsa.PrivateKey:
		if k != nil {
			pub = k.PublicKey()
		}
	}
	if pub == nil {
		return ""
	}
	return pub.Parameters().String()
}

// akpPublicKey returns the public key of an ML-DSA key, and nil otherwise.
func akpPublicKey(key any) crypto.PublicKey {
	switch k := key.(type) {
	case *mldsa.PublicKey:
		if k != nil {
			return k
		}
	case *mldsa.PrivateKey:
		if k != nil {
			return k.PublicKey()
		}
	}
	return nil
}

// akpIsPrivate reports whether key is an ML-DSA private key.
func akpIsPrivate(key any) bool {
	k, ok := key.(*mldsa.PrivateKey)
	return ok && k != nil
}

// akpNewJWK returns the JWK of an ML-DSA key, with its required alg set
// (RFC 9964 §4); ok is false for other keys.
func akpNewJWK(key any) (_ *JWK, ok bool, _ error) {
	switch k := key.(type) {
	case *mldsa.PublicKey:
		if k == nil {
			return nil, true, jwkErrorf(ErrInvalidKey, "nil ML-DSA public key")
		}
	case *mldsa.PrivateKey:
		if k == nil {
			return nil, true, jwkErrorf(ErrInvalidKey, "nil ML-DSA private key")
		}
	default:
		return nil, false, nil
	}
	return &JWK{Key: key, Algorithm: akpAlgorithm(key)}, true, nil
}

// akp writes the kty, pub and priv of an ML-DSA key (RFC 9964 §4); ok is
// false for other keys. The caller writes alg.
func (w *jwkWriter) akp(key any) (ok bool, _ error) {
	switch k := key.(type) {
	case *mldsa.PublicKey:
		if k == nil {
			return true, jwkErrorf(ErrInvalidKey, "nil ML-DSA public key")
		}
		w.str("kty", KeyTypeAKP)
		w.b64("pub", k.Bytes())
	case *mldsa.PrivateKey:
		if k == nil {
			return true, jwkErrorf(ErrInvalidKey, "nil ML-DSA private key")
		}
		w.str("kty", KeyTypeAKP)
		w.b64("pub", k.PublicKey().Bytes())
		w.b64("priv", k.Bytes())
	default:
		return false, nil
	}
	return true, nil
}

// akpGenerate generates an ML-DSA private key for alg.
func akpGenerate(alg string) (any, error) {
	params, ok := akpParams(alg)
	if !ok {
		return nil, keyErrorf(ErrUnsupportedAlgorithm, "generate: AKP algorithm %s", untrusted.Quote(alg))
	}
	k, err := mldsa.GenerateKey(params)
	if err != nil {
		return nil, fmt.Errorf("jose: generate: %w", err)
	}
	return k, nil
}
