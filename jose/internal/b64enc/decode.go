package b64enc

import (
	"encoding/binary"
	"fmt"
	"slices"
)

// quad[k][c] is the 6-bit value of character c shifted to position k of a
// group of four characters (by 18, 12, 6 or 0 bits), or bad for a
// character outside the alphabet (padding, CR and LF included).
var quad [4][256]uint32

const bad = 1 << 31

func init() {
	for k := range quad {
		for c := range quad[k] {
			quad[k][c] = bad
		}
	}
	for v := 0; v < 64; v++ {
		for k := range quad {
			quad[k][Alphabet[v]] = uint32(v) << (18 - 6*k)
		}
	}
}

// DecodedLen returns the number of bytes an n-character unpadded base64url
// string decodes to.
func DecodedLen(n int) int { return n/4*3 + n%4*6/8 }

// Append appends the unpadded base64url encoding of src to dst.
func Append(dst, src []byte) []byte {
	n := len(dst)
	m := EncodedLen(len(src))
	dst = slices.Grow(dst, m)[:n+m]
	Encode(dst[n:], src)
	return dst
}

// AppendDecode decodes s strictly as RFC 7515 §2 requires (no padding, no
// whitespace or line breaks, no character outside the URL-safe alphabet,
// no non-zero bits after the last full byte) and appends the bytes to dst.
// On error, which wraps malformed (jose.ErrMalformed), dst is returned
// unchanged. Only the appended bytes are written: the rest of dst's spare
// capacity is left alone.
func AppendDecode[T string | []byte](dst []byte, s T, malformed error) ([]byte, error) {
	if len(s)%4 == 1 {
		return dst, decodeError(s, malformed)
	}
	n := len(dst)
	m := DecodedLen(len(s))
	dst = slices.Grow(dst, m)
	if !decode(dst[n:n+m], s) {
		return dst[:n], decodeError(s, malformed)
	}
	return dst[:n+m], nil
}

// decode decodes src, whose length is not 1 modulo 4, into dst, which is
// exactly DecodedLen(len(src)) bytes long, and reports whether src is
// canonical unpadded base64url. When it is false, dst holds garbage.
func decode[T string | []byte](dst []byte, src T) bool {
	var b uint32
	// 8 characters in, 6 bytes out, writing 8 bytes.
	for len(src) >= 8 && len(dst) >= 8 {
		x := quad[0][src[0]] | quad[1][src[1]] | quad[2][src[2]] | quad[3][src[3]]
		y := quad[0][src[4]] | quad[1][src[5]] | quad[2][src[6]] | quad[3][src[7]]
		b |= x | y
		binary.BigEndian.PutUint64(dst, uint64(x)<<40|uint64(y)<<16)
		src, dst = src[8:], dst[6:]
	}
	for len(src) >= 4 && len(dst) >= 3 {
		x := quad[0][src[0]] | quad[1][src[1]] | quad[2][src[2]] | quad[3][src[3]]
		b |= x
		dst[0], dst[1], dst[2] = byte(x>>16), byte(x>>8), byte(x)
		src, dst = src[4:], dst[3:]
	}
	switch {
	case len(src) == 3 && len(dst) >= 2:
		x := quad[0][src[0]] | quad[1][src[1]] | quad[2][src[2]]
		b |= x
		if x&0xff != 0 { // non-zero bits after the last full byte
			b |= bad
		}
		dst[0], dst[1] = byte(x>>16), byte(x>>8)
	case len(src) == 2 && len(dst) >= 1:
		x := quad[0][src[0]] | quad[1][src[1]]
		b |= x
		if x&0xffff != 0 {
			b |= bad
		}
		dst[0] = byte(x >> 16)
	case len(src) != 0:
		return false // cannot happen: the lengths fit
	}
	return b&bad == 0
}

// decodeError is the error for s, which is not strict base64url. It runs
// only on the error path.
func decodeError[T string | []byte](s T, malformed error) error {
	return fmt.Errorf("jose: base64url: %s: %w", Problem(s), malformed)
}

// Problem says why s, refused by AppendDecode, is not strict base64url.
func Problem[T string | []byte](s T) string {
	if len(s)%4 == 1 {
		return fmt.Sprintf("invalid length %d", len(s))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return fmt.Sprintf("invalid character %q at offset %d", c, i)
		}
	}
	return "non-canonical encoding"
}
