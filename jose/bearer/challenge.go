package bearer

import (
	"io"
	"net/http"
	"strings"

	"github.com/josebench/josebench/jose/dpop"
)

// The error codes of RFC 6750 §3.1.
const (
	CodeInvalidRequest    = "invalid_request"
	CodeInvalidToken      = "invalid_token"
	CodeInsufficientScope = "insufficient_scope"
)

// kind is one of the answers a Middleware gives; each has a fixed status,
// error code and description, so that no request can choose the text of
// its answer.
type kind uint8

const (
	kindNone              kind = iota // accepted
	kindNoCredential                  // no bearer credential: 401, no error code (§3.1)
	kindMalformedHeader               // 400: Authorization is not one b64token credential
	kindManyMethods                   // 400: more than one method (§2)
	kindMalformedParam                // 400: access_token empty, repeated or not a b64token
	kindMalformedForm                 // 400: the form body could not be read
	kindTooLarge                      // 401 invalid_token: beyond MaxTokenSize or a jose limit
	kindExpired                       // 401 invalid_token: jwt.ErrExpired
	kindInvalidToken                  // 401 invalid_token: any other refusal
	kindInsufficientScope             // 403 insufficient_scope
	kindUnavailable                   // 503: the key source did not answer in time
	kindDPoPProof                     // 401 invalid_dpop_proof (RFC 9449 §7.1)
	kindDPoPNonce                     // 401 use_dpop_nonce, with DPoP-Nonce (RFC 9449 §8)
	kindDPoPBinding                   // 401 invalid_token: not bound to the proof's key (§6.1)
	kindBoundBearer                   // 401 invalid_token: a DPoP-bound token sent as Bearer (§7.2)
	kindBadURI                        // 400: no target URI for "htu" can be built of the request (its Host)
	kindUncheckedBinding              // 401 invalid_token: a "cnf" member the Middleware cannot check (RFC 7800 §3.1)
	numKinds
)

var kinds = [numKinds]struct {
	status      int
	code        string
	description string
}{
	kindNone:              {http.StatusOK, "", ""},
	kindNoCredential:      {http.StatusUnauthorized, "", ""},
	kindMalformedHeader:   {http.StatusBadRequest, CodeInvalidRequest, "the Authorization header is not one bearer credential"},
	kindManyMethods:       {http.StatusBadRequest, CodeInvalidRequest, "the access token is sent by more than one method"},
	kindMalformedParam:    {http.StatusBadRequest, CodeInvalidRequest, "the access_token parameter is malformed"},
	kindMalformedForm:     {http.StatusBadRequest, CodeInvalidRequest, "the form body is malformed or too large"},
	kindTooLarge:          {http.StatusUnauthorized, CodeInvalidToken, "the access token is too large"},
	kindExpired:           {http.StatusUnauthorized, CodeInvalidToken, "the access token expired"},
	kindInvalidToken:      {http.StatusUnauthorized, CodeInvalidToken, "the access token is invalid"},
	kindInsufficientScope: {http.StatusForbidden, CodeInsufficientScope, "the access token does not have the scope needed"},
	kindUnavailable:       {http.StatusServiceUnavailable, "", "the keys to validate the access token are unavailable"},
	kindDPoPProof:         {http.StatusUnauthorized, dpop.CodeInvalidProof, "the DPoP proof is missing or invalid"},
	kindDPoPNonce:         {http.StatusUnauthorized, dpop.CodeUseNonce, "the DPoP proof must carry the server's nonce"},
	kindDPoPBinding:       {http.StatusUnauthorized, CodeInvalidToken, "the access token is not bound to the DPoP proof's key"},
	kindBoundBearer:       {http.StatusUnauthorized, CodeInvalidToken, "the access token is bound to a key: present it with the DPoP scheme"},
	kindBadURI:            {http.StatusBadRequest, CodeInvalidRequest, "the request's target URI is malformed"},
	kindUncheckedBinding:  {http.StatusUnauthorized, CodeInvalidToken, "the access token is bound by a confirmation method (cnf) this server does not check"},
}

// Error is a refused request, as Options.OnError gets it. Its fields are
// fixed texts of this package; no byte of the request is in them, nor in
// its message.
type Error struct {
	// Status is the HTTP status of the answer: 400, 401, 403 (RFC 6750
	// §3.1), or 503 when the key source did not answer in time.
	Status int
	// Code is the error code of the challenge (CodeInvalidRequest,
	// CodeInvalidToken, CodeInsufficientScope, and with Options.DPoP
	// dpop.CodeInvalidProof or dpop.CodeUseNonce), or "" for a request
	// without a bearer credential (RFC 6750 §3.1) and for a 503.
	Code string
	// Description is the error_description of the challenge, or "".
	Description string
	// Scope is, for insufficient_scope, the scopes needed,
	// space-separated (RFC 6750 §3).
	Scope string
	// Err is the Validator's error for a token it refused (or the DPoP
	// Verifier's, a *dpop.Error, for a proof or binding it refused; for a
	// "cnf" the Middleware cannot check, an error naming its member when
	// an RFC defines it), nil for the other refusals. Unlike the fields above it may quote parts of the
	// token (a claim's value, a kid), each at most 64 bytes, quoted and
	// with its length: log it, never send it.
	Err error

	kind kind
}

// Error returns "bearer: " and the description: never Err's text.
func (e *Error) Error() string {
	switch {
	case e.Description != "":
		return "bearer: " + e.Description
	case e.Status == http.StatusUnauthorized:
		return "bearer: the request has no bearer token"
	}
	return "bearer: request refused"
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// WriteError writes the status of e and its text as a text/plain body, as
// http.Error does: the default Options.OnError. The WWW-Authenticate header
// is already set when it is called.
func WriteError(w http.ResponseWriter, r *http.Request, e *Error) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(e.Status)
	io.WriteString(w, http.StatusText(e.Status)+"\n")
}

// challenge returns the WWW-Authenticate value of the answer of kind k
// (RFC 6750 §3), "" for the answers without one.
func challenge(realm string, k kind, scope string) string {
	return schemeChallenge(scheme, "", realm, k, scope)
}

// schemeChallenge is challenge for the scheme sch (Bearer or DPoP), with
// algs, for DPoP, its "algs" attribute (RFC 9449 §7.1): the proof
// algorithms accepted, space-separated.
func schemeChallenge(sch, algs, realm string, k kind, scope string) string {
	if k == kindNone || k == kindUnavailable {
		return ""
	}
	var b strings.Builder
	b.WriteString(sch)
	sep := " "
	param := func(name, value string) {
		b.WriteString(sep)
		b.WriteString(name)
		b.WriteString(`="`)
		quote(&b, value)
		b.WriteByte('"')
		sep = ", "
	}
	if realm != "" {
		param("realm", realm)
	}
	if algs != "" {
		param("algs", algs)
	}
	if c := kinds[k].code; c != "" {
		param("error", c)
		param("error_description", kinds[k].description)
	}
	if k == kindInsufficientScope && scope != "" {
		param("scope", scope)
	}
	return b.String()
}

// quote writes s as the inside of a quoted-string (RFC 7235 §2.1, RFC 7230
// §3.2.6): '"' and '\' as quoted-pairs. New has refused the characters a
// quoted-string cannot hold.
func quote(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
}
