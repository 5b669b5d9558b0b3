package jwa

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"fmt"
)

// kwDefaultIV is the default initial value of RFC 3394 §2.2.3.1.
const kwDefaultIV = 0xA6A6A6A6A6A6A6A6

var errKWInput = fmt.Errorf("jwa: key wrap input must be a multiple of 8 bytes and at least 16 bytes: %w", ErrInvalidKey)

// WrapKey appends to dst the AES Key Wrap (RFC 3394 §2.2.1, index-based
// form) of plaintext under the key-encryption key held by block, and returns
// the extended slice. The wrapped key is 8 bytes longer than plaintext.
//
// block must be an AES cipher (a 16-byte block size); anything else is a
// caller bug and panics. plaintext must be a multiple of 8 bytes and at least
// 16 bytes long, as RFC 3394 §2 requires; otherwise WrapKey returns an error
// wrapping [ErrInvalidKey] without doing any work. dst and plaintext must not overlap.
//
// WrapKey is the primitive of A128KW, A192KW and A256KW (RFC 7518 §4.4).
func WrapKey(dst []byte, block cipher.Block, plaintext []byte) ([]byte, error) {
	if block.BlockSize() != aes.BlockSize {
		panic("jwa: WrapKey needs a cipher with a 16-byte block")
	}
	if len(plaintext) < 16 || len(plaintext)%8 != 0 {
		return dst, errKWInput
	}
	n := len(plaintext) / 8
	ret, out := kwGrow(dst, len(plaintext)+8)
	copy(out[8:], plaintext)
	// out holds A in its first 8 bytes (unused during the rounds; A lives
	// in a register) and R[1..n] after it. Each round encrypts the 16 bytes
	// out[8(i-1):8(i+1)] in place after saving R[i-1] and writing A into
	// its slot, so no scratch buffer escapes to the heap.
	a := uint64(kwDefaultIV)
	for j := 0; j < 6; j++ {
		for i := 1; i <= n; i++ {
			b := out[8*(i-1) : 8*(i+1)]
			saved := binary.BigEndian.Uint64(b)
			binary.BigEndian.PutUint64(b, a)
			block.Encrypt(b, b)
			a = binary.BigEndian.Uint64(b) ^ uint64(n*j+i)
			binary.BigEndian.PutUint64(b, saved)
		}
	}
	binary.BigEndian.PutUint64(out, a)
	return ret, nil
}

// UnwrapKey appends to dst the key unwrapped (RFC 3394 §2.2.2, index-based
// form) from ciphertext under the key-encryption key held by block, and
// returns the extended slice. The key is 8 bytes shorter than ciphertext.
//
// The integrity check of RFC 3394 §2.2.3 is done in constant time. Any
// failure, including a ciphertext that is not a multiple of 8 bytes or is
// shorter than 24 bytes (checked before any work), returns [ErrDecryption];
// on failure the bytes appended are cleared and dst is returned unextended.
//
// block must be an AES cipher (a 16-byte block size); anything else is a
// caller bug and panics. dst and ciphertext must not overlap.
func UnwrapKey(dst []byte, block cipher.Block, ciphertext []byte) ([]byte, error) {
	if block.BlockSize() != aes.BlockSize {
		panic("jwa: UnwrapKey needs a cipher with a 16-byte block")
	}
	if len(ciphertext) < 24 || len(ciphertext)%8 != 0 {
		return dst, ErrDecryption
	}
	n := len(ciphertext)/8 - 1
	ret, out := kwGrow(dst, len(ciphertext)-8)
	copy(out, ciphertext[8:])
	a := binary.BigEndian.Uint64(ciphertext)
	// out holds R[1..n]. R[i] for i ≥ 2 is decrypted in place with the
	// 16 bytes out[8(i-2):8i] (R[i-1] saved, A^t written in its slot);
	// R[1] is moved beside R[2]'s slot, decrypted there and moved back.
	for j := 5; j >= 0; j-- {
		for i := n; i >= 1; i-- {
			t := uint64(n*j + i)
			if i >= 2 {
				b := out[8*(i-2) : 8*i]
				saved := binary.BigEndian.Uint64(b)
				binary.BigEndian.PutUint64(b, a^t)
				block.Decrypt(b, b)
				a = binary.BigEndian.Uint64(b)
				binary.BigEndian.PutUint64(b, saved)
				continue
			}
			b := out[:16]
			r1 := binary.BigEndian.Uint64(b)
			r2 := binary.BigEndian.Uint64(b[8:])
			binary.BigEndian.PutUint64(b, a^t)
			binary.BigEndian.PutUint64(b[8:], r1)
			block.Decrypt(b, b)
			a = binary.BigEndian.Uint64(b)
			r1 = binary.BigEndian.Uint64(b[8:])
			binary.BigEndian.PutUint64(b, r1)
			binary.BigEndian.PutUint64(b[8:], r2)
		}
	}
	var got, want [8]byte
	binary.BigEndian.PutUint64(got[:], a)
	binary.BigEndian.PutUint64(want[:], kwDefaultIV)
	if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
		clear(out)
		return dst, ErrDecryption
	}
	return ret, nil
}

// kwGrow extends dst by n bytes, reallocating if needed, and returns the
// whole slice and the n new bytes.
func kwGrow(dst []byte, n int) (whole, tail []byte) {
	total := len(dst) + n
	if cap(dst) >= total {
		whole = dst[:total]
	} else {
		whole = make([]byte, total)
		copy(whole, dst)
	}
	return whole, whole[len(dst):]
}
