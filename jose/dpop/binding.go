package dpop

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/internal/cnf"
)

// AccessTokenHash returns the "ath" of an access token (RFC 9449 §4.2):
// the base64url encoding of the SHA-256 hash of its ASCII text.
func AccessTokenHash(accessToken string) string {
	h := accessTokenSum(accessToken)
	return jose.Base64URLEncode(h[:])
}

// athLen is the length of an "ath": a SHA-256 hash, base64url-encoded
// without padding.
const athLen = 43

// athMatches reports whether ath is the "ath" of accessToken, comparing
// in constant time an ath of the right length (which is no secret),
// without allocating: the expected ath is encoded on the stack, and
// []byte(ath), which does not escape and is not written, is converted
// without a copy (Go 1.22 and later).
func athMatches[T string | []byte](accessToken string, ath T) bool {
	if len(ath) != athLen {
		return false
	}
	h := accessTokenSum(accessToken)
	var want [athLen]byte
	b64enc.Encode(want[:], h[:])
	return subtle.ConstantTimeCompare(want[:], []byte(ath)) == 1
}

// accessTokenSum returns the SHA-256 hash of accessToken, written to the
// hash through a buffer on the stack: []byte(accessToken) would copy a
// token of more than 32 bytes to the heap.
func accessTokenSum(accessToken string) (sum [sha256.Size]byte) {
	h := sha256.New()
	var buf [512]byte
	for s := accessToken; s != ""; {
		n := copy(buf[:], s)
		h.Write(buf[:n])
		s = s[n:]
	}
	h.Sum(sum[:0])
	return sum
}

// TokenBinding returns the "jkt" member of the "cnf" claim (RFC 9449
// §6.1, RFC 7800 §3.1) of claims, a JWT Claims Set that has already been
// validated (jwt.Token.Payload): the thumbprint of the key the access
// token is bound to, or "" when the token is not bound (no "cnf", or a
// "cnf" without "jkt", such as a certificate's "x5t#S256" of RFC 8705). A
// "cnf" that is not an object or is empty, or a "jkt" that is not a string
// or is the empty string, is an error: such a token was meant to be bound, and is
// never read as a bearer token. A token bound by another confirmation
// method only (an "x5t#S256") gets "", which CheckBearer accepts: a server
// that cannot check that method must refuse the token itself, as the
// jose/bearer Middleware does. The claims are read within no limit of
// depth or members beyond their length: those of the Validator
// (jwt.ValidatorOptions.MaxDepth, MaxClaims) already held, and may be
// above jsonx's defaults.
func TokenBinding(claims []byte) (string, error) {
	c, err := cnf.Read(claims)
	if err != nil {
		return "", fmt.Errorf("dpop: %w", err)
	}
	return c.JKT, nil
}

// CheckBinding checks that an access token presented with the DPoP scheme
// is bound to the key of its proof (RFC 9449 §4.3 check 12, §6.1, §7.1):
// jkt, the token's "cnf" "jkt" (TokenBinding, or a token introspection
// response's), must equal p.Thumbprint. An unbound token (jkt empty) or
// another key's is refused with an *Error of Code [CodeInvalidToken]
// wrapping [ErrBinding].
func CheckBinding(jkt string, p *Proof) error {
	if jkt == "" {
		return &Error{Code: CodeInvalidToken, Err: ErrBinding, Detail: "the access token has no cnf.jkt"}
	}
	if p == nil || !equal(jkt, p.Thumbprint) {
		return &Error{Code: CodeInvalidToken, Err: ErrBinding, Detail: "cnf.jkt " + untrusted.Quote(jkt) + " is not the proof key's thumbprint"}
	}
	return nil
}

// CheckBearer refuses an access token bound to a key, jkt its "cnf"
// "jkt", presented with the Bearer scheme (RFC 9449 §7.2): only its proof
// makes it usable. It returns nil when jkt is empty (a bearer token), an
// *Error of Code [CodeInvalidToken] wrapping [ErrBoundBearer] otherwise.
func CheckBearer(jkt string) error {
	if jkt == "" {
		return nil
	}
	return &Error{Code: CodeInvalidToken, Err: ErrBoundBearer, Detail: "the access token has cnf.jkt"}
}

// equal reports whether a and b are equal, comparing them in constant
// time when their lengths are equal (subtle.ConstantTimeCompare). The
// conversions to []byte, which do not escape and are not written, copy
// nothing (Go 1.22 and later).
func equal(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
