//go:build go1.27

package jwa

import (
	"crypto"
	"crypto/ed25519"
	"crypto/mldsa"
	"crypto/rand"
	"fmt"
)

// mldsaAlgorithms lists the ML-DSA algorithms this build implements.
var mldsaAlgorithms = []SignatureAlgorithm{MLDSA44, MLDSA65, MLDSA87}

// mldsaSigner implements ML-DSA-44, ML-DSA-65 and ML-DSA-87 (RFC 9964 §2)
// with a local key or a crypto.Signer.
type mldsaSigner struct {
	alg    SignatureAlgorithm
	size   int               // signature size of the parameter set
	priv   *mldsa.PrivateKey // the caller's key (immutable), or nil
	signer crypto.Signer     // used when priv is nil
	check  Verifier          // checks signer's signatures (deviceCheck)
}

// mldsaVerifier checks ML-DSA signatures.
type mldsaVerifier struct {
	alg  SignatureAlgorithm
	size int
	pub  *mldsa.PublicKey
}

var (
	_ Signer   = (*mldsaSigner)(nil)
	_ Verifier = (*mldsaVerifier)(nil)
)

// MLDSAParameters returns the FIPS 204 parameter set of an ML-DSA algorithm
// (RFC 9964 §2), and false for any other algorithm.
func MLDSAParameters(alg SignatureAlgorithm) (mldsa.Parameters, bool) {
	switch alg {
	case MLDSA44:
		return mldsa.MLDSA44(), true
	case MLDSA65:
		return mldsa.MLDSA65(), true
	case MLDSA87:
		return mldsa.MLDSA87(), true
	}
	return mldsa.Parameters{}, false
}

// mldsaCheckPublic refuses a public key of another parameter set than
// alg's; given is the key as the caller gave it, which a refusal describes.
func mldsaCheckPublic(alg SignatureAlgorithm, pub *mldsa.PublicKey, given any) (mldsa.Parameters, error) {
	params, _ := MLDSAParameters(alg)
	if got := pub.Parameters(); got != params {
		return params, keyError(string(alg), alg.KeyNeeds(), given)
	}
	return params, nil
}

