// Package jwt issues and validates JSON Web Tokens (RFC 7519): signed,
// encrypted and nested, on top of packages jws and jwe, with the claims
// checks of RFC 7519 §4.1 and the explicit typing of RFC 8725 §3.11 right
// by default.
//
// Issuing: [NewSigner] (a [jws.Signer] writing "typ": "JWT" or an explicit
// type), [NewEncrypter] (an encrypted JWT) and [NewNestedEncrypter] (signed,
// then encrypted, with "cty": "JWT" in the JWE Protected Header, RFC 7519
// §5.2). The registered claims are a [Claims]; private claims go in a
// struct that embeds it, or a map. Issuing checks what validating checks:
// claims a Validator would refuse (a duplicate name, a registered claim
// of the wrong type, a date before the epoch, past [MaxNumericDate] or
// made from the zero time.Time) are refused, whatever holds them.
//
// Validating: a [Validator] is built once by [NewValidator] from
// [ValidatorOptions] and is safe for concurrent use. Its key source is a
// [jws.Verifier], a [jwe.Decrypter], or both for nested tokens; their
// allow-lists bind the algorithms ("none" is never accepted: jws refuses
// it), and a Verifier whose key source changes over time (a remote JWK
// Set behind a KeyFunc) works as is. Defaults are the safe ones: "exp" is
// required (unless ExpiryOptional), the leeway is 0 ("iat" and "nbf" in
// whole seconds are compared at that precision, so that an issuer whose
// clock leads by less than a second is not refused), an audience decision
// is mandatory (Audiences, or an explicit AnyAudience, RFC 8725 §3.9), and
// "typ" must be absent or "JWT" unless an explicit type is expected; "typ"
// and "cty" are read from protected headers only.
//
// A request's context bounds the wait on a key source:
// [Validator.ValidateContext] and [Validator.ValidateIntoContext] pass it to
// the Verifier and the Decrypter (both, for a nested JWT), whose
// KeyFuncContext (a remote JWK Set being fetched) gets it; once it is done
// validation ends with an error wrapping ctx.Err(). Validate and
// ValidateInto are these with context.Background(); with local keys the
// context costs nothing.
//
// Errors: a token that fails to verify or decrypt is refused with the jws or
// jwe error ([jose.ErrVerificationFailed], [jose.ErrDecryptionFailed], ...)
// before its claims are read. A token that authenticates but is refused
// returns a [*ClaimError] naming the claim and wrapping one sentinel
// ([ErrExpired], [ErrNotYetValid], [ErrIssuedInTheFuture], [ErrTooOld],
// [ErrInvalidIssuer], [ErrInvalidAudience], [ErrInvalidSubject],
// [ErrMissingClaim], [ErrInvalidType], [ErrInvalidContentType],
// [ErrMalformedClaims]), each of which wraps [ErrInvalidClaims].
//
// Claims sets are read with the strict JSON reader of the jose packages:
// one JSON object, duplicate member names refused at every depth, nesting
// and member counts bounded (ValidatorOptions.MaxDepth, MaxClaims), and
// NumericDate values checked (RFC 7519 §2) and read exactly: a date with
// an exponent that strconv would not read exactly (more than 32 bytes, or
// an exponent of more than five digits) is refused, not misread.
// Registered claims are read without reflection; private ones are decoded
// from the same bytes. Errors quote at most 64 bytes of a claim's name or
// value, with its length.
//
// Cost: validating a signed JWT into a [Claims] costs the JWS verification
// plus a single scan of the claims, and four allocations;
// [Validator.ValidateInto] with a reused [Token] needs one (two to decode
// into the caller's own variable as well), and
// [Signer.AppendSign] into a reused buffer none.
package jwt
