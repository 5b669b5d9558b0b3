package oidc

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/jsonx"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
	"github.com/josebench/josebench/jose/jwt"
)

// DefaultLeeway is the default of [VerifierOptions].Leeway: the clock skew
// tolerated on "exp", "iat", "nbf" and "auth_time" of an ID token. An ID
// token is checked once, seconds after it was issued, by a relying party
// whose clock is not the provider's; a minute (the default of Spring
// Security and Nimbus JOSE+JWT) absorbs an unsynchronised clock without
// keeping an expired token usable for long. On top of it, "iat" and "nbf"
// in whole seconds are compared at that precision (see
// [jwt.ValidatorOptions].Leeway).
const DefaultLeeway = time.Minute

// MaxSubjectLength is the longest "sub" accepted: 255 ASCII characters
// (OpenID Connect Core 1.0 §2).
const MaxSubjectLength = 255

// The sentinels of the ID-token checks beyond the JWT ones; each wraps
// [jwt.ErrInvalidClaims] (the token authenticated, and was refused for
// its claims).
var (
	// ErrNonce: the caller gave a nonce and the token's "nonce" is absent
	// or another (OpenID Connect Core 1.0 §3.1.3.7 step 11).
	ErrNonce error = &sentinel{"nonce mismatch"}
	// ErrAuthorizedParty: "azp" is not the client ID, or the token has
	// several audiences and no "azp", or an audience the verifier does
	// not trust (§3.1.3.7 steps 3-5).
	ErrAuthorizedParty error = &sentinel{"unexpected authorized party or audience"}
	// ErrAuthTime: "auth_time" is in the future (beyond the leeway), or
	// the caller sent a max_age and "auth_time" is absent, or
	// too far in the past (§3.1.3.7 step 13).
	ErrAuthTime error = &sentinel{"authentication is too old"}
	// ErrNotIDToken: the token is an access token or another kind of JWT,
	// not an ID token (see [IDTokenVerifier.Verify]).
	ErrNotIDToken error = &sentinel{"not an ID token"}
	// ErrHashMismatch: "at_hash" or "c_hash" is absent, or is not the hash
	// of the access token or code (§3.1.3.8, §3.3.2.11).
	ErrHashMismatch error = &sentinel{"token hash mismatch"}
)

type sentinel struct{ msg string }

func (e *sentinel) Error() string { return e.msg }
func (e *sentinel) Unwrap() error { return jwt.ErrInvalidClaims }

// claimError is an ID-token check that failed: "oidc: "claim": detail:
// sentinel".
func claimError(claim, detail string, err error) error {
	return fmt.Errorf("oidc: %s: %s: %w", untrusted.Quote(claim), detail, err)
}

// VerifierOptions configure an [IDTokenVerifier].
type VerifierOptions struct {
	// ClientID is the relying party's client_id, which the token's "aud"
	// must contain (required).
	ClientID string
	// TrustedAudiences are the audiences besides ClientID that a token may
	// name (OpenID Connect Core 1.0 §3.1.3.7 step 3: a token with an
	// audience the client does not trust is refused). Default none: a
	// token for several audiences is refused.
	TrustedAudiences []string
	// Algorithms is the allow-list of the ID token's "alg" (default
	// RS256, which every provider must support, Core §15.1). HS256, HS384
	// and HS512 are refused: their key is the client_secret (Core §10.1),
	// which this verifier does not take. A token is
	// also refused, before its signature is checked, when its alg is not
	// in the provider's id_token_signing_alg_values_supported (when the
	// document has that member): the accepted algorithms are the
	// intersection of both lists.
	Algorithms []jwa.SignatureAlgorithm
	// Leeway is the clock skew tolerated (default [DefaultLeeway], 1 min;
	// negative: none).
	Leeway time.Duration
	// Now returns the current time; time.Now by default.
	Now func() time.Time
	// Limits bound the work one token causes (jose defaults).
	Limits jose.Limits
}

// IDTokenVerifier verifies the ID tokens of one provider for one client
// (OpenID Connect Core 1.0 §3.1.3.7): a [jwt.Validator] over a
// [jws.Verifier] whose keys are the provider's JWK Set. It is safe for
// concurrent use.
type IDTokenVerifier struct {
	p         *Provider
	clientID  string
	trusted   []string
	validator *jwt.Validator
	now       func() time.Time
	leeway    time.Duration
}