// newMLDSASigner returns the signer for an ML-DSA algorithm. key is an
// *mldsa.PrivateKey or a crypto.Signer whose public key is an
// *mldsa.PublicKey, of alg's parameter set.
func newMLDSASigner(alg SignatureAlgorithm, key any) (Signer, error) {
	s := &mldsaSigner{alg: alg}
	var pub *mldsa.PublicKey
	switch k := key.(type) {
	case *mldsa.PrivateKey:
		if k == nil {
			return nil, sigKeyTypeError(alg, key)
		}
		s.priv, pub = k, k.PublicKey()
	case ed25519.PrivateKey:
		// Not its Public method: it panics on a key of the wrong length.
		return nil, sigKeyTypeError(alg, key)
	case crypto.Signer:
		p, ok := publicOf(k).(*mldsa.PublicKey)
		if !ok || p == nil {
			return nil, sigKeyTypeError(alg, key)
		}
		s.signer, pub = k, p
	default:
		return nil, sigKeyTypeError(alg, key)
	}
	params, err := mldsaCheckPublic(alg, pub, key)
	if err != nil {
		return nil, err
	}
	s.size = params.SignatureSize()
	if s.signer != nil {
		if s.check, err = deviceCheck(alg, pub); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Algorithm returns ML-DSA-44, ML-DSA-65 or ML-DSA-87.
func (s *mldsaSigner) Algorithm() SignatureAlgorithm { return s.alg }

// Sign appends the ML-DSA signature of signingInput (RFC 9964 §2: pure
// ML-DSA, empty context, hedged signing per FIPS 204 §3.4) to dst.
func (s *mldsaSigner) Sign(dst, signingInput []byte) ([]byte, error) {
	var sig []byte
	var err error
	if s.priv != nil {
		sig, err = s.priv.Sign(nil, signingInput, nil)
	} else {
		sig, err = s.signer.Sign(rand.Reader, signingInput, crypto.Hash(0))
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

// newMLDSAVerifier returns the verifier for an ML-DSA algorithm. key is an
// *mldsa.PublicKey, or an *mldsa.PrivateKey or crypto.Signer standing for
// its public key, of alg's parameter set.
func newMLDSAVerifier(alg SignatureAlgorithm, key any) (Verifier, error) {
	var pub *mldsa.PublicKey
	switch k := key.(type) {
	case *mldsa.PublicKey:
		pub = k
	case *mldsa.PrivateKey:
		if k != nil {
			pub = k.PublicKey()
		}
	case ed25519.PrivateKey, ed25519.PublicKey:
		// Not the Public method: it panics on a key of the wrong length.
	case crypto.Signer:
		pub, _ = publicOf(k).(*mldsa.PublicKey)
	}
	if pub == nil {
		return nil, sigKeyTypeError(alg, key)
	}
	params, err := mldsaCheckPublic(alg, pub, key)
	if err != nil {
		return nil, err
	}
	return &mldsaVerifier{alg: alg, size: params.SignatureSize(), pub: pub}, nil
}

// Algorithm returns ML-DSA-44, ML-DSA-65 or ML-DSA-87.
func (v *mldsaVerifier) Algorithm() SignatureAlgorithm { return v.alg }

// Verify checks an ML-DSA signature of signingInput (RFC 9964 §2,
// FIPS 204 §5.3, empty context). A signature of any other length than the
// parameter set's is refused before any arithmetic.
func (v *mldsaVerifier) Verify(signingInput, signature []byte) error {
	if len(signature) != v.size || mldsa.Verify(v.pub, signingInput, signature, nil) != nil {
		return ErrVerification
	}
	return nil
}

// mldsaNilKey reports whether key is a nil *mldsa.PrivateKey or
// *mldsa.PublicKey, whose methods would panic.
func mldsaNilKey(key any) bool {
	switch k := key.(type) {
	case *mldsa.PrivateKey:
		return k == nil
	case *mldsa.PublicKey:
		return k == nil
	}
	return false
}

// mldsaIsPublic reports whether key is an ML-DSA public key.
func mldsaIsPublic(key any) bool {
	_, ok := key.(*mldsa.PublicKey)
	return ok
}

// mldsaFitsKey reports whether key (or its public half) is an ML-DSA key of
// alg's parameter set (RFC 9964 §2).
func mldsaFitsKey(alg SignatureAlgorithm, key any) bool {
	params, ok := MLDSAParameters(alg)
	if !ok {
		return false
	}
	var pub *mldsa.PublicKey
	switch k := key.(type) {
	case *mldsa.PublicKey:
		pub = k
	case *mldsa.PrivateKey:
		if k != nil {
			pub = k.PublicKey()
		}
	case ed25519.PrivateKey, ed25519.PublicKey:
		// Not the Public method: it panics on a key of the wrong length.
	case crypto.Signer:
		pub, _ = publicOf(k).(*mldsa.PublicKey)
	}
	return pub != nil && pub.Parameters() == params
}

// mldsaDescribe describes an ML-DSA key for [DescribeKey].
func mldsaDescribe(key any) (string, bool) {
	switch k := key.(type) {
	case *mldsa.PrivateKey:
		if k == nil {
			return "an empty ML-DSA private key", true
		}
		return mldsaParams(func() string { return k.PublicKey().Parameters().String() }, "private"), true
	case *mldsa.PublicKey:
		if k == nil {
			return "an empty ML-DSA public key", true
		}
		return mldsaParams(func() string { return k.Parameters().String() }, "public"), true
	}
	return "", false
}

// mldsaParams describes an ML-DSA key of the half half by its parameter
// set, name(). The zero mldsa.PrivateKey and mldsa.PublicKey have none,
// and crypto/mldsa panics when asked ("unknown parameters"): such a key
// is "an ML-DSA public key of no parameter set" (review rv23t).
func mldsaParams(name func() string, half string) (s string) {
	defer func() {
		if recover() != nil {
			s = "an ML-DSA " + half + " key of no parameter set"
		}
	}()
	return "an " + name() + " " + half + " key"
}
