package jose

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"fmt"
	"slices"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose/jwa"
)

// JWK is a JSON Web Key (RFC 7517 §4).
//
// Key holds the Go key: []byte for "oct"; *rsa.PublicKey or *rsa.PrivateKey
// for "RSA"; *ecdsa.PublicKey or *ecdsa.PrivateKey for "EC" on P-256, P-384
// and P-521; *[jwa.Secp256k1PublicKey] or *[jwa.Secp256k1PrivateKey] for "EC"
// on secp256k1 (RFC 8812 §3.1); ed25519.PublicKey
// or ed25519.PrivateKey for "OKP" Ed25519; *ecdh.PublicKey or *ecdh.PrivateKey
// (X25519) for "OKP" X25519; *mldsa.PublicKey or *mldsa.PrivateKey for
// "AKP" ML-DSA (RFC 9964 §4, Go 1.27 and later). Key is nil for an entry of a JWK Set whose kty or
// crv this module does not support: such an entry is kept and marshalled
// back, but never selected.
//
// A JWK read by [ParseKey], [ParseSet] or [JWK.UnmarshalJSON] has been
// checked: every member has its registered JSON type, every binary member is
// canonical base64url of the right length, EC points are on their curve, OKP
// and EC private keys match their public keys, RSA private keys pass
// [rsa.PrivateKey.Validate], the public key of the leaf certificate of x5c
// equals the key, and x5t and x5t#S256, when x5c is present too, are the
// leaf's SHA-1 and SHA-256 thumbprints. The certificate chain itself is not
// verified: x5c is carried, never trusted. "x5u" (RFC 7517 §4.6) must be a
// string holding an absolute URI; it is kept as written, like the members
// this module does not know, and never fetched.
//
// Members this module does not know are kept, in order, as raw JSON and
// written back by [JWK.MarshalJSON].
type JWK struct {
	Key       any     // the Go key, see above
	KeyID     string  // "kid" (RFC 7517 §4.5)
	Use       string  // "use" (RFC 7517 §4.2): "sig" or "enc"
	KeyOps    []KeyOp // "key_ops" (RFC 7517 §4.3); nil when absent
	Algorithm string  // "alg" (RFC 7517 §4.4)
	// Certificates is "x5c" (RFC 7517 §4.7): the leaf's public key equals Key.
	Certificates []*x509.Certificate
	// CertificateThumbprintSHA1 is "x5t" (RFC 7517 §4.8), decoded.
	CertificateThumbprintSHA1 []byte
	// CertificateThumbprintSHA256 is "x5t#S256" (RFC 7517 §4.9), decoded.
	CertificateThumbprintSHA256 []byte

	ext ext // unknown members and the raw form of unusable entries
}

// KeyOp is a "key_ops" value (RFC 7517 §4.3).
type KeyOp string

// Key operations (RFC 7517 §4.3).
const (
	OpSign       KeyOp = "sign"
	OpVerify     KeyOp = "verify"
	OpEncrypt    KeyOp = "encrypt"
	OpDecrypt    KeyOp = "decrypt"
	OpWrapKey    KeyOp = "wrapKey"
	OpUnwrapKey  KeyOp = "unwrapKey"
	OpDeriveKey  KeyOp = "deriveKey"
	OpDeriveBits KeyOp = "deriveBits"
)

// Key use values (RFC 7517 §4.2).
const (
	UseSignature  = "sig"
	UseEncryption = "enc"
)

// Key types (RFC 7518 §6.1, RFC 8037 §2).
const (
	KeyTypeOct = "oct"
	KeyTypeRSA = "RSA"
	KeyTypeEC  = "EC"
	KeyTypeOKP = "OKP"
)

// Curves (RFC 7518 §6.2.1.1, RFC 8037 §2).
const (
	CurveP256    = "P-256"
	CurveP384    = "P-384"
	CurveP521    = "P-521"
	CurveEd25519 = "Ed25519"
	CurveX25519  = "X25519"
	// CurveSecp256k1 is the curve of ES256K (RFC 8812 §3.1); its keys are
	// a *jwa.Secp256k1PublicKey or *jwa.Secp256k1PrivateKey.
	CurveSecp256k1 = "secp256k1"
)

// Bounds on what one JWK may hold, checked while parsing.
const (
	// MaxRSAModulusBits is the largest RSA modulus accepted, in bits.
	MaxRSAModulusBits = 16384
	// MaxCertificates is the largest number of certificates in "x5c".
	MaxCertificates = 32
	// MaxKeyOps is the largest number of values in "key_ops" (RFC 7517
	// §4.3 registers eight, and forbids duplicates).
	MaxKeyOps = 32
)

