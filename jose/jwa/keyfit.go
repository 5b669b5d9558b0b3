package jwa

import (
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
)

// This file says which keys each algorithm needs: the JWK "kty" and "crv"
// (RFC 7518 §6, RFC 8037 §2) and the Go key types that have them. Key
// selection (jose.Select) and the constructors of jws and jwe ask these
// methods rather than listing algorithm names themselves.

// KeyType returns the JWK "kty" of a's keys: "oct" for HMAC (RFC 7518
// §6.4), "RSA" for RS* and PS* (§6.3), "EC" for ES* (§6.2), "OKP" for EdDSA
// and Ed25519 (RFC 8037 §2), "AKP" for ML-DSA (RFC 9964 §4); "" for an
// unknown algorithm. ES256K's keys are "EC" (RFC 8812 §3.1).
func (a SignatureAlgorithm) KeyType() string {
	switch a {
	case HS256, HS384, HS512:
		return "oct"
	case RS256, RS384, RS512, PS256, PS384, PS512:
		return "RSA"
	case ES256, ES384, ES512, ES256K:
		return "EC"
	case EdDSA, Ed25519:
		return "OKP"
	case MLDSA44, MLDSA65, MLDSA87:
		return "AKP" // RFC 9964 §4
	}
	return ""
}

// Curve returns the JWK "crv" of a's keys: "P-256", "P-384" and "P-521"
// for ES256, ES384 and ES512 (RFC 7518 §3.4), "secp256k1" for ES256K
// (RFC 8812 §3.1), "Ed25519" for EdDSA (as this
// module supports it) and Ed25519 (RFC 8037 §3.1, RFC 9864 §2.2); "" for
// algorithms whose keys have no curve.
func (a SignatureAlgorithm) Curve() string {
	switch a {
	case ES256:
		return "P-256"
	case ES384:
		return "P-384"
	case ES512:
		return "P-521"
	case ES256K:
		return "secp256k1"
	case EdDSA, Ed25519:
		return "Ed25519"
	}
	return ""
}

// FitsKey reports whether key is a Go key of the type and curve a needs, as
// [NewVerifier] accepts them: []byte for HMAC, an RSA key for RS* and PS*,
// an ECDSA key on a's curve for ES256, ES384 and ES512, a secp256k1 key
// for ES256K, an Ed25519 key for EdDSA and Ed25519,
// an ML-DSA key of a's parameter set for ML-DSA-* (Go 1.27 builds).
// Private keys, and values with a Public method (a [crypto.Signer]), fit as
// their public half does. It says nothing of size or strength: a key that
// fits may still be refused by [NewVerifier] as too weak.
func (a SignatureAlgorithm) FitsKey(key any) bool {
	if a.KeyType() == "oct" {
		_, ok := key.([]byte)
		return ok
	}
	if sigNilKey(key) {
		return false
	}
	switch k := sigPublicKey(key).(type) {
	case *rsa.PublicKey:
		return a.KeyType() == "RSA" && k.N != nil
	case *ecdsa.PublicKey:
		return a.KeyType() == "EC" && a != ES256K && k.Curve != nil && k.Curve.Params().Name == a.Curve()
	case *Secp256k1PublicKey:
		return a == ES256K && k != nil
	case ed25519.PublicKey:
		return a.KeyType() == "OKP" && len(k) == ed25519.PublicKeySize
	}
	return mldsaFitsKey(a, key) // an ML-DSA key of a's parameter set (Go 1.27)
}

// KeyType returns the JWK "kty" of a's keys: "oct" for AES key wrap,
// AES-GCM key wrap, dir and PBES2 (whose password a JWK carries as an oct
// key), "RSA" for RSA1_5 and RSA-OAEP*; "" for the ECDH-ES family, whose
// keys are "EC" (P-256, P-384, P-521) or "OKP" (X25519, RFC 8037 §3.2), and
// for an unknown algorithm.
func (a KeyAlgorithm) KeyType() string {
	switch {
	case a.IsRSA():
		return "RSA"
	case a.IsAESKW(), a.IsGCMKW(), a.IsPBES2(), a == Direct:
		return "oct"
	}
	if c := hpkeCurve(a); c != nil { // HPKE: the KEM's curve fixes the key type
		if c == ecdh.X25519() {
			return "OKP"
		}
		return "EC"
	}
	return ""
}

