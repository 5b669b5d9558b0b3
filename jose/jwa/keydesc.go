package jwa

import (
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"fmt"
	"reflect"
	"strconv"

	"github.com/josebench/josebench/jose/internal/keytext"
)

// This file writes the key refusals of jwa, jws, jwe and jose in a user's
// words: what a key is ([DescribeKey]) and what an algorithm needs
// ([SignatureAlgorithm.KeyNeeds], [KeyAlgorithm.KeyNeeds],
// [ContentEncryption.KeyNeeds]), rather than Go types. Each refusal of a key
// for its algorithm says both, in the sentence of jose/internal/keytext:
// "the key is a P-256 ECDSA public key; ES384 needs a P-384 ECDSA key".

// DescribeKey says what key is, in the words a refusal gives it: its kind
// and, where it has them, its curve, size or parameter set, and which half
// of a key pair it is: "a 32-byte secret", "a 2048-bit RSA private key", "a
// P-256 ECDSA public key", "an X25519 ECDH private key", "an Ed25519 public
// key", "an ML-DSA-65 private key" (Go 1.27 builds). A key held by a device
// (a [crypto.Signer], a [crypto.Decrypter], an [ecdh.KeyExchanger]) is
// named with its Go type and the public key it holds; a value of a type jwa
// does not know, with its Go type only. It is for error texts, which
// callers should not parse.
func DescribeKey(key any) string {
	switch k := key.(type) {
	case nil:
		return "no key"
	case []byte:
		if len(k) == 0 {
			return "an empty secret"
		}
		return fmt.Sprintf("a %d-byte secret", len(k))
	case string:
		return "a string (a secret or password is a []byte)"
	case *rsa.PrivateKey:
		if k == nil || k.N == nil {
			return "an empty RSA private key"
		}
		return fmt.Sprintf("a %d-bit RSA private key", k.N.BitLen())
	case *rsa.PublicKey:
		if k == nil || k.N == nil {
			return "an empty RSA public key"
		}
		return fmt.Sprintf("a %d-bit RSA public key", k.N.BitLen())
	case *ecdsa.PrivateKey:
		if k == nil {
			return "an empty ECDSA private key"
		}
		return ecdsaDescribe(k.Curve, "private")
	case *ecdsa.PublicKey:
		if k == nil {
			return "an empty ECDSA public key"
		}
		return ecdsaDescribe(k.Curve, "public")
	case *ecdh.PrivateKey:
		if k == nil {
			return "an empty ECDH private key"
		}
		return ecdhDescribe(k.Curve(), "private")
	case *ecdh.PublicKey:
		if k == nil {
			return "an empty ECDH public key"
		}
		return ecdhDescribe(k.Curve(), "public")
	case ed25519.PrivateKey:
		if len(k) != ed25519.PrivateKeySize {
			return fmt.Sprintf("an Ed25519 private key of %d bytes, not %d", len(k), ed25519.PrivateKeySize)
		}
		return "an Ed25519 private key"
	case *ed25519.PrivateKey:
		if k == nil {
			return "an empty Ed25519 private key"
		}
		return DescribeKey(*k)
	case ed25519.PublicKey:
		if len(k) != ed25519.PublicKeySize {
			return fmt.Sprintf("an Ed25519 public key of %d bytes, not %d", len(k), ed25519.PublicKeySize)
		}
		return "an Ed25519 public key"
	case *Secp256k1PrivateKey:
		if k == nil {
			return "an empty secp256k1 private key"
		}
		return "a secp256k1 ECDSA private key"
	case *Secp256k1PublicKey:
		if k == nil {
			return "an empty secp256k1 public key"
		}
		return "a secp256k1 ECDSA public key"
	}
	if d, ok := mldsaDescribe(key); ok {
		return d
	}
	// A key held elsewhere, named by its own type and the public key it
	// holds.
	// A refusal asks the device for its public key only if key is not a
	// nil pointer (whose methods would dereference it), and survives a
	// device whose Public panics: describing a key never fails.
	var pub any
	var iface string
	var public func() any
	switch k := key.(type) {
	case ecdh.KeyExchanger:
		iface = "ecdh.KeyExchanger"
		public = func() any {
			if p := k.PublicKey(); p != nil {
				return p
			}
			return nil
		}
	case crypto.Signer:
		iface, public = "crypto.Signer", func() any { return k.Public() }
	case crypto.Decrypter:
		iface, public = "crypto.Decrypter", func() any { return k.Public() }
	case interface{ Public() crypto.PublicKey }:
		public = func() any { return k.Public() }
	default:
		return fmt.Sprintf("a key of Go type %T, which jose does not know", key)
	}
	what := fmt.Sprintf("a %T", key)
	if iface != "" {
		what = fmt.Sprintf("a %s (%T)", iface, key)
	}
	if v := reflect.ValueOf(key); v.Kind() == reflect.Pointer && v.IsNil() {
		return fmt.Sprintf("a nil %T", key)
	}
	pub, ok := devicePublic(public)
	if !ok {
		return what + " whose public key could not be read (it panicked)"
	}
	if pub == nil || sigNilKey(pub) {
		return what + " holding no public key"
	}
	if _, ok := pub.(interface{ Public() crypto.PublicKey }); ok && !sigIsPublic(pub) {
		// A public key that is itself a device: said once, not nested.
		return fmt.Sprintf("%s holding a public key of Go type %T", what, pub)
	}
	return what + " holding " + DescribeKey(pub)
}

