package bearer

import (
	"errors"
	"slices"

	"github.com/josebench/josebench/jose/jwt"
)

// TypeAccessToken is the "typ" of a JWT access token (RFC 9068 §2.1),
// which also matches "application/at+jwt" (RFC 7515 §4.1.9).
const TypeAccessToken = "at+jwt"

// accessTokenClaims are the claims RFC 9068 §2.2 requires.
var accessTokenClaims = []string{"iss", "exp", "aud", "sub", "client_id", "iat", "jti"}

// NewAccessTokenValidator returns a jwt.Validator for JWT access tokens
// (RFC 9068 §4): opts with Type "at+jwt" (so that an ID token or another
// JWT signed with the same keys is refused, RFC 9068 §2.1, RFC 8725 §3.11)
// and the claims of §2.2 required: iss, exp, aud, sub, client_id, iat and
// jti. opts must name the issuers (§4: "iss" must match the authorization
// server's) and the audiences (§4: "aud" must contain the resource
// server's identifier; AnyAudience is refused), and its Type must be empty
// or an access token type; its other fields are kept.
func NewAccessTokenValidator(opts jwt.ValidatorOptions) (*jwt.Validator, error) {
	if opts.Type != "" && !jwt.SameType(opts.Type, TypeAccessToken) {
		return nil, errors.New("bearer: an access token Validator's Type must be at+jwt")
	}
	if len(opts.Issuers) == 0 {
		return nil, errors.New("bearer: an access token Validator needs Issuers (RFC 9068 §4)")
	}
	if opts.AnyAudience || len(opts.Audiences) == 0 {
		return nil, errors.New("bearer: an access token Validator needs Audiences (RFC 9068 §4)")
	}
	if opts.ExpiryOptional {
		return nil, errors.New("bearer: an access token Validator requires exp (RFC 9068 §2.2)")
	}
	opts.Type = TypeAccessToken
	req := slices.Clone(opts.Required)
	for _, c := range accessTokenClaims {
		if !slices.Contains(req, c) {
			req = append(req, c)
		}
	}
	opts.Required = req
	v, err := jwt.NewValidator(opts)
	if err != nil {
		return nil, err
	}
	return v, nil
}