// jwkMember is one member of a JSON object: its name and raw value.
type jwkMember struct {
	name  string
	value []byte
}

// ext holds what a JWK carries besides its typed fields.
type ext struct {
	extra []jwkMember // unknown members, in order of appearance
	// For an unusable entry of a JWK Set (unsupported kty or crv, or a
	// malformed key): the entry as read, its kty and crv, and why.
	raw      []byte
	kty, crv string
	err      error
}

// jwkErrorf returns an error wrapping sentinel, in the one style of this
// module: "jose: jwk: what happened: kind".
func jwkErrorf(sentinel error, format string, args ...any) error {
	return fmt.Errorf("jose: jwk: %s: %w", fmt.Sprintf(format, args...), sentinel)
}

// keyErrorf returns an error wrapping sentinel: "jose: what happened: kind".
func keyErrorf(sentinel error, format string, args ...any) error {
	return fmt.Errorf("jose: %s: %w", fmt.Sprintf(format, args...), sentinel)
}

// Supported reports whether k holds a key of a type this module can use. An
// entry of a JWK Set whose kty or crv is not supported, or which failed its
// checks, is kept in the set but is not supported; [JWK.Err] says why. Keys
// from [ParseKey], [ParseSet] and [NewJWK] are checked; a JWK built by hand
// is only checked when it is marshalled or used.
func (k *JWK) Supported() bool {
	return k != nil && k.ext.err == nil && keyTypeOf(k.Key) != ""
}

// Err returns nil for a supported key, and otherwise why k is unusable:
// for an entry of a JWK Set, the error that [ParseKey] would have returned
// for it.
func (k *JWK) Err() error {
	switch {
	case k == nil:
		return jwkErrorf(ErrInvalidKey, "nil key")
	case k.ext.err != nil:
		return k.ext.err
	case k.Key == nil:
		return jwkErrorf(ErrInvalidKey, "no key")
	case keyTypeOf(k.Key) == "":
		return jwkErrorf(ErrUnsupportedAlgorithm, "a JWK cannot hold %s", jwa.DescribeKey(k.Key))
	}
	return nil
}

// KeyType returns the key's "kty" (RFC 7517 §4.1): "oct", "RSA", "EC",
// "OKP" or "AKP", or, for an unusable entry of a JWK Set, the kty it was read with.
func (k *JWK) KeyType() string {
	if k == nil {
		return ""
	}
	if t := keyTypeOf(k.Key); t != "" {
		return t
	}
	return k.ext.kty
}

// Curve returns the key's "crv" (RFC 7518 §6.2.1.1, RFC 8812 §3.1, RFC 8037 §2) for EC and
// OKP keys, and "" for other keys.
func (k *JWK) Curve() string {
	if k == nil {
		return ""
	}
	switch key := k.Key.(type) {
	case *ecdsa.PublicKey:
		return ecCurveName(key.Curve)
	case *ecdsa.PrivateKey:
		return ecCurveName(key.Curve)
	case *jwa.Secp256k1PublicKey, *jwa.Secp256k1PrivateKey:
		return CurveSecp256k1
	case ed25519.PublicKey, ed25519.PrivateKey:
		return CurveEd25519
	case *ecdh.PublicKey:
		if key.Curve() == ecdh.X25519() {
			return CurveX25519
		}
	case *ecdh.PrivateKey:
		if key.Curve() == ecdh.X25519() {
			return CurveX25519
		}
	}
	if k.Key == nil {
		return k.ext.crv
	}
	return ""
}

// IsPrivate reports whether k holds secret material: a private key, or a
// symmetric ("oct") key.
func (k *JWK) IsPrivate() bool {
	if k == nil {
		return false
	}
	switch k.Key.(type) {
	case []byte, *rsa.PrivateKey, *ecdsa.PrivateKey, ed25519.PrivateKey, *ecdh.PrivateKey, *jwa.Secp256k1PrivateKey:
		return true
	}
	return akpIsPrivate(k.Key)
}

// IsSymmetric reports whether k is a symmetric ("oct") key.
func (k *JWK) IsSymmetric() bool {
	if k == nil {
		return false
	}
	_, ok := k.Key.([]byte)
	return ok
}

