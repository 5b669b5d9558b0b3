package jwa

import (
	"crypto/aes"
	"crypto/cipher"
	"fmt"

	"github.com/josebench/josebench/internal/untrusted"
)

// KeyAlgorithms returns every key management algorithm this package
// implements (RFC 7518 §4.1), in the order of that table.
func KeyAlgorithms() []KeyAlgorithm {
	return []KeyAlgorithm{
		RSA1_5, RSAOAEP, RSAOAEP256, RSAOAEP384, RSAOAEP512,
		A128KW, A192KW, A256KW,
		Direct,
		ECDHES, ECDHESA128KW, ECDHESA192KW, ECDHESA256KW,
		A128GCMKW, A192GCMKW, A256GCMKW,
		PBES2HS256A128KW, PBES2HS384A192KW, PBES2HS512A256KW,
	}
}

// String returns the "alg" value (RFC 7516 §4.1.1).
func (a KeyAlgorithm) String() string { return string(a) }

// Known reports whether a is one of the algorithms of RFC 7518 §4.1 that
// this package implements, or one of [HPKEKeyAlgorithms] (a draft).
func (a KeyAlgorithm) Known() bool {
	switch a {
	case RSA1_5, RSAOAEP, RSAOAEP256, RSAOAEP384, RSAOAEP512, Direct, ECDHES:
		return true
	}
	return a.KeyWrapSize() != 0 || a.IsHPKE() || a.IsHPKEIntegrated()
}

// IsDirect reports whether a determines the CEK itself, so that the JWE
// Encrypted Key is empty and a message has one recipient only: dir
// (RFC 7518 §4.5) and ECDH-ES in Direct Key Agreement mode (§4.6).
func (a KeyAlgorithm) IsDirect() bool { return a == Direct || a == ECDHES }

// IsPBES2 reports whether a is a PBES2 password-based algorithm
// (RFC 7518 §4.8), which reads p2s and p2c.
func (a KeyAlgorithm) IsPBES2() bool {
	return a == PBES2HS256A128KW || a == PBES2HS384A192KW || a == PBES2HS512A256KW
}

// IsECDH reports whether a is an ECDH-ES algorithm (RFC 7518 §4.6), which
// reads epk, apu and apv.
func (a KeyAlgorithm) IsECDH() bool {
	return a == ECDHES || a == ECDHESA128KW || a == ECDHESA192KW || a == ECDHESA256KW
}

// IsRSA reports whether a is an RSA key encryption algorithm: RSA1_5 and
// RSA-OAEP* (RFC 7518 §4.2, §4.3, and RSA-OAEP-384 and RSA-OAEP-512 of the
// IANA JOSE registry).
func (a KeyAlgorithm) IsRSA() bool {
	switch a {
	case RSA1_5, RSAOAEP, RSAOAEP256, RSAOAEP384, RSAOAEP512:
		return true
	}
	return false
}

// IsAESKW reports whether a is AES Key Wrap with a shared key (RFC 7518
// §4.4).
func (a KeyAlgorithm) IsAESKW() bool { return a == A128KW || a == A192KW || a == A256KW }

// IsGCMKW reports whether a is AES GCM key wrapping (RFC 7518 §4.7), which
// reads iv and tag.
func (a KeyAlgorithm) IsGCMKW() bool { return a == A128GCMKW || a == A192GCMKW || a == A256GCMKW }

// KeyWrapSize returns the size in bytes of the AES key-encryption key that
// a wraps the CEK with: the shared key of AxxxKW (RFC 7518 §4.4) and
// AxxxGCMKW (§4.7), the Concat KDF output of ECDH-ES+AxxxKW (§4.6.2) and the
// PBKDF2 output of PBES2 (§4.8.1.1). It is 0 for the other algorithms
// (RSA, dir, ECDH-ES) and for unknown ones.
func (a KeyAlgorithm) KeyWrapSize() int {
	switch a {
	case A128KW, A128GCMKW, ECDHESA128KW, PBES2HS256A128KW:
		return 16
	case A192KW, A192GCMKW, ECDHESA192KW, PBES2HS384A192KW:
		return 24
	case A256KW, A256GCMKW, ECDHESA256KW, PBES2HS512A256KW:
		return 32
	}
	return 0
}

