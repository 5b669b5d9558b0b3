package jwa

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"fmt"

	"github.com/josebench/josebench/jose/internal/keytext"
)

// RSA modulus sizes accepted for signatures. RFC 7518 §3.3 and §3.5 require
// 2048 bits or more; the upper bound keeps a hostile key from making a
// verification arbitrarily slow.
const (
	rsaSigMinBits = 2048
	rsaSigMaxBits = 16384
)

// rsaSigner implements RS256, RS384, RS512 (RSASSA-PKCS1-v1_5, RFC 7518 §3.3)
// and PS256, PS384, PS512 (RSASSA-PSS, RFC 7518 §3.5) with a local key or a
// crypto.Signer.
type rsaSigner struct {
	alg    SignatureAlgorithm
	hash   crypto.Hash
	pss    bool
	size   int             // signature length: the modulus length in bytes
	priv   *rsa.PrivateKey // a validated, precomputed copy of the caller's key, or nil
	signer crypto.Signer   // used when priv is nil
	check  Verifier        // checks signer's signatures (deviceCheck)
}

// rsaVerifier checks RS256, RS384, RS512, PS256, PS384 and PS512 signatures.
type rsaVerifier struct {
	alg  SignatureAlgorithm
	hash crypto.Hash
	pss  bool
	pub  *rsa.PublicKey
}

var (
	_ Signer   = (*rsaSigner)(nil)
	_ Verifier = (*rsaVerifier)(nil)
)

// rsaSigPSS reports whether alg is one of the PSS algorithms.
func rsaSigPSS(alg SignatureAlgorithm) bool {
	return alg == PS256 || alg == PS384 || alg == PS512
}

// rsaSigCheckPublic refuses RSA public keys outside the accepted sizes or
// with an unusable exponent.
func rsaSigCheckPublic(alg SignatureAlgorithm, pub *rsa.PublicKey) error {
	if pub == nil || pub.N == nil {
		return fmt.Errorf("jwa: %s: %w", keytext.One("an RSA key without a modulus", string(alg), alg.KeyNeeds()), ErrInvalidKey)
	}
	if bits := pub.N.BitLen(); bits < rsaSigMinBits || bits > rsaSigMaxBits {
		return fmt.Errorf("jwa: %s needs an RSA key of %d to %d bits, got %d: %w", alg, rsaSigMinBits, rsaSigMaxBits, bits, ErrInvalidKey)
	}
	if pub.E < 3 || pub.E&1 == 0 {
		return fmt.Errorf("jwa: %s with an RSA key of public exponent %d: %w", alg, pub.E, ErrInvalidKey)
	}
	return nil
}

// newRSASigner returns the signer for an RS or PS algorithm.
func newRSASigner(alg SignatureAlgorithm, key any) (*rsaSigner, error) {
	s := &rsaSigner{alg: alg, hash: alg.Hash(), pss: rsaSigPSS(alg)}
	switch k := key.(type) {
	case *rsa.PrivateKey:
		if err := rsaSigCheckPublic(alg, &k.PublicKey); err != nil {
			return nil, err
		}
		// Precompute on a copy: the caller's key stays untouched (and free
		// of data races), and every signature skips the key setup.
		c := new(rsa.PrivateKey)
		*c = *k
		c.Precompute()
		if err := c.Validate(); err != nil {
			return nil, fmt.Errorf("jwa: %s with an invalid RSA private key: %v: %w", alg, err, ErrInvalidKey)
		}
		s.priv = c
		s.size = c.Size()
	case ed25519.PrivateKey:
		// Not its Public method: it panics on a key of the wrong length.
		return nil, sigKeyTypeError(alg, key)
	case crypto.Signer:
		pub, ok := publicOf(k).(*rsa.PublicKey)
		if !ok {
			return nil, sigKeyTypeError(alg, key)
		}
		if err := rsaSigCheckPublic(alg, pub); err != nil {
			return nil, err
		}
		check, err := deviceCheck(alg, pub)
		if err != nil {
			return nil, err
		}
		s.signer, s.check = k, check
		s.size = pub.Size()
	default:
		return nil, sigKeyTypeError(alg, key)
	}
	return s, nil
}

