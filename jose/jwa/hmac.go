package jwa

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"encoding"
	"hash"
	"sync"
)

// hmacSigner implements HS256, HS384 and HS512 (RFC 7518 §3.2), as both
// [Signer] and [Verifier], with the construction of RFC 2104 §2 written out
// over the hash states of crypto/sha256 and crypto/sha512.
//
// The key schedule is computed once, when the signer is made: the inner and
// outer hash states after absorbing K XOR ipad and K XOR opad, kept
// marshalled. A MAC takes a pair of hash states from a pool shared by every
// key of its hash function, restores the key's two states into it (a copy
// of about 100 bytes each) and hashes the input; so a MAC costs about the
// bare hash of the input, does not allocate, takes no lock, and making a
// signer costs two hash blocks and one allocation for the states. The
// struct holds no pointers (the algorithm and pool are indices, the states
// are found by length), so that allocation is of plain memory, which the
// garbage collector neither initialises nor scans (the allocation was
// about 45% of the setup's CPU time in a profile of signers made per
// request).
type hmacSigner struct {
	hash      uint8  // index of alg's hash in hmacAlgs and hmacPools
	size      uint8  // MAC length in bytes, also the minimum key length
	nIn, nOut uint16 // lengths of the marshalled inner and outer states
	// states holds the marshalled hash states after K^ipad (states[:nIn])
	// and K^opad (the nOut bytes that follow).
	states [2 * hmacStateSize]byte
}

// hmacAlgs are the algorithms of hmacPools, by index.
var hmacAlgs = [3]SignatureAlgorithm{HS256, HS384, HS512}

// hmacState is a pair of hash states, keyed by whichever signer took it
// last, with buffers for the inner hash and the MAC that Verify computes.
type hmacState struct {
	in, out  hash.Hash
	buf, sum [sha512.Size]byte
	pad      [128]byte // the padded key, while a signer is made (the largest block: SHA-512's)
}

// hmacPools hold hmacStates for SHA-256, SHA-384 and SHA-512.
var hmacPools = [3]sync.Pool{
	{New: func() any { return &hmacState{in: sha256.New(), out: sha256.New()} }},
	{New: func() any { return &hmacState{in: sha512.New384(), out: sha512.New384()} }},
	{New: func() any { return &hmacState{in: sha512.New(), out: sha512.New()} }},
}

var (
	_ Signer   = (*hmacSigner)(nil)
	_ Verifier = (*hmacSigner)(nil)
)

// newHMACSigner returns the HMAC signer for alg (HS256, HS384 or HS512).
// Keys shorter than the hash output are refused (RFC 7518 §3.2).
func newHMACSigner(alg SignatureAlgorithm, key []byte) (*hmacSigner, error) {
	var hi uint8
	switch alg {
	case HS256:
		hi = 0
	case HS384:
		hi = 1
	case HS512:
		hi = 2
	default:
		panic("jwa: internal error: newHMACSigner with " + string(alg))
	}
	pool := &hmacPools[hi]
	size := alg.Hash().Size()
	if len(key) < size {
		return nil, keyError(string(alg), alg.KeyNeeds(), key)
	}
	st := pool.Get().(*hmacState)
	defer pool.Put(st)
	// RFC 2104 §2: a key longer than the block is hashed first; the
	// padded key is XORed with ipad and opad.
	pad := st.pad[:st.in.BlockSize()]
	clear(pad)
	if len(key) > len(pad) {
		st.in.Reset()
		st.in.Write(key)
		copy(pad, st.in.Sum(st.buf[:0]))
	} else {
		copy(pad, key)
	}
	for i := range pad {
		pad[i] ^= 0x36
	}
	st.in.Reset()
	st.in.Write(pad)
	for i := range pad {
		pad[i] ^= 0x36 ^ 0x5c
	}
	st.out.Reset()
	st.out.Write(pad)
	clear(pad)
	s := &hmacSigner{hash: hi, size: uint8(size)}
	states, err := st.in.(encoding.BinaryAppender).AppendBinary(s.states[:0])
	if err != nil {
		panic("jwa: internal error: " + err.Error())
	}
	n := len(states)
	if states, err = st.out.(encoding.BinaryAppender).AppendBinary(states); err != nil || &states[0] != &s.states[0] {
		panic("jwa: internal error: HMAC state does not marshal in place")
	}
	s.nIn, s.nOut = uint16(n), uint16(len(states)-n)
	// The pooled state goes back holding only this key's schedule, as
	// after any MAC: the hashed key (the HMAC key itself) is cleared, and
	// restoring both states overwrites the block buffer where hashing a
	// long key left its last bytes.
	clear(st.buf[:])
	s.restore(st)
	return s, nil
}

// hmacStateSize bounds the marshalled state of a SHA-2 hash (SHA-512's is
// the largest: magic, 8 words, a block and the length).
const hmacStateSize = 4 + 64 + 128 + 8

// Algorithm returns HS256, HS384 or HS512.
func (s *hmacSigner) Algorithm() SignatureAlgorithm { return hmacAlgs[s.hash] }

// inner and outer return the marshalled hash states after K^ipad and
// K^opad.
func (s *hmacSigner) inner() []byte { return s.states[:s.nIn:s.nIn] }
func (s *hmacSigner) outer() []byte { return s.states[s.nIn : s.nIn+s.nOut : s.nIn+s.nOut] }

// restore sets st's hash states to s's key schedule.
func (s *hmacSigner) restore(st *hmacState) {
	if st.in.(encoding.BinaryUnmarshaler).UnmarshalBinary(s.inner()) != nil ||
		st.out.(encoding.BinaryUnmarshaler).UnmarshalBinary(s.outer()) != nil {
		panic("jwa: internal error: HMAC state does not restore")
	}
}

// mac appends HMAC(K, input) to dst with st (RFC 2104 §2).
func (s *hmacSigner) mac(st *hmacState, dst, input []byte) []byte {
	s.restore(st)
	st.in.Write(input)
	st.out.Write(st.in.Sum(st.buf[:0]))
	return st.out.Sum(dst)
}

// Sign appends the HMAC of signingInput to dst (RFC 7518 §3.2).
func (s *hmacSigner) Sign(dst, signingInput []byte) ([]byte, error) {
	st := hmacPools[s.hash].Get().(*hmacState)
	dst = s.mac(st, dst, signingInput)
	hmacPools[s.hash].Put(st)
	return dst, nil
}

// Verify checks, in constant time, that signature is the HMAC of
// signingInput (RFC 7518 §3.2). A MAC of any other length than the hash
// output, truncated ones included, is refused.
func (s *hmacSigner) Verify(signingInput, signature []byte) error {
	if len(signature) != int(s.size) {
		return ErrVerification
	}
	st := hmacPools[s.hash].Get().(*hmacState)
	ok := hmac.Equal(s.mac(st, st.sum[:0], signingInput), signature)
	hmacPools[s.hash].Put(st)
	if !ok {
		return ErrVerification
	}
	return nil
}