// FitsKey reports whether key is a Go key of the type (and, for key wrap,
// size; for ECDH-ES, curve) that a needs, as [NewKeyEncrypter] and
// [NewKeyDecrypter] accept them: []byte for dir and PBES2, []byte of
// [KeyAlgorithm.KeyWrapSize] bytes for AxxxKW and AxxxGCMKW, an RSA key for
// RSA1_5 and RSA-OAEP*, an ECDH or ECDSA key on P-256, P-384, P-521 or
// X25519 for the ECDH-ES family, one on the KEM's curve for HPKE (an
// [ecdh.KeyExchanger] too, as its public half). Public and private keys both fit (values
// with a Public method, such as a [crypto.Decrypter], as their public
// half); whether the key can do the operation asked of it is for the
// constructors to say.
func (a KeyAlgorithm) FitsKey(key any) bool {
	if a.KeyType() == "oct" {
		b, ok := key.([]byte)
		if !ok {
			return false
		}
		if n := a.KeyWrapSize(); n != 0 && !a.IsPBES2() {
			return len(b) == n
		}
		return true
	}
	if sigNilKey(key) {
		return false
	}
	switch k := key.(type) {
	case *ecdh.PrivateKey:
		key = k.PublicKey()
	case *rsa.PrivateKey, *ecdsa.PrivateKey:
		key = sigPublicKey(key)
	case ecdh.KeyExchanger: // an opaque ECDH key (a KMS or an HSM)
		key = k.PublicKey()
	case ed25519.PrivateKey: // not its Public method: it panics on a bad length
	case interface{ Public() crypto.PublicKey }:
		key = publicOf(k)
	}
	if c := hpkeCurve(a); c != nil { // HPKE: a key on the KEM's curve
		switch k := key.(type) {
		case *ecdsa.PublicKey:
			pub, err := k.ECDH()
			return k != nil && err == nil && pub.Curve() == c
		case *ecdh.PublicKey:
			return k != nil && k.Curve() == c
		}
		return false
	}
	switch k := key.(type) {
	case *rsa.PublicKey:
		return k != nil && k.N != nil && a.IsRSA()
	case *ecdsa.PublicKey:
		return k != nil && a.IsECDH() && k.Curve != nil && ecdsaCurveSupported(k.Curve)
	case *ecdh.PublicKey:
		return k != nil && a.IsECDH() && ecdhCurveSupported(k.Curve())
	}
	return false
}

// DecryptsWith reports whether a can decrypt with key: key fits a
// ([KeyAlgorithm.FitsKey]) and, for the algorithms that encrypt to a public
// key (RSA1_5, RSA-OAEP*, the ECDH-ES family, HPKE), holds the private key:
// an *rsa.PrivateKey or a [crypto.Decrypter] for RSA, an *ecdh.PrivateKey,
// an *ecdsa.PrivateKey or an [ecdh.KeyExchanger] for the others, as
// [NewKeyDecrypter] takes them. A public key does not, nor an opaque key
// that cannot decrypt (a [crypto.Signer]). For the other algorithms it is
// FitsKey: whether a dir key's size suits an enc is for the caller to say,
// who knows the encs. Like FitsKey, it says nothing of size or strength.
func (a KeyAlgorithm) DecryptsWith(key any) bool {
	if !a.FitsKey(key) {
		return false
	}
	switch {
	case a.IsRSA():
		_, ok := key.(crypto.Decrypter) // *rsa.PrivateKey is one
		return ok
	case a.IsECDH(), a.IsHPKE(), a.IsHPKEIntegrated():
		switch key.(type) {
		case *ecdsa.PrivateKey, ecdh.KeyExchanger: // *ecdh.PrivateKey is one
			return true
		}
		return false
	}
	return true
}

func ecdsaCurveSupported(c elliptic.Curve) bool {
	return c == elliptic.P256() || c == elliptic.P384() || c == elliptic.P521()
}