// NewKeyEncrypter returns the key management of alg for the recipient's
// key (RFC 7516 §5.1 steps 1-5). The key must suit alg exactly, else
// [ErrInvalidKey]:
//
//   - RSA1_5, RSA-OAEP, RSA-OAEP-256, RSA-OAEP-384, RSA-OAEP-512: *rsa.PublicKey (or *rsa.PrivateKey,
//     for its public part) of at least 2048 bits (RFC 7518 §4.2, §4.3);
//   - A128KW, A192KW, A256KW, A128GCMKW, A192GCMKW, A256GCMKW: []byte of
//     exactly 16, 24 or 32 bytes (§4.4, §4.7);
//   - dir: []byte, the CEK itself; its size is checked against enc when
//     used (§4.5);
//   - ECDH-ES and ECDH-ES+AxxxKW: *ecdh.PublicKey or *ecdsa.PublicKey (or
//     their private keys, for the public part) on P-256, P-384, P-521, or
//     X25519 (§4.6, RFC 8037 §3.2);
//   - PBES2-*: []byte, the password, with [DefaultPBES2Count] iterations
//     (§4.8); use [NewPBES2Encrypter] to choose the count;
//   - HPKE-*-KE (a draft, see [HPKE0KE]): *ecdh.PublicKey or
//     *ecdsa.PublicKey (or their private keys) on the algorithm's curve.
//
// An X25519 key of small order (RFC 7748 §6.1), with which every message
// would have an all-zero shared secret, is refused with [ErrInvalidKey].
// An unknown alg is [ErrUnsupportedAlgorithm]. AES key schedules are
// computed here, once, not per message.
func NewKeyEncrypter(alg KeyAlgorithm, key any) (KeyEncrypter, error) {
	switch {
	case alg.IsRSA():
		return newRSAEncrypter(alg, key)
	case alg.IsAESKW():
		return newAESKW(alg, key)
	case alg.IsGCMKW():
		return newGCMKW(alg, key)
	case alg == Direct:
		return newDirect(key)
	case alg.IsECDH():
		return newECDHEncrypter(alg, key)
	case alg.IsHPKE():
		return newHPKEEncrypter(alg, key)
	case alg.IsHPKEIntegrated():
		return newHPKEIntegratedEncrypter(alg, key)
	case alg.IsPBES2():
		pw, ok := key.([]byte)
		if !ok {
			return nil, keyError(string(alg), alg.KeyNeeds(), key)
		}
		return NewPBES2Encrypter(alg, pw, 0)
	}
	return nil, unsupportedKeyAlg(alg)
}

// NewKeyDecrypter returns the key management of alg for the recipient's
// private or shared key (RFC 7516 §5.2 steps 9-10). The key must suit alg
// exactly, else [ErrInvalidKey]:
//
//   - RSA1_5, RSA-OAEP, RSA-OAEP-256, RSA-OAEP-384, RSA-OAEP-512: *rsa.PrivateKey of at least 2048 bits,
//     or a [crypto.Decrypter] whose Public method returns such an
//     *rsa.PublicKey: a key held in a KMS or an HSM;
//   - AxxxKW, AxxxGCMKW: []byte of exactly the algorithm's key size;
//   - dir: []byte, the CEK;
//   - ECDH-ES and ECDH-ES+AxxxKW: *ecdh.PrivateKey or *ecdsa.PrivateKey on
//     P-256, P-384, P-521, or X25519, or an [ecdh.KeyExchanger] on one of
//     them: a private key held in a KMS or an HSM, whose ECDH method
//     returns the shared secret with the token's epk;
//   - PBES2-*: []byte, the password; p2c is accepted from
//     [DefaultPBES2MinCount] to [DefaultPBES2MaxCount] (use
//     [NewPBES2Decrypter] to choose the range);
//   - HPKE-*-KE (a draft, see [HPKE0KE]): *ecdh.PrivateKey,
//     *ecdsa.PrivateKey or [ecdh.KeyExchanger] on the algorithm's curve.
//
// An opaque key is called at most once per decryption, and a panic of it
// is not recovered: it reaches the caller. For RSA, whatever it returns
// for a bad encrypted key, even its own error, becomes the one
// [ErrDecryption] (RSA-OAEP) or a random CEK (RSA1_5, RFC 7516 §11.5), so
// no error tells a padding failure apart; the device's own timing cannot be
// hidden here. For ECDH-ES and HPKE, every Diffie-Hellman output, a local
// key's or a device's, is checked in one place before any key derivation
// (RFC 7748 §6.1, RFC 9180 §7.1.4): an X25519 point of small order is
// refused before the key is asked, a shared secret of the wrong size for
// the curve, empty or all zeros is [ErrDecryption], and an error of the
// device is [ErrKeyDevice], wrapping the device's error.
//
// An unknown alg is [ErrUnsupportedAlgorithm].
func NewKeyDecrypter(alg KeyAlgorithm, key any) (KeyDecrypter, error) {
	switch {
	case alg.IsRSA():
		return newRSADecrypter(alg, key)
	case alg.IsAESKW():
		return newAESKW(alg, key)
	case alg.IsGCMKW():
		return newGCMKW(alg, key)
	case alg == Direct:
		return newDirect(key)
	case alg.IsECDH():
		return newECDHDecrypter(alg, key)
	case alg.IsHPKE():
		return newHPKEDecrypter(alg, key)
	case alg.IsHPKEIntegrated():
		return newHPKEIntegratedDecrypter(alg, key)
	case alg.IsPBES2():
		pw, ok := key.([]byte)
		if !ok {
			return nil, keyError(string(alg), alg.KeyNeeds(), key)
		}
		return NewPBES2Decrypter(alg, pw, 0, 0)
	}
	return nil, unsupportedKeyAlg(alg)
}

