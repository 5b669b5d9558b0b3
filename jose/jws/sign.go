package jws

import (
	"bytes"
	"crypto"
	"crypto/rsa"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/jsonx"
	"github.com/josebench/josebench/jose/jwa"
)

// SignerOptions are the optional members of the JWS Protected Header a
// [Signer] writes (RFC 7515 §4). The zero value (or nil) gives a header with
// "alg" only.
type SignerOptions struct {
	KeyID       string // "kid" (RFC 7515 §4.1.4); defaults to the JWK's kid when the key is a *jose.JWK
	Type        string // "typ" (RFC 7515 §4.1.9)
	ContentType string // "cty" (RFC 7515 §4.1.10)
	// Extra holds more protected members (custom or registered ones without
	// a field above), each marshalled with encoding/json once and set with
	// [jose.Header.Set] (a registered name must have its registered type);
	// the header is written by [jose.Header.AppendJSON]. It may not hold
	// alg, kid, typ, cty, b64 or crit ([jose.Header.SetExtensions]).
	Extra map[string]any
	// Critical names members of Extra that are critical extensions; they
	// are listed in "crit" (RFC 7515 §4.1.11) after "b64".
	Critical []string
	// Unencoded selects the unencoded payload option of RFC 7797: the
	// header carries "b64": false and "crit": ["b64"], and the payload is
	// signed and transmitted as is. In the compact serialization such a
	// payload may not contain '.' (RFC 7797 §5.2) unless it is detached.
	Unencoded bool
	// Header is the per-signature unprotected header (RFC 7515 §7.2.1) of
	// the JSON serializations: written by [SignGeneral], and by
	// [Signer.Flattened] when its argument is nil. Its member names must be
	// disjoint from the protected header's, and it may hold neither "crit"
	// nor "b64". The compact serialization has no unprotected header.
	Header *jose.Header
}

// Signer signs payloads with one key and one algorithm under a fixed JWS
// Protected Header (RFC 7515 §5.1). The header is encoded once, in
// [NewSigner]; a Signer is safe for concurrent use.
type Signer struct {
	alg         jwa.SignatureAlgorithm
	signer      jwa.Signer
	protected   *jose.Header // the protected header, as the verifier will read it (often &hdr)
	hdr         jose.Header  // the protected header as written
	protB64     []byte       // BASE64URL(UTF8(JWS Protected Header))
	unencoded   bool         // RFC 7797 "b64": false
	sigSize     int          // expected signature length in bytes (a hint: 0 if unknown)
	unprotected *jose.Header // SignerOptions.Header
}

// NewSigner returns a Signer for alg with key (RFC 7515 §5.1).
//
// key is a []byte (HMAC), *rsa.PrivateKey, *ecdsa.PrivateKey,
// ed25519.PrivateKey, any other crypto.Signer, or a *jose.JWK holding one of
// them; a JWK must permit alg for signing (its "alg", "use" and "key_ops"),
// and its "kid" goes into the header unless opts.KeyID is set. Keys too weak
// for alg, or of the wrong kind, are refused (see jwa.NewSigner).
func NewSigner(alg jwa.SignatureAlgorithm, key any, opts *SignerOptions) (*Signer, error) {
	if opts == nil {
		opts = &SignerOptions{}
	}
	if isNone(string(alg)) {
		return nil, fmt.Errorf("jws: alg %q cannot sign: %w", alg, jose.ErrUnsupportedAlgorithm)
	}
	kid := opts.KeyID
	if jwk, ok := key.(*jose.JWK); ok {
		if jwk == nil || jwk.Key == nil {
			return nil, fmt.Errorf("jws: JWK holds no usable key: %w", jose.ErrInvalidKey)
		}
		if err := jwk.Permits(string(alg), jose.OpSign); err != nil {
			return nil, fmt.Errorf("jws: key: %w", err)
		}
		if kid == "" {
			kid = jwk.KeyID
		}
		key = jwk.Key
	}
	js, err := jwa.NewSigner(alg, key)
	if err != nil {
		return nil, fmt.Errorf("jws: key: %w", err)
	}
	s := &Signer{alg: alg, signer: js, unencoded: opts.Unencoded, sigSize: signatureSize(alg, key)}
	h := &s.hdr
	*h = jose.Header{Algorithm: string(alg), KeyID: kid, Type: opts.Type, ContentType: opts.ContentType}
	if opts.Unencoded {
		h.B64, h.Critical = new(bool), []string{"b64"}
	}
	if err := h.SetExtensions(opts.Extra, opts.Critical, signerOwned...); err != nil {
		return nil, fmt.Errorf("jws: SignerOptions: %w", err)
	}
	if s.protB64, s.protected, err = h.EncodeProtected(); err != nil {
		return nil, fmt.Errorf("jws: protected header: %w", err)
	}
	if opts.Header != nil {
		if err := s.checkUnprotected(opts.Header); err != nil {
			return nil, err
		}
		s.unprotected = opts.Header
	}
	return s, nil
}

