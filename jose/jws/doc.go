// Package jws builds and loads JSON Web Signatures (RFC 7515), in the compact
// serialization and in the flattened and general JSON serializations, with
// the unencoded payload option of RFC 7797 and detached payloads
// (RFC 7515 Appendix F).
//
// Signing: [NewSigner] binds one algorithm to one key and fixes the protected
// header once; [Signer.Compact], [Signer.CompactDetached], [Signer.Flattened]
// and [SignGeneral] then only encode the payload and sign.
// [Signer.AppendCompact] appends the compact token to a caller's buffer, and
// [Verifier.VerifyCompactInto] loads one into a caller's [Message]: reused,
// they let a hot path (HS256, say) sign and verify without allocating.
//
// Loading: [NewVerifier] takes an explicit allow-list of algorithms and the
// key (one key, a JWK Set or a callback; a set's keys are chosen by the
// selection policy jws and jwe share, [jose.Select], at most
// [MaxKeyCandidates] per signature, and
// [jose.Limits.MaxKeyAttempts] verifications and
// [jose.Limits.MaxKeyLookups] calls of a key function per token over all
// its signatures). A token is refused before any
// cryptography when its header is malformed or too large, when its "alg" is
// "none" or not in the allow-list, when the key does not fit the algorithm
// (type, curve, or the JWK's own "alg", "use" and "key_ops"), or when its
// "crit" names an extension the caller did not declare (RFC 7515 §4.1.11).
// The "jwk", "jku", "x5u" and "x5c" header members are never used to find a
// key, and nothing is ever fetched; the one opt-in exception is
// [NewX5CKeyFunc], which takes the key from an "x5c" chain it has verified
// against the caller's roots (of the protected header, unless
// X5COptions.AllowUnprotected), and reports that chain as [Message].Chain. Headers are read as JWS headers
// ([jose.JWSHeader]): the members only JWE defines ("zip", "epk", ...) are
// not understood, and ignored (RFC 7515 §4), except "enc", which marks a JWE
// (RFC 7516 §9): a token whose protected or unprotected header holds it is
// refused with [jose.ErrMalformed] before any key is used, and a [Signer]
// refuses every JWE-only member in the headers it is given.
//
// Every error returned while loading a token wraps one of the sentinel errors
// of package jose ([jose.ErrMalformed], [jose.ErrAlgorithmNotAllowed],
// [jose.ErrLimitExceeded], [jose.ErrKeyNotFound],
// [jose.ErrVerificationFailed], [jose.ErrUnsupportedCritical], ...), so
// callers branch with [errors.Is]; the one exception is an error of
// VerifyOptions.KeyFunc or KeyFuncContext, returned wrapped with what it
// wraps (a jwks.Remote that cannot fetch its set: jwks.ErrFetch), and a
// done context's, which wraps ctx.Err() (below).
//
// Every path that may wait on a key source takes a context:
// [Verifier.VerifyCompactContext], [Verifier.VerifyCompactIntoContext],
// [Verifier.VerifyJSONContext], [Verifier.VerifyEachContext] and
// [Verifier.VerifyDetachedContext] pass theirs to
// VerifyOptions.KeyFuncContext, and a done context ends the wait at once
// with an error wrapping ctx.Err(). The methods without a context are
// these with context.Background(); with Key or Keys the context is not
// consulted and costs nothing.
package jws
