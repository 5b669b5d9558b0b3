package jwa

import (
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/josebench/josebench/internal/untrusted"
)

// SignatureAlgorithms returns every JWS algorithm this package implements
// (RFC 7518 §3.1, RFC 8037 §3.1, RFC 8812 §3.2, RFC 9864 §2.2, and RFC 9964 §2 when built
// with Go 1.27 or later), in a fixed order. The slice is new on each call;
// the caller may modify it.
func SignatureAlgorithms() []SignatureAlgorithm {
	return append([]SignatureAlgorithm{
		HS256, HS384, HS512,
		RS256, RS384, RS512,
		PS256, PS384, PS512,
		ES256, ES384, ES512, ES256K,
		EdDSA, Ed25519,
	}, mldsaAlgorithms...)
}

// String returns the "alg" value (RFC 7515 §4.1.1).
func (a SignatureAlgorithm) String() string { return string(a) }

// Known reports whether a is one of the algorithms listed by
// [SignatureAlgorithms]. "none" (RFC 7518 §3.6) is not.
func (a SignatureAlgorithm) Known() bool {
	switch a {
	case HS256, HS384, HS512, RS256, RS384, RS512, PS256, PS384, PS512,
		ES256, ES384, ES512, ES256K, EdDSA, Ed25519:
		return true
	}
	return slices.Contains(mldsaAlgorithms, a)
}

// Hash returns the hash function that a applies to the JWS Signing Input
// (RFC 7518 §3.1): SHA-256, SHA-384 or SHA-512. For EdDSA and Ed25519 it
// returns SHA-512, the hash Ed25519 uses internally (RFC 8032 §5.1), which
// is also the one OpenID Connect uses for at_hash with these algorithms. It
// returns 0 for ML-DSA, which signs the input itself (RFC 9964 §2), and for
// an unknown algorithm.
func (a SignatureAlgorithm) Hash() crypto.Hash {
	switch a {
	case HS256, RS256, PS256, ES256, ES256K:
		return crypto.SHA256
	case HS384, RS384, PS384, ES384:
		return crypto.SHA384
	case HS512, RS512, PS512, ES512, EdDSA, Ed25519:
		return crypto.SHA512
	}
	return 0
}

// NewSigner returns a [Signer] that computes alg signatures or MACs with key
// (RFC 7518 §3). The key must suit the algorithm:
//
//   - HS256, HS384, HS512: a []byte at least as long as the hash output
//     (RFC 7518 §3.2); the key is copied.
//   - RS256, RS384, RS512, PS256, PS384, PS512: an *[rsa.PrivateKey] of 2048
//     (RFC 7518 §3.3, §3.5) to 16384 bits. The key is validated, and
//     precomputed on a private copy, so the caller's key is not modified.
//   - ES256, ES384, ES512: an *[ecdsa.PrivateKey] on P-256, P-384 or P-521
//     respectively (RFC 7518 §3.4).
//   - ES256K: a *[Secp256k1PrivateKey] (RFC 8812 §3.2). It signs with the
//     deterministic nonces of RFC 6979.
//   - EdDSA, Ed25519: an [ed25519.PrivateKey] (RFC 8037 §3.1, RFC 9864 §2.2);
//     its public half must match its seed.
//   - ML-DSA-44, ML-DSA-65, ML-DSA-87 (Go 1.27 and later): an
//     *mldsa.PrivateKey of that parameter set (RFC 9964 §2).
//
// For the asymmetric algorithms the key may also be any [crypto.Signer]
// whose Public method returns an *[rsa.PublicKey], *[ecdsa.PublicKey],
// *[Secp256k1PublicKey], [ed25519.PublicKey] or *mldsa.PublicKey of the right kind and size, such as a key held in a KMS
// or an HSM. Its signatures are converted to the JWS form where needed (the
// DER of an ECDSA signature becomes R||S) and verified with the public key
// its Public method returned when the Signer was made, before Sign returns
// them: a signature of another padding or hash than alg's (a KMS key bound
// to PKCS #1 v1.5 used for PS256), of another key, or faulty (which, for
// RSA-CRT, would give away the private key) is an error wrapping
// [ErrKeyDevice], never a token. This costs one verification per signature.
//
// A key of the wrong type, size or curve is refused with an error wrapping
// [ErrInvalidKey]; an algorithm this package does not implement, "none"
// included, with one wrapping [ErrUnsupportedAlgorithm].
//
// All key setup happens here, once: HMAC keeps its hash states, RSA its CRT
// values. With a dst of sufficient capacity, HMAC and Ed25519 signatures do
// not allocate.
func NewSigner(alg SignatureAlgorithm, key any) (Signer, error) {
	if alg.Known() && sigNilKey(key) {
		return nil, sigKeyTypeError(alg, key)
	}
	switch alg {
	case HS256, HS384, HS512:
		k, ok := key.([]byte)
		if !ok {
			return nil, sigKeyTypeError(alg, key)
		}
		return newHMACSigner(alg, k)
	case RS256, RS384, RS512, PS256, PS384, PS512:
		return newRSASigner(alg, key)
	case ES256, ES384, ES512:
		return newECDSASigner(alg, key)
	case ES256K:
		return newES256KSigner(key)
	case EdDSA, Ed25519:
		return newEdDSASigner(alg, key)
	case MLDSA44, MLDSA65, MLDSA87:
		return newMLDSASigner(alg, key)
	}
	return nil, sigUnsupportedError(alg)
}