// signerOwned are the protected members a Signer writes itself, which
// SignerOptions.Extra may not hold.
var signerOwned = []string{"alg", "kid", "typ", "cty", "b64"}

// Algorithm returns the algorithm the Signer was made for, its "alg"
// header (RFC 7515 §4.1.1).
func (s *Signer) Algorithm() jwa.SignatureAlgorithm { return s.alg }

// WithHeader returns a copy of s whose signatures carry h as their
// per-signature unprotected header in the JSON serializations (RFC 7515
// §7.2.1), as SignerOptions.Header does. h's names must be disjoint from the
// protected header's, and it may hold neither "crit" nor "b64".
func (s *Signer) WithHeader(h *jose.Header) (*Signer, error) {
	if h != nil {
		if err := s.checkUnprotected(h); err != nil {
			return nil, err
		}
	}
	c := *s
	c.unprotected = h
	return &c, nil
}

func (s *Signer) checkUnprotected(h *jose.Header) error {
	if h.Has("crit") || h.Has("b64") {
		return fmt.Errorf("jws: crit and b64 must be in the protected header: %w", jose.ErrMalformed)
	}
	if _, err := jose.MergeHeaders(s.protected, h); err != nil {
		return fmt.Errorf("jws: unprotected header: %w", err)
	}
	return nil
}

// signatureSize returns the length of alg's signatures with key, or 0 when
// it cannot tell. It only sizes buffers.
func signatureSize(alg jwa.SignatureAlgorithm, key any) int {
	switch alg {
	case jwa.HS256:
		return 32
	case jwa.HS384:
		return 48
	case jwa.HS512:
		return 64
	case jwa.ES256, jwa.EdDSA, jwa.Ed25519:
		return 64
	case jwa.ES384:
		return 96
	case jwa.ES512:
		return 132
	}
	if s, ok := key.(crypto.Signer); ok {
		if pub, ok := s.Public().(*rsa.PublicKey); ok {
			return pub.Size()
		}
	}
	return 0
}

// errDotInPayload reports an unencoded payload that the compact
// serialization cannot carry (RFC 7797 §5.2).
var errDotInPayload = errors.New("jws: unencoded payload contains '.' and cannot be in a compact JWS")

// Compact returns the JWS Compact Serialization of payload (RFC 7515 §7.1):
// BASE64URL(protected) '.' BASE64URL(payload) '.' BASE64URL(signature), or,
// with SignerOptions.Unencoded, the payload as is (RFC 7797 §5.2; it must
// not contain '.').
func (s *Signer) Compact(payload []byte) ([]byte, error) {
	return s.appendCompact(nil, payload, false)
}

// AppendCompact appends the JWS Compact Serialization of payload (RFC 7515
// §7.1), as [Signer.Compact] makes it, to dst and returns the extended
// buffer. A caller that reuses dst (dst[:0] of the previous token) signs
// without allocating once dst is large enough. payload must not overlap
// dst's spare capacity. On error dst is returned unchanged.
func (s *Signer) AppendCompact(dst, payload []byte) ([]byte, error) {
	out, err := s.appendCompact(dst, payload, false)
	if err != nil {
		return dst, err
	}
	return out, nil
}

// CompactDetached returns the compact serialization of payload with the
// payload left out, "header..signature" (RFC 7515 Appendix F); the
// recipient gets the payload by other means and calls
// [Verifier.VerifyDetached].
func (s *Signer) CompactDetached(payload []byte) ([]byte, error) {
	return s.appendCompact(nil, payload, true)
}

// appendCompact appends the compact serialization of payload to dst, with
// the payload left out if detached.
func (s *Signer) appendCompact(dst, payload []byte, detached bool) ([]byte, error) {
	if s.unencoded && !detached && bytes.IndexByte(payload, '.') >= 0 {
		return nil, errDotInPayload
	}
	plen := len(payload)
	if !s.unencoded {
		plen = jose.Base64URLEncodedLen(len(payload))
	}
	n := len(s.protB64) + 1 + plen // the signing input
	out := len(s.protB64) + 2 + jose.Base64URLEncodedLen(s.sigSize)
	if !detached {
		out += plen
	}
	// One buffer of the output's size (or the signing input's and the raw
	// signature's, if larger): the raw signature goes right after the
	// signing input and is copied (to the stack unless it is longer than
	// any RSA-4096 one) before its encoding overwrites it.
	base := len(dst)
	buf := slices.Grow(dst, max(n+s.sigSize, out))
	buf = s.appendSigningInput(buf, payload)
	sig, err := s.signer.Sign(buf[base+n:base+n], buf[base:base+n])
	if err != nil {
		return nil, fmt.Errorf("jws: signing: %w", err)
	}
	var tmp [maxStackSig]byte
	if len(sig) <= len(tmp) {
		sig = tmp[:copy(tmp[:], sig)]
	} else {
		sig = bytes.Clone(sig)
	}
	if detached {
		buf = append(buf[:base+len(s.protB64)], '.')
	}
	buf = append(buf, '.')
	return jose.AppendBase64URL(buf, sig), nil
}

