package jws

import (
	"bytes"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
)

// Default bounds of [NewX5CKeyFunc], applied where [X5COptions] leaves a
// field zero.
const (
	// DefaultX5CMaxCertificates is the most certificates an "x5c" header
	// may hold (the leaf and its intermediates).
	DefaultX5CMaxCertificates = 4
	// DefaultX5CMaxBytes is the most DER bytes the certificates of one
	// "x5c" header may hold together.
	DefaultX5CMaxBytes = 16 << 10
	// DefaultX5CMaxChainLength is the most certificates of a verified
	// chain, the leaf and the trusted root included.
	DefaultX5CMaxChainLength = 5
	// DefaultX5CMaxRSABits is the largest RSA key, in bits, of a
	// certificate in "x5c": 4096, the largest size certificate chains use
	// in practice (crypto/tls allows 8192 for the one chain of a
	// handshake; a token may make the Verifier check
	// jose.Limits.MaxKeyLookups chains).
	DefaultX5CMaxRSABits = 4096
)

// x5cBase64 is the padded standard alphabet of x5c (RFC 7515 §4.1.6).
var x5cBase64 = base64.StdEncoding.Strict()

// X5COptions configures [NewX5CKeyFunc].
type X5COptions struct {
	// Verify is passed to [x509.Certificate.Verify] for the leaf: Roots
	// (required: the trust anchors of these tokens), Intermediates (added
	// to the ones the token carries), KeyUsages (the extended key usages
	// the leaf must allow; empty means ExtKeyUsageServerAuth, as in
	// crypto/x509; use x509.ExtKeyUsageAny to accept any) and CurrentTime
	// (zero: now).
	Verify x509.VerifyOptions
	// MaxCertificates bounds the entries of "x5c" (0:
	// DefaultX5CMaxCertificates); MaxBytes their total DER size (0:
	// DefaultX5CMaxBytes). Both are checked before any certificate is
	// decoded or parsed.
	MaxCertificates, MaxBytes int
	// MaxChainLength bounds the verified chain, leaf and root included (0:
	// DefaultX5CMaxChainLength): only chains this short are accepted.
	MaxChainLength int
	// MaxRSABits bounds the RSA keys of the certificates in "x5c" (0:
	// DefaultX5CMaxRSABits), checked once they are parsed and before the
	// chain is verified: verifying a certificate's signature costs a public
	// RSA operation with its issuer's key, which the token chooses, and
	// whose cost grows with the square of the key's size and with the
	// length of its exponent.
	MaxRSABits int
	// AllowUnprotected lets "x5c" come from an unprotected header of a JWS
	// JSON Serialization (RFC 7515 §7.2.1), which the signature does not
	// cover: anyone who holds the token may replace it with another chain
	// that verifies for the same key (another certificate of the signer's
	// key, with another subject), so a caller that opts in must identify
	// the signer by [Message].Chain, the chain verified. By default such
	// an "x5c" is refused with ErrKeyNotFound, before any certificate is
	// decoded.
	AllowUnprotected bool
}

// NewX5CKeyFunc returns a key function for [VerifyOptions].KeyFunc that
// takes the verification key from the token's "x5c" header (RFC 7515
// §4.1.6) after validating its certificate chain (RFC 5280, as crypto/x509
// implements it) against opts.Verify: the chain must lead from the first
// certificate, the leaf, to one of opts.Verify.Roots, and the key is the
// leaf's public key, which must then fit the token's alg and verify its
// signature. A leaf whose key usage is set but lacks digitalSignature
// (RFC 5280 §4.2.1.3) is refused, and so is a token whose "x5t" or
// "x5t#S256" is not the leaf's thumbprint (checked before any certificate
// is parsed, as [jose.ParseJWK] checks those of a JWK). The function
// returns a [*CertifiedKey]: the leaf's key and the chain verified (the
// first one crypto/x509 found
// within MaxChainLength), which the Verifier reports as [Message].Chain.
// An "x5c" of an unprotected header is refused unless
// opts.AllowUnprotected.
//
// Without this option "x5c" is never read. The bounds of opts are checked
// before any certificate is decoded, and MaxRSABits once they are parsed,
// as is the rule that the certificates after the leaf have distinct
// subjects (crypto/x509 would try every order of intermediates of one
// subject, each try a signature check with a key of the token's choice:
// such an x5c is refused with [jose.ErrKeyNotFound]); then the chain is
// verified, once per call. The Verifier calls it at most
// [jose.Limits].MaxKeyLookups (4) times per token, over all its signatures,
// so one token costs at most that many chain verifications (the worst:
// MaxCertificates certificates of MaxBytes in total, each intermediate
// with an RSA key of MaxRSABits, and the chain-building of crypto/x509
// over them and opts' pools; SECURITY.md gives the cost).
//
// A token without "x5c", or whose chain does not verify, is refused with
// an error wrapping [jose.ErrKeyNotFound]; bounds exceeded with
// [jose.ErrLimitExceeded]; a certificate that does not parse with
// [jose.ErrMalformed]. NewX5CKeyFunc fails if opts.Verify.Roots is nil.
func NewX5CKeyFunc(opts X5COptions) (func(h *jose.Header) (any, error), error) {
	if opts.Verify.Roots == nil {
		return nil, errors.New("jws: X5COptions.Verify.Roots is nil: the trust anchors of x5c chains must be given")
	}
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&opts.MaxCertificates, DefaultX5CMaxCertificates)
	def(&opts.MaxBytes, DefaultX5CMaxBytes)
	def(&opts.MaxChainLength, DefaultX5CMaxChainLength)
	def(&opts.MaxRSABits, DefaultX5CMaxRSABits)
	return func(h *jose.Header) (any, error) {
		if h.Unprotected("x5c") && !opts.AllowUnprotected {
			return nil, fmt.Errorf("jws: x5c: in an unprotected header, which the signature does not cover (X5COptions.AllowUnprotected): %w", jose.ErrKeyNotFound)
		}
		ck, err := x5cKey(h, &opts)
		if err != nil {
			return nil, err // no typed nil in the interface
		}
		return ck, nil
	}, nil
}

