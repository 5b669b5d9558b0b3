package jwt

import (
	"errors"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
)

// ErrInvalidClaims is wrapped by every error that refuses a token after it
// authenticated: its claims (RFC 7519 §4), its explicit type or its nesting
// do not satisfy the [Validator]. A token whose signature or decryption
// fails is refused with the jws or jwe error instead (wrapping
// [jose.ErrVerificationFailed], [jose.ErrDecryptionFailed], ...), and its
// claims are never read.
var ErrInvalidClaims = errors.New("invalid claims")

// The sentinels of each cause; each wraps [ErrInvalidClaims]. A [Validator]
// returns them inside a [*ClaimError] naming the claim or header member.
// As those of jose, their texts name no package: the error that wraps one
// reads "jwt: what happened: kind".
var (
	// ErrExpired: the current time is not before "exp" plus the leeway
	// (RFC 7519 §4.1.4).
	ErrExpired error = &sentinel{msg: "token has expired"}
	// ErrNotYetValid: the current time plus the leeway is before "nbf"
	// (RFC 7519 §4.1.5), compared at the precision of "nbf" (see
	// ValidatorOptions.Leeway).
	ErrNotYetValid error = &sentinel{msg: "token is not valid yet"}
	// ErrIssuedInTheFuture: "iat" is after the current time plus the
	// leeway (RFC 7519 §4.1.6), compared at the precision of "iat" (see
	// ValidatorOptions.Leeway).
	ErrIssuedInTheFuture error = &sentinel{msg: "token was issued in the future"}
	// ErrTooOld: "iat" is further in the past than
	// ValidatorOptions.MaxAge (plus the leeway).
	ErrTooOld error = &sentinel{msg: "token is older than the maximum age"}
	// ErrInvalidIssuer: "iss" is not one of ValidatorOptions.Issuers
	// (RFC 7519 §4.1.1).
	ErrInvalidIssuer error = &sentinel{msg: "unexpected issuer"}
	// ErrInvalidAudience: no value of "aud" is one of
	// ValidatorOptions.Audiences (RFC 7519 §4.1.3).
	ErrInvalidAudience error = &sentinel{msg: "unexpected audience"}
	// ErrInvalidSubject: "sub" is not ValidatorOptions.Subject (RFC 7519
	// §4.1.2).
	ErrInvalidSubject error = &sentinel{msg: "unexpected subject"}
	// ErrMissingClaim: a required claim is absent ("exp" by default, "aud"
	// when audiences are expected, "iat" with a maximum age, and
	// ValidatorOptions.Required).
	ErrMissingClaim error = &sentinel{msg: "missing required claim"}
	// ErrInvalidType: the "typ" of the protected header is not the
	// expected one (RFC 8725 §3.11, RFC 7515 §4.1.9).
	ErrInvalidType error = &sentinel{msg: "unexpected token type"}
	// ErrInvalidContentType: the "cty" of the protected header does not
	// fit the Validator: a nested token's JWE must say "cty": "JWT" in
	// its protected header (RFC 7519 §5.2), and a token that is not to be
	// nested must not.
	ErrInvalidContentType error = &sentinel{msg: "unexpected content type"}
	// ErrMalformedClaims: the JWT Claims Set is not a JSON object this
	// package accepts (RFC 7519 §7.2 step 10), or a registered claim has
	// the wrong type or an out-of-range value, or the JWS payload is not
	// base64url-encoded ("b64": false, RFC 7797). It also wraps
	// [jose.ErrMalformed].
	ErrMalformedClaims error = &sentinel{msg: "malformed claims", also: jose.ErrMalformed}
)

// sentinel is the type of the cause sentinels: one message, wrapping
// ErrInvalidClaims (and also, when set).
type sentinel struct {
	msg  string
	also error
}

func (e *sentinel) Error() string { return e.msg }

func (e *sentinel) Unwrap() []error {
	if e.also != nil {
		return []error{ErrInvalidClaims, e.also}
	}
	return []error{ErrInvalidClaims}
}

// ClaimError is the error a [Validator] returns for a token that
// authenticated but is refused: it names the claim (or the header member,
// "typ" or "cty") and wraps the sentinel of the cause, so that
//
//	errors.Is(err, jwt.ErrExpired)      // expired, but genuine
//	errors.Is(err, jwt.ErrInvalidClaims) // any claims failure
//
// tell an expired token from a forged one (which wraps
// [jose.ErrVerificationFailed] or [jose.ErrDecryptionFailed]).
type ClaimError struct {
	// Claim is the registered or private claim name ("exp", "aud", ...),
	// or "typ" or "cty" for the protected header.
	Claim string
	// Err is one of the sentinels above (ErrExpired, ...).
	Err error
	// Detail says what was found, for people: values and times. It is
	// not meant to be parsed.
	Detail string
	// Cause is the underlying error of a malformed claim (a jsonx error,
	// or a limit: then it wraps [jose.ErrLimitExceeded]), or nil.
	Cause error
}

// Error returns "jwt: ", the claim, the detail and the cause, then the
// sentinel's message, in the style of [jose.ErrMalformed]:
// `jwt: "exp": 2026-12-01T13:00:00Z, now 2026-12-01T14:00:00Z: token has
// expired`.
func (e *ClaimError) Error() string { return "jwt: " + e.text() }

// text is the message without the package name, for an error of this
// package that gives it context.
func (e *ClaimError) text() string {
	s := quote(e.Claim)
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	if e.Cause != nil {
		s += ": " + e.Cause.Error()
	}
	return s + ": " + e.Err.Error()
}

// Unwrap returns the sentinel and, when set, the cause.
func (e *ClaimError) Unwrap() []error {
	if e.Cause != nil {
		return []error{e.Err, e.Cause}
	}
	return []error{e.Err}
}

// quote names a claim in an error: its name quoted with untrusted.Quote
// (it may be a member name of the token), or "claims" for the whole set.
func quote(name string) string {
	if name == "" {
		return "claims"
	}
	return untrusted.Quote(name)
}