func unsupportedKeyAlg(alg KeyAlgorithm) error {
	return fmt.Errorf("jwa: alg %s: %w", untrusted.Quote(alg), ErrUnsupportedAlgorithm)
}

// aesKW is A128KW, A192KW and A256KW (RFC 7518 §4.4) with a shared key
// whose AES key schedule is computed once.
type aesKW struct {
	alg   KeyAlgorithm
	block cipher.Block
}

func newAESKW(alg KeyAlgorithm, key any) (*aesKW, error) {
	k, ok := key.([]byte)
	if !ok {
		return nil, keyError(string(alg), alg.KeyNeeds(), key)
	}
	if len(k) != alg.KeyWrapSize() {
		return nil, keyError(string(alg), alg.KeyNeeds(), key)
	}
	block, err := aes.NewCipher(k)
	if err != nil {
		return nil, fmt.Errorf("jwa: %v: %w", err, ErrInvalidKey)
	}
	return &aesKW{alg: alg, block: block}, nil
}

// Algorithm implements [KeyEncrypter] and [KeyDecrypter].
func (k *aesKW) Algorithm() KeyAlgorithm { return k.alg }

// EncryptKey implements [KeyEncrypter]: the CEK (random if cek is nil) is
// wrapped with RFC 3394 (RFC 7518 §4.4). params is not used.
func (k *aesKW) EncryptKey(cek []byte, enc ContentEncryption, _ *KeyParams) ([]byte, []byte, error) {
	return kwEncrypt(k.block, cek, enc)
}

// DecryptKey implements [KeyDecrypter] (RFC 7518 §4.4): the encrypted key
// must be enc's key size plus 8 bytes and unwrap, else [ErrDecryption].
func (k *aesKW) DecryptKey(encryptedKey []byte, enc ContentEncryption, _ *KeyParams) ([]byte, error) {
	return kwDecrypt(k.block, encryptedKey, enc)
}

// kwEncrypt returns the CEK for enc (cek, or a random one) and its RFC 3394
// wrap under block, from a single allocation.
func kwEncrypt(block cipher.Block, cek []byte, enc ContentEncryption) ([]byte, []byte, error) {
	ks, err := cekSize(enc, cek)
	if err != nil {
		return nil, nil, err
	}
	buf := make([]byte, ks, 2*ks+8)
	cekOut := fillCEK(buf[:ks:ks], cek)
	wrapped, err := WrapKey(buf[ks:], block, cekOut)
	if err != nil {
		return nil, nil, err
	}
	return cekOut, wrapped, nil
}

// kwDecrypt unwraps a CEK for enc from encryptedKey under block.
func kwDecrypt(block cipher.Block, encryptedKey []byte, enc ContentEncryption) ([]byte, error) {
	ks := enc.KeySize()
	if ks == 0 {
		return nil, unsupportedEnc(enc)
	}
	if len(encryptedKey) != ks+8 {
		return nil, ErrDecryption
	}
	cek, err := UnwrapKey(make([]byte, 0, ks), block, encryptedKey)
	if err != nil {
		return nil, err
	}
	return cek, nil
}

