// Package httpfetch is the bounded HTTP GET of the packages that fetch a
// document a provider publishes (jose/jwks: a JWK Set; jose/oidc: a
// discovery document), which jose/internal/cachedfetch makes for both: an
// https-only client of its own, one GET with conditional request
// headers, the body read within a size limit checked before and while
// reading, the freshness lifetime of the response (RFC 9111 §4.2.1), and
// error texts bounded by internal/untrusted whatever the server sends (a
// status line, a redirect's Location, a transport error repeating a
// header).
//
// Its errors name no package and no URL: the caller prefixes them
// ("oidc: GET https://...: status 500 Internal Server Error").
package httpfetch