// NewVerifier returns a [Verifier] that checks alg signatures or MACs with
// key (RFC 7518 §3). The key must suit the algorithm:
//
//   - HS256, HS384, HS512: a []byte at least as long as the hash output
//     (RFC 7518 §3.2); the key is copied.
//   - RS256, RS384, RS512, PS256, PS384, PS512: an *[rsa.PublicKey] of at
//     least 2048 (and at most 16384) bits.
//   - ES256, ES384, ES512: an *[ecdsa.PublicKey] on P-256, P-384 or P-521
//     respectively.
//   - ES256K: a *[Secp256k1PublicKey].
//   - EdDSA, Ed25519: an [ed25519.PublicKey].
//   - ML-DSA-44, ML-DSA-65, ML-DSA-87 (Go 1.27 and later): an
//     *mldsa.PublicKey of that parameter set.
//
// A private key of these types, or any value with a Public method returning
// one (such as a [crypto.Signer]), stands for its public half.
//
// Errors are those of [NewSigner].
func NewVerifier(alg SignatureAlgorithm, key any) (Verifier, error) {
	if alg.Known() && sigNilKey(key) {
		return nil, sigKeyTypeError(alg, key)
	}
	switch alg {
	case HS256, HS384, HS512:
		k, ok := key.([]byte)
		if !ok {
			return nil, sigKeyTypeError(alg, key)
		}
		return newHMACSigner(alg, k)
	case RS256, RS384, RS512, PS256, PS384, PS512:
		return newRSAVerifier(alg, sigPublicKey(key))
	case ES256, ES384, ES512:
		return newECDSAVerifier(alg, sigPublicKey(key))
	case ES256K:
		return newES256KVerifier(sigPublicKey(key))
	case EdDSA, Ed25519:
		return newEdDSAVerifier(alg, sigPublicKey(key))
	case MLDSA44, MLDSA65, MLDSA87:
		return newMLDSAVerifier(alg, key)
	}
	return nil, sigUnsupportedError(alg)
}

