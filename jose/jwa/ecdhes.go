package jwa

import (
	"crypto/aes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
)

// ecdhCurveSupported reports whether c is one of the curves of RFC 7518
// §6.2.1.1 (P-256, P-384, P-521) or X25519 (RFC 8037 §2).
func ecdhCurveSupported(c ecdh.Curve) bool {
	return c == ecdh.P256() || c == ecdh.P384() || c == ecdh.P521() || c == ecdh.X25519()
}

// ecdhEncrypter is the sender's side of ECDH-ES and ECDH-ES+AxxxKW
// (RFC 7518 §4.6): a fresh ephemeral key per message, agreed with the
// recipient's static public key.
type ecdhEncrypter struct {
	alg KeyAlgorithm
	pub *ecdh.PublicKey
}

func newECDHEncrypter(alg KeyAlgorithm, key any) (*ecdhEncrypter, error) {
	pub, err := recipientPublicKey(alg, key)
	if err != nil {
		return nil, err
	}
	if pub == nil || !ecdhCurveSupported(pub.Curve()) {
		return nil, fmt.Errorf("jwa: %s needs a key on P-256, P-384, P-521 or X25519: %w", alg, ErrInvalidKey)
	}
	return &ecdhEncrypter{alg: alg, pub: pub}, nil
}

// recipientPublicKey returns the ECDH public key of the recipient key given
// to an ECDH-ES or HPKE encrypter: an *ecdh or *ecdsa key, public or
// private, or an opaque private key ([ecdh.KeyExchanger], kms.go), of which
// the public half is used. It returns nil for a typed nil key; the caller
// checks the curve against its algorithm.
func recipientPublicKey(alg KeyAlgorithm, key any) (*ecdh.PublicKey, error) {
	var pub *ecdh.PublicKey
	var err error
	switch k := key.(type) {
	case *ecdh.PublicKey:
		pub = k
	case *ecdh.PrivateKey:
		if k != nil {
			pub = k.PublicKey()
		}
	case *ecdsa.PublicKey:
		if k != nil {
			pub, err = k.ECDH()
		}
	case *ecdsa.PrivateKey:
		if k != nil {
			pub, err = k.PublicKey.ECDH()
		}
	case ecdh.KeyExchanger: // an opaque private key (kms.go), for its public key
		if _, err = ecdhOpaqueKey(alg, k); err == nil {
			pub = k.PublicKey()
		}
	default:
		return nil, fmt.Errorf("jwa: %s needs an *ecdh.PublicKey or *ecdsa.PublicKey, not %T: %w", alg, key, ErrInvalidKey)
	}
	if err != nil {
		return nil, fmt.Errorf("jwa: %s: %v: %w", alg, err, ErrInvalidKey)
	}
	return pub, nil
}

// Algorithm implements [KeyEncrypter].
func (e *ecdhEncrypter) Algorithm() KeyAlgorithm { return e.alg }

// EncryptKey implements [KeyEncrypter] (RFC 7518 §4.6.2): it generates an
// ephemeral key on the recipient's curve, stores its public part in
// params.EPK, and derives with [ConcatKDF] from the shared secret, apu and
// apv either the CEK itself (ECDH-ES; a given cek is refused with
// [ErrInvalidParameter]) or the key that wraps the CEK with AES Key Wrap
// (ECDH-ES+AxxxKW). params must not be nil.
func (e *ecdhEncrypter) EncryptKey(cek []byte, enc ContentEncryption, params *KeyParams) ([]byte, []byte, error) {
	eph, err := e.pub.Curve().GenerateKey(rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("jwa: generating an ephemeral key: %w", err)
	}
	return e.encryptKey(eph, cek, enc, params)
}

// encryptKey is EncryptKey with a given ephemeral key, for test vectors.
func (e *ecdhEncrypter) encryptKey(eph *ecdh.PrivateKey, cek []byte, enc ContentEncryption, params *KeyParams) ([]byte, []byte, error) {
	if params == nil {
		panic("jwa: ECDH-ES EncryptKey needs non-nil KeyParams to return the epk")
	}
	ks, err := cekSize(enc, cek)
	if err != nil {
		return nil, nil, err
	}
	if e.alg == ECDHES && cek != nil {
		return nil, nil, fmt.Errorf("jwa: ECDH-ES determines the CEK; it cannot encrypt a given one: %w", ErrInvalidParameter)
	}
	z, err := ecdhAgree(eph, e.pub)
	if err != nil {
		return nil, nil, fmt.Errorf("jwa: %s: %v: %w", e.alg, err, ErrInvalidKey)
	}
	defer clear(z)
	params.EPK = eph.PublicKey()
	if e.alg == ECDHES {
		return ConcatKDF(make([]byte, 0, ks), z, string(enc), params.APU, params.APV, ks), nil, nil
	}
	var kekBuf [32]byte
	kek := ConcatKDF(kekBuf[:0], z, string(e.alg), params.APU, params.APV, e.alg.KeyWrapSize())
	block, err := aes.NewCipher(kek)
	clear(kekBuf[:])
	if err != nil {
		return nil, nil, err
	}
	return kwEncrypt(block, cek, enc)
}

// ecdhDecrypter is the recipient's side of ECDH-ES and ECDH-ES+AxxxKW
// (RFC 7518 §4.6).
type ecdhDecrypter struct {
	alg  KeyAlgorithm
	priv ecdh.KeyExchanger // an *ecdh.PrivateKey, or an opaque key (kms.go)
}