// maxStackSig is the largest signature Compact copies to the stack: ES512's
// 132 bytes and RSA-4096's 512.
const maxStackSig = 512

// appendSigningInput appends the JWS Signing Input (RFC 7515 §5.1 step 5,
// RFC 7797 §3) for payload to dst.
func (s *Signer) appendSigningInput(dst, payload []byte) []byte {
	dst = append(dst, s.protB64...)
	dst = append(dst, '.')
	if s.unencoded {
		return append(dst, payload...)
	}
	return jose.AppendBase64URL(dst, payload)
}

func (s *Signer) sign(payload []byte) ([]byte, error) {
	input := s.appendSigningInput(make([]byte, 0, len(s.protB64)+1+jose.Base64URLEncodedLen(len(payload))), payload)
	sig, err := s.signer.Sign(nil, input)
	if err != nil {
		return nil, fmt.Errorf("jws: signing: %w", err)
	}
	return sig, nil
}

// Flattened returns the flattened JWS JSON Serialization of payload
// (RFC 7515 §7.2.2) with unprotected as its unprotected header ("header"),
// or the Signer's own (SignerOptions.Header) when unprotected is nil. The
// unprotected names must be disjoint from the protected header's, and may
// hold neither "crit" nor "b64". With SignerOptions.Unencoded the payload
// is a JSON string and must be valid UTF-8 (RFC 7797 §5.2).
func (s *Signer) Flattened(payload []byte, unprotected *jose.Header) ([]byte, error) {
	if unprotected == nil {
		unprotected = s.unprotected
	} else if err := s.checkUnprotected(unprotected); err != nil {
		return nil, err
	}
	b := []byte(`{"payload":`)
	b, err := appendPayload(b, payload, s.unencoded)
	if err != nil {
		return nil, err
	}
	b = append(b, ',')
	b, err = s.appendSignature(b, payload, unprotected)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// SignGeneral returns the general JWS JSON Serialization of payload
// (RFC 7515 §7.2.1) with one signature per signer, each with its protected
// header and its unprotected one (SignerOptions.Header, [Signer.WithHeader]).
// The signers must agree on SignerOptions.Unencoded (RFC 7797 §3).
func SignGeneral(payload []byte, signers ...*Signer) ([]byte, error) {
	if len(signers) == 0 {
		return nil, errors.New("jws: SignGeneral needs at least one signer")
	}
	for _, s := range signers[1:] {
		if s.unencoded != signers[0].unencoded {
			return nil, errors.New("jws: signers disagree on the b64 header (RFC 7797 §3)")
		}
	}
	b := []byte(`{"payload":`)
	b, err := appendPayload(b, payload, signers[0].unencoded)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"signatures":[`...)
	for i, s := range signers {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		b, err = s.appendSignature(b, payload, s.unprotected)
		if err != nil {
			return nil, err
		}
		b = append(b, '}')
	}
	return append(b, "]}"...), nil
}

func appendPayload(b, payload []byte, unencoded bool) ([]byte, error) {
	if !unencoded {
		b = append(b, '"')
		b = jose.AppendBase64URL(b, payload)
		return append(b, '"'), nil
	}
	if !utf8.Valid(payload) {
		return nil, errors.New("jws: unencoded payload is not valid UTF-8 and cannot be in a JWS JSON serialization")
	}
	return jsonx.AppendString(b, payload), nil
}

// appendSignature appends the members "protected", "header" and
// "signature" of one signature object.
func (s *Signer) appendSignature(b, payload []byte, unprotected *jose.Header) ([]byte, error) {
	if len(s.protB64) > 0 {
		b = append(b, `"protected":"`...)
		b = append(b, s.protB64...)
		b = append(b, `",`...)
	}
	if unprotected != nil {
		b = append(b, `"header":`...)
		var err error
		if b, err = unprotected.AppendJSON(b); err != nil {
			return nil, fmt.Errorf("jws: unprotected header: %w", err)
		}
		b = append(b, ',')
	}
	sig, err := s.sign(payload)
	if err != nil {
		return nil, err
	}
	b = append(b, `"signature":"`...)
	b = jose.AppendBase64URL(b, sig)
	return append(b, '"'), nil
}

func isNone(alg string) bool { return strings.EqualFold(alg, "none") }