// NewIDTokenVerifier returns the verifier of ID tokens issued by p for
// opts.ClientID. When p's document is already fetched and none of
// opts.Algorithms is in its id_token_signing_alg_values_supported, it
// fails at once.
func NewIDTokenVerifier(p *Provider, opts VerifierOptions) (*IDTokenVerifier, error) {
	if opts.ClientID == "" {
		return nil, errors.New("oidc: VerifierOptions.ClientID is empty")
	}
	algs := opts.Algorithms
	if len(algs) == 0 {
		algs = []jwa.SignatureAlgorithm{jwa.RS256}
	}
	for _, a := range algs {
		if a == jwa.HS256 || a == jwa.HS384 || a == jwa.HS512 {
			return nil, fmt.Errorf("oidc: VerifierOptions.Algorithms lists %s: an ID token MACed with it is keyed by the client_secret (OpenID Connect Core 1.0 §10.1), not by the provider's JWK Set, and this verifier takes none: %w", a, jose.ErrAlgorithmNotAllowed)
		}
	}
	if s := p.fetches.Load(); s != nil && !slices.ContainsFunc(algs, func(a jwa.SignatureAlgorithm) bool { return s.Value.meta.supports(string(a)) }) {
		return nil, fmt.Errorf("oidc: none of VerifierOptions.Algorithms %q is in the provider's id_token_signing_alg_values_supported %s", algs, untrusted.QuoteList(s.Value.meta.IDTokenSigningAlgValuesSupported))
	}
	leeway := opts.Leeway
	switch {
	case leeway == 0:
		leeway = DefaultLeeway
	case leeway < 0:
		leeway = 0
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	v := &IDTokenVerifier{p: p, clientID: opts.ClientID, trusted: slices.Clone(opts.TrustedAudiences), now: now, leeway: leeway}
	ver, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: algs, KeyFuncContext: v.keyFunc, Limits: opts.Limits})
	if err != nil {
		return nil, err // jws's or jwt's words, under no bare "oidc:"
	}
	v.validator, err = jwt.NewValidator(jwt.ValidatorOptions{
		Verifier:  ver,
		Issuers:   []string{p.issuer},
		Audiences: []string{opts.ClientID},
		Required:  []string{"sub", "iat"}, // Core §2; "exp" is always required
		Leeway:    leeway,
		Now:       now,
	})
	if err != nil {
		return nil, err // jws's or jwt's words, under no bare "oidc:"
	}
	return v, nil
}

// keyFunc refuses an alg the provider does not list for ID tokens, then
// returns its JWK Set.
func (v *IDTokenVerifier) keyFunc(ctx context.Context, h *jose.Header) (any, error) {
	s, err := v.p.current(ctx)
	if err != nil {
		return nil, err
	}
	if !s.Value.meta.supports(string(h.Algorithm)) {
		return nil, fmt.Errorf("alg %s is not in the provider's id_token_signing_alg_values_supported %s: %w",
			untrusted.Quote(string(h.Algorithm)), untrusted.QuoteList(s.Value.meta.IDTokenSigningAlgValuesSupported), jose.ErrAlgorithmNotAllowed)
	}
	return s.Value.keys.KeyFuncContext(ctx, h)
}

// Expect is what the relying party sent in its authentication request,
// which the ID token must answer.
type Expect struct {
	// Nonce is the "nonce" sent (Core §3.1.2.1); when not empty, the
	// token's "nonce" must be equal (compared in constant time). Empty:
	// none was sent, and the token's nonce, if any, is not checked.
	Nonce string
	// MaxAge is the max_age sent, when positive: "auth_time" is then
	// required and must be no more than MaxAge (plus the leeway) ago
	// (Core §3.1.3.7 step 13). A max_age of 0 (a fresh authentication,
	// as prompt=login) is not expressed here: compare IDToken.AuthTime
	// with the time the request was sent.
	MaxAge time.Duration
}

// IDToken is a verified ID token (OpenID Connect Core 1.0 §2).
type IDToken struct {
	// Claims are the registered claims: Issuer is the provider's, Audience
	// contains the client ID, Subject is not empty.
	jwt.Claims
	Nonce           string          // "nonce"
	AuthTime        jwt.NumericDate // "auth_time" (zero: absent)
	AuthorizedParty string          // "azp"
	AccessTokenHash string          // "at_hash"
	CodeHash        string          // "c_hash"
	ACR             string          // "acr"
	AMR             []string        // "amr"
	// Token is the validated JWT: its protected header and its claims set
	// (Payload, for the claims not listed here, such as "email").
	Token *jwt.Token
}

