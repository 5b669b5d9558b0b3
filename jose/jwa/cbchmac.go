package jwa

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/binary"
	"fmt"
	"hash"
	"sync"
	"sync/atomic"
)

// cbcHMAC is AES_CBC_HMAC_SHA2 (RFC 7518 §5.2.2) as a [cipher.AEAD]. It
// holds no lock: each Seal or Open takes a state of its own, the AEAD's
// own one when no other call holds it (an atomic flag), else one from a
// pool (per-P caches, no shared mutex), so that one AEAD serves many
// goroutines in parallel. An AEAD made for one message, as every token
// with a wrapped, agreed or derived CEK makes it, never touches the pool:
// a sync.Pool's first use takes the runtime's global pool lock and
// allocates a cache per P.
type cbcHMAC struct {
	block  cipher.Block
	tagLen int              // T_LEN: half the key, the truncated MAC length
	hash   func() hash.Hash // of the HMAC
	macKey [32]byte         // MAC_KEY, the first tagLen bytes
	busy   atomic.Bool      // own is taken
	own    cbcState
	states sync.Pool // more *cbcState, for calls that find own taken
}

// cbcState is the per-call state of a cbcHMAC: an HMAC keyed with MAC_KEY
// (reset before each use) and CBC modes made on first use and re-aimed
// with SetIV afterwards, so that an AEAD used for many messages neither
// recomputes the HMAC key pads nor copies the AES key schedule for each.
type cbcState struct {
	mac      hash.Hash
	enc, dec cipher.BlockMode
	al       [8]byte // AL: the AAD length in bits, big-endian
	sum      [sha512.Size]byte
}

// NewCBCHMAC returns the AES_CBC_HMAC_SHA2 authenticated encryption of
// RFC 7518 §5.2 keyed with key, as a [cipher.AEAD]. The key size selects the
// algorithm exactly: 32 bytes is AES_128_CBC_HMAC_SHA_256 (A128CBC-HS256,
// §5.2.3), 48 bytes AES_192_CBC_HMAC_SHA_384 (A192CBC-HS384, §5.2.4) and 64
// bytes AES_256_CBC_HMAC_SHA_512 (A256CBC-HS512, §5.2.5); any other size is
// refused with [ErrInvalidKey]. The first half of key is MAC_KEY and the
// second ENC_KEY (§5.2.2.1).
//
// The nonce is the 16-byte IV. Seal returns the ciphertext E followed by the
// authentication tag T (§5.2.2.1); Open checks the tag, computed over
// AAD || IV || E || AL, in constant time before any decryption, and returns
// the single error [ErrDecryption] for any failure (bad tag, bad length, bad
// IV size, bad padding), with the bytes it wrote cleared, so that it offers no
// padding oracle. Seal panics on a nonce of the wrong size (a caller bug).
//
// The AEAD is safe for concurrent use.
func NewCBCHMAC(key []byte) (cipher.AEAD, error) {
	var h func() hash.Hash
	switch len(key) {
	case 32:
		h = sha256.New
	case 48:
		h = sha512.New384
	case 64:
		h = sha512.New
	default:
		return nil, fmt.Errorf("jwa: AES_CBC_HMAC_SHA2 key of %d bytes (want 32, 48 or 64): %w", len(key), ErrInvalidKey)
	}
	n := len(key) / 2
	block, err := aes.NewCipher(key[n:])
	if err != nil {
		return nil, fmt.Errorf("jwa: %v: %w", err, ErrInvalidKey)
	}
	c := &cbcHMAC{block: block, tagLen: n, hash: h}
	copy(c.macKey[:], key[:n])
	return c, nil
}

// NonceSize returns the IV size, 16 bytes (RFC 7518 §5.2.2.1).
func (c *cbcHMAC) NonceSize() int { return aes.BlockSize }

// Overhead returns the largest growth of a plaintext once sealed: a full
// block of PKCS #7 padding plus the tag.
func (c *cbcHMAC) Overhead() int { return aes.BlockSize + c.tagLen }