// sigNilKey reports whether key is nil, a nil pointer (of a key type of
// the standard library or of a caller's own, such as a crypto.Signer),
// whose methods would panic, or a pointer to an Ed25519 private key of the
// wrong length, whose Public method would. The standard types are told
// apart by a type switch; only a type jwa does not know is looked at with
// reflect, once per constructor.
func sigNilKey(key any) bool {
	switch k := key.(type) {
	case nil:
		return true
	case *rsa.PrivateKey:
		return k == nil
	case *rsa.PublicKey:
		return k == nil
	case *ecdsa.PrivateKey:
		return k == nil
	case *ecdsa.PublicKey:
		return k == nil
	case *ecdh.PrivateKey:
		return k == nil
	case *ecdh.PublicKey:
		return k == nil
	case *ed25519.PrivateKey:
		return k == nil || len(*k) != ed25519.PrivateKeySize
	case *Secp256k1PrivateKey:
		return k == nil
	case *Secp256k1PublicKey:
		return k == nil
	case []byte, ed25519.PrivateKey, ed25519.PublicKey:
		return false
	}
	if mldsaNilKey(key) {
		return true
	}
	v := reflect.ValueOf(key)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// publicOf returns the public key of a caller's key k (a crypto.Signer, a
// crypto.Decrypter), or nil if its Public method panics or returns no key
// (nil, or a nil pointer of a standard key type): a device that cannot say
// its public key is refused, never a cause of a panic. Its caller has
// refused a nil pointer k already ([sigNilKey]).
func publicOf(k interface{ Public() crypto.PublicKey }) crypto.PublicKey {
	p, ok := devicePublic(func() any { return k.Public() })
	if !ok || sigNilKey(p) {
		return nil
	}
	return p
}

// sigPublicKey returns the public half of the asymmetric private keys a
// verifier accepts, and key itself otherwise.
func sigPublicKey(key any) any {
	switch k := key.(type) {
	case *rsa.PrivateKey:
		return &k.PublicKey
	case *ecdsa.PrivateKey:
		return &k.PublicKey
	case ed25519.PrivateKey:
		if len(k) != ed25519.PrivateKeySize {
			return key
		}
		return k.Public()
	case interface{ Public() crypto.PublicKey }:
		if p := publicOf(k); p != nil {
			return p
		}
	}
	return key
}

// sigScratch is per-call scratch space for the asymmetric algorithms: the
// digest, and the DER form of an ECDSA signature. crypto/rsa and
// crypto/ecdsa take these as slices that escape analysis cannot keep on the
// stack, so they are pooled instead of allocated on every call.
type sigScratch struct {
	digest [sha512.Size]byte
	der    [ecdsaMaxDER]byte
}

var sigScratchPool = sync.Pool{New: func() any { return new(sigScratch) }}

// sigDigest hashes in with h (SHA-256, SHA-384 or SHA-512) into buf and
// returns the digest, without allocating.
func sigDigest(h crypto.Hash, in []byte, buf *[sha512.Size]byte) []byte {
	switch h {
	case crypto.SHA256:
		d := sha256.Sum256(in)
		return buf[:copy(buf[:], d[:])]
	case crypto.SHA384:
		d := sha512.Sum384(in)
		return buf[:copy(buf[:], d[:])]
	case crypto.SHA512:
		d := sha512.Sum512(in)
		return buf[:copy(buf[:], d[:])]
	}
	panic("jwa: internal error: unexpected hash " + h.String())
}

// sigKeyTypeError reports a key that alg cannot use, in the words of what
// alg needs and what the key is ([SignatureAlgorithm.KeyNeeds],
// [DescribeKey]): a public key that alg verifies with, given to sign, is
// told to be the wrong half. A crypto.Signer (a KMS, an HSM) is described
// by the public key it holds.
func sigKeyTypeError(alg SignatureAlgorithm, key any) error {
	if sigIsPublic(key) && alg.FitsKey(key) {
		return privateKeyError(string(alg), "sign", key)
	}
	return keyError(string(alg), alg.KeyNeeds(), key)
}

// sigIsPublic reports whether key is the public half of a key pair.
func sigIsPublic(key any) bool {
	switch key.(type) {
	case *rsa.PublicKey, *ecdsa.PublicKey, ed25519.PublicKey, *ecdh.PublicKey, *Secp256k1PublicKey:
		return true
	}
	return mldsaIsPublic(key)
}

// UnsupportedReason says why this build does not implement the signature
// algorithm a, in words that follow its name in a sentence: "" when it
// does ([SignatureAlgorithm.Known]); for ML-DSA-44, ML-DSA-65 and
// ML-DSA-87 (RFC 9964 §2) in a build older than Go 1.27, "needs a build
// with Go 1.27 or later (crypto/mldsa); this one is go1.26.8" (the
// build's own version); for "none" in any case, that the unsecured JWS
// (RFC 7518 §3.6) is never signed or verified; else "is unknown".
// [NewSigner], [NewVerifier], jws.NewVerifier and jose.ParseKey give it in
// their errors, which wrap [ErrUnsupportedAlgorithm].
func (a SignatureAlgorithm) UnsupportedReason() string {
	switch {
	case a.Known():
		return ""
	case a == MLDSA44 || a == MLDSA65 || a == MLDSA87:
		return "needs a build with Go 1.27 or later (crypto/mldsa); this one is " + runtime.Version()
	case strings.EqualFold(string(a), "none"):
		return "is the unsecured JWS (RFC 7518 §3.6), never signed or verified"
	}
	return "is unknown"
}

// sigUnsupportedError reports an algorithm NewSigner and NewVerifier do not
// implement, with its [SignatureAlgorithm.UnsupportedReason]. The name,
// which may come from a token, is quoted and cut by untrusted.Quote.
func sigUnsupportedError(alg SignatureAlgorithm) error {
	return fmt.Errorf("jwa: signature algorithm %s %s: %w", untrusted.Quote(alg), alg.UnsupportedReason(), ErrUnsupportedAlgorithm)
}

// sigGrow returns dst extended by n bytes, and those n bytes.
func sigGrow(dst []byte, n int) (whole, tail []byte) {
	whole = slices.Grow(dst, n)[:len(dst)+n]
	return whole, whole[len(dst):]
}
