package dpop

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/cnf"
)

// AccessTokenHash returns the "ath" of an access token (RFC 9449 §4.2):
// the base64url encoding of the SHA-256 hash of its ASCII text.
func AccessTokenHash(accessToken string) string {
	h := sha256.Sum256([]byte(accessToken))
	return jose.Base64URLEncode(h[:])
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
	if p == nil || subtle.ConstantTimeCompare([]byte(jkt), []byte(p.Thumbprint)) != 1 {
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
