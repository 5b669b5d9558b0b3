package jwa

import (
	"crypto/cipher"
	"crypto/hpke"
	"errors"
	"fmt"
)

// HPKE Integrated Encryption algorithms of draft-ietf-jose-hpke-encrypt-20
// §5.1 (an Internet-Draft: names and processing may change). HPKE encrypts
// the plaintext itself: a token has no "enc", exactly one recipient, the
// HPKE encapsulated secret as its JWE Encrypted Key, the HPKE ciphertext
// (tag included) as its JWE Ciphertext, an empty IV and tag, the HPKE aad
// set to the content AAD of RFC 7516 §5.1 step 14, and an empty HPKE info.
// The suites are those of the Key Encryption algorithms ([HPKE0KE] ...);
// X448 (HPKE-5, HPKE-6) is not implemented.
const (
	HPKE0 KeyAlgorithm = "HPKE-0" // DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM
	HPKE1 KeyAlgorithm = "HPKE-1" // DHKEM(P-384, HKDF-SHA384), HKDF-SHA384, AES-256-GCM
	HPKE2 KeyAlgorithm = "HPKE-2" // DHKEM(P-521, HKDF-SHA512), HKDF-SHA512, AES-256-GCM
	HPKE3 KeyAlgorithm = "HPKE-3" // DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-128-GCM
	HPKE4 KeyAlgorithm = "HPKE-4" // DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20Poly1305
	HPKE7 KeyAlgorithm = "HPKE-7" // DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM
)

// HPKEIntegratedAlgorithms returns the HPKE Integrated Encryption
// algorithms this package implements (draft-ietf-jose-hpke-encrypt-20
// §5.1), in the draft's order.
func HPKEIntegratedAlgorithms() []KeyAlgorithm {
	return []KeyAlgorithm{HPKE0, HPKE1, HPKE2, HPKE3, HPKE4, HPKE7}
}

// IsHPKEIntegrated reports whether a is an HPKE Integrated Encryption
// algorithm (draft-ietf-jose-hpke-encrypt-20 §5), used without "enc".
func (a KeyAlgorithm) IsHPKEIntegrated() bool {
	_, ok := hpkeIntegratedKE(a)
	return ok
}

// hpkeIntegratedKE returns the Key Encryption algorithm with a's suite.
func hpkeIntegratedKE(a KeyAlgorithm) (KeyAlgorithm, bool) {
	switch a {
	case HPKE0, HPKE1, HPKE2, HPKE3, HPKE4, HPKE7:
		return a + "-KE", true
	}
	return "", false
}

// IntegratedEncrypter is implemented by the key management of the HPKE
// Integrated Encryption algorithms ([NewKeyEncrypter] with [HPKE0] ...):
// instead of a CEK, each message gets its own single-use AEAD.
type IntegratedEncrypter interface {
	KeyEncrypter
	// IntegratedAEAD returns the HPKE encapsulated secret of a new message
	// (its JWE Encrypted Key) and an AEAD for that message only, with no
	// nonce and a 16-byte overhead: Seal's aad is the HPKE aad.
	IntegratedAEAD() (encapsulated []byte, aead cipher.AEAD, err error)
}

// IntegratedDecrypter is implemented by the key management of the HPKE
// Integrated Encryption algorithms ([NewKeyDecrypter] with [HPKE0] ...).
type IntegratedDecrypter interface {
	KeyDecrypter
	// IntegratedAEAD returns the single-use AEAD of the message whose JWE
	// Encrypted Key is encapsulated. An encapsulated secret of the wrong
	// size is [ErrInvalidParameter], a failure of the device holding the
	// key [ErrKeyDevice]; any other failure [ErrDecryption].
	IntegratedAEAD(encapsulated []byte) (cipher.AEAD, error)
}

// errIntegrated is returned by EncryptKey and DecryptKey of the Integrated
// Encryption algorithms, which have no CEK.
var errIntegrated = fmt.Errorf("jwa: HPKE Integrated Encryption has no content encryption key: %w", ErrInvalidParameter)

type hpkeIntegratedEncrypter struct {
	alg KeyAlgorithm
	e   *hpkeEncrypter
}

type hpkeIntegratedDecrypter struct {
	alg KeyAlgorithm
	d   *hpkeDecrypter
}

var (
	_ IntegratedEncrypter = (*hpkeIntegratedEncrypter)(nil)
	_ IntegratedDecrypter = (*hpkeIntegratedDecrypter)(nil)
)

