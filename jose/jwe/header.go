package jwe

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/internal/headers"
	"github.com/josebench/josebench/jose/jwa"
)

// appendB64String appends src base64url-encoded as a JSON string.
func appendB64String(dst, src []byte) []byte {
	dst = append(dst, '"')
	dst = b64enc.Append(dst, src)
	return append(dst, '"')
}

// epkToJWK wraps an ephemeral public key (RFC 7518 §4.6.1.1) as the JWK of
// an "epk" header member: the *ecdh.PublicKey itself, which the JWK writer
// writes as an "EC" key for the NIST curves and an "OKP" key for X25519,
// with no conversion (the receiver parses it as any JWK).
func epkToJWK(pub *ecdh.PublicKey) (*jose.JWK, error) {
	return &jose.JWK{Key: pub}, nil
}

// epkFromJWK converts the "epk" header member to the key jwa expects: an
// "EC" key's *ecdsa.PublicKey through its ECDH form, or an "OKP" X25519
// *ecdh.PublicKey. Anything else (private keys, RSA, Ed25519) is refused.
func epkFromJWK(j *jose.JWK) (*ecdh.PublicKey, error) {
	if j == nil {
		return nil, fmt.Errorf("jwe: missing epk header parameter: %w", jose.ErrMalformed)
	}
	switch k := j.Key.(type) {
	case *ecdsa.PublicKey:
		pub, err := k.ECDH()
		if err != nil {
			return nil, fmt.Errorf("jwe: epk: unsupported curve: %w", jose.ErrMalformed)
		}
		return pub, nil
	case *ecdh.PublicKey:
		if k.Curve() == ecdh.X25519() {
			return k, nil
		}
	}
	return nil, fmt.Errorf("jwe: epk is not an EC or X25519 public key: %w", jose.ErrMalformed)
}

// encrypterOwned are the protected members an Encrypter writes itself,
// which EncrypterOptions.Extra may not hold.
var encrypterOwned = []string{"alg", "enc", "zip", "kid", "typ", "cty", "b64", "epk", "apu", "apv", "iv", "tag", "p2s", "p2c", "ek"}

// protectedHeader sets *h to the protected header of opts for alg ("" for the
// general serialization, whose alg is per recipient) and enc, with kid as
// "kid", without the per-message key management members, and returns its
// encoding, checked as every
// Decrypter with the default limits will read it
// (headers.EncodeProtected).
func protectedHeader(h *jose.Header, alg jwa.KeyAlgorithm, enc jwa.ContentEncryption, kid string, opts *EncrypterOptions) ([]byte, error) {
	*h = jose.Header{Algorithm: string(alg), Encryption: string(enc), KeyID: kid, Type: opts.Type, ContentType: opts.ContentType}
	if opts.Compress {
		h.Compression = "DEF"
	}
	if err := headers.SetExtensions(h, opts.Extra, opts.Critical, encrypterOwned...); err != nil {
		return nil, fmt.Errorf("jwe: EncrypterOptions: %w", err)
	}
	encoded, _, err := headers.EncodeProtected(h)
	if err != nil {
		return nil, fmt.Errorf("jwe: protected header: %w", err)
	}
	return encoded, nil
}

// checkUnprotected refuses members that must be integrity protected
// ("zip", RFC 7516 §4.1.3; "crit", RFC 7515 §4.1.11) in an unprotected
// header, and a member a JWE reads kept in Extra (as a header read for a
// JWS keeps "zip" or "epk", [jose.HeaderUse]): written from there, it would
// skip its type check and the key-management rules, and every Decrypter
// would read it.
func checkUnprotected(h *jose.Header) error {
	if h == nil {
		return nil
	}
	for _, name := range slices.Sorted(maps.Keys(h.Extra)) {
		if jose.JWEHeader.Reads(name) {
			return fmt.Errorf("jwe: header member %q in Extra: a JWE reads it, so it must be set in its field (jose.Header.Set)", name)
		}
	}
	if h.Compression != "" || h.Has("zip") {
		return errors.New(`jwe: "zip" must be in the protected header`)
	}
	if h.Critical != nil || h.Has("crit") {
		return errors.New(`jwe: "crit" must be in the protected header`)
	}
	return nil
}

// checkDisjoint refuses an unprotected header that repeats a protected
// member name (RFC 7516 §7.2.1).
func checkDisjoint(protected []string, h *jose.Header) error {
	for _, n := range protected {
		if h.Has(n) {
			return fmt.Errorf("jwe: header member %s is both protected and unprotected", untrusted.Quote(n))
		}
	}
	return nil
}

// encodedHeader returns the encoded protected header for a message whose
// key management produced p.
func (e *Encrypter) encodedHeader(p *jwa.KeyParams) ([]byte, error) {
	if e.fixedHeader != nil {
		return e.fixedHeader, nil
	}
	var buf [512]byte
	hj, err := e.protectedJSON(buf[:0], p)
	if err != nil {
		return nil, err
	}
	return b64enc.Append(nil, hj), nil
}

// protectedJSON appends the protected header of a message whose key
// management produced p to dst: the Encrypter's header with p's members
// (epk, apu, apv, iv, tag, p2s, p2c, ek) added, written by
// [jose.Header.AppendJSON].
func (e *Encrypter) protectedJSON(dst []byte, p *jwa.KeyParams) ([]byte, error) {
	h := e.hdr // shares Critical and Extra, which AppendJSON only reads
	if p != nil {
		if p.EPK != nil {
			epk, err := epkToJWK(p.EPK)
			if err != nil {
				return dst, err
			}
			h.EPK = epk
		}
		h.APU, h.APV, h.IV, h.Tag, h.P2S, h.P2C, h.EK = p.APU, p.APV, p.IV, p.Tag, p.P2S, p.P2C, p.EK
	}
	dst, err := h.AppendJSON(dst)
	if err != nil {
		return dst, fmt.Errorf("jwe: protected header: %w", err)
	}
	return dst, nil
}
