// Package dpop makes and checks DPoP proofs (RFC 9449, OAuth 2.0
// Demonstrating Proof of Possession): small signed JWTs by which a client
// proves, on each HTTP request, that it holds the private key its access
// token is bound to, so that a stolen token is of no use without the key.
//
// Client: NewProver binds an asymmetric key and algorithm (ES256, EdDSA,
// PS256, ...; HMAC and "none" are refused) and Prover.Proof makes the
// proof of one request (§4.2): header "typ": "dpop+jwt", "alg" and the
// public "jwk"; claims a random 128-bit "jti", "htm", "htu" (no query, no
// fragment), "iat", and "ath" and "nonce" when given. Prover.Thumbprint is
// the key's RFC 7638 thumbprint, the "jkt" a server binds tokens to
// (Thumbprint gives that of any asymmetric signature key, and refuses a
// symmetric one, which signs no proof).
//
// Server: a Verifier runs every check of §4.3, each refused with an *Error
// that wraps its own sentinel and carries the error code to answer with
// (CodeInvalidProof, or CodeUseNonce with the DPoP-Nonce to send):
// exactly one DPoP header, its size (before it is parsed), a well-formed
// JWS and JWT read by packages jws and jwt under the strict jose limits,
// the required claims, "typ", "alg" in the allow-list (asymmetric only),
// a public "jwk" that fits it, without certificates (its "x5c" would be
// parsed before the signature), the signature with that key, "iat" within
// the window (VerifierOptions.MaxAge and Leeway, §11.1), "htm", "htu"
// after RFC 3986 §6 normalization (NormalizeURI), "ath" against the
// presented access token, the server's nonce (§8, a NonceSource such as
// RotatingNonces), and last the replay store (a MemoryStore by default,
// bounded, or any ReplayStore), written only once the signature and every
// other check passed. Every check that needs no signature runs before it
// (Verifier.Check gives the order), on the very bytes then verified, and
// only ever refuses: the claims are checked again once verified.
// CheckBinding then checks the access token's "cnf" "jkt" (§6.1, read with
// TokenBinding) against the proof's key, or Verifier.CheckBound does, for
// a token already validated, before the proof's signature; CheckBearer
// refuses a bound token presented as a bearer token (§7.2): all with
// CodeInvalidToken.
//
// Cost: refusing a proof costs at most one signature verification, with a
// key of at most VerifierOptions.MaxRSABits for RSA, plus the parse of at
// most VerifierOptions.MaxProofSize bytes; SECURITY.md gives the measured
// worst cases. A proof a cheap check refuses costs none (its claims read
// before the signature when they are a flat object of at most 16
// members, as an honest proof's are), and with CheckBound neither does
// one of a key other than the token's.
//
// The package makes no HTTP responses itself: a middleware validates the
// access token, then calls Verifier.CheckBound (Verifier.Check for a
// token request) with the request's DPoP header values, method, URI and
// access token, and writes the *Error's code in its WWW-Authenticate
// challenge (§7.1) and its Nonce in a DPoP-Nonce header.
package dpop
