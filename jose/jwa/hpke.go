package jwa

import (
	"crypto/ecdh"
	"crypto/hpke"
	"fmt"
)

// HPKE Key Encryption algorithms of draft-ietf-jose-hpke-encrypt-20 §6.2
// (an Internet-Draft: the names and the processing may still change when it
// becomes an RFC). HPKE (RFC 9180, in base mode) encrypts the CEK to the
// recipient's public key: the JWE Encrypted Key is the HPKE ciphertext of
// the CEK, the "ek" header parameter carries the HPKE encapsulated secret
// (§4.1), the HPKE info is the Recipient_structure naming "enc" (§6.1), and
// the HPKE aad is empty. Recipient keys are EC (P-256, P-384, P-521) or OKP
// X25519 keys; the X448 algorithms (HPKE-5-KE, HPKE-6-KE) are not
// implemented, as Go has no X448. Integrated Encryption, without "enc", is
// [HPKE0] ....
const (
	HPKE0KE KeyAlgorithm = "HPKE-0-KE" // DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM
	HPKE1KE KeyAlgorithm = "HPKE-1-KE" // DHKEM(P-384, HKDF-SHA384), HKDF-SHA384, AES-256-GCM
	HPKE2KE KeyAlgorithm = "HPKE-2-KE" // DHKEM(P-521, HKDF-SHA512), HKDF-SHA512, AES-256-GCM
	HPKE3KE KeyAlgorithm = "HPKE-3-KE" // DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-128-GCM
	HPKE4KE KeyAlgorithm = "HPKE-4-KE" // DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20Poly1305
	HPKE7KE KeyAlgorithm = "HPKE-7-KE" // DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM
)

// HPKEKeyAlgorithms returns the HPKE Key Encryption algorithms this package
// implements (draft-ietf-jose-hpke-encrypt-20 §6.2), in the draft's order.
// [KeyAlgorithms] does not list them: they are not yet an RFC.
func HPKEKeyAlgorithms() []KeyAlgorithm {
	return []KeyAlgorithm{HPKE0KE, HPKE1KE, HPKE2KE, HPKE3KE, HPKE4KE, HPKE7KE}
}

// IsHPKE reports whether a is an HPKE Key Encryption algorithm
// (draft-ietf-jose-hpke-encrypt-20 §6.2), which reads and writes "ek".
func (a KeyAlgorithm) IsHPKE() bool {
	_, _, _, ok := hpkeSuite(a)
	return ok
}

// hpkeSuite returns the KEM curve, KDF and AEAD of an HPKE algorithm
// (draft-ietf-jose-hpke-encrypt-20 Table 2).
func hpkeSuite(a KeyAlgorithm) (ecdh.Curve, hpke.KDF, hpke.AEAD, bool) {
	switch a {
	case HPKE0KE:
		return ecdh.P256(), hpke.HKDFSHA256(), hpke.AES128GCM(), true
	case HPKE1KE:
		return ecdh.P384(), hpke.HKDFSHA384(), hpke.AES256GCM(), true
	case HPKE2KE:
		return ecdh.P521(), hpke.HKDFSHA512(), hpke.AES256GCM(), true
	case HPKE3KE:
		return ecdh.X25519(), hpke.HKDFSHA256(), hpke.AES128GCM(), true
	case HPKE4KE:
		return ecdh.X25519(), hpke.HKDFSHA256(), hpke.ChaCha20Poly1305(), true
	case HPKE7KE:
		return ecdh.P256(), hpke.HKDFSHA256(), hpke.AES256GCM(), true
	}
	return nil, nil, nil, false
}

// hpkeInfo returns the Recipient_structure of draft-ietf-jose-hpke-encrypt-20
// §6.1 for enc, with empty recipient_extra_info: "JOSE-HPKE rcpt" 0xFF enc
// 0xFF. Those of the registered content encryptions are made once; the
// caller must not modify the result.
func hpkeInfo(enc ContentEncryption) []byte {
	if info, ok := hpkeInfos[enc]; ok {
		return info
	}
	return appendHPKEInfo(nil, enc)
}

func appendHPKEInfo(dst []byte, enc ContentEncryption) []byte {
	dst = append(dst, "JOSE-HPKE rcpt\xff"...)
	dst = append(dst, enc...)
	return append(dst, 0xff)
}

// hpkeInfos is the Recipient_structure of each of ContentEncryptions.
var hpkeInfos = func() map[ContentEncryption][]byte {
	m := make(map[ContentEncryption][]byte)
	for _, enc := range ContentEncryptions() {
		m[enc] = appendHPKEInfo(nil, enc)
	}
	return m
}()

// HPKEMaxEncapsulatedSize is the size in bytes of the largest HPKE
// encapsulated secret of the algorithms this package implements (that of
// DHKEM(P-521), RFC 9180 §7.1): the bound on the "ek" header parameter
// (draft-ietf-jose-hpke-encrypt-20 §4.1) and on the JWE Encrypted Key of
// Integrated Encryption.
const HPKEMaxEncapsulatedSize = 133

// hpkeEncSize returns the size of the encapsulated secret of DHKEM on c:
// the uncompressed point (SEC 1 §2.3.3) or the X25519 public key
// (RFC 9180 §7.1.1).
func hpkeEncSize(c ecdh.Curve) int {
	switch c {
	case ecdh.P256():
		return 65
	case ecdh.P384():
		return 97
	case ecdh.P521():
		return 133
	case ecdh.X25519():
		return 32
	}
	return 0
}

// hpkeTagSize is the tag size of every HPKE AEAD used here.
const hpkeTagSize = 16

// hpkeEncrypter is the sender's side of an HPKE Key Encryption algorithm.
type hpkeEncrypter struct {
	alg  KeyAlgorithm
	pk   hpke.PublicKey
	kdf  hpke.KDF
	aead hpke.AEAD
}

