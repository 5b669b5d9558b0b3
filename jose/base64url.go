package jose

import (
	"encoding/base64"

	"github.com/josebench/josebench/jose/internal/b64enc"
)

// b64 is the unpadded URL-safe alphabet of RFC 4648 §5, decoding strictly
// (non-zero trailing bits are refused). The hot paths use their own
// table-driven codec of the same alphabet (package b64enc), differentially
// tested against this one.
var b64 = base64.RawURLEncoding.Strict()

// Base64URLEncode returns the unpadded base64url encoding of src
// (RFC 7515 §2).
func Base64URLEncode(src []byte) string { return string(b64enc.Append(nil, src)) }

// Base64URLDecode decodes s strictly as RFC 7515 §2 requires: no padding, no
// whitespace or line breaks, no character outside the URL-safe alphabet and
// no non-zero bits after the last full byte. Errors wrap [ErrMalformed].
func Base64URLDecode[T string | []byte](s T) ([]byte, error) {
	return b64enc.AppendDecode(nil, s, ErrMalformed)
}
