package jwa

import (
	"crypto/aes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/rand"
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
		return nil, keyError(string(alg), alg.KeyNeeds(), key)
	}
	return &ecdhEncrypter{alg: alg, pub: pub}, nil
}

// ecdsaPublicIncomplete reports whether k lacks its curve or a coordinate
// of its point: its ECDH method would dereference the nil big.Int.
func ecdsaPublicIncomplete(k *ecdsa.PublicKey) bool {
	return k.Curve == nil || k.X == nil || k.Y == nil
}

// recipientPublicKey returns the ECDH public key of the recipient key given
// to an ECDH-ES or HPKE encrypter: an *ecdh or *ecdsa key, public or
// private, or an opaque private key ([ecdh.KeyExchanger], kms.go), of which
// the public half is used. An X25519 key of small order (RFC 7748 §6.1) is
// refused. It returns nil for a typed nil key; the caller checks the curve
// against its algorithm.
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
		if k != nil && ecdsaPublicIncomplete(k) { // a zero key, or one without a point
			return nil, keyError(string(alg), alg.KeyNeeds(), key)
		}
		if k != nil {
			pub, err = k.ECDH()
		}
	case *ecdsa.PrivateKey:
		if k != nil && ecdsaPublicIncomplete(&k.PublicKey) { // a zero key, or one without a point
			return nil, keyError(string(alg), alg.KeyNeeds(), key)
		}
		if k != nil {
			pub, err = k.PublicKey.ECDH()
		}
	case ecdh.KeyExchanger: // an opaque private key (kms.go), for its public key
		var dk *dhKey
		if dk, err = ecdhOpaqueKey(k); err == nil {
			pub = dk.pub
		}
	default:
		return nil, keyError(string(alg), alg.KeyNeeds(), key)
	}
	if err == nil && pub != nil && pub.Curve() == ecdh.X25519() && x25519SmallOrder(pub.Bytes()) {
		err = errSmallOrder // every message to it would have an all-zero secret
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
	z, err := agree(eph, false, e.pub)
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
	priv *dhKey // a local key or a device's (kms.go), checked (dh.go)
}

func newECDHDecrypter(alg KeyAlgorithm, key any) (*ecdhDecrypter, error) {
	priv, err := recipientPrivateKey(alg, key)
	if err != nil {
		return nil, err
	}
	if priv == nil || !ecdhCurveSupported(priv.Curve()) {
		return nil, keyError(string(alg), alg.KeyNeeds(), key)
	}
	return &ecdhDecrypter{alg: alg, priv: priv}, nil
}

// recipientPrivateKey returns the private key given to an ECDH-ES or HPKE
// decrypter as the *dhKey every agreement goes through (dh.go): an *ecdh or
// *ecdsa private key, or an opaque key held in a KMS or an HSM (kms.go). It
// returns nil for a typed nil key; the caller checks the curve against its
// algorithm.
func recipientPrivateKey(alg KeyAlgorithm, key any) (*dhKey, error) {
	var priv *ecdh.PrivateKey
	var err error
	switch k := key.(type) {
	case *ecdh.PrivateKey:
		if k != nil && k.Curve() == nil { // a zero key: no curve, no public key
			return nil, keyError(string(alg), alg.KeyNeeds(), key)
		}
		priv = k
	case *ecdsa.PrivateKey:
		if k != nil && (k.Curve == nil || k.D == nil) { // a zero key, or one without a scalar
			return nil, keyError(string(alg), alg.KeyNeeds(), key)
		}
		if k != nil {
			priv, err = k.ECDH()
		}
	case ecdh.KeyExchanger:
		dk, err := ecdhOpaqueKey(k)
		if err != nil {
			return nil, fmt.Errorf("jwa: %s: %v: %w", alg, err, ErrInvalidKey)
		}
		return dk, nil
	default:
		if sigIsPublic(key) && alg.FitsKey(key) {
			return nil, privateKeyError(string(alg), "decrypt", key)
		}
		return nil, keyError(string(alg), alg.KeyNeeds(), key)
	}
	if err != nil {
		return nil, fmt.Errorf("jwa: %s: %v: %w", alg, err, ErrInvalidKey)
	}
	if priv == nil {
		return nil, nil
	}
	return &dhKey{k: priv, pub: priv.PublicKey()}, nil
}

// Algorithm implements [KeyDecrypter].
func (d *ecdhDecrypter) Algorithm() KeyAlgorithm { return d.alg }

// DecryptKey implements [KeyDecrypter] (RFC 7518 §4.6.2). params.EPK must
// be present and on the recipient's own curve, and not an X25519 point of
// small order (RFC 8037 §3.2, RFC 7748 §6.1): these are refused with
// [ErrInvalidParameter], before the key is asked. An *ecdh.PublicKey on a
// NIST curve is always a validated point on that curve; [KeyParams] cannot
// hold another. A shared secret of the wrong size or all zeros (from a
// device) is [ErrDecryption]; a device's error is [ErrKeyDevice] (dh.go).
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
	z, err := d.priv.ECDH(params.EPK)
	if err != nil {
		return nil, dhError(d.alg, err)
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
