package jose

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/josebench/josebench/jose/internal/b64enc"
)

// b64 is the unpadded URL-safe alphabet of RFC 4648 §5, decoding strictly
// (non-zero trailing bits are refused). The hot paths below use their own
// table-driven codec of the same alphabet, differentially tested against
// this one.
var b64 = base64.RawURLEncoding.Strict()

const b64Alphabet = b64enc.Alphabet

// b64Quad[k][c] is the 6-bit value of character c shifted to position k of
// a group of four characters (by 18, 12, 6 or 0 bits), or b64Bad for a
// character outside the alphabet (padding, CR and LF included).
var b64Quad [4][256]uint32

const b64Bad = 1 << 31

func init() {
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
	m := b64enc.EncodedLen(len(src))
	dst = slices.Grow(dst, m)[:n+m]
	b64enc.Encode(dst[n:], src)
	return dst
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
func Base64URLEncodedLen(n int) int { return b64enc.EncodedLen(n) }

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