// devicePublic returns public(), or false if it panics: the key of a
// device given to a refusal is described, never a cause of a panic.
func devicePublic(public func() any) (pub any, ok bool) {
	defer func() {
		if recover() != nil {
			pub, ok = nil, false
		}
	}()
	return public(), true
}

// ecdsaDescribe describes an ECDSA key of the half half on c.
func ecdsaDescribe(c elliptic.Curve, half string) string {
	if c == nil || c.Params() == nil || c.Params().Name == "" {
		return "an ECDSA " + half + " key on " + ecdsaCurveName(c)
	}
	return "a " + c.Params().Name + " ECDSA " + half + " key"
}

// ecdhDescribe describes an ECDH key of the half half on c: "an X25519
// ECDH private key", or "an ECDH public key on no curve" for a zero
// ecdh.PublicKey.
func ecdhDescribe(c ecdh.Curve, half string) string {
	if c == nil {
		return "an ECDH " + half + " key on no curve"
	}
	return article(ecdhCurveName(c)) + " ECDH " + half + " key"
}

// ecdhCurveName names c: "P-256", "P-384", "P-521" or "X25519".
func ecdhCurveName(c ecdh.Curve) string {
	if c == nil {
		return "no curve"
	}
	return fmt.Sprint(c) // the curves of crypto/ecdh are Stringers
}

// article prefixes word with "a" or "an" as it is read ("an X25519", "a
// P-256").
func article(word string) string {
	if word == "" {
		return "a"
	}
	switch word[0] {
	case 'A', 'E', 'I', 'O', 'X', 'a', 'e', 'i', 'o', 'u':
		return "an " + word
	}
	return "a " + word
}

// KeyNeeds says, for refusals, what key a needs, in words that follow "a
// needs": "a secret of at least 32 bytes" for HS256 (RFC 7518 §3.2), "an RSA
// key of at least 2048 bits" for RS* and PS* (§3.3, §3.5), "a P-256 ECDSA
// key" for ES256 and its curve for ES384 and ES512 (§3.4), "a secp256k1
// ECDSA key" for ES256K (RFC 8812 §3.2), "an Ed25519 key" for EdDSA and
// Ed25519 (RFC 8037 §3.1), "an ML-DSA-65 key" and the like for ML-DSA
// (RFC 9964 §2); "a key of its own type" for an unknown algorithm. It is
// the key [SignatureAlgorithm.FitsKey] accepts, with the size
// [NewSigner] and [NewVerifier] also ask.
func (a SignatureAlgorithm) KeyNeeds() string {
	switch a.KeyType() {
	case "oct":
		return "a secret of at least " + strconv.Itoa(a.Hash().Size()) + " bytes"
	case "RSA":
		return "an RSA key of at least " + strconv.Itoa(rsaSigMinBits) + " bits"
	case "EC":
		return "a " + a.Curve() + " ECDSA key"
	case "OKP":
		return "an Ed25519 key"
	case "AKP":
		return "an " + string(a) + " key"
	}
	return "a key of its own type"
}

// KeyNeeds says, for refusals, what key a needs, in words that follow "a
// needs": "a 16-byte secret" for A128KW and A128GCMKW and their sizes for
// the others (RFC 7518 §4.4, §4.7), "a secret the size of the content
// encryption's key" for dir (§4.5), "a password ([]byte)" for PBES2
// (§4.8), "an RSA key of at least 2048 bits" for RSA1_5 and RSA-OAEP*
// (§4.2, §4.3), "a P-256, P-384, P-521 or X25519 key (ECDH or ECDSA)" for
// the ECDH-ES family (§4.6, RFC 8037 §3.2), the KEM's curve for HPKE; "a
// key of its own type" for an unknown algorithm. It is the key
// [KeyAlgorithm.FitsKey] accepts, with the size [NewKeyEncrypter] and
// [NewKeyDecrypter] also ask.
func (a KeyAlgorithm) KeyNeeds() string {
	switch {
	case a.IsPBES2():
		return "a password ([]byte)"
	case a.IsAESKW(), a.IsGCMKW():
		return "a " + strconv.Itoa(a.KeyWrapSize()) + "-byte secret"
	case a == Direct:
		return "a secret the size of the content encryption's key"
	case a.IsRSA():
		return "an RSA key of at least " + strconv.Itoa(rsaMinBits) + " bits"
	case a.IsECDH():
		return "a P-256, P-384, P-521 or X25519 key (ECDH or ECDSA)"
	}
	if c := hpkeCurve(a); c != nil {
		if c == ecdh.X25519() {
			return "an X25519 key (ECDH)"
		}
		return article(ecdhCurveName(c)) + " key (ECDH or ECDSA)"
	}
	return "a key of its own type"
}

// KeyNeeds says, for refusals, what key c needs as the key of dir (RFC 7518
// §4.5) or as a CEK: "a 32-byte secret" for A128CBC-HS256 and its size for
// the others (§5.1); "a key of its own type" for an unknown encryption.
func (c ContentEncryption) KeyNeeds() string {
	if n := c.KeySize(); n > 0 {
		return "a " + strconv.Itoa(n) + "-byte secret"
	}
	return "a key of its own type"
}

// keyError is the refusal of key for alg, which needs needs, wrapping
// [ErrInvalidKey].
func keyError(alg, needs string, key any) error {
	return fmt.Errorf("jwa: %s: %w", keytext.One(DescribeKey(key), alg, needs), ErrInvalidKey)
}

// privateKeyError is the refusal of the public key key by alg, which needs
// the private key to do what (sign, decrypt), wrapping [ErrInvalidKey].
func privateKeyError(alg, what string, key any) error {
	return keyError(alg, keytext.PrivateKeyNeeded(what), key)
}
