package jose

import (
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"fmt"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose/jwa"
)

// Bounds on generated keys.
const (
	// MinRSABits is the smallest RSA modulus [GenerateRSA] makes
	// (RFC 7518 §3.3, §4.2, §4.3 require 2048 bits).
	MinRSABits = 2048
	// MinOctBits is the smallest symmetric key [GenerateOct] makes.
	MinOctBits = 128
	// MaxOctBits is the largest symmetric key [GenerateOct] makes.
	MaxOctBits = 8192
)

// GenerateParams describes a key for [GenerateKey].
type GenerateParams struct {
	KeyType string // "oct", "RSA", "EC", "OKP" or "AKP"
	Bits    int    // size of an oct or RSA key, in bits
	Curve   string // curve of an EC or OKP key: "P-256", "P-384", "P-521", "secp256k1", "Ed25519" or "X25519"

	// KeyID is the kid of the new key; if empty, it is the key's RFC 7638
	// SHA-256 thumbprint, base64url-encoded.
	KeyID     string
	Use       string  // "use", if not empty
	KeyOps    []KeyOp // "key_ops", if not nil
	Algorithm string  // "alg", if not empty; for AKP, required: the key's algorithm ("ML-DSA-44")
}

// GenerateKey generates a new private (or, for oct, secret) key as p
// describes, from crypto/rand. See [GenerateOct], [GenerateRSA],
// [GenerateEC] and [GenerateOKP] for the sizes and curves accepted.
func GenerateKey(p GenerateParams) (*JWK, error) {
	var key any
	var err error
	switch p.KeyType {
	case KeyTypeOct:
		key, err = generateOct(p.Bits)
	case KeyTypeRSA:
		key, err = generateRSA(p.Bits)
	case KeyTypeEC:
		key, err = generateEC(p.Curve)
	case KeyTypeOKP:
		key, err = generateOKP(p.Curve)
	case KeyTypeAKP:
		key, err = generateAKP(p.Algorithm)
	default:
		return nil, keyErrorf(ErrUnsupportedAlgorithm, "generate: key type %s", untrusted.Quote(p.KeyType))
	}
	if err != nil {
		return nil, err
	}
	k := &JWK{Key: key, KeyID: p.KeyID, Use: p.Use, Algorithm: p.Algorithm}
	if p.KeyOps != nil {
		k.KeyOps = append([]KeyOp{}, p.KeyOps...)
	}
	if k.KeyID == "" {
		t, err := k.Thumbprint(crypto.SHA256)
		if err != nil {
			return nil, err
		}
		k.KeyID = Base64URLEncode(t)
	}
	return k, nil
}

// GenerateOct generates a random symmetric key of bits bits (RFC 7518
// §6.4), a multiple of 8 from [MinOctBits] to [MaxOctBits]. Its kid is its
// SHA-256 thumbprint. An HMAC key should be at least as long as the hash
// output (RFC 7518 §3.2): 256 bits for HS256, 384 for HS384, 512 for HS512.
func GenerateOct(bits int) (*JWK, error) {
	return GenerateKey(GenerateParams{KeyType: KeyTypeOct, Bits: bits})
}

// GenerateRSA generates an RSA private key with a modulus of bits bits,
// from [MinRSABits] to [MaxRSAModulusBits] (RFC 7518 §6.3), and public
// exponent 65537. Its kid is its SHA-256 thumbprint.
func GenerateRSA(bits int) (*JWK, error) {
	return GenerateKey(GenerateParams{KeyType: KeyTypeRSA, Bits: bits})
}

// GenerateEC generates an EC private key on crv: "P-256", "P-384" or
// "P-521" (RFC 7518 §6.2), or "secp256k1" (RFC 8812 §3.1). Its kid is its SHA-256 thumbprint.
func GenerateEC(crv string) (*JWK, error) {
	return GenerateKey(GenerateParams{KeyType: KeyTypeEC, Curve: crv})
}

// GenerateOKP generates an OKP private key on crv: "Ed25519" or "X25519"
// (RFC 8037 §2). Its kid is its SHA-256 thumbprint.
func GenerateOKP(crv string) (*JWK, error) {
	return GenerateKey(GenerateParams{KeyType: KeyTypeOKP, Curve: crv})
}

func generateOct(bits int) ([]byte, error) {
	if bits < MinOctBits || bits > MaxOctBits || bits%8 != 0 {
		return nil, keyErrorf(ErrInvalidKey, "generate: oct key of %d bits: want a multiple of 8 from %d to %d", bits, MinOctBits, MaxOctBits)
	}
	k := make([]byte, bits/8)
	rand.Read(k) // never fails (crypto/rand)
	return k, nil
}

func generateRSA(bits int) (*rsa.PrivateKey, error) {
	if bits < MinRSABits || bits > MaxRSAModulusBits {
		return nil, keyErrorf(ErrInvalidKey, "generate: RSA key of %d bits: want %d to %d", bits, MinRSABits, MaxRSAModulusBits)
	}
	key, err := rsa.GenerateKey(rand.Reader, bits)
	if err != nil {
		return nil, fmt.Errorf("jose: generate: %w", err)
	}
	return key, nil
}

func generateEC(crv string) (any, error) {
	if crv == CurveSecp256k1 {
		key, err := jwa.GenerateSecp256k1Key()
		if err != nil {
			return nil, fmt.Errorf("jose: generate: %w", err)
		}
		return key, nil
	}
	curve, _ := ecCurve(crv)
	if curve == nil {
		return nil, keyErrorf(ErrUnsupportedAlgorithm, "generate: EC curve %s", untrusted.Quote(crv))
	}
	key, err := ecdsa.GenerateKey(curve, rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("jose: generate: %w", err)
	}
	return key, nil
}

func generateOKP(crv string) (any, error) {
	switch crv {
	case CurveEd25519:
		_, key, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, fmt.Errorf("jose: generate: %w", err)
		}
		return key, nil
	case CurveX25519:
		key, err := ecdh.X25519().GenerateKey(rand.Reader)
		if err != nil {
			return nil, fmt.Errorf("jose: generate: %w", err)
		}
		return key, nil
	}
	return nil, keyErrorf(ErrUnsupportedAlgorithm, "generate: OKP curve %s", untrusted.Quote(crv))
}

// GenerateAKP generates an Algorithm Key Pair (RFC 9964 §4) for alg:
// "ML-DSA-44", "ML-DSA-65" or "ML-DSA-87", which need Go 1.27 or later
// (before, the error wraps [ErrUnsupportedAlgorithm]). The JWK's alg is set
// to alg, as RFC 9964 requires; its kid is its SHA-256 thumbprint.
func GenerateAKP(alg string) (*JWK, error) {
	return GenerateKey(GenerateParams{KeyType: KeyTypeAKP, Algorithm: alg})
}