func newHPKEIntegratedEncrypter(alg KeyAlgorithm, key any) (*hpkeIntegratedEncrypter, error) {
	ke, _ := hpkeIntegratedKE(alg)
	e, err := newHPKEEncrypter(ke, key)
	if err != nil {
		return nil, err
	}
	e.alg = alg
	return &hpkeIntegratedEncrypter{alg: alg, e: e}, nil
}

func newHPKEIntegratedDecrypter(alg KeyAlgorithm, key any) (*hpkeIntegratedDecrypter, error) {
	ke, _ := hpkeIntegratedKE(alg)
	d, err := newHPKEDecrypter(ke, key)
	if err != nil {
		return nil, err
	}
	d.alg = alg
	return &hpkeIntegratedDecrypter{alg: alg, d: d}, nil
}

// Algorithm implements [KeyEncrypter].
func (e *hpkeIntegratedEncrypter) Algorithm() KeyAlgorithm { return e.alg }

// EncryptKey refuses: Integrated Encryption has no CEK.
func (e *hpkeIntegratedEncrypter) EncryptKey([]byte, ContentEncryption, *KeyParams) ([]byte, []byte, error) {
	return nil, nil, errIntegrated
}

// IntegratedAEAD implements [IntegratedEncrypter]: an HPKE sender context
// in base mode with an empty info (draft-ietf-jose-hpke-encrypt-20 §5).
func (e *hpkeIntegratedEncrypter) IntegratedAEAD() ([]byte, cipher.AEAD, error) {
	encap, s, err := hpke.NewSender(e.e.pk, e.e.kdf, e.e.aead, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("jwa: %s: %w", e.alg, err)
	}
	return encap, &hpkeAEAD{sender: s}, nil
}

// Algorithm implements [KeyDecrypter].
func (d *hpkeIntegratedDecrypter) Algorithm() KeyAlgorithm { return d.alg }

// DecryptKey refuses: Integrated Encryption has no CEK.
func (d *hpkeIntegratedDecrypter) DecryptKey([]byte, ContentEncryption, *KeyParams) ([]byte, error) {
	return nil, errIntegrated
}

// IntegratedAEAD implements [IntegratedDecrypter]. The size of the
// encapsulated secret is checked before any arithmetic, the Diffie-Hellman
// output of the decapsulation before any key derivation (dh.go): a
// device's error is [ErrKeyDevice], any other failure [ErrDecryption].
func (d *hpkeIntegratedDecrypter) IntegratedAEAD(encap []byte) (cipher.AEAD, error) {
	if want := hpkeEncSize(d.d.curve); len(encap) != want {
		return nil, fmt.Errorf("jwa: %s encrypted key (encapsulated secret) of %d bytes, want %d: %w", d.alg, len(encap), want, ErrInvalidParameter)
	}
	r, err := hpke.NewRecipient(encap, d.d.sk, d.d.kdf, d.d.aead, nil)
	if err != nil {
		return nil, dhError(d.alg, err)
	}
	return &hpkeAEAD{recipient: r}, nil
}

// hpkeAEAD presents one HPKE context as a single-message cipher.AEAD with
// no nonce: the JWE content encryption of Integrated Encryption.
type hpkeAEAD struct {
	sender    *hpke.Sender
	recipient *hpke.Recipient
}

var errHPKENonce = errors.New("jwa: HPKE Integrated Encryption takes no nonce")

func (a *hpkeAEAD) NonceSize() int { return 0 }
func (a *hpkeAEAD) Overhead() int  { return hpkeTagSize }

// Seal appends the HPKE ciphertext of plaintext with aad to dst. It panics
// if a is an opening context or nonce is not empty (caller bugs).
func (a *hpkeAEAD) Seal(dst, nonce, plaintext, aad []byte) []byte {
	if a.sender == nil || len(nonce) != 0 {
		panic(errHPKENonce)
	}
	ct, err := a.sender.Seal(aad, plaintext)
	if err != nil {
		panic("jwa: HPKE seal: " + err.Error()) // only after 2^96 messages
	}
	return append(dst, ct...)
}

// Open appends the plaintext of an HPKE ciphertext with aad to dst; every
// failure is ErrDecryption.
func (a *hpkeAEAD) Open(dst, nonce, ciphertext, aad []byte) ([]byte, error) {
	if a.recipient == nil || len(nonce) != 0 {
		return nil, ErrDecryption
	}
	pt, err := a.recipient.Open(aad, ciphertext)
	if err != nil {
		return nil, ErrDecryption
	}
	return append(dst, pt...), nil
}