// Algorithm returns the RS or PS algorithm of s.
func (s *rsaSigner) Algorithm() SignatureAlgorithm { return s.alg }

// Sign appends the RSASSA-PKCS1-v1_5 (RFC 7518 §3.3) or RSASSA-PSS
// (RFC 7518 §3.5; salt as long as the hash) signature of signingInput to dst.
func (s *rsaSigner) Sign(dst, signingInput []byte) ([]byte, error) {
	scratch := sigScratchPool.Get().(*sigScratch)
	defer sigScratchPool.Put(scratch)
	digest := sigDigest(s.hash, signingInput, &scratch.digest)
	var sig []byte
	var err error
	switch {
	case s.priv != nil && s.pss:
		sig, err = rsa.SignPSS(rand.Reader, s.priv, s.hash, digest, rsaPSSOptions)
	case s.priv != nil:
		sig, err = rsa.SignPKCS1v15(nil, s.priv, s.hash, digest)
	case s.pss:
		// A crypto.Signer is foreign code that might keep the digest: give
		// it its own copy, not the pooled buffer.
		sig, err = s.signer.Sign(rand.Reader, bytes.Clone(digest), &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash, Hash: s.hash})
	default:
		sig, err = s.signer.Sign(rand.Reader, bytes.Clone(digest), s.hash)
	}
	switch {
	case err != nil && s.priv == nil:
		return dst, signerError(s.alg, err)
	case err != nil:
		return dst, fmt.Errorf("jwa: %s signing failed: %w", s.alg, err)
	case len(sig) != s.size: // only a crypto.Signer can answer so
		return dst, signerAnswerError(s.alg, fmt.Sprintf("a signature of %d bytes, want %d", len(sig), s.size))
	}
	if s.check != nil {
		if err := deviceVerify(s.alg, s.check, signingInput, sig); err != nil {
			return dst, err
		}
	}
	return append(dst, sig...), nil
}

// newRSAVerifier returns the verifier for an RS or PS algorithm.
func newRSAVerifier(alg SignatureAlgorithm, key any) (*rsaVerifier, error) {
	pub, ok := key.(*rsa.PublicKey)
	if !ok {
		return nil, sigKeyTypeError(alg, key)
	}
	if err := rsaSigCheckPublic(alg, pub); err != nil {
		return nil, err
	}
	c := *pub // a copy the caller cannot change under us
	return &rsaVerifier{alg: alg, hash: alg.Hash(), pss: rsaSigPSS(alg), pub: &c}, nil
}

// Algorithm returns the RS or PS algorithm of v.
func (v *rsaVerifier) Algorithm() SignatureAlgorithm { return v.alg }

// rsaPSSOptions makes and requires a salt as long as the hash output, the
// only length RFC 7518 §3.5 allows.
var rsaPSSOptions = &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash}

// Verify checks an RSASSA-PKCS1-v1_5 (RFC 7518 §3.3) or RSASSA-PSS
// (RFC 7518 §3.5) signature of signingInput. A PSS signature must use a salt
// as long as the hash output and MGF1 with the same hash.
func (v *rsaVerifier) Verify(signingInput, signature []byte) error {
	if len(signature) != v.pub.Size() {
		return ErrVerification
	}
	scratch := sigScratchPool.Get().(*sigScratch)
	defer sigScratchPool.Put(scratch)
	digest := sigDigest(v.hash, signingInput, &scratch.digest)
	var err error
	if v.pss {
		err = rsa.VerifyPSS(v.pub, v.hash, digest, signature, rsaPSSOptions)
	} else {
		err = rsa.VerifyPKCS1v15(v.pub, v.hash, digest, signature)
	}
	if err != nil {
		return ErrVerification
	}
	return nil
}