// Seal implements [cipher.AEAD] (RFC 7518 §5.2.2.1). To reuse plaintext's
// storage for the output, use plaintext[:0] as dst; otherwise dst must not
// overlap plaintext.
func (c *cbcHMAC) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	if len(nonce) != aes.BlockSize {
		panic("jwa: incorrect nonce length given to AES_CBC_HMAC_SHA2")
	}
	padLen := aes.BlockSize - len(plaintext)%aes.BlockSize
	ctLen := len(plaintext) + padLen
	ret, out := kwGrow(dst, ctLen+c.tagLen)
	copy(out, plaintext)
	for i := len(plaintext); i < ctLen; i++ {
		out[i] = byte(padLen)
	}
	ct := out[:ctLen]

	st := c.getState()
	st.enc = cbcMode(st.enc, c.block, nonce, cipher.NewCBCEncrypter)
	st.enc.CryptBlocks(ct, ct)
	copy(out[ctLen:], c.tag(st, nonce, ct, additionalData))
	c.putState(st)
	return ret
}

// Open implements [cipher.AEAD] (RFC 7518 §5.2.2.2). To reuse ciphertext's
// storage for the output, use ciphertext[:0] as dst; otherwise dst must not
// overlap ciphertext.
func (c *cbcHMAC) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	if len(nonce) != aes.BlockSize || len(ciphertext) < aes.BlockSize+c.tagLen ||
		(len(ciphertext)-c.tagLen)%aes.BlockSize != 0 {
		return nil, ErrDecryption
	}
	ct := ciphertext[:len(ciphertext)-c.tagLen]
	st := c.getState()
	if !hmac.Equal(c.tag(st, nonce, ct, additionalData), ciphertext[len(ct):]) {
		c.putState(st)
		return nil, ErrDecryption
	}
	ret, out := kwGrow(dst, len(ct))
	st.dec = cbcMode(st.dec, c.block, nonce, cipher.NewCBCDecrypter)
	st.dec.CryptBlocks(out, ct)
	c.putState(st)

	// The MAC has been checked, so the padding was made by the key holder;
	// it is still checked in constant time, and refused with the same error.
	padLen := int(out[len(out)-1])
	good := subtle.ConstantTimeLessOrEq(1, padLen) & subtle.ConstantTimeLessOrEq(padLen, aes.BlockSize)
	for i := 1; i <= aes.BlockSize; i++ {
		// Byte len(out)-i is padding iff i <= padLen.
		inPad := subtle.ConstantTimeLessOrEq(i, padLen)
		eq := subtle.ConstantTimeByteEq(out[len(out)-i], byte(padLen))
		good &= eq | (inPad ^ 1)
	}
	if good != 1 {
		clear(out)
		return nil, ErrDecryption
	}
	return ret[:len(ret)-padLen], nil
}

// getState returns a state that the caller holds alone until putState:
// the AEAD's own, or another one.
func (c *cbcHMAC) getState() *cbcState {
	st := &c.own
	if !c.busy.CompareAndSwap(false, true) {
		if st, _ = c.states.Get().(*cbcState); st != nil {
			return st
		}
		st = new(cbcState)
	}
	if st.mac == nil {
		st.mac = hmac.New(c.hash, c.macKey[:c.tagLen])
	}
	return st
}

// putState gives back a state that getState returned.
func (c *cbcHMAC) putState(st *cbcState) {
	if st == &c.own {
		c.busy.Store(false)
		return
	}
	c.states.Put(st)
}

// cbcMode returns m aimed at iv, or a new mode made with newMode if m is
// nil or cannot be re-aimed.
func cbcMode(m cipher.BlockMode, b cipher.Block, iv []byte, newMode func(cipher.Block, []byte) cipher.BlockMode) cipher.BlockMode {
	if s, ok := m.(interface{ SetIV([]byte) }); ok {
		s.SetIV(iv)
		return m
	}
	return newMode(b, iv)
}

// tag returns T, the HMAC of AAD || IV || E || AL truncated to T_LEN
// (RFC 7518 §5.2.2.1 steps 5-6), computed with st, which the caller holds
// alone; the result aliases st.sum.
func (c *cbcHMAC) tag(st *cbcState, iv, ct, aad []byte) []byte {
	st.mac.Reset()
	st.mac.Write(aad)
	st.mac.Write(iv)
	st.mac.Write(ct)
	binary.BigEndian.PutUint64(st.al[:], uint64(len(aad))*8)
	st.mac.Write(st.al[:])
	return st.mac.Sum(st.sum[:0])[:c.tagLen]
}
