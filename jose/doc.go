// Package jose holds the vocabulary shared by JWS and JWE: JSON Web Keys and
// Key Sets (RFC 7517), thumbprints (RFC 7638, RFC 9278), JOSE headers, the
// strict base64url encoding of RFC 7515 §2, the errors callers test with
// [errors.Is], and the limits that bound the work an attacker can cause
// ([Limits]: a token, header, key or key set of more bytes than its limit
// is refused with [ErrLimitExceeded] before any of it is read).
//
// Errors that name a part of their input (a member name, a "kid", an
// "alg") quote at most 64 bytes of it, escaped as %q, and give its length:
// a kid of 1 MiB of "k" reads as a quote, 64 k, then …" (1048576 bytes).
// The jws, jwe, jwt and jwks packages do the same.
//
// Algorithms live in [github.com/josebench/josebench/jose/jwa]; tokens are
// built and loaded by [github.com/josebench/josebench/jose/jws] and
// [github.com/josebench/josebench/jose/jwe].
package jose
