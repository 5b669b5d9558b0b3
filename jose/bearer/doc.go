// Package bearer protects net/http handlers with bearer tokens (RFC 6750):
// a Middleware reads the access token a request carries, validates it with a
// jwt.Validator bounded by the request's context, checks the scopes the
// handler needs, and passes the validated claims to the handler in the
// request's context ([ClaimsFrom], [TokenFrom]).
//
// Credentials: the Authorization header (RFC 6750 §2.1), its scheme
// compared case-insensitively, with exactly one credential of the b64token
// syntax; the form body (§2.2) and the URI query (§2.3) only when
// Options.AllowForm and Options.AllowQuery say so. A request that uses more
// than one of the methods allowed is refused (§2). Every credential is
// bounded by Options.MaxTokenSize, checked before anything reads it.
//
// Answers (RFC 6750 §3): a request without a bearer credential gets a 401
// whose challenge has no error code, WWW-Authenticate: Bearer realm="api";
// a malformed request a 400 with error="invalid_request"; a token that
// fails validation a 401 with error="invalid_token"; a valid token without
// the scopes needed a 403 with error="insufficient_scope" and the scope
// attribute (§3.1). The error_description texts are fixed texts of this
// package: no byte of a token or of a claim ever reaches a header, a body
// or an [Error] message. A key source that cannot answer in time (a remote
// JWK Set that does not answer before the request's context ends) gets a
// 503 without a challenge: the token may well be valid. The challenges are
// written before Options.OnError is called, which writes the status and the
// body ([WriteError] by default) and may log the [Error].
//
// Bound tokens: a token whose "cnf" claim (RFC 7800 §3.1) holds a
// confirmation method the Middleware cannot check is refused, 401
// invalid_token ("the access token is bound by a confirmation method (cnf)
// this server does not check"), whatever its scheme: a token bound to a
// client certificate ("x5t#S256", RFC 8705 §3.1), to a "jwk", "jwe", "kid"
// or "jku" (RFC 7800 §3.2-3.5), to a key's thumbprint "jkt" (RFC 9449
// §6.1) when Options.DPoP is not set, or with a member of no RFC. RFC 7800
// §3.1 says to ignore the members an implementation does not understand,
// but such a token read as a bearer token would be usable by whoever
// stole it, which its binding was meant to prevent: a server that checks
// the binding itself (mutual TLS) validates such tokens without this
// Middleware. A "cnf" that is not an object, or is empty, makes the token
// invalid. This costs a search of every token's claims for "cnf" (or a
// "\u" escape), and a scan of them only when found (measured on a loaded
// 2-core machine, the 250 bytes of claims of a test token: 0.2-0.3 µs the
// search, beside 3.4-6.6 µs for its HS256 validation, and 1.2-2.2 µs the
// scan of a bound token's).
//
// JWT access tokens (RFC 9068) are validated by a Validator made with
// [NewAccessTokenValidator]: "typ": "at+jwt", the claims RFC 9068 §2.2
// requires, an issuer and an audience.
//
// Defaults, and why: only the Authorization header is read, since the form
// body is read only for requests that are forms and the query ends up in
// logs and histories (RFC 6750 §2.3, §5.3); a token of at most 8 KiB
// (DefaultMaxTokenSize: twice the largest tokens of common providers, and a
// header beyond it is refused unread); a form body of at most 64 KiB
// (DefaultMaxFormSize); no realm attribute unless Options.Realm; no scope
// required unless Options.Scopes; answers written by WriteError, a
// text/plain body of the status text.
//
// Cost: beyond the Validator, a request through the Middleware costs a copy
// of the token into a []byte, one allocation holding both the request's new
// context and the claims (which the Validator alone would allocate as
// well), and the shallow copy of the request that http.Request.WithContext
// makes, and the search of its claims for "cnf"; no goroutine, no lock.
//
// DPoP (RFC 9449): with Options.DPoP, a jose/dpop Verifier, the
// Middleware also accepts "Authorization: DPoP <token>" with its DPoP
// proof header (§7.1). The token is validated first, by the Validator,
// then the proof (every check of §4.3, "ath" against the token), its
// key's thumbprint compared with the token's "cnf" "jkt" (§6.1) before
// its claims and its signature: a request without a valid token, or with
// the token of another key, costs no proof signature, and is answered
// for its token whatever its proof's claims and signature (Options.DPoP
// gives the answers); the handler finds the proof with ProofFrom. A token
// bound to a key sent with the Bearer scheme is refused (§7.2); DPoPOnly
// refuses the Bearer scheme altogether, without reading it. Refusals of
// a DPoP request carry a DPoP challenge (with "algs", and a DPoP-Nonce
// header for use_dpop_nonce, §8), and with a nonce source accepted ones
// the current DPoP-Nonce (§8.2);
// a request with no token gets the challenges of both schemes; a Host
// header from which no target URI can be built for "htu" gets a 400
// invalid_request.
package bearer