// Verify verifies an ID token (OpenID Connect Core 1.0 §3.1.3.7), ctx
// bounding any wait for the provider's document or keys (a request's
// context), and returns it once every check has passed, cheapest first:
//
//   - the JWS: "alg" in VerifierOptions.Algorithms and in the provider's
//     id_token_signing_alg_values_supported (step 7), the signature
//     with a key of the provider's JWK Set (step 6);
//   - "typ", when present, "JWT": a JWT access token ("at+jwt", RFC 9068)
//     or any other explicitly typed token is refused;
//   - "exp" (step 9), "iat" (required, step 10), "nbf" if any, with the
//     leeway; "iss" exactly the configured issuer (step 2); "aud"
//     containing the client ID (step 3), and "sub" (required, at most 255
//     characters, §2);
//   - no audience other than the client ID and TrustedAudiences (step 3);
//     with several audiences an "azp" (step 4); an "azp", if any, equal to
//     the client ID (step 5);
//   - the nonce (step 11) and max_age (step 13) of want;
//   - no "scope", "scp" or "client_id" claim: the claims of an access
//     token (RFC 9068 §2.2) that no ID token carries. This heuristic
//     refuses the access tokens of providers that type neither kind,
//     as a second guard after the audience (an access token is for the
//     API, not for the client);
//   - no top-level "events" claim, whatever its value (null included):
//     that of a logout token (OpenID Connect Back-Channel Logout 1.0
//     §2.4) or another Security Event Token (RFC 8417), which the
//     provider sends to the same client ID and which, untyped and with a
//     "sub", passes every check above when no nonce was sent. No OpenID
//     specification defines "events" for ID tokens.
//
// An encrypted ID token (a JWE, step 1) is not accepted: it fails as a
// malformed JWS. A refusal after the signature wraps [jwt.ErrInvalidClaims] and the
// sentinel of its check. at_hash and c_hash are checked by
// [IDToken.VerifyAccessToken] and [IDToken.VerifyCode], when the flow
// needs them.
func (v *IDTokenVerifier) Verify(ctx context.Context, token []byte, want Expect) (*IDToken, error) {
	t, err := v.validator.ValidateContext(ctx, token, nil)
	if err != nil {
		return nil, err
	}
	id := &IDToken{Claims: t.Claims, Token: t}
	var otherClaim string
	// The claims set passed the Validator's strict reader: one object,
	// no duplicate names, within its limits.
	err = jsonx.ScanObject(t.Payload, jsonx.Limits{}, func(name, val []byte) error {
		var err error
		switch string(name) {
		case "nonce":
			id.Nonce, err = jsonx.String(val)
		case "azp":
			id.AuthorizedParty, err = jsonx.String(val)
		case "at_hash":
			id.AccessTokenHash, err = jsonx.String(val)
		case "c_hash":
			id.CodeHash, err = jsonx.String(val)
		case "acr":
			id.ACR, err = jsonx.String(val)
		case "amr":
			id.AMR, err = jsonx.StringArray(val)
		case "auth_time":
			err = id.AuthTime.UnmarshalJSON(val)
		case "scope", "scp", "client_id", "events":
			if otherClaim == "" {
				otherClaim = string(name)
			}
		}
		if err != nil {
			return claimError(string(name), untrusted.Error(err).Error(), jwt.ErrMalformedClaims)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(id.Subject) > MaxSubjectLength {
		return nil, claimError("sub", fmt.Sprintf("%d bytes, more than %d", len(id.Subject), MaxSubjectLength), jwt.ErrMalformedClaims)
	}
	for _, a := range id.Audience {
		if a != v.clientID && !slices.Contains(v.trusted, a) {
			return nil, claimError("aud", fmt.Sprintf("%s is neither the client ID nor a trusted audience", untrusted.Quote(a)), ErrAuthorizedParty)
		}
	}
	switch {
	case len(id.Audience) > 1 && id.AuthorizedParty == "":
		return nil, claimError("azp", "absent, and the token has several audiences", ErrAuthorizedParty)
	case id.AuthorizedParty != "" && id.AuthorizedParty != v.clientID:
		return nil, claimError("azp", fmt.Sprintf("%s, expected %q", untrusted.Quote(id.AuthorizedParty), v.clientID), ErrAuthorizedParty)
	}
	if want.Nonce != "" && (id.Nonce == "" || subtle.ConstantTimeCompare([]byte(id.Nonce), []byte(want.Nonce)) != 1) {
		detail := "not the nonce sent"
		if id.Nonce == "" {
			detail = "absent"
		}
		return nil, claimError("nonce", detail, ErrNonce)
	}
	if !id.AuthTime.IsZero() {
		if now := v.now(); id.AuthTime.Time().After(now.Add(v.leeway)) {
			return nil, claimError("auth_time", fmt.Sprintf("%s is in the future, now %s, leeway %v", id.AuthTime, now.UTC().Format(time.RFC3339Nano), v.leeway), ErrAuthTime)
		}
	}
	if want.MaxAge > 0 {
		if id.AuthTime.IsZero() {
			return nil, claimError("auth_time", "absent, and a max_age was sent", ErrAuthTime)
		}
		now := v.now()
		if now.After(id.AuthTime.Time().Add(want.MaxAge).Add(v.leeway)) {
			return nil, claimError("auth_time", fmt.Sprintf("%s, now %s, max_age %v, leeway %v", id.AuthTime, now.UTC().Format(time.RFC3339Nano), want.MaxAge, v.leeway), ErrAuthTime)
		}
	}
	if otherClaim == "events" {
		return nil, claimError(otherClaim, "a claim of logout tokens (Back-Channel Logout 1.0 §2.4) and other Security Event Tokens (RFC 8417 §2.2), not of ID tokens", ErrNotIDToken)
	}
	if otherClaim != "" {
		return nil, claimError(otherClaim, "a claim of access tokens (RFC 9068 §2.2), not of ID tokens", ErrNotIDToken)
	}
	return id, nil
}
