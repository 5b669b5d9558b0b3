package jws

import (
	"crypto"
	"crypto/rsa"
	"fmt"
	"strings"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/internal/headers"
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
	// alg, kid, typ, cty, b64 or crit, nor a member only a JWE has (enc,
	// zip, epk, apu, apv, iv, tag, p2s, p2c, ek: RFC 7516 §4.1, RFC 7518
	// §4.6.1, §4.7.1, §4.8.1; "enc" is what marks a JWE, RFC 7516 §9):
	// NewSigner refuses them with [jose.ErrMalformed].
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
	// nor "b64", nor a member only a JWE has (as Extra). The compact
	// serialization has no unprotected header.
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
			return nil, fmt.Errorf("jws: NewSigner: %w", err)
		}
		if kid == "" {
			kid = jwk.KeyID
		}
		key = jwk.Key
	}
	js, err := jwa.NewSigner(alg, key)
	if err != nil {
		return nil, fmt.Errorf("jws: NewSigner: %w", err)
	}
	s := &Signer{alg: alg, signer: js, unencoded: opts.Unencoded, sigSize: signatureSize(alg, key)}
	h := &s.hdr
	*h = jose.Header{Algorithm: string(alg), KeyID: kid, Type: opts.Type, ContentType: opts.ContentType}
	if opts.Unencoded {
		h.B64, h.Critical = new(bool), []string{"b64"}
	}
	if name := jweOnlyMember(opts.Extra); name != "" {
		return nil, fmt.Errorf("jws: SignerOptions: %w", errJWEOnly(name))
	}
	if err := headers.SetExtensions(h, opts.Extra, opts.Critical, signerOwned...); err != nil {
		return nil, fmt.Errorf("jws: SignerOptions: %w", err)
	}
	if s.protB64, s.protected, err = headers.EncodeProtected(h); err != nil {
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

// jweOnly are the registered members only a JWE header has (RFC 7516
// §4.1.2-4.1.3, RFC 7518 §4.6.1, §4.7.1, §4.8.1) and ek (the HPKE draft's,
// which package jose reads only in a JWE header too): a Signer never writes
// them. "enc" is how a JOSE Header is known to be a JWE's (RFC 7516 §9); a
// JWS carrying it could be taken for a JWE by another implementation.
var jweOnly = []string{"enc", "zip", "epk", "apu", "apv", "iv", "tag", "p2s", "p2c", "ek"}

// jweOnlyMember returns the first name of jweOnly that extra holds, or "".
func jweOnlyMember(extra map[string]any) string {
	for _, name := range jweOnly {
		if _, ok := extra[name]; ok {
			return name
		}
	}
	return ""
}

// errJWEOnly refuses the JWE-only member name in a header a Signer would
// write.
func errJWEOnly(name string) error {
	return fmt.Errorf("header member %s is a JWE header member, which a JWS never has (RFC 7516 §4.1, §9): %w", untrusted.Quote(name), jose.ErrMalformed)
}

// Algorithm returns the algorithm the Signer was made for, its "alg"
// header (RFC 7515 §4.1.1).
func (s *Signer) Algorithm() jwa.SignatureAlgorithm { return s.alg }

// WithHeader returns a copy of s whose signatures carry h as their
// per-signature unprotected header in the JSON serializations (RFC 7515
// §7.2.1), as SignerOptions.Header does. h's names must be disjoint from the
// protected header's, and it may hold neither "crit" nor "b64", nor a member
// only a JWE has (enc, zip, epk, apu, apv, iv, tag, p2s, p2c, ek: RFC 7516
// §4.1, §9).
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
	for _, name := range jweOnly {
		if h.Has(name) {
			return fmt.Errorf("jws: unprotected header: %w", errJWEOnly(name))
		}
	}
	if _, err := jose.MergeJOSEHeader(s.protected, h); err != nil {
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
	case jwa.ES256, jwa.ES256K, jwa.EdDSA, jwa.Ed25519:
		return 64
	case jwa.ES384:
		return 96
	case jwa.ES512:
		return 132
	case jwa.MLDSA44: // FIPS 204 Table 2
		return 2420
	case jwa.MLDSA65:
		return 3309
	case jwa.MLDSA87:
		return 4627
	}
	if s, ok := key.(crypto.Signer); ok {
		if pub, ok := s.Public().(*rsa.PublicKey); ok {
			return pub.Size()
		}
	}
	return 0
}

// appendSigningInput appends the JWS Signing Input (RFC 7515 §5.1 step 5,
// RFC 7797 §3) for payload to dst.
func (s *Signer) appendSigningInput(dst, payload []byte) []byte {
	dst = append(dst, s.protB64...)
	dst = append(dst, '.')
	if s.unencoded {
		return append(dst, payload...)
	}
	return b64enc.Append(dst, payload)
}

func (s *Signer) sign(payload []byte) ([]byte, error) {
	input := s.appendSigningInput(make([]byte, 0, len(s.protB64)+1+b64enc.EncodedLen(len(payload))), payload)
	sig, err := s.signer.Sign(nil, input)
	if err != nil {
		return nil, fmt.Errorf("jws: signing: %w", err)
	}
	return sig, nil
}

func isNone(alg string) bool { return strings.EqualFold(alg, "none") }