func newHPKEEncrypter(alg KeyAlgorithm, key any) (*hpkeEncrypter, error) {
	curve, kdf, aead, _ := hpkeSuite(alg)
	pub, err := recipientPublicKey(alg, key)
	if err != nil {
		return nil, err
	}
	if pub == nil || pub.Curve() != curve {
		return nil, keyError(string(alg), alg.KeyNeeds(), key)
	}
	pk, err := hpke.NewDHKEMPublicKey(pub)
	if err != nil {
		return nil, fmt.Errorf("jwa: %s: %v: %w", alg, err, ErrInvalidKey)
	}
	return &hpkeEncrypter{alg: alg, pk: pk, kdf: kdf, aead: aead}, nil
}

// Algorithm implements [KeyEncrypter].
func (e *hpkeEncrypter) Algorithm() KeyAlgorithm { return e.alg }

// EncryptKey implements [KeyEncrypter] (draft-ietf-jose-hpke-encrypt-20
// §6): the CEK (random if cek is nil) is the HPKE plaintext, the encrypted
// key the HPKE ciphertext, and params.EK receives the encapsulated secret.
// params must not be nil.
func (e *hpkeEncrypter) EncryptKey(cek []byte, enc ContentEncryption, params *KeyParams) ([]byte, []byte, error) {
	if params == nil {
		panic("jwa: HPKE EncryptKey needs non-nil KeyParams to return the ek")
	}
	ks, err := cekSize(enc, cek)
	if err != nil {
		return nil, nil, err
	}
	cekOut := fillCEK(make([]byte, ks), cek)
	encap, s, err := hpke.NewSender(e.pk, e.kdf, e.aead, hpkeInfo(enc))
	if err != nil {
		return nil, nil, fmt.Errorf("jwa: %s: %w", e.alg, err)
	}
	ct, err := s.Seal(nil, cekOut)
	if err != nil {
		return nil, nil, fmt.Errorf("jwa: %s: %w", e.alg, err)
	}
	params.EK = encap
	return cekOut, ct, nil
}

// hpkeDecrypter is the recipient's side of an HPKE Key Encryption
// algorithm.
type hpkeDecrypter struct {
	alg   KeyAlgorithm
	curve ecdh.Curve
	key   *dhKey          // a local key or a device's (kms.go), checked (dh.go)
	sk    hpke.PrivateKey // key, for crypto/hpke's DHKEM
	kdf   hpke.KDF
	aead  hpke.AEAD
}

func newHPKEDecrypter(alg KeyAlgorithm, key any) (*hpkeDecrypter, error) {
	curve, kdf, aead, _ := hpkeSuite(alg)
	priv, err := recipientPrivateKey(alg, key)
	if err != nil {
		return nil, err
	}
	if priv == nil || priv.Curve() != curve {
		return nil, keyError(string(alg), alg.KeyNeeds(), key)
	}
	sk, err := hpke.NewDHKEMPrivateKey(priv)
	if err != nil {
		return nil, fmt.Errorf("jwa: %s: %v: %w", alg, err, ErrInvalidKey)
	}
	return &hpkeDecrypter{alg: alg, curve: curve, key: priv, sk: sk, kdf: kdf, aead: aead}, nil
}

// Algorithm implements [KeyDecrypter].
func (d *hpkeDecrypter) Algorithm() KeyAlgorithm { return d.alg }

// DecryptKey implements [KeyDecrypter] (draft-ietf-jose-hpke-encrypt-20
// §6). params.EK must be present and of the KEM's encapsulated secret size,
// else [ErrInvalidParameter]; the encrypted key must be enc's key size plus
// the AEAD tag. Both are checked before any arithmetic. The Diffie-Hellman
// output of the decapsulation is checked before any key derivation
// (RFC 9180 §7.1.4, dh.go): a device's error is [ErrKeyDevice]. Every other
// failure (an invalid point, one of small order, a shared secret of the
// wrong size or all zeros, a bad tag) is [ErrDecryption].
func (d *hpkeDecrypter) DecryptKey(encryptedKey []byte, enc ContentEncryption, params *KeyParams) ([]byte, error) {
	ks := enc.KeySize()
	if ks == 0 {
		return nil, unsupportedEnc(enc)
	}
	if params == nil || params.EK == nil {
		return nil, fmt.Errorf("jwa: %s needs an ek: %w", d.alg, ErrInvalidParameter)
	}
	if len(params.EK) != hpkeEncSize(d.curve) {
		return nil, fmt.Errorf("jwa: %s ek of %d bytes, want %d: %w", d.alg, len(params.EK), hpkeEncSize(d.curve), ErrInvalidParameter)
	}
	if len(encryptedKey) != ks+hpkeTagSize {
		return nil, ErrDecryption
	}
	r, err := hpke.NewRecipient(params.EK, d.sk, d.kdf, d.aead, hpkeInfo(enc))
	if err != nil {
		return nil, dhError(d.alg, err)
	}
	cek, err := r.Open(nil, encryptedKey)
	if err != nil || len(cek) != ks {
		clear(cek)
		return nil, ErrDecryption
	}
	return cek, nil
}

var (
	_ KeyEncrypter = (*hpkeEncrypter)(nil)
	_ KeyDecrypter = (*hpkeDecrypter)(nil)
)

// hpkeCurve returns the KEM curve of an HPKE algorithm (Key Encryption or
// Integrated Encryption), and nil for any other algorithm.
func hpkeCurve(a KeyAlgorithm) ecdh.Curve {
	if ke, ok := hpkeIntegratedKE(a); ok {
		a = ke
	}
	c, _, _, _ := hpkeSuite(a)
	return c
}
