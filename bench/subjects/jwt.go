package subjects

import (
	"errors"
	"fmt"
	"time"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
	"github.com/josebench/josebench/jose/jws"
	"github.com/josebench/josebench/jose/jwt"
)

// jwtClaims is the claims set of the JWT variants (bench.JWTClaims): a
// typical access token, the seven registered claims and two private ones.
type jwtClaims struct {
	jwt.Claims
	Scope    string `json:"scope"`
	ClientID string `json:"client_id"`
}

// jwtNow is the validators' clock: fixed, so that a token made before a
// long run stays valid however long it takes.
var jwtNow = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

const jwtAudience = "https://api.example"

func accessToken(exp time.Time, aud string) *jwtClaims {
	return &jwtClaims{
		Claims: jwt.Claims{
			Issuer:    "https://issuer.example",
			Subject:   "user-1234",
			Audience:  jwt.Audience{aud},
			Expiry:    jwt.NewNumericDate(exp),
			NotBefore: jwt.NewNumericDate(jwtNow.Add(-time.Minute)),
			IssuedAt:  jwt.NewNumericDate(jwtNow.Add(-time.Minute)),
			ID:        "b9c1f3c2-5a4e-4f7e-9d0a-1c2b3d4e5f60",
		},
		Scope:    "read write",
		ClientID: "client-42",
	}
}

type issueFunc func(claims any) ([]byte, error)

// errNotRefused reports a bad token that a JWT variant's validator
// accepted, or refused with the wrong error.
var errNotRefused = errors.New("subjects: a bad JWT was not refused with its sentinel")

// prepareJWT returns the op of a JWT variant after checking, before any
// timing, that a token it issues validates back to the claims, and that a
// tampered, an expired and a wrong-audience token are each refused with
// their sentinel error.
func prepareJWT(v *bench.Variant) (bench.Op, error) {
	issue, val, forged, err := jwtFuncs(v)
	if err != nil {
		return nil, err
	}
	claims := accessToken(jwtNow.Add(time.Hour), jwtAudience)
	roundTrip := func() error {
		tok, err := issue(claims)
		if err != nil {
			return err
		}
		var got jwtClaims
		if _, err := val.Validate(tok, &got); err != nil {
			return err
		}
		if got.Scope != claims.Scope || got.ClientID != claims.ClientID || got.ID != claims.ID || got.Expiry != claims.Expiry {
			return errMismatch
		}
		return nil
	}
	if err := roundTrip(); err != nil {
		return nil, err
	}
	if err := checkJWTRefusals(issue, val, forged); err != nil {
		return nil, err
	}
	switch v.Subject {
	case bench.SubjectIssue:
		return func() error { _, err := issue(claims); return err }, nil
	case bench.SubjectValidate:
		tok, err := issue(claims)
		if err != nil {
			return nil, err
		}
		return func() error {
			var got jwtClaims
			_, err := val.Validate(tok, &got)
			return err
		}, nil
	case bench.SubjectRoundTrip:
		return roundTrip, nil
	}
	return nil, fmt.Errorf("subjects: %s is not a JWT subject", v.Subject)
}

// checkJWTRefusals checks the three bad tokens; forged is the sentinel of
// a tampered token (jose.ErrVerificationFailed for a signed JWT,
// jose.ErrDecryptionFailed for a nested one).
func checkJWTRefusals(issue issueFunc, val *jwt.Validator, forged error) error {
	good, err := issue(accessToken(jwtNow.Add(time.Hour), jwtAudience))
	if err != nil {
		return err
	}
	tampered := []byte(string(good))
	i := len(tampered) - 5 // inside the signature (or tag): still canonical base64url
	if tampered[i] == 'A' {
		tampered[i] = 'B'
	} else {
		tampered[i] = 'A'
	}
	expired, err := issue(accessToken(jwtNow.Add(-time.Second), jwtAudience))
	if err != nil {
		return err
	}
	otherAud, err := issue(accessToken(jwtNow.Add(time.Hour), "https://other.example"))
	if err != nil {
		return err
	}
	for _, c := range []struct {
		name string
		tok  []byte
		want error
	}{
		{"tampered", tampered, forged},
		{"expired", expired, jwt.ErrExpired},
		{"wrong-audience", otherAud, jwt.ErrInvalidAudience},
	} {
		if _, err := val.Validate(c.tok, nil); !errors.Is(err, c.want) {
			return fmt.Errorf("%w: %s token: got %v, want %v", errNotRefused, c.name, err, c.want)
		}
	}
	return nil
}

// jwtFuncs makes the issuer and validator of a JWT variant.
func jwtFuncs(v *bench.Variant) (issueFunc, *jwt.Validator, error, error) {
	alg := jwa.SignatureAlgorithm(v.Alg)
	priv, pub, err := signatureKeys(v)
	if err != nil {
		return nil, nil, nil, err
	}
	s, err := jwt.NewSigner(alg, priv, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	ver, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{alg}, Key: pub})
	if err != nil {
		return nil, nil, nil, err
	}
	opts := jwt.ValidatorOptions{
		Verifier:  ver,
		Issuers:   []string{"https://issuer.example"},
		Audiences: []string{jwtAudience},
		Now:       func() time.Time { return jwtNow },
	}
	if v.KeyAlg == "" {
		val, err := jwt.NewValidator(opts)
		return s.Sign, val, jose.ErrVerificationFailed, err
	}
	// Nested: the fixed P-256 key also serves as the recipient's ECDH-ES
	// key (a real deployment would have two).
	kw, enc := jwa.KeyAlgorithm(v.KeyAlg), jwa.ContentEncryption(v.Enc)
	rk, err := ecKey(v.Curve)
	if err != nil {
		return nil, nil, nil, err
	}
	e, err := jwt.NewNestedEncrypter(s, kw, enc, &rk.PublicKey, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	if opts.Decrypter, err = jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms: []jwa.KeyAlgorithm{kw}, ContentEncryptions: []jwa.ContentEncryption{enc}, Key: rk,
	}); err != nil {
		return nil, nil, nil, err
	}
	val, err := jwt.NewValidator(opts)
	return e.Encrypt, val, jose.ErrDecryptionFailed, err
}
