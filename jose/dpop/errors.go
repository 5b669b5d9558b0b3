package dpop

import (
	"errors"

	"github.com/josebench/josebench/jose"
)

// The error codes of RFC 9449 a server answers with, in the "error"
// attribute of its WWW-Authenticate challenge (RFC 9449 §7.1, §12.2) or in
// the "error" member of a token endpoint's response (RFC 9449 §5).
const (
	// CodeInvalidProof: the DPoP proof is missing, malformed or refused
	// by one of the checks of RFC 9449 §4.3.
	CodeInvalidProof = "invalid_dpop_proof"
	// CodeUseNonce: the server requires a nonce the proof does not carry,
	// or carries one no longer current (RFC 9449 §8, §9); the server
	// sends the nonce to use in a DPoP-Nonce header ([Error].Nonce).
	CodeUseNonce = "use_dpop_nonce"
	// CodeInvalidToken: the access token is not bound to the proof's key,
	// or a bound token was presented with the Bearer scheme (RFC 9449
	// §7.1, §7.2; RFC 6750 §3.1).
	CodeInvalidToken = "invalid_token"
)

// The sentinels of each check, one per check of RFC 9449 §4.3 and of the
// binding of §6 and §7. Every *Error wraps exactly one of them, so callers
// branch with errors.Is; their texts name no package.
var (
	// ErrNoProof: the request carries no DPoP header (§4.3 check 2; §7.1
	// for a DPoP access token presented without a proof).
	ErrNoProof = errors.New("no DPoP proof")
	// ErrMultipleProofs: the request carries more than one DPoP header
	// (§4.3 check 1).
	ErrMultipleProofs = errors.New("more than one DPoP proof")
	// ErrProofTooLarge: the proof is longer than VerifierOptions.MaxProofSize,
	// refused before any of it is parsed. It also wraps
	// [jose.ErrLimitExceeded].
	ErrProofTooLarge = &sentinel{msg: "DPoP proof too large", also: jose.ErrLimitExceeded}
	// ErrMalformedProof: the proof is not a single well-formed JWS Compact
	// Serialization whose header and claims jose, jws and jwt accept
	// (§4.3 check 2), or a claim has the wrong type. It also wraps
	// [jose.ErrMalformed].
	ErrMalformedProof = &sentinel{msg: "malformed DPoP proof", also: jose.ErrMalformed}
	// ErrMissingClaim: a required claim ("jti", "htm", "htu", "iat",
	// and "ath" with an access token) or the header's "jwk" is absent
	// (§4.2, §4.3 check 3).
	ErrMissingClaim = errors.New("missing DPoP claim")
	// ErrType: the header's "typ" is not "dpop+jwt" (§4.3 check 4).
	ErrType = errors.New("not a DPoP proof (typ)")
	// ErrAlgorithm: the header's "alg" is "none", a MAC, or not in the
	// Verifier's allow-list (§4.3 check 5). It also wraps
	// [jose.ErrAlgorithmNotAllowed].
	ErrAlgorithm = &sentinel{msg: "DPoP proof algorithm not allowed", also: jose.ErrAlgorithmNotAllowed}
	// ErrKey: the header's "jwk" holds private or symmetric key material
	// (§4.3 check 7), does not fit "alg", forbids it (its own "alg", "use"
	// or "key_ops"), is an RSA key larger than VerifierOptions.MaxRSABits,
	// or has a certificate member ("x5c", "x5u", "x5t", "x5t#S256"): a
	// proof's key is its public key alone (§4.2), and its certificates
	// would be parsed before the signature is checked. It also wraps
	// [jose.ErrInvalidKey].
	ErrKey = &sentinel{msg: "unacceptable DPoP proof key", also: jose.ErrInvalidKey}
	// ErrSignature: the signature does not verify with the header's
	// "jwk" (§4.3 check 6). It also wraps [jose.ErrVerificationFailed].
	ErrSignature = &sentinel{msg: "DPoP proof signature does not verify", also: jose.ErrVerificationFailed}
	// ErrMethod: "htm" is not the request's method (§4.3 check 8).
	ErrMethod = errors.New("DPoP proof is for another method (htm)")
	// ErrURI: "htu" is not the request's URI once both are normalized
	// (RFC 3986 §6), query and fragment ignored (§4.3 check 9).
	ErrURI = errors.New("DPoP proof is for another URI (htu)")
	// ErrNonce: the server requires a nonce and the proof carries none, or
	// not a current one (§4.3 check 10, §8); its *Error has Code
	// [CodeUseNonce] and the nonce to send.
	ErrNonce = errors.New("DPoP proof nonce missing or not current")
	// ErrIssuedAt: "iat" (or an "exp" or "nbf" the proof carries) is
	// outside the accepted window (§4.3 check 11, §11.1).
	ErrIssuedAt = errors.New("DPoP proof issued outside the accepted window (iat)")
	// ErrReplay: a proof of the same key with the same "jti" was accepted
	// within the window (§11.1).
	ErrReplay = errors.New("DPoP proof replayed (jti)")
	// ErrAccessTokenHash: "ath" is not the hash of the presented access
	// token (§4.3 check 12).
	ErrAccessTokenHash = errors.New("DPoP proof is for another access token (ath)")
	// ErrBinding: the access token is not bound to the proof's key: its
	// "cnf" "jkt" is absent or another key's thumbprint (§6, §7.1). Its
	// *Error has Code [CodeInvalidToken].
	ErrBinding = errors.New("access token is not bound to the DPoP proof key (cnf.jkt)")
	// ErrBoundBearer: an access token bound to a key (it has "cnf" "jkt")
	// was presented with the Bearer scheme (§7.2). Its *Error has Code
	// [CodeInvalidToken].
	ErrBoundBearer = errors.New("DPoP-bound access token presented as a bearer token")
)

