package bearer

import (
	"context"
	"strings"

	"github.com/josebench/josebench/jose/dpop"
	"github.com/josebench/josebench/jose/jwt"
)

// Claims are the claims of a validated access token that a Middleware
// reads: the registered claims of RFC 7519 §4.1 and those of RFC 9068 §2.2
// an authorization decision needs. Other private claims are in the JSON
// object TokenFrom(ctx).Payload.
type Claims struct {
	jwt.Claims
	// Scope is the "scope" claim: scope-tokens separated by spaces (RFC
	// 9068 §2.2.3, RFC 8693 §4.2).
	Scope string `json:"scope,omitempty"`
	// Scp is the "scp" claim, an array of scope-tokens, as some providers
	// write the scopes. A "scp" that is not an array of strings makes
	// the token invalid.
	Scp []string `json:"scp,omitempty"`
	// ClientID is the "client_id" claim: the client the token was issued
	// to (RFC 9068 §2.2, RFC 8693 §4.3).
	ClientID string `json:"client_id,omitempty"`
}

// HasScope reports whether c grants scope s: s is one of the
// space-separated values of Scope, or one of Scp. Values are compared
// exactly (RFC 6749 §3.3); it does not allocate.
func (c *Claims) HasScope(s string) bool {
	if s == "" {
		return false
	}
	for _, x := range c.Scp {
		if x == s {
			return true
		}
	}
	for rest := c.Scope; rest != ""; {
		var f string
		f, rest, _ = strings.Cut(rest, " ")
		if f == s {
			return true
		}
	}
	return false
}

// hasScopes reports whether c grants every scope of scopes.
func (c *Claims) hasScopes(scopes []string) bool {
	for _, s := range scopes {
		if !c.HasScope(s) {
			return false
		}
	}
	return true
}

// claimsContext is the context a Middleware gives the next handler: the
// request's, with the claims and the token. The claims live in it, so
// that one allocation holds both.
type claimsContext struct {
	context.Context
	claims Claims
	token  *jwt.Token
	proof  *dpop.Proof // the DPoP proof of a DPoP-bound token, or nil
}

type contextKey struct{}

// Value returns c itself for the package's key, and the parent's values
// otherwise.
func (c *claimsContext) Value(key any) any {
	if key == (contextKey{}) {
		return c
	}
	return c.Context.Value(key)
}

// String describes c, as the context package's contexts do.
func (c *claimsContext) String() string { return "bearer.claimsContext" }

// ClaimsFrom returns the validated claims of the request whose context is
// ctx, in a handler a Middleware called, and nil in any other context. The
// claims belong to the request: they must not be modified.
func ClaimsFrom(ctx context.Context) *Claims {
	if c, ok := ctx.Value(contextKey{}).(*claimsContext); ok {
		return &c.claims
	}
	return nil
}

// TokenFrom returns the validated token of the request whose context is
// ctx, as ClaimsFrom does: its protected header (its kid, its typ) and its
// claims set, Payload, from which private claims other than those of
// Claims can be decoded.
func TokenFrom(ctx context.Context) *jwt.Token {
	if c, ok := ctx.Value(contextKey{}).(*claimsContext); ok {
		return c.token
	}
	return nil
}

// ProofFrom returns the DPoP proof (RFC 9449) of the request whose context
// is ctx, as ClaimsFrom does, when its access token came with the DPoP
// scheme (Options.DPoP): its key's thumbprint, Thumbprint, is the token's
// "cnf" "jkt". It is nil for a bearer token and in any other context.
func ProofFrom(ctx context.Context) *dpop.Proof {
	if c, ok := ctx.Value(contextKey{}).(*claimsContext); ok {
		return c.proof
	}
	return nil
}
