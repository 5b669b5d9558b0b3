package jose

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
)

// b64 is the unpadded URL-safe alphabet of RFC 4648 §5, decoding strictly
// (non-zero trailing bits are refused).
var b64 = base64.RawURLEncoding.Strict()

// Base64URLEncode returns the unpadded base64url encoding of src
// (RFC 7515 §2).
func Base64URLEncode(src []byte) string { return b64.EncodeToString(src) }

// AppendBase64URL appends the unpadded base64url encoding of src to dst.
func AppendBase64URL(dst, src []byte) []byte { return b64.AppendEncode(dst, src) }

// Base64URLDecode decodes s strictly as RFC 7515 §2 requires: no padding, no
// whitespace or line breaks, no character outside the URL-safe alphabet and
// no non-zero bits after the last full byte. Errors wrap [ErrMalformed].
func Base64URLDecode[T string | []byte](s T) ([]byte, error) {
	return AppendBase64URLDecode(nil, s)
}

// AppendBase64URLDecode decodes s strictly, as [Base64URLDecode] does, and
// appends the bytes to dst. On error dst is returned unchanged.
func AppendBase64URLDecode[T string | []byte](dst []byte, s T) ([]byte, error) {
	// encoding/base64 refuses every byte outside the alphabet (padding
	// included) except CR and LF, which it skips: refuse those here, with
	// the vectorised IndexByte, and leave the rest to the decoder.
	if indexCRLF(s) >= 0 {
		return dst, base64URLError(s)
	}
	n := len(dst)
	m := b64.DecodedLen(len(s))
	dst = slices.Grow(dst, m)
	k, err := b64.Decode(dst[n:n+m], []byte(s))
	if err != nil {
		return dst[:n], base64URLError(s)
	}
	return dst[:n+k], nil
}

// Base64URLDecodedLen returns the number of bytes an n-character unpadded
// base64url string decodes to.
func Base64URLDecodedLen(n int) int { return b64.DecodedLen(n) }

func indexCRLF[T string | []byte](s T) int {
	if i := indexByte(s, '\n'); i >= 0 {
		return i
	}
	return indexByte(s, '\r')
}

func indexByte[T string | []byte](s T, c byte) int {
	switch v := any(s).(type) {
	case string:
		return strings.IndexByte(v, c)
	default:
		return bytes.IndexByte(v.([]byte), c)
	}
}

// base64URLError describes why s is not strict base64url. It runs only on
// the error path.
func base64URLError[T string | []byte](s T) error {
	if len(s)%4 == 1 {
		return fmt.Errorf("%w: base64url: invalid length %d", ErrMalformed, len(s))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("%w: base64url: invalid character %q at offset %d", ErrMalformed, c, i)
		}
	}
	return fmt.Errorf("%w: base64url: non-canonical encoding", ErrMalformed)
}
