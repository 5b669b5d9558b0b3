package jwe

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"fmt"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// keyOp is the JWK key operation (RFC 7517 §4.3) that a key must permit to
// be used with alg: for "dir" the key encrypts or decrypts content itself
// (encrypt/decrypt); for the ECDH-ES family it derives a key
// (deriveKey); every other algorithm wraps or unwraps the CEK
// (wrapKey/unwrapKey).
func keyOp(alg jwa.KeyAlgorithm, decrypt bool) jose.KeyOp {
	switch {
	case alg == jwa.Direct:
		if decrypt {
			return jose.OpDecrypt
		}
		return jose.OpEncrypt
	case alg.IsECDH():
		return jose.OpDeriveKey
	case decrypt:
		return jose.OpUnwrapKey
	default:
		return jose.OpWrapKey
	}
}

// appendB64String appends src base64url-encoded as a JSON string.
func appendB64String(dst, src []byte) []byte {
	dst = append(dst, '"')
	dst = jose.AppendBase64URL(dst, src)
	return append(dst, '"')
}

// epkToJWK converts an ephemeral public key to a JWK for a header that is
// marshalled by [jose.Header.AppendJSON]: an *ecdsa.PublicKey ("EC") for the
// NIST curves, the *ecdh.PublicKey itself ("OKP") for X25519.
func epkToJWK(pub *ecdh.PublicKey) (*jose.JWK, error) {
	var key any
	switch pub.Curve() {
	case ecdh.P256(), ecdh.P384(), ecdh.P521():
		var c elliptic.Curve
		switch pub.Curve() {
		case ecdh.P256():
			c = elliptic.P256()
		case ecdh.P384():
			c = elliptic.P384()
		default:
			c = elliptic.P521()
		}
		k, err := ecdsa.ParseUncompressedPublicKey(c, pub.Bytes())
		if err != nil {
			return nil, fmt.Errorf("jwe: ephemeral key: %w", err)
		}
		key = k
	default:
		key = pub
	}
	return jose.NewJWK(key)
}

// epkFromJWK converts the "epk" header member to the key jwa expects: an
// "EC" key's *ecdsa.PublicKey through its ECDH form, or an "OKP" X25519
// *ecdh.PublicKey. Anything else (private keys, RSA, Ed25519) is refused.
func epkFromJWK(j *jose.JWK) (*ecdh.PublicKey, error) {
	if j == nil {
		return nil, fmt.Errorf("jwe: missing epk header parameter: %w", jose.ErrMalformed)
	}
	switch k := j.Key.(type) {
	case *ecdsa.PublicKey:
		pub, err := k.ECDH()
		if err != nil {
			return nil, fmt.Errorf("jwe: epk: unsupported curve: %w", jose.ErrMalformed)
		}
		return pub, nil
	case *ecdh.PublicKey:
		if k.Curve() == ecdh.X25519() {
			return k, nil
		}
	}
	return nil, fmt.Errorf("jwe: epk is not an EC or X25519 public key: %w", jose.ErrMalformed)
}
