// Package oidc finds an OpenID provider from its issuer URL and verifies
// its ID tokens: OpenID Connect Discovery 1.0 (and OAuth 2.0 Authorization
// Server Metadata, RFC 8414) for the provider's metadata and keys, OpenID
// Connect Core 1.0 §3.1.3.7 for the ID token, built on [jwt.Validator] and
// [jwks.Remote].
//
//	p, err := oidc.Discover(ctx, "https://accounts.example", oidc.Options{})
//	...
//	defer p.Close()
//	v, err := oidc.NewIDTokenVerifier(p, oidc.VerifierOptions{ClientID: "my-app"})
//	...
//	id, err := v.Verify(r.Context(), rawIDToken, oidc.Expect{Nonce: nonce})
//
// A [Provider] fetches the metadata document over HTTPS from the
// well-known URL of the issuer, refuses it unless its "issuer" is exactly
// the configured one (Discovery §4.3) and its jwks_uri is https, and
// takes the keys from a [jwks.Remote] of that jwks_uri; the document is
// cached and refreshed as the JWK Set is, within the same bounds.
// [Provider.KeyFuncContext] makes the provider a key source for any
// jws.Verifier (access tokens, through package bearer); an
// [IDTokenVerifier] adds the ID-token rules: issuer, audience and azp,
// nonce, max_age, the provider's algorithms, and refusal of access
// tokens. [IDToken.VerifyAccessToken] and [IDToken.VerifyCode] check
// at_hash and c_hash.
//
// Worst cases, each bounded by an [Options] field: a slow or hanging
// provider holds a call for at most its context's deadline and a fetch for
// at most Timeout; a huge document is refused at MaxDocumentSize bytes; a
// document that redirects is followed at most 10 times, never to http; a
// document with another issuer, a non-https jwks_uri or duplicate member
// names is refused and the last good one kept; a provider that fails is
// asked at most once per RefreshCooldown. Errors quote at most 64 bytes of
// anything the provider sent.
package oidc
