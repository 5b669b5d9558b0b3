package jwa

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
	"hash"
	"sync"
)

// hmacSigner implements HS256, HS384 and HS512 (RFC 7518 §3.2), as both
// [Signer] and [Verifier].
//
// The key schedule (the hash states after K^ipad and K^opad) is computed once
// per HMAC instance; instances are kept in a pool and Reset between uses, so
// a MAC costs about the bare hash of the input and does not allocate.
type hmacSigner struct {
	alg  SignatureAlgorithm
	size int // MAC length in bytes, also the minimum key length
	pool sync.Pool
}

// hmacState is one pooled HMAC instance with a buffer for the MAC that
// Verify computes.
type hmacState struct {
	h   hash.Hash
	buf [sha512.Size]byte
}

var (
	_ Signer   = (*hmacSigner)(nil)
	_ Verifier = (*hmacSigner)(nil)
)

// newHMACSigner returns the HMAC signer for alg (HS256, HS384 or HS512).
// Keys shorter than the hash output are refused (RFC 7518 §3.2).
func newHMACSigner(alg SignatureAlgorithm, key []byte) (*hmacSigner, error) {
	var newHash func() hash.Hash
	switch alg {
	case HS256:
		newHash = sha256.New
	case HS384:
		newHash = sha512.New384
	case HS512:
		newHash = sha512.New
	default:
		panic("jwa: internal error: newHMACSigner with " + string(alg))
	}
	size := alg.Hash().Size()
	if len(key) < size {
		return nil, fmt.Errorf("%w: %s needs a key of at least %d bytes, got %d", ErrInvalidKey, alg, size, len(key))
	}
	k := append([]byte(nil), key...)
	s := &hmacSigner{alg: alg, size: size}
	s.pool.New = func() any {
		h := hmac.New(newHash, k)
		// The first Reset saves the inner and outer hash states, which
		// every later Reset and Sum restore instead of hashing the key.
		h.Reset()
		return &hmacState{h: h}
	}
	return s, nil
}

// Algorithm returns HS256, HS384 or HS512.
func (s *hmacSigner) Algorithm() SignatureAlgorithm { return s.alg }

// Sign appends the HMAC of signingInput to dst (RFC 7518 §3.2).
func (s *hmacSigner) Sign(dst, signingInput []byte) ([]byte, error) {
	st := s.pool.Get().(*hmacState)
	st.h.Write(signingInput)
	dst = st.h.Sum(dst)
	st.h.Reset()
	s.pool.Put(st)
	return dst, nil
}

// Verify checks, in constant time, that signature is the HMAC of
// signingInput (RFC 7518 §3.2). A MAC of any other length than the hash
// output, truncated ones included, is refused.
func (s *hmacSigner) Verify(signingInput, signature []byte) error {
	if len(signature) != s.size {
		return ErrVerification
	}
	st := s.pool.Get().(*hmacState)
	st.h.Write(signingInput)
	mac := st.h.Sum(st.buf[:0])
	ok := hmac.Equal(mac, signature)
	st.h.Reset()
	s.pool.Put(st)
	if !ok {
		return ErrVerification
	}
	return nil
}
