package jose

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"slices"
)

// b64 is the unpadded URL-safe alphabet of RFC 4648 §5, decoding strictly
// (non-zero trailing bits are refused). The hot paths below use their own
// table-driven codec of the same alphabet, differentially tested against
// this one.
var b64 = base64.RawURLEncoding.Strict()

const b64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// b64Pair maps 12 bits to their two characters, the first in the low byte.
var b64Pair [4096]uint16

// b64Quad[k][c] is the 6-bit value of character c shifted to position k of
// a group of four characters (by 18, 12, 6 or 0 bits), or b64Bad for a
// character outside the alphabet (padding, CR and LF included).
var b64Quad [4][256]uint32

const b64Bad = 1 << 31

func init() {
	for i := range b64Pair {
		b64Pair[i] = uint16(b64Alphabet[i>>6]) | uint16(b64Alphabet[i&63])<<8
	}
	for k := range b64Quad {
		for c := range b64Quad[k] {
			b64Quad[k][c] = b64Bad
		}
	}
	for v := 0; v < 64; v++ {
		for k := range b64Quad {
			b64Quad[k][b64Alphabet[v]] = uint32(v) << (18 - 6*k)
		}
	}
}

// Base64URLEncode returns the unpadded base64url encoding of src
// (RFC 7515 §2).
func Base64URLEncode(src []byte) string { return string(AppendBase64URL(nil, src)) }

// AppendBase64URL appends the unpadded base64url encoding of src to dst.
func AppendBase64URL(dst, src []byte) []byte {
	n := len(dst)
	m := b64EncodedLen(len(src))
	dst = slices.Grow(dst, m)[:n+m]
	b64Encode(dst[n:], src)
	return dst
}

// b64Encode writes the unpadded encoding of src to dst, which is exactly
// b64EncodedLen(len(src)) bytes long.
func b64Encode(dst, src []byte) {
	// 6 bytes in, 8 characters out, reading 8 bytes.
	for len(src) >= 8 && len(dst) >= 8 {
		v := binary.BigEndian.Uint64(src)
		w := uint64(b64Pair[v>>52]) | uint64(b64Pair[v>>40&0xfff])<<16 |
			uint64(b64Pair[v>>28&0xfff])<<32 | uint64(b64Pair[v>>16&0xfff])<<48
		binary.LittleEndian.PutUint64(dst, w)
		src, dst = src[6:], dst[8:]
	}
	for len(src) >= 3 && len(dst) >= 4 {
		v := uint(src[0])<<16 | uint(src[1])<<8 | uint(src[2])
		binary.LittleEndian.PutUint32(dst, uint32(b64Pair[v>>12])|uint32(b64Pair[v&0xfff])<<16)
		src, dst = src[3:], dst[4:]
	}
	switch {
	case len(src) == 2 && len(dst) >= 3:
		v := uint(src[0])<<16 | uint(src[1])<<8
		binary.LittleEndian.PutUint16(dst, b64Pair[v>>12])
		dst[2] = b64Alphabet[v>>6&63]
	case len(src) == 1 && len(dst) >= 2:
		binary.LittleEndian.PutUint16(dst, b64Pair[uint(src[0])<<4])
	}
}

// EncodeBase64URLInPlace replaces the n bytes at the start of buf with
// their unpadded base64url encoding and returns buf[:Base64URLEncodedLen(n)].
// buf must be at least that long (it panics otherwise: a caller bug). It
// lets a token's ciphertext be sealed where its encoding goes and encoded
// there, without a second buffer: the encoding runs from the end, where it
// writes only bytes already read.
func EncodeBase64URLInPlace(buf []byte, n int) []byte {
	m := b64EncodedLen(n)
	buf = buf[:m]
	g := n - n%3 // the bytes of the full groups
	switch n - g {
	case 2:
		v := uint(buf[g])<<16 | uint(buf[g+1])<<8
		binary.LittleEndian.PutUint16(buf[g/3*4:], b64Pair[v>>12])
		buf[g/3*4+2] = b64Alphabet[v>>6&63]
	case 1:
		binary.LittleEndian.PutUint16(buf[g/3*4:], b64Pair[uint(buf[g])<<4])
	}
	i, j := g, g/3*4 // the next group ends at i; its characters at j
	// 6 bytes in, 8 characters out, reading 8 bytes (the last two, past
	// the group, may already be overwritten: they are shifted out).
	for i >= 6 && i+2 <= m {
		i, j = i-6, j-8
		v := binary.BigEndian.Uint64(buf[i : i+8])
		w := uint64(b64Pair[v>>52]) | uint64(b64Pair[v>>40&0xfff])<<16 |
			uint64(b64Pair[v>>28&0xfff])<<32 | uint64(b64Pair[v>>16&0xfff])<<48
		binary.LittleEndian.PutUint64(buf[j:j+8], w)
	}
	for i >= 3 {
		i -= 3
		v := uint(buf[i])<<16 | uint(buf[i+1])<<8 | uint(buf[i+2])
		binary.LittleEndian.PutUint32(buf[i/3*4:], uint32(b64Pair[v>>12])|uint32(b64Pair[v&0xfff])<<16)
	}
	return buf
}