func newECDHDecrypter(alg KeyAlgorithm, key any) (*ecdhDecrypter, error) {
	priv, err := recipientPrivateKey(alg, key)
	if err != nil {
		return nil, err
	}
	if priv == nil || !ecdhCurveSupported(priv.Curve()) {
		return nil, fmt.Errorf("jwa: %s needs a key on P-256, P-384, P-521 or X25519: %w", alg, ErrInvalidKey)
	}
	return &ecdhDecrypter{alg: alg, priv: priv}, nil
}

// recipientPrivateKey returns the private key given to an ECDH-ES or HPKE
// decrypter as an [ecdh.KeyExchanger]: an *ecdh or *ecdsa private key, or an
// opaque key held in a KMS or an HSM (kms.go). It returns nil for a typed nil
// key; the caller checks the curve against its algorithm.
func recipientPrivateKey(alg KeyAlgorithm, key any) (ecdh.KeyExchanger, error) {
	var priv ecdh.KeyExchanger
	var err error
	switch k := key.(type) {
	case *ecdh.PrivateKey:
		if k != nil {
			priv = k
		}
	case *ecdsa.PrivateKey:
		if k != nil {
			priv, err = k.ECDH()
		}
	case ecdh.KeyExchanger:
		priv, err = ecdhOpaqueKey(alg, k)
	default:
		return nil, fmt.Errorf("jwa: %s needs an *ecdh.PrivateKey, *ecdsa.PrivateKey or ecdh.KeyExchanger, not %T: %w", alg, key, ErrInvalidKey)
	}
	if err != nil {
		return nil, fmt.Errorf("jwa: %s: %v: %w", alg, err, ErrInvalidKey)
	}
	return priv, nil
}

// Algorithm implements [KeyDecrypter].
func (d *ecdhDecrypter) Algorithm() KeyAlgorithm { return d.alg }

// DecryptKey implements [KeyDecrypter] (RFC 7518 §4.6.2). params.EPK must
// be present and on the recipient's own curve, and the agreement must not
// yield an all-zero X25519 secret (RFC 8037 §3.2, RFC 7748 §6.1): these are
// refused with [ErrInvalidParameter]. An *ecdh.PublicKey on a NIST curve is
// always a validated point on that curve; [KeyParams] cannot hold another.
// For ECDH-ES the encrypted key must be empty; for ECDH-ES+AxxxKW it must
// unwrap; else [ErrDecryption].
func (d *ecdhDecrypter) DecryptKey(encryptedKey []byte, enc ContentEncryption, params *KeyParams) ([]byte, error) {
	ks := enc.KeySize()
	if ks == 0 {
		return nil, unsupportedEnc(enc)
	}
	if params == nil || params.EPK == nil {
		return nil, fmt.Errorf("jwa: %s needs an epk: %w", d.alg, ErrInvalidParameter)
	}
	if params.EPK.Curve() != d.priv.Curve() {
		return nil, fmt.Errorf("jwa: %s epk is not on the recipient key's curve: %w", d.alg, ErrInvalidParameter)
	}
	if d.alg == ECDHES && len(encryptedKey) != 0 {
		return nil, ErrDecryption
	}
	z, err := ecdhAgree(d.priv, params.EPK)
	if err != nil {
		return nil, fmt.Errorf("jwa: %s: %v: %w", d.alg, err, ErrInvalidParameter)
	}
	defer clear(z)
	if d.alg == ECDHES {
		return ConcatKDF(make([]byte, 0, ks), z, string(enc), params.APU, params.APV, ks), nil
	}
	var kekBuf [32]byte
	kek := ConcatKDF(kekBuf[:0], z, string(d.alg), params.APU, params.APV, d.alg.KeyWrapSize())
	block, err := aes.NewCipher(kek)
	clear(kekBuf[:])
	if err != nil {
		return nil, err
	}
	return kwDecrypt(block, encryptedKey, enc)
}

// ecdhAgree returns the shared secret Z of priv and pub, refusing an
// all-zero result (an X25519 low-order point, RFC 7748 §6.1).
func ecdhAgree(priv ecdh.KeyExchanger, pub *ecdh.PublicKey) ([]byte, error) {
	z, err := priv.ECDH(pub)
	if err != nil {
		return nil, err
	}
	if len(z) != ecdhSecretSize(pub.Curve()) { // an opaque key's answer
		clear(z)
		return nil, errSecretSize
	}
	var acc byte
	for _, b := range z {
		acc |= b
	}
	if subtle.ConstantTimeByteEq(acc, 0) == 1 {
		return nil, errAllZeroSecret
	}
	return z, nil
}

var (
	errAllZeroSecret = errors.New("jwa: all-zero shared secret")
	errSecretSize    = errors.New("jwa: shared secret of the wrong size")
)

// ecdhSecretSize returns the size of the shared secret on c: the
// x-coordinate's size (SEC 1 §3.3.1) or 32 for X25519 (RFC 7748 §6.1).
func ecdhSecretSize(c ecdh.Curve) int {
	switch c {
	case ecdh.P256(), ecdh.X25519():
		return 32
	case ecdh.P384():
		return 48
	case ecdh.P521():
		return 66
	}
	return 0
}