// x5cKey validates the chain of h's x5c (standard base64 DER, leaf first)
// and returns the leaf's public key with the chain verified.
func x5cKey(h *jose.Header, opts *X5COptions) (*CertifiedKey, error) {
	x5c := h.X5C
	if len(x5c) == 0 {
		return nil, fmt.Errorf("jws: x5c: the token has no certificate chain: %w", jose.ErrKeyNotFound)
	}
	if len(x5c) > opts.MaxCertificates {
		return nil, fmt.Errorf("jws: x5c: %d certificates, more than %d: %w", len(x5c), opts.MaxCertificates, jose.ErrLimitExceeded)
	}
	total := 0
	for _, s := range x5c {
		total += x5cBase64.DecodedLen(len(s))
	}
	if total > opts.MaxBytes {
		return nil, fmt.Errorf("jws: x5c: %d bytes of certificates, more than %d: %w", total, opts.MaxBytes, jose.ErrLimitExceeded)
	}
	certs := make([]*x509.Certificate, len(x5c))
	for i, s := range x5c {
		der, err := x5cBase64.DecodeString(s)
		if err != nil {
			return nil, fmt.Errorf("jws: x5c: certificate %d is not base64: %w", i, jose.ErrMalformed)
		}
		if i == 0 {
			if err := x5cThumbprints(h, der); err != nil {
				return nil, err
			}
		}
		if certs[i], err = x509.ParseCertificate(der); err != nil {
			return nil, fmt.Errorf("jws: x5c: certificate %d: %v: %w", i, untrusted.Error(err), jose.ErrMalformed)
		}
		if k, ok := certs[i].PublicKey.(*rsa.PublicKey); ok && k.N.BitLen() > opts.MaxRSABits {
			return nil, fmt.Errorf("jws: x5c: certificate %d has a %d-bit RSA key, more than %d: %w", i, k.N.BitLen(), opts.MaxRSABits, jose.ErrLimitExceeded)
		}
	}
	// Certificates of one subject after the leaf: crypto/x509 finds a
	// certificate's possible issuers by name and tries every path through
	// them, so intermediates of one subject and one key (told apart by
	// their subjectAltName) make it try every order of them, each try a
	// signature check with a key of the token's choice (15 for three). A
	// chain names each issuer once (RFC 7515 §4.1.6: each certificate
	// certifies the one before it).
	for i := 2; i < len(certs); i++ {
		for j := 1; j < i; j++ {
			if bytes.Equal(certs[i].RawSubject, certs[j].RawSubject) {
				return nil, fmt.Errorf("jws: x5c: certificates %d and %d have the same subject: %w", j, i, jose.ErrKeyNotFound)
			}
		}
	}
	leaf := certs[0]
	if leaf.KeyUsage != 0 && leaf.KeyUsage&x509.KeyUsageDigitalSignature == 0 {
		return nil, fmt.Errorf("jws: x5c: the leaf certificate's key usage does not allow digital signatures: %w", jose.ErrKeyNotFound)
	}
	vo := opts.Verify
	vo.Intermediates = x509.NewCertPool()
	if opts.Verify.Intermediates != nil {
		vo.Intermediates = opts.Verify.Intermediates.Clone()
	}
	for _, c := range certs[1:] {
		vo.Intermediates.AddCert(c)
	}
	chains, err := leaf.Verify(vo)
	if err != nil {
		return nil, fmt.Errorf("jws: x5c: %v: %w", untrusted.Error(err), jose.ErrKeyNotFound)
	}
	for _, ch := range chains {
		if len(ch) <= opts.MaxChainLength {
			return &CertifiedKey{Key: leaf.PublicKey, Chain: ch}, nil
		}
	}
	return nil, fmt.Errorf("jws: x5c: every verified chain is longer than %d certificates: %w", opts.MaxChainLength, jose.ErrLimitExceeded)
}

// x5cThumbprints checks that the "x5t" and "x5t#S256" of h (RFC 7515
// §4.1.7, §4.1.8), when present, are the thumbprints of leaf, the DER of
// the first certificate of its "x5c", as jose.ParseJWK checks them in a
// JWK: a header naming another certificate than the leaf would tell an
// application that reads it of another signer than [Message].Chain's.
// It is checked before any certificate is parsed.
func x5cThumbprints(h *jose.Header, leaf []byte) error {
	if h.X5T != "" {
		want := sha1.Sum(leaf)
		if got, err := jose.Base64URLDecode(h.X5T); err != nil || !bytes.Equal(got, want[:]) {
			return fmt.Errorf("jws: x5t is not the SHA-1 thumbprint of the x5c leaf certificate: %w", jose.ErrKeyNotFound)
		}
	}
	if h.X5TS256 != "" {
		want := sha256.Sum256(leaf)
		if got, err := jose.Base64URLDecode(h.X5TS256); err != nil || !bytes.Equal(got, want[:]) {
			return fmt.Errorf("jws: x5t#S256 is not the SHA-256 thumbprint of the x5c leaf certificate: %w", jose.ErrKeyNotFound)
		}
	}
	return nil
}