// Base64URLDecode decodes s strictly as RFC 7515 §2 requires: no padding, no
// whitespace or line breaks, no character outside the URL-safe alphabet and
// no non-zero bits after the last full byte. Errors wrap [ErrMalformed].
func Base64URLDecode[T string | []byte](s T) ([]byte, error) {
	return AppendBase64URLDecode(nil, s)
}

// AppendBase64URLDecode decodes s strictly, as [Base64URLDecode] does, and
// appends the bytes to dst. On error dst is returned unchanged. Only the
// appended bytes are written: the rest of dst's spare capacity is left
// alone.
func AppendBase64URLDecode[T string | []byte](dst []byte, s T) ([]byte, error) {
	if len(s)%4 == 1 {
		return dst, base64URLError(s)
	}
	n := len(dst)
	m := Base64URLDecodedLen(len(s))
	dst = slices.Grow(dst, m)
	if !b64Decode(dst[n:n+m], s) {
		return dst[:n], base64URLError(s)
	}
	return dst[:n+m], nil
}

// b64Decode decodes src, whose length is not 1 modulo 4, into dst, which is
// exactly Base64URLDecodedLen(len(src)) bytes long, and reports whether src is
// canonical unpadded base64url. When it is false, dst holds garbage.
func b64Decode[T string | []byte](dst []byte, src T) bool {
	var bad uint32
	// 8 characters in, 6 bytes out, writing 8 bytes.
	for len(src) >= 8 && len(dst) >= 8 {
		a := b64Quad[0][src[0]] | b64Quad[1][src[1]] | b64Quad[2][src[2]] | b64Quad[3][src[3]]
		b := b64Quad[0][src[4]] | b64Quad[1][src[5]] | b64Quad[2][src[6]] | b64Quad[3][src[7]]
		bad |= a | b
		binary.BigEndian.PutUint64(dst, uint64(a)<<40|uint64(b)<<16)
		src, dst = src[8:], dst[6:]
	}
	for len(src) >= 4 && len(dst) >= 3 {
		a := b64Quad[0][src[0]] | b64Quad[1][src[1]] | b64Quad[2][src[2]] | b64Quad[3][src[3]]
		bad |= a
		dst[0], dst[1], dst[2] = byte(a>>16), byte(a>>8), byte(a)
		src, dst = src[4:], dst[3:]
	}
	switch {
	case len(src) == 3 && len(dst) >= 2:
		a := b64Quad[0][src[0]] | b64Quad[1][src[1]] | b64Quad[2][src[2]]
		bad |= a
		if a&0xff != 0 { // non-zero bits after the last full byte
			bad |= b64Bad
		}
		dst[0], dst[1] = byte(a>>16), byte(a>>8)
	case len(src) == 2 && len(dst) >= 1:
		a := b64Quad[0][src[0]] | b64Quad[1][src[1]]
		bad |= a
		if a&0xffff != 0 {
			bad |= b64Bad
		}
		dst[0] = byte(a >> 16)
	case len(src) != 0:
		return false // cannot happen: the lengths fit
	}
	return bad&b64Bad == 0
}

// Base64URLDecodedLen returns the number of bytes an n-character unpadded
// base64url string decodes to.
func Base64URLDecodedLen(n int) int { return n/4*3 + n%4*6/8 }

// Base64URLEncodedLen returns the length of the unpadded base64url
// encoding of n bytes (RFC 7515 §2, RFC 4648 §5).
func Base64URLEncodedLen(n int) int { return b64EncodedLen(n) }

// b64EncodedLen returns the length of the unpadded encoding of n bytes.
func b64EncodedLen(n int) int { return n/3*4 + (n%3*8+5)/6 }

// base64URLError is the error for s, which is not strict base64url. It
// runs only on the error path.
func base64URLError[T string | []byte](s T) error {
	return fmt.Errorf("jose: base64url: %s: %w", base64URLProblem(s), ErrMalformed)
}

// base64URLProblem says why s is not strict base64url.
func base64URLProblem[T string | []byte](s T) string {
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