// ErrRequestURI is wrapped by the error of [Verifier.Check] when the
// request's own URI, the uri argument, is not an absolute http or https
// URI that [NormalizeURI] accepts, so that no "htu" can match it (RFC 9449
// §4.3 check 9). It is not an *Error, since no proof was read; a server
// that builds uri from the request's Host header answers it as a malformed
// request (400), one that builds it from its configuration has a bug.
var ErrRequestURI = errors.New("the request's target URI is not an absolute http or https URI")

// sentinel is an error that also wraps a jose sentinel.
type sentinel struct {
	msg  string
	also error
}

func (s *sentinel) Error() string { return s.msg }
func (s *sentinel) Unwrap() error { return s.also }

// Error is the error of a refused proof or binding: the RFC 9449 error
// code the server answers with, the sentinel of the check that failed,
// what was found, and, for [CodeUseNonce], the nonce the client must use.
//
//	var e *dpop.Error
//	if errors.As(err, &e) {
//		// WWW-Authenticate: DPoP error="<e.Code>", and DPoP-Nonce: <e.Nonce>
//	}
//
// An error of the Verifier that is not an *Error is not the client's
// fault: a replay store or nonce source that failed, or a done context.
type Error struct {
	// Code is CodeInvalidProof, CodeUseNonce or CodeInvalidToken.
	Code string
	// Err is one of the sentinels above (ErrNoProof, ...).
	Err error
	// Detail says what was found, for people; attacker text in it is
	// quoted and bounded (at most 64 bytes, with its length).
	Detail string
	// Nonce is the value for the DPoP-Nonce response header (RFC 9449
	// §8.1) when Code is CodeUseNonce; empty otherwise.
	Nonce string
	// Cause is the underlying error (of jws, jwt or jose), or nil.
	Cause error
}

// Error returns "dpop: ", the detail and the cause, then the sentinel's
// message.
func (e *Error) Error() string {
	s := "dpop: "
	if e.Detail != "" {
		s += e.Detail + ": "
	}
	if e.Cause != nil {
		s += e.Cause.Error() + ": "
	}
	return s + e.Err.Error()
}

// Unwrap returns the sentinel and, when set, the cause.
func (e *Error) Unwrap() []error {
	if e.Cause != nil {
		return []error{e.Err, e.Cause}
	}
	return []error{e.Err}
}

func proofError(err error, detail string, cause error) *Error {
	return &Error{Code: CodeInvalidProof, Err: err, Detail: detail, Cause: cause}
}
