// Package b64enc is the table-driven unpadded base64url codec (RFC 4648
// §5, RFC 7515 §2) behind package jose's Base64URL functions: the
// appending and length functions jws and jwe encode and decode tokens
// with, and the in-place encoding jwe seals compact tokens with. Its
// decoding is strict, as RFC 7515 §2 requires.
package b64enc

import "encoding/binary"

// Alphabet is the URL-safe alphabet of RFC 4648 §5.
const Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// pair maps 12 bits to their two characters, the first in the low byte.
var pair [4096]uint16

func init() {
	for i := range pair {
		pair[i] = uint16(Alphabet[i>>6]) | uint16(Alphabet[i&63])<<8
	}
}

// EncodedLen returns the length of the unpadded encoding of n bytes.
func EncodedLen(n int) int { return n/3*4 + (n%3*8+5)/6 }

// Encode writes the unpadded encoding of src to dst, which is exactly
// EncodedLen(len(src)) bytes long.
func Encode(dst, src []byte) {
	// 6 bytes in, 8 characters out, reading 8 bytes.
	for len(src) >= 8 && len(dst) >= 8 {
		v := binary.BigEndian.Uint64(src)
		w := uint64(pair[v>>52]) | uint64(pair[v>>40&0xfff])<<16 |
			uint64(pair[v>>28&0xfff])<<32 | uint64(pair[v>>16&0xfff])<<48
		binary.LittleEndian.PutUint64(dst, w)
		src, dst = src[6:], dst[8:]
	}
	for len(src) >= 3 && len(dst) >= 4 {
		v := uint(src[0])<<16 | uint(src[1])<<8 | uint(src[2])
		binary.LittleEndian.PutUint32(dst, uint32(pair[v>>12])|uint32(pair[v&0xfff])<<16)
		src, dst = src[3:], dst[4:]
	}
	switch {
	case len(src) == 2 && len(dst) >= 3:
		v := uint(src[0])<<16 | uint(src[1])<<8
		binary.LittleEndian.PutUint16(dst, pair[v>>12])
		dst[2] = Alphabet[v>>6&63]
	case len(src) == 1 && len(dst) >= 2:
		binary.LittleEndian.PutUint16(dst, pair[uint(src[0])<<4])
	}
}

// EncodeInPlace replaces the n bytes at the start of buf with
// their unpadded base64url encoding and returns buf[:EncodedLen(n)].
// buf must be at least that long (it panics otherwise: a caller bug). It
// lets a token's ciphertext be sealed where its encoding goes and encoded
// there, without a second buffer: the encoding runs from the end, where it
// writes only bytes already read.
func EncodeInPlace(buf []byte, n int) []byte {
	m := EncodedLen(n)
	buf = buf[:m]
	g := n - n%3 // the bytes of the full groups
	switch n - g {
	case 2:
		v := uint(buf[g])<<16 | uint(buf[g+1])<<8
		binary.LittleEndian.PutUint16(buf[g/3*4:], pair[v>>12])
		buf[g/3*4+2] = Alphabet[v>>6&63]
	case 1:
		binary.LittleEndian.PutUint16(buf[g/3*4:], pair[uint(buf[g])<<4])
	}
	i, j := g, g/3*4 // the next group ends at i; its characters at j
	// 6 bytes in, 8 characters out, reading 8 bytes (the last two, past
	// the group, may already be overwritten: they are shifted out).
	for i >= 6 && i+2 <= m {
		i, j = i-6, j-8
		v := binary.BigEndian.Uint64(buf[i : i+8])
		w := uint64(pair[v>>52]) | uint64(pair[v>>40&0xfff])<<16 |
			uint64(pair[v>>28&0xfff])<<32 | uint64(pair[v>>16&0xfff])<<48
		binary.LittleEndian.PutUint64(buf[j:j+8], w)
	}
	for i >= 3 {
		i -= 3
		v := uint(buf[i])<<16 | uint(buf[i+1])<<8 | uint(buf[i+2])
		binary.LittleEndian.PutUint32(buf[i/3*4:], uint32(pair[v>>12])|uint32(pair[v&0xfff])<<16)
	}
	return buf
}
