// Package jose holds the vocabulary shared by JWS and JWE: JSON Web Keys and
// Key Sets (RFC 7517), thumbprints (RFC 7638, RFC 9278), JOSE headers, the
// strict base64url encoding of RFC 7515 §2, the errors callers test with
// [errors.Is], and the limits that bound the work an attacker can cause.
//
// Algorithms live in [github.com/josebench/josebench/jose/jwa]; tokens are
// built and loaded by [github.com/josebench/josebench/jose/jws] and
// [github.com/josebench/josebench/jose/jwe].
package jose
