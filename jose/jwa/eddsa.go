package jwa

import (
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/subtle"
	"fmt"
)

// eddsaSigner implements EdDSA with Ed25519 keys (RFC 8037 §3.1) and the
// fully-specified Ed25519 (RFC 9864 §2.2), with a local key or a
// crypto.Signer. Ed448 is not supported.
type eddsaSigner struct {
	alg    SignatureAlgorithm
	priv   ed25519.PrivateKey // a checked copy of the caller's key, or nil
	signer crypto.Signer      // used when priv is nil
	check  Verifier           // checks signer's signatures (deviceCheck)
}

// eddsaVerifier checks EdDSA (Ed25519 keys) and Ed25519 signatures.
type eddsaVerifier struct {
	alg SignatureAlgorithm
	pub ed25519.PublicKey
}

var (
	_ Signer   = (*eddsaSigner)(nil)
	_ Verifier = (*eddsaVerifier)(nil)
)

// newEdDSASigner returns the signer for EdDSA or Ed25519.
func newEdDSASigner(alg SignatureAlgorithm, key any) (*eddsaSigner, error) {
	s := &eddsaSigner{alg: alg}
	switch k := key.(type) {
	case ed25519.PrivateKey:
		if len(k) != ed25519.PrivateKeySize {
			return nil, keyError(string(alg), alg.KeyNeeds(), k)
		}
		// crypto/ed25519 trusts the public half stored in the private key;
		// signing with a wrong one would leak the secret scalar.
		want := ed25519.NewKeyFromSeed(k.Seed())
		if subtle.ConstantTimeCompare(want, k) != 1 {
			return nil, fmt.Errorf("jwa: %s with an Ed25519 private key whose public half does not match its seed: %w", alg, ErrInvalidKey)
		}
		s.priv = want
	case crypto.Signer:
		pub, ok := publicOf(k).(ed25519.PublicKey)
		if !ok {
			return nil, sigKeyTypeError(alg, key)
		}
		if len(pub) != ed25519.PublicKeySize {
			return nil, keyError(string(alg), alg.KeyNeeds(), key)
		}
		check, err := deviceCheck(alg, pub)
		if err != nil {
			return nil, err
		}
		s.signer, s.check = k, check
	default:
		return nil, sigKeyTypeError(alg, key)
	}
	return s, nil
}

// Algorithm returns EdDSA or Ed25519.
func (s *eddsaSigner) Algorithm() SignatureAlgorithm { return s.alg }

// Sign appends the 64-byte Ed25519 signature of signingInput (RFC 8037 §3.1,
// RFC 8032 §5.1.6) to dst.
func (s *eddsaSigner) Sign(dst, signingInput []byte) ([]byte, error) {
	if s.priv != nil {
		return append(dst, ed25519.Sign(s.priv, signingInput)...), nil
	}
	sig, err := s.signer.Sign(rand.Reader, signingInput, crypto.Hash(0))
	if err != nil {
		return dst, signerError(s.alg, err)
	}
	if len(sig) != ed25519.SignatureSize {
		return dst, signerAnswerError(s.alg, fmt.Sprintf("a signature of %d bytes, want %d", len(sig), ed25519.SignatureSize))
	}
	if err := deviceVerify(s.alg, s.check, signingInput, sig); err != nil {
		return dst, err
	}
	return append(dst, sig...), nil
}

// newEdDSAVerifier returns the verifier for EdDSA or Ed25519.
func newEdDSAVerifier(alg SignatureAlgorithm, key any) (*eddsaVerifier, error) {
	pub, ok := key.(ed25519.PublicKey)
	if !ok {
		return nil, sigKeyTypeError(alg, key)
	}
	if len(pub) != ed25519.PublicKeySize {
		return nil, keyError(string(alg), alg.KeyNeeds(), pub)
	}
	return &eddsaVerifier{alg: alg, pub: append(ed25519.PublicKey(nil), pub...)}, nil
}

// Algorithm returns EdDSA or Ed25519.
func (v *eddsaVerifier) Algorithm() SignatureAlgorithm { return v.alg }

// Verify checks an Ed25519 signature of signingInput (RFC 8037 §3.1,
// RFC 8032 §5.1.7). Signatures of any other length than 64 bytes are refused.
func (v *eddsaVerifier) Verify(signingInput, signature []byte) error {
	if len(signature) != ed25519.SignatureSize || !ed25519.Verify(v.pub, signingInput, signature) {
		return ErrVerification
	}
	return nil
}