// privateMembers are the JWK members that carry secrets (RFC 7518 §6.2.2,
// §6.3.2, §6.4, RFC 8037 §2, RFC 9964 §4).
var privateMembers = []string{"d", "p", "q", "dp", "dq", "qi", "oth", "k", "r", "t", "priv"}

// Public returns the public JWK of k (RFC 7517 §4): the same key without
// any private member, with the same kid, use, alg, certificates and unknown
// members (except unknown members named like private ones). Private key
// operations in key_ops become their public counterparts (sign → verify,
// decrypt → encrypt, unwrapKey → wrapKey; deriveKey and deriveBits, which
// need the private key, are dropped). Public returns nil for a symmetric key
// and for an unsupported entry, which have no public form.
func (k *JWK) Public() *JWK {
	if !k.Supported() || k.IsSymmetric() {
		return nil
	}
	pub := &JWK{
		Key:                         publicKeyOf(k.Key),
		KeyID:                       k.KeyID,
		Use:                         k.Use,
		Algorithm:                   k.Algorithm,
		Certificates:                slices.Clone(k.Certificates),
		CertificateThumbprintSHA1:   slices.Clone(k.CertificateThumbprintSHA1),
		CertificateThumbprintSHA256: slices.Clone(k.CertificateThumbprintSHA256),
	}
	if k.KeyOps != nil {
		pub.KeyOps = []KeyOp{}
		for _, op := range k.KeyOps {
			switch op {
			case OpSign:
				op = OpVerify
			case OpDecrypt:
				op = OpEncrypt
			case OpUnwrapKey:
				op = OpWrapKey
			case OpDeriveKey, OpDeriveBits:
				continue
			}
			if !slices.Contains(pub.KeyOps, op) {
				pub.KeyOps = append(pub.KeyOps, op)
			}
		}
	}
	for _, m := range k.ext.extra {
		if !slices.Contains(privateMembers, m.name) {
			pub.ext.extra = append(pub.ext.extra, m)
		}
	}
	return pub
}

// Permits returns nil if k may be used for operation op with algorithm alg,
// as its own members declare (RFC 7517 §4.2-4.4): its "alg", if present,
// must be alg; its "use", if present, must be "sig" for sign and verify and
// "enc" for the other operations; its "key_ops", if present, must list op.
// Otherwise the error wraps [ErrAlgorithmNotAllowed]. An unusable key is
// refused with its [JWK.Err].
func (k *JWK) Permits(alg string, op KeyOp) error {
	if err := k.Err(); err != nil {
		return err
	}
	if k.permits(alg, op) {
		return nil
	}
	use := opUse(op)
	switch {
	case use == "":
		return fmt.Errorf("jose: unknown key operation %s: %w", untrusted.Quote(op), ErrAlgorithmNotAllowed)
	case k.Algorithm != "" && k.Algorithm != alg:
		return fmt.Errorf("jose: %s is for alg %s, not %s: %w", k.describe(), untrusted.Quote(k.Algorithm), untrusted.Quote(alg), ErrAlgorithmNotAllowed)
	case k.Use != "" && k.Use != use:
		return fmt.Errorf("jose: %s has use %s, not usable to %s: %w", k.describe(), untrusted.Quote(k.Use), op, ErrAlgorithmNotAllowed)
	}
	return fmt.Errorf("jose: %s does not list %s in key_ops: %w", k.describe(), untrusted.Quote(op), ErrAlgorithmNotAllowed)
}

// permits is [JWK.Permits] for a supported k, as a boolean that costs no
// allocation: the one statement of what "alg", "use" and "key_ops" allow.
func (k *JWK) permits(alg string, op KeyOp) bool {
	use := opUse(op)
	return use != "" &&
		(k.Algorithm == "" || k.Algorithm == alg) &&
		(k.Use == "" || k.Use == use) &&
		(k.KeyOps == nil || slices.Contains(k.KeyOps, op))
}

// opUse returns the "use" (RFC 7517 §4.2) that op belongs to, or "" for an
// unknown operation.
func opUse(op KeyOp) string {
	switch op {
	case OpSign, OpVerify:
		return UseSignature
	case OpEncrypt, OpDecrypt, OpWrapKey, OpUnwrapKey, OpDeriveKey, OpDeriveBits:
		return UseEncryption
	}
	return ""
}

// describe names k in error messages: by kid if it has one.
func (k *JWK) describe() string {
	if k.KeyID != "" {
		return "key " + untrusted.Quote(k.KeyID)
	}
	return k.KeyType() + " key"
}
