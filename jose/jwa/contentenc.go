package jwa

import (
	"crypto/cipher"
	"crypto/rand"
	"fmt"

	"github.com/josebench/josebench/internal/untrusted"
)

// ContentEncryptions returns every content encryption algorithm this
// package implements (RFC 7518 §5.1), in the order of that table.
func ContentEncryptions() []ContentEncryption {
	return []ContentEncryption{A128CBCHS256, A192CBCHS384, A256CBCHS512, A128GCM, A192GCM, A256GCM}
}

// String returns the "enc" value (RFC 7516 §4.1.2).
func (c ContentEncryption) String() string { return string(c) }

// Known reports whether c is one of the algorithms of RFC 7518 §5.1 that
// this package implements.
func (c ContentEncryption) Known() bool { return c.KeySize() != 0 }

// KeySize returns the size in bytes of the Content Encryption Key for c
// (RFC 7518 §5.2.3-§5.2.5, §5.3), or 0 if c is not known.
func (c ContentEncryption) KeySize() int {
	switch c {
	case A128CBCHS256:
		return 32
	case A192CBCHS384:
		return 48
	case A256CBCHS512:
		return 64
	case A128GCM:
		return 16
	case A192GCM:
		return 24
	case A256GCM:
		return 32
	}
	return 0
}

// IVSize returns the size in bytes of the JWE Initialization Vector for c:
// 16 for AES_CBC_HMAC_SHA2 (RFC 7518 §5.2.2.1), 12 for AES GCM (§5.3); 0 if
// c is not known.
func (c ContentEncryption) IVSize() int {
	switch c {
	case A128CBCHS256, A192CBCHS384, A256CBCHS512:
		return 16
	case A128GCM, A192GCM, A256GCM:
		return gcmIVSize
	}
	return 0
}

// TagSize returns the size in bytes of the JWE Authentication Tag for c:
// half the key for AES_CBC_HMAC_SHA2 (RFC 7518 §5.2.3-§5.2.5), 16 for AES
// GCM (§5.3); 0 if c is not known.
func (c ContentEncryption) TagSize() int {
	switch c {
	case A128CBCHS256, A192CBCHS384, A256CBCHS512:
		return c.KeySize() / 2
	case A128GCM, A192GCM, A256GCM:
		return gcmTagSize
	}
	return 0
}

// NewContentCipher returns the authenticated encryption of enc keyed with
// the Content Encryption Key cek (RFC 7516 §5.1 step 15, RFC 7518 §5) as a
// [cipher.AEAD]. The nonce is the JWE Initialization Vector (enc.IVSize()
// bytes), the additional data the JWE AAD (RFC 7516 §5.1 step 14), and
// Seal's output the JWE Ciphertext followed by the Authentication Tag
// (enc.TagSize() bytes).
//
// cek must be exactly enc.KeySize() bytes, else [ErrInvalidKey]; an unknown
// enc is [ErrUnsupportedAlgorithm]. Open returns [ErrDecryption] for any
// failure, including an IV of the wrong size, and never panics.
func NewContentCipher(enc ContentEncryption, cek []byte) (cipher.AEAD, error) {
	if !enc.Known() {
		return nil, unsupportedEnc(enc)
	}
	if len(cek) != enc.KeySize() {
		return nil, fmt.Errorf("jwa: %s needs a %d-byte CEK, not %d bytes: %w", enc, enc.KeySize(), len(cek), ErrInvalidKey)
	}
	switch enc {
	case A128GCM, A192GCM, A256GCM:
		return newGCM(cek)
	}
	return NewCBCHMAC(cek)
}

func unsupportedEnc(enc ContentEncryption) error {
	return fmt.Errorf("jwa: enc %s: %w", untrusted.Quote(enc), ErrUnsupportedAlgorithm)
}

// cekSize returns enc's key size, checking that enc is known and that cek,
// if given, has that size.
func cekSize(enc ContentEncryption, cek []byte) (int, error) {
	ks := enc.KeySize()
	if ks == 0 {
		return 0, unsupportedEnc(enc)
	}
	if cek != nil && len(cek) != ks {
		return 0, fmt.Errorf("jwa: %s needs a %d-byte CEK, not %d bytes: %w", enc, ks, len(cek), ErrInvalidKey)
	}
	return ks, nil
}

// fillCEK copies cek into dst, or fills dst with random bytes if cek is
// nil (RFC 7516 §5.1 step 2), and returns dst.
func fillCEK(dst, cek []byte) []byte {
	if cek != nil {
		copy(dst, cek)
	} else {
		rand.Read(dst)
	}
	return dst
}