// direct is dir (RFC 7518 §4.5): the shared key is the CEK.
type direct struct {
	key []byte
}

func newDirect(key any) (*direct, error) {
	k, err := directKey(key)
	if err != nil {
		return nil, err
	}
	return &direct{key: append([]byte(nil), k...)}, nil
}

// directKey returns key as the shared key of dir, which is a non-empty
// []byte.
func directKey(key any) ([]byte, error) {
	k, ok := key.([]byte)
	if !ok {
		return nil, keyError(string(Direct), Direct.KeyNeeds(), key)
	}
	if len(k) == 0 {
		return nil, keyError(string(Direct), Direct.KeyNeeds(), key)
	}
	return k, nil
}

// NewDirectCipher returns the content cipher of dir (RFC 7518 §4.5) for
// enc with key as the CEK: what [NewKeyEncrypter] or [NewKeyDecrypter]
// with [Direct], their EncryptKey or DecryptKey and [NewContentCipher]
// give, with the same checks and errors, but without copying the key (the
// cipher keeps its own key schedule, not key). An Encrypter or Decrypter
// made for one token calls it once.
func NewDirectCipher(enc ContentEncryption, key any) (cipher.AEAD, error) {
	k, err := directKey(key)
	if err != nil {
		return nil, err
	}
	if err := directKeySize(enc, k); err != nil {
		return nil, err
	}
	return NewContentCipher(enc, k)
}

// Algorithm implements [KeyEncrypter] and [KeyDecrypter].
func (d *direct) Algorithm() KeyAlgorithm { return Direct }

// EncryptKey implements [KeyEncrypter] (RFC 7518 §4.5): it returns a copy
// of the shared key as the CEK and an empty encrypted key. The key must be
// exactly enc's key size, else [ErrInvalidKey]; a given cek is refused with
// [ErrInvalidParameter], as dir serves one recipient only.
func (d *direct) EncryptKey(cek []byte, enc ContentEncryption, _ *KeyParams) ([]byte, []byte, error) {
	if cek != nil {
		return nil, nil, fmt.Errorf("jwa: dir determines the CEK; it cannot encrypt a given one: %w", ErrInvalidParameter)
	}
	k, err := d.cek(enc)
	return k, nil, err
}

// DecryptKey implements [KeyDecrypter] (RFC 7518 §4.5, RFC 7516 §5.2 step
// 10): the encrypted key must be empty (else [ErrDecryption]), and the key
// exactly enc's key size (else [ErrInvalidKey]).
func (d *direct) DecryptKey(encryptedKey []byte, enc ContentEncryption, _ *KeyParams) ([]byte, error) {
	if len(encryptedKey) != 0 {
		return nil, ErrDecryption
	}
	return d.cek(enc)
}

func (d *direct) cek(enc ContentEncryption) ([]byte, error) {
	if err := directKeySize(enc, d.key); err != nil {
		return nil, err
	}
	return append([]byte(nil), d.key...), nil
}

// directKeySize checks that the dir key k is enc's key size.
func directKeySize(enc ContentEncryption, k []byte) error {
	ks := enc.KeySize()
	if ks == 0 {
		return unsupportedEnc(enc)
	}
	if len(k) != ks {
		return keyError("dir with "+string(enc), enc.KeyNeeds(), k)
	}
	return nil
}

// Compile-time checks that every key management value implements the
// interfaces of api.go.
var (
	_ KeyEncrypter = (*aesKW)(nil)
	_ KeyDecrypter = (*aesKW)(nil)
	_ KeyEncrypter = (*gcmKW)(nil)
	_ KeyDecrypter = (*gcmKW)(nil)
	_ KeyEncrypter = (*direct)(nil)
	_ KeyDecrypter = (*direct)(nil)
	_ KeyEncrypter = (*ecdhEncrypter)(nil)
	_ KeyDecrypter = (*ecdhDecrypter)(nil)
	_ KeyEncrypter = (*pbes2)(nil)
	_ KeyDecrypter = (*pbes2)(nil)
	_ KeyEncrypter = (*rsaEncrypter)(nil)
	_ KeyDecrypter = (*rsaDecrypter)(nil)
)
