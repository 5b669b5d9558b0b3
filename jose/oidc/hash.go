package oidc

import (
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"hash"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// TokenHash returns the "at_hash" or "c_hash" of token (an access token
// or an authorization code) for an ID token signed with alg (OpenID
// Connect Core 1.0 §3.1.3.8, §3.3.2.11): the base64url encoding of the
// left half of the hash of its ASCII octets, with the hash of alg: SHA-256
// for HS256, RS256, PS256 and ES256, SHA-384 and SHA-512 for the 384 and
// 512 variants, SHA-512 for EdDSA and Ed25519 (the only curve this module
// supports with EdDSA). An alg with no such hash is
// [jose.ErrUnsupportedAlgorithm].
func TokenHash(alg jwa.SignatureAlgorithm, token string) (string, error) {
	var h hash.Hash
	switch alg {
	case jwa.HS256, jwa.RS256, jwa.PS256, jwa.ES256, "ES256K":
		h = sha256.New()
	case jwa.HS384, jwa.RS384, jwa.PS384, jwa.ES384:
		h = sha512.New384()
	case jwa.HS512, jwa.RS512, jwa.PS512, jwa.ES512, jwa.EdDSA, jwa.Ed25519:
		h = sha512.New()
	default:
		return "", fmt.Errorf("oidc: no token hash for alg %s: %w", untrusted.Quote(string(alg)), jose.ErrUnsupportedAlgorithm)
	}
	h.Write([]byte(token))
	sum := h.Sum(nil)
	return base64.RawURLEncoding.EncodeToString(sum[:len(sum)/2]), nil
}

// VerifyAccessToken checks that the token's "at_hash" is the hash of
// accessToken (Core §3.1.3.8, §3.2.2.9): call it when the access token
// came with the ID token from the authorization endpoint (implicit and
// hybrid flows, where at_hash is required), or when at_hash is present.
// An absent at_hash or another hash is an error wrapping
// [ErrHashMismatch]; the comparison is in constant time.
func (t *IDToken) VerifyAccessToken(accessToken string) error {
	return t.verifyHash("at_hash", t.AccessTokenHash, accessToken)
}

// VerifyCode checks that the token's "c_hash" is the hash of code (Core
// §3.3.2.11), for the hybrid flow's ID token from the authorization
// endpoint, as VerifyAccessToken does for at_hash.
func (t *IDToken) VerifyCode(code string) error {
	return t.verifyHash("c_hash", t.CodeHash, code)
}

func (t *IDToken) verifyHash(claim, got, token string) error {
	if got == "" {
		return claimError(claim, "absent", ErrHashMismatch)
	}
	var alg jwa.SignatureAlgorithm
	if t.Token != nil && t.Token.Header != nil {
		alg = jwa.SignatureAlgorithm(t.Token.Header.Algorithm)
	}
	want, err := TokenHash(alg, token)
	if err != nil {
		return err
	}
	if subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
		return claimError(claim, "not the hash of the token given", ErrHashMismatch)
	}
	return nil
}
