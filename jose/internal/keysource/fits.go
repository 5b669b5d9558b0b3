package keysource

import (
	"fmt"
	"strings"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/keytext"
	"github.com/josebench/josebench/jose/jwa"
)

// Algorithm is a [jose.Algorithm] that says, for refusals, what key it
// needs ([jwa.SignatureAlgorithm.KeyNeeds], [jwa.KeyAlgorithm.KeyNeeds]).
// It is not asked of jose.Algorithm itself, which key selection alone
// needs: a caller's own algorithm type given to [jose.Select] need not
// have KeyNeeds.
type Algorithm interface {
	jose.Algorithm
	KeyNeeds() string
}

// Fits reports whether key, a Go key or a supported *jose.JWK, has the
// type and curve alg needs ([jose.Algorithm.FitsKey]); a JWK's "alg",
// "use" and "key_ops" are not consulted ([jose.JWK.Permits] and
// [CheckFits] do).
func Fits[A jose.Algorithm](alg A, key any) bool {
	if k, ok := key.(*jose.JWK); ok {
		return k.Supported() && alg.FitsKey(k.Key)
	}
	return alg.FitsKey(key)
}

// CheckFits returns an error wrapping [jose.ErrInvalidKey] if key can
// serve none of algs: its type or curve fits none ([Fits]), or, for a *JWK,
// its own "alg", "use" and "key_ops" (RFC 7517 §4.2-4.4) permit none of
// those it fits, op(alg) being the operation each algorithm asks of the
// key ([jose.JWK.Permits]), the same test by which [jose.Select] drops a key from a
// set. jws.NewVerifier and jwe.NewDecrypter refuse so a single key that
// could never serve a token, rather than refusing every token with an
// error that reads like an attack. A key that can serve some of algs is
// accepted; tokens of the others are refused one by one. The error says
// what the key is and what each algorithm needs ([jwa.DescribeKey],
// [Refusal]), with no package prefix: jws and jwe give it under theirs.
func CheckFits[A Algorithm](algs []A, key any, op func(A) jose.KeyOp) error {
	jwk, isJWK := key.(*jose.JWK)
	typeFits := false
	for _, a := range algs {
		if !Fits(a, key) {
			continue
		}
		if !isJWK || jwk.Permits(string(a), op(a)) == nil {
			return nil
		}
		typeFits = true
	}
	what := jwa.DescribeKey(key)
	if isJWK && jwk != nil {
		what = jwa.DescribeKey(jwk.Key) + " (JWK " + untrusted.Quote(jwk.KeyID) + ")"
	}
	if typeFits {
		what = "JWK " + untrusted.Quote(jwk.KeyID) + " (" + jwa.DescribeKey(jwk.Key) + ")"
		var members []string
		if jwk.Algorithm != "" {
			members = append(members, "alg "+untrusted.Quote(jwk.Algorithm))
		}
		if jwk.Use != "" {
			members = append(members, "use "+untrusted.Quote(jwk.Use))
		}
		if jwk.KeyOps != nil {
			members = append(members, "key_ops "+untrusted.QuoteList(jwk.KeyOps))
		}
		return fmt.Errorf("%s with %s permits none of the algorithms %v: %w", what, strings.Join(members, ", "), algs, jose.ErrInvalidKey)
	}
	return fmt.Errorf("%s: %w", Refusal(what, algs, func(a A) string { return a.KeyNeeds() }), jose.ErrInvalidKey)
}

// Refusal is the refusal of the key desc describes by algs, each needing
// needs(alg): "the key is a P-256 ECDSA public key; ES384 needs a P-384
// ECDSA key" ([keytext.Refusal]).
func Refusal[A ~string](desc string, algs []A, needs func(A) string) string {
	names := make([]string, len(algs))
	ns := make([]string, len(algs))
	for i, a := range algs {
		names[i], ns[i] = string(a), needs(a)
	}
	return keytext.Refusal(desc, names, ns)
}
