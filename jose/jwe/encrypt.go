package jwe

import (
	"crypto/cipher"
	"crypto/rand"
	"fmt"
	"io"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/jwa"
)

// EncrypterOptions holds the optional header members of the tokens an
// [Encrypter] or [EncryptGeneral] makes. The zero value (or nil) means a
// protected header with only "alg" and "enc".
type EncrypterOptions struct {
	// KeyID, Type and ContentType are "kid" (RFC 7515 §4.1.4), "typ"
	// (RFC 7516 §4.1.11) and "cty" (RFC 7516 §4.1.12) in the protected
	// header. When KeyID is empty and the key is a *jose.JWK with a "kid",
	// that one is used (single recipient only).
	KeyID, Type, ContentType string
	// Compress deflates the plaintext and sets "zip":"DEF" in the protected
	// header (RFC 7516 §4.1.3). A Decrypter with the default [jose.Limits]
	// refuses such a token whose DEFLATE exceeds MaxCompressedSize (16 KiB)
	// or whose plaintext exceeds MaxDecompressedSize (1 MiB): compress
	// small documents such as JWT claims, or raise the receiver's limits.
	Compress bool
	// PBES2Count is "p2c" for the PBES2 algorithms (RFC 7518 §4.8.1.2);
	// 0 means the jwa default.
	PBES2Count int
	// APU and APV are "apu" and "apv", the ECDH-ES agreement PartyUInfo
	// and PartyVInfo (RFC 7518 §4.6.1.2, §4.6.1.3).
	APU, APV []byte
	// Extra holds more protected header members (RFC 7516 §4.2, §4.3),
	// each marshalled with encoding/json and set with [jose.Header.Set] (a
	// registered name must have its registered type). The members the
	// encrypter writes itself (alg, enc, zip, kid, typ, cty, b64, epk, apu,
	// apv, iv, tag, p2s, p2c) and "crit" are refused with
	// [jose.ErrMalformed].
	Extra map[string]any
	// Critical names members of Extra that are critical extensions; they
	// are listed in "crit" (RFC 7516 §4.1.13, RFC 7515 §4.1.11), as
	// jws.SignerOptions.Critical does.
	Critical []string
	// Unprotected is the JWE Shared Unprotected Header (RFC 7516 §7.2.1),
	// used by the JSON serializations only: [Encrypter.Compact] refuses it.
	// Its member names must be disjoint from the protected header's and
	// every recipient header's; it may not hold "zip" or "crit".
	Unprotected *jose.Header
}

// Encrypter encrypts messages with one key management algorithm, one
// content encryption and one recipient key (RFC 7516 §5.1). It is safe for
// concurrent use.
type Encrypter struct {
	alg jwa.KeyAlgorithm
	enc jwa.ContentEncryption
	ke  jwa.KeyEncrypter // nil for dir, which has dirAEAD

	hdr         jose.Header // the protected header without per-message members
	zip         bool        // "zip":"DEF"
	apu, apv    []byte
	unprotected *jose.Header

	// fixedHeader is the encoded protected header when it is the same for
	// every message (no epk, iv, tag, p2s or p2c in it), else nil.
	fixedHeader []byte
	// dirAEAD is the content cipher of "dir", made once.
	dirAEAD cipher.AEAD
}

// NewEncrypter returns an Encrypter for alg and enc with the recipient's
// key:
//
//   - []byte: the shared key of "dir" and the AES key wrap algorithms, or
//     the password of PBES2 (RFC 7518 §4.4, §4.5, §4.7, §4.8);
//   - *rsa.PublicKey (RFC 7518 §4.2, §4.3);
//   - *ecdsa.PublicKey or *ecdh.PublicKey for ECDH-ES (RFC 7518 §4.6);
//   - *jose.JWK holding one of these, whose own "alg", "use" and "key_ops"
//     must permit alg (for "dir" the operation is "encrypt", for ECDH-ES
//     "deriveKey", otherwise "wrapKey").
//
// Private keys are accepted for their public part. opts may be nil.
//
// With an HPKE Integrated Encryption algorithm (jwa.HPKE0 ...,
// draft-ietf-jose-hpke-encrypt-20 §5, a draft) enc must be empty: HPKE
// encrypts the content, the header has no "enc", and the key is an
// *ecdh.PublicKey or *ecdsa.PublicKey on the algorithm's curve.
func NewEncrypter(alg jwa.KeyAlgorithm, enc jwa.ContentEncryption, key any, opts *EncrypterOptions) (*Encrypter, error) {
	if opts == nil {
		opts = &EncrypterOptions{}
	}
	if err := checkIntegratedEnc(alg, enc); err != nil {
		return nil, err
	}
	if !enc.Known() && !alg.IsHPKEIntegrated() {
		return nil, fmt.Errorf("jwe: content encryption %q: %w", enc, jose.ErrUnsupportedAlgorithm)
	}
	e := &Encrypter{alg: alg, enc: enc, apu: opts.APU, apv: opts.APV, unprotected: opts.Unprotected}
	var kid string
	var err error
	if alg == jwa.Direct {
		// The key is the CEK: the content cipher is made once, here, from
		// the key itself, with no copy of it; dir needs no key encrypter.
		if key, kid, err = recipientKey(alg, key); err != nil {
			return nil, fmt.Errorf("jwe: NewEncrypter: %w", err)
		}
		if e.dirAEAD, err = jwa.NewDirectCipher(enc, key); err != nil {
			return nil, fmt.Errorf("jwe: NewEncrypter: %w", err)
		}
	} else if e.ke, kid, err = newKeyEncrypter(alg, key, opts.PBES2Count); err != nil {
		return nil, fmt.Errorf("jwe: NewEncrypter: %w", err)
	}
	if opts.KeyID != "" {
		kid = opts.KeyID
	}
	var encoded []byte
	if encoded, err = protectedHeader(&e.hdr, alg, enc, kid, opts); err != nil {
		return nil, err
	}
	e.zip = opts.Compress
	if err := checkUnprotected(opts.Unprotected); err != nil {
		return nil, err
	}
	if h := opts.Unprotected; h != nil {
		names := e.hdr.Names()
		switch {
		case alg.IsECDH():
			names = append(names, "epk", "apu", "apv")
		case alg.IsGCMKW():
			names = append(names, "iv", "tag")
		case alg.IsPBES2():
			names = append(names, "p2s", "p2c")
		case alg.IsHPKE():
			names = append(names, "ek")
		}
		if err := checkDisjoint(names, h); err != nil {
			return nil, err
		}
	}
	if !alg.IsECDH() && !alg.IsPBES2() && !alg.IsGCMKW() && !alg.IsHPKE() {
		e.fixedHeader = encoded
	}
	return e, nil
}

