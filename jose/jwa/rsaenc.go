package jwa

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
	"hash"

	"github.com/josebench/josebench/jose/internal/keytext"
)

// rsaMinBits is the smallest RSA modulus accepted for key encryption
// (RFC 7518 §4.2 and §4.3: "a key of size 2048 bits or larger MUST be
// used").
const rsaMinBits = 2048

func rsaKeyCheck(alg KeyAlgorithm, pub *rsa.PublicKey) error {
	if pub == nil || pub.N == nil {
		return fmt.Errorf("jwa: %s: %w", keytext.One("an RSA key without a modulus", string(alg), alg.KeyNeeds()), ErrInvalidKey)
	}
	if bits := pub.N.BitLen(); bits < rsaMinBits {
		return fmt.Errorf("jwa: %s needs an RSA key of at least %d bits, not %d: %w", alg, rsaMinBits, bits, ErrInvalidKey)
	}
	if pub.E < 3 || pub.E&1 == 0 { // as rsaSigCheckPublic; crypto/rsa refuses it only when used
		return fmt.Errorf("jwa: %s with an RSA key of public exponent %d: %w", alg, pub.E, ErrInvalidKey)
	}
	return nil
}

// rsaOAEPHash returns the OAEP hash of alg, which MGF1 uses too: SHA-1 for
// RSA-OAEP (RFC 7518 §4.3, "default parameters"), SHA-256 for RSA-OAEP-256,
// SHA-384 and SHA-512 for RSA-OAEP-384 and RSA-OAEP-512 (IANA JOSE
// registry, after the W3C Web Cryptography API).
func rsaOAEPHash(alg KeyAlgorithm) hash.Hash {
	switch alg {
	case RSAOAEP:
		return sha1.New()
	case RSAOAEP384:
		return sha512.New384()
	case RSAOAEP512:
		return sha512.New()
	}
	return sha256.New()
}

// rsaEncrypter is RSA1_5 and RSA-OAEP* key encryption (RFC 7518 §4.2,
// §4.3; RSA-OAEP-384 and RSA-OAEP-512 alike with their hashes).
type rsaEncrypter struct {
	alg KeyAlgorithm
	pub *rsa.PublicKey
}

func newRSAEncrypter(alg KeyAlgorithm, key any) (*rsaEncrypter, error) {
	var pub *rsa.PublicKey
	switch k := key.(type) {
	case *rsa.PublicKey:
		pub = k
	case *rsa.PrivateKey:
		if k != nil {
			pub = &k.PublicKey
		}
	default:
		return nil, keyError(string(alg), alg.KeyNeeds(), key)
	}
	if err := rsaKeyCheck(alg, pub); err != nil {
		return nil, err
	}
	return &rsaEncrypter{alg: alg, pub: pub}, nil
}

// Algorithm implements [KeyEncrypter].
func (e *rsaEncrypter) Algorithm() KeyAlgorithm { return e.alg }

// EncryptKey implements [KeyEncrypter] (RFC 7518 §4.2, §4.3): the CEK
// (random if cek is nil) is encrypted with RSAES-PKCS1-v1_5 or RSAES-OAEP.
// params is not used.
func (e *rsaEncrypter) EncryptKey(cek []byte, enc ContentEncryption, _ *KeyParams) ([]byte, []byte, error) {
	ks, err := cekSize(enc, cek)
	if err != nil {
		return nil, nil, err
	}
	cekOut := fillCEK(make([]byte, ks), cek)
	var ek []byte
	if e.alg == RSA1_5 {
		ek, err = rsa.EncryptPKCS1v15(rand.Reader, e.pub, cekOut)
	} else {
		ek, err = rsa.EncryptOAEP(rsaOAEPHash(e.alg), rand.Reader, e.pub, cekOut, nil)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("jwa: %s: %w", e.alg, err)
	}
	return cekOut, ek, nil
}

// rsaDecrypter is RSA1_5 and RSA-OAEP* key decryption (RFC 7518 §4.2,
// §4.3; RSA-OAEP-384 and RSA-OAEP-512 alike with their hashes).
type rsaDecrypter struct {
	alg  KeyAlgorithm
	priv *rsa.PrivateKey
	dec  crypto.Decrypter // an opaque key (kms.go), used when priv is nil
	size int              // dec's modulus length in bytes
}

func newRSADecrypter(alg KeyAlgorithm, key any) (*rsaDecrypter, error) {
	priv, ok := key.(*rsa.PrivateKey)
	if !ok {
		if dec, ok := key.(crypto.Decrypter); ok {
			return newRSAOpaqueDecrypter(alg, dec)
		}
		if sigIsPublic(key) && alg.FitsKey(key) {
			return nil, privateKeyError(string(alg), "decrypt", key)
		}
		return nil, keyError(string(alg), alg.KeyNeeds(), key)
	}
	if priv == nil {
		return nil, fmt.Errorf("jwa: %s: nil RSA key: %w", alg, ErrInvalidKey)
	}
	if err := rsaKeyCheck(alg, &priv.PublicKey); err != nil {
		return nil, err
	}
	return &rsaDecrypter{alg: alg, priv: priv}, nil
}

// Algorithm implements [KeyDecrypter].
func (d *rsaDecrypter) Algorithm() KeyAlgorithm { return d.alg }

// DecryptKey implements [KeyDecrypter] (RFC 7518 §4.2, §4.3).
//
// For RSA1_5 it applies the countermeasure of RFC 7516 §11.5 and RFC 3218
// §2.3.2: a random CEK of enc's size is drawn first, and replaced, in
// constant time, by the decrypted key only if the padding is valid and the
// key has exactly that size. Any padding or length failure thus returns the
// random CEK and no error, and shows only as the later content
// authentication failure, with no timing difference.
//
// For RSA-OAEP, RSA-OAEP-256, RSA-OAEP-384 and RSA-OAEP-512 any failure, including a decrypted key that
// is not enc's size, is [ErrDecryption].
func (d *rsaDecrypter) DecryptKey(encryptedKey []byte, enc ContentEncryption, _ *KeyParams) ([]byte, error) {
	ks := enc.KeySize()
	if ks == 0 {
		return nil, unsupportedEnc(enc)
	}
	if d.priv == nil {
		return d.decryptOpaque(encryptedKey, ks)
	}
	if d.alg == RSA1_5 {
		cek := make([]byte, ks)
		rand.Read(cek)
		// The only errors are a ciphertext of the wrong length or above
		// the modulus: public facts about the input. They too leave the
		// random CEK in place, so every bad input looks alike.
		_ = rsa.DecryptPKCS1v15SessionKey(nil, d.priv, encryptedKey, cek)
		return cek, nil
	}
	cek, err := rsa.DecryptOAEP(rsaOAEPHash(d.alg), nil, d.priv, encryptedKey, nil)
	if err != nil || len(cek) != ks {
		clear(cek)
		return nil, ErrDecryption
	}
	return cek, nil
}
