package jwa

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"fmt"
)

// GCM parameters fixed by RFC 7518 §4.7.1 and §5.3: a 96-bit IV and a
// 128-bit authentication tag, and nothing else.
const (
	gcmIVSize  = 12
	gcmTagSize = 16
)

// gcmAEAD is AES-GCM (RFC 7518 §5.3) whose Open returns ErrDecryption, and
// never panics, whatever the input.
type gcmAEAD struct {
	cipher.AEAD
}

// newGCM returns AES-GCM with a 96-bit nonce and a 128-bit tag under key,
// which must be 16, 24 or 32 bytes.
func newGCM(key []byte) (*gcmAEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("jwa: %v: %w", err, ErrInvalidKey)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("jwa: %v: %w", err, ErrInvalidKey)
	}
	return &gcmAEAD{aead}, nil
}

// Open implements [cipher.AEAD]. An IV that is not 96 bits, a ciphertext
// shorter than the tag or a tag that does not verify all return
// [ErrDecryption].
func (g *gcmAEAD) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	if len(nonce) != gcmIVSize || len(ciphertext) < gcmTagSize {
		return nil, ErrDecryption
	}
	out, err := g.AEAD.Open(dst, nonce, ciphertext, additionalData)
	if err != nil {
		return nil, ErrDecryption
	}
	return out, nil
}

// gcmKW is AES GCM key wrapping, A128GCMKW, A192GCMKW and A256GCMKW
// (RFC 7518 §4.7). The AES key schedule is computed once, when the value is
// made; it serves both directions.
type gcmKW struct {
	alg  KeyAlgorithm
	aead *gcmAEAD
}

func newGCMKW(alg KeyAlgorithm, key any) (*gcmKW, error) {
	k, ok := key.([]byte)
	if !ok {
		return nil, keyError(string(alg), alg.KeyNeeds(), key)
	}
	if len(k) != alg.KeyWrapSize() {
		return nil, keyError(string(alg), alg.KeyNeeds(), key)
	}
	aead, err := newGCM(k)
	if err != nil {
		return nil, err
	}
	return &gcmKW{alg: alg, aead: aead}, nil
}

// Algorithm implements [KeyEncrypter] and [KeyDecrypter].
func (g *gcmKW) Algorithm() KeyAlgorithm { return g.alg }

// EncryptKey implements [KeyEncrypter] (RFC 7518 §4.7.1): the CEK is
// encrypted under a fresh random 96-bit IV, and params.IV and params.Tag
// receive the IV and the tag.
func (g *gcmKW) EncryptKey(cek []byte, enc ContentEncryption, params *KeyParams) ([]byte, []byte, error) {
	return g.encryptKey(cek, enc, params, nil)
}

// encryptKey is EncryptKey with a given IV (random if nil), for the
// RFC 7520 test vectors.
func (g *gcmKW) encryptKey(cek []byte, enc ContentEncryption, params *KeyParams, iv []byte) ([]byte, []byte, error) {
	if params == nil {
		panic("jwa: AES GCM key wrap EncryptKey needs non-nil KeyParams to return iv and tag")
	}
	ks, err := cekSize(enc, cek)
	if err != nil {
		return nil, nil, err
	}
	// One allocation: CEK || IV || encrypted key || tag.
	buf := make([]byte, ks+gcmIVSize, 2*ks+gcmIVSize+gcmTagSize)
	cekOut := fillCEK(buf[:ks:ks], cek)
	ivOut := buf[ks : ks+gcmIVSize : ks+gcmIVSize]
	if iv != nil {
		copy(ivOut, iv)
	} else {
		rand.Read(ivOut)
	}
	sealed := g.aead.Seal(buf[ks+gcmIVSize:], ivOut, cekOut, nil)
	params.IV = ivOut
	params.Tag = sealed[ks:]
	return cekOut, sealed[:ks:ks], nil
}

// DecryptKey implements [KeyDecrypter] (RFC 7518 §4.7.1). params.IV must be
// 96 bits and params.Tag 128 bits (else [ErrInvalidParameter]); the
// encrypted key must have enc's key size and authenticate (else
// [ErrDecryption]).
func (g *gcmKW) DecryptKey(encryptedKey []byte, enc ContentEncryption, params *KeyParams) ([]byte, error) {
	if !enc.Known() {
		return nil, unsupportedEnc(enc)
	}
	if params == nil || len(params.IV) != gcmIVSize || len(params.Tag) != gcmTagSize {
		return nil, fmt.Errorf("jwa: %s needs a 96-bit iv and a 128-bit tag: %w", g.alg, ErrInvalidParameter)
	}
	ks := enc.KeySize()
	if len(encryptedKey) != ks {
		return nil, ErrDecryption
	}
	buf := make([]byte, ks+gcmTagSize)
	copy(buf, encryptedKey)
	copy(buf[ks:], params.Tag)
	return g.aead.Open(buf[:0], params.IV, buf, nil)
}