// readRand fills b, a CEK or an IV, from crypto/rand when rnd is nil, as
// every exported function passes it. A non-nil rnd gives chosen bytes to
// the tests of published vectors (RFC 7516 Appendix A, RFC 7520 §5),
// which so run the code path of the exported functions; it must hold
// enough bytes.
func readRand(rnd io.Reader, b []byte) {
	if rnd != nil {
		tmp := make([]byte, len(b)) // keeps b on the caller's stack
		if _, err := io.ReadFull(rnd, tmp); err != nil {
			panic("jwe: chosen random bytes: " + err.Error())
		}
		copy(b, tmp)
		return
	}
	rand.Read(b) // never fails (crypto/rand, Go 1.24)
}

// sealed is the content encryption of one message.
type sealed struct {
	iv      []byte
	raw     []byte // ciphertext || tag
	tagSize int
}

// contentKey runs key management for one message and returns the content
// cipher, the encrypted key and the parameters that go into the header
// (nil for dir, whose cipher is made once), the CEK read from rnd
// ([readRand]).
func (e *Encrypter) contentKey(rnd io.Reader) (cipher.AEAD, []byte, *jwa.KeyParams, error) {
	if e.dirAEAD != nil {
		return e.dirAEAD, nil, nil, nil
	}
	if ie, ok := e.ke.(jwa.IntegratedEncrypter); ok { // HPKE Integrated Encryption (hpke.go)
		ek, aead, err := ie.IntegratedAEAD()
		if err != nil {
			return nil, nil, nil, err // jwa's words, under no bare "jwe:"
		}
		return aead, ek, nil, nil
	}
	p := &jwa.KeyParams{APU: e.apu, APV: e.apv}
	var cek []byte
	if !e.alg.IsDirect() {
		cek = make([]byte, e.enc.KeySize())
		readRand(rnd, cek)
	}
	cekOut, ek, err := e.ke.EncryptKey(cek, e.enc, p)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("jwe: key management: %w", err)
	}
	aead, err := jwa.NewContentCipher(e.enc, cekOut)
	clear(cekOut)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("jwe: content encryption: %w", err)
	}
	return aead, ek, p, nil
}

// seal encrypts plaintext (deflating it first when configured) with the
// Additional Authenticated Data of RFC 7516 §5.1 step 14, under an IV read
// from rnd ([readRand]).
func (e *Encrypter) seal(rnd io.Reader, aead cipher.AEAD, hdr, plaintext, aad []byte) *sealed {
	if e.zip {
		plaintext = deflate(plaintext)
	}
	ivSize, tagSize := e.enc.IVSize(), e.enc.TagSize()
	s := &sealed{iv: make([]byte, ivSize), tagSize: tagSize}
	readRand(rnd, s.iv)
	s.raw = aead.Seal(nil, s.iv, plaintext, aadInput(hdr, aad))
	return s
}

// aadInput returns ASCII(Encoded Protected Header), followed by '.' and
// BASE64URL(JWE AAD) when there is one (RFC 7516 §5.1 step 14).
func aadInput(hdr, aad []byte) []byte {
	if len(aad) == 0 {
		return hdr
	}
	b := make([]byte, 0, len(hdr)+1+b64enc.EncodedLen(len(aad)))
	b = append(b, hdr...)
	b = append(b, '.')
	return b64enc.Append(b, aad)
}
