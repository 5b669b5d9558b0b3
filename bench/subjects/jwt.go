package subjects

import (
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

// The checks of the JWT variants beyond those of every JWS or JWE variant.
const (
	CheckExpired       = "expired"        // a token whose exp has passed: jwt.ErrExpired
	CheckWrongAudience = "wrong audience" // a token for another audience: jwt.ErrInvalidAudience
)

// jwtPair is what a JWT variant is measured and checked through.
type jwtPair struct {
	issue      issueFunc
	validate   *jwt.Validator
	other      *jwt.Validator // the same, with another key of the same type
	nested     bool           // the token is a JWE (else a JWS)
	forged     error          // the sentinel of a tampered token
	forgedName string
}

// prepareJWT returns the op of a JWT variant after the checks (an error
// wrapping a *[CheckError] when one fails): a token it issues validates
// back to the claims; a token with a bit flipped in its signature and
// payload (signed) or tag and ciphertext (nested), or validated under
// another key, is refused with jose.ErrVerificationFailed or
// jose.ErrDecryptionFailed; an expired and a wrong-audience token are
// refused with jwt.ErrExpired and jwt.ErrInvalidAudience.
func prepareJWT(v *bench.Variant) (bench.Op, error) {
	p, err := jwtFuncs(v)
	if err != nil {
		return nil, err
	}
	claims := accessToken(jwtNow.Add(time.Hour), jwtAudience)
	roundTrip := func() error {
		tok, err := p.issue(claims)
		if err != nil {
			return err
		}
		var got jwtClaims
		if _, err := p.validate.Validate(tok, &got); err != nil {
			return err
		}
		if got.Scope != claims.Scope || got.ClientID != claims.ClientID || got.ID != claims.ID || !got.Expiry.Time().Equal(claims.Expiry.Time()) {
			return errMismatch
		}
		return nil
	}
	if err := roundTrip(); err != nil {
		return nil, &CheckError{CheckRoundTrip, err}
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	switch v.Subject {
	case bench.SubjectIssue:
		return func() error { _, err := p.issue(claims); return err }, nil
	case bench.SubjectValidate:
		tok, err := p.issue(claims)
		if err != nil {
			return nil, err
		}
		return func() error {
			var got jwtClaims
			_, err := p.validate.Validate(tok, &got)
			return err
		}, nil
	case bench.SubjectRoundTrip:
		return roundTrip, nil
	}
	return nil, fmt.Errorf("subjects: %s is not a JWT subject", v.Subject)
}

// check runs the refusal checks of a JWT variant on fresh tokens.
func (p *jwtPair) check() error {
	good, err := p.issue(accessToken(jwtNow.Add(time.Hour), jwtAudience))
	if err != nil {
		return &CheckError{CheckRoundTrip, err}
	}
	refused := func(check string, v *jwt.Validator, tok []byte, sentinel error, name string) error {
		_, err := v.Validate(tok, nil)
		return want(check, err, sentinel, name)
	}
	flips := []struct {
		check, member string
		segment       int
	}{{CheckFlippedSignature, "signature", 2}, {CheckFlippedPayload, "payload", 1}}
	if p.nested {
		flips = []struct {
			check, member string
			segment       int
		}{{CheckFlippedTag, "tag", 4}, {CheckFlippedContent, "ciphertext", 3}}
	}
	for _, c := range flips {
		bad, err := flip(good, bench.SerializationCompact, c.segment, c.member)
		if err != nil {
			return &CheckError{c.check, err}
		}
		if err := refused(c.check, p.validate, bad, p.forged, p.forgedName); err != nil {
			return err
		}
	}
	if err := refused(CheckOtherKey, p.other, good, p.forged, p.forgedName); err != nil {
		return err
	}
	for _, c := range []struct {
		check    string
		claims   *jwtClaims
		sentinel error
		name     string
	}{
		{CheckExpired, accessToken(jwtNow.Add(-time.Second), jwtAudience), jwt.ErrExpired, "jwt.ErrExpired"},
		{CheckWrongAudience, accessToken(jwtNow.Add(time.Hour), "https://other.example"), jwt.ErrInvalidAudience, "jwt.ErrInvalidAudience"},
	} {
		tok, err := p.issue(c.claims)
		if err != nil {
			return &CheckError{c.check, err}
		}
		if err := refused(c.check, p.validate, tok, c.sentinel, c.name); err != nil {
			return err
		}
	}
	return nil
}

// jwtFuncs makes the issuer and validators of a JWT variant.
func jwtFuncs(v *bench.Variant) (*jwtPair, error) {
	alg := jwa.SignatureAlgorithm(v.Alg)
	priv, pub, otherPub, err := signatureKeys(v)
	if err != nil {
		return nil, err
	}
	s, err := jwt.NewSigner(alg, priv, nil)
	if err != nil {
		return nil, err
	}
	verifier := func(key any) (*jws.Verifier, error) {
		return jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{alg}, Key: key})
	}
	ver, err := verifier(pub)
	if err != nil {
		return nil, err
	}
	opts := jwt.ValidatorOptions{
		Verifier:  ver,
		Issuers:   []string{"https://issuer.example"},
		Audiences: []string{jwtAudience},
		Now:       func() time.Time { return jwtNow },
	}
	p := &jwtPair{issue: s.Sign, forged: jose.ErrVerificationFailed, forgedName: "jose.ErrVerificationFailed"}
	otherOpts := opts
	if v.KeyAlg == "" {
		if otherOpts.Verifier, err = verifier(otherPub); err != nil {
			return nil, err
		}
	} else {
		// Nested: the suite's P-256 key also serves as the recipient's
		// ECDH-ES key (a real deployment would have two); the other key is
		// the other P-256 key, for decryption.
		kw, enc := jwa.KeyAlgorithm(v.KeyAlg), jwa.ContentEncryption(v.Enc)
		rk, err := ecKey(v.Curve, false)
		if err != nil {
			return nil, err
		}
		ok, err := ecKey(v.Curve, true)
		if err != nil {
			return nil, err
		}
		e, err := jwt.NewNestedEncrypter(s, kw, enc, &rk.PublicKey, nil)
		if err != nil {
			return nil, err
		}
		decrypter := func(key any) (*jwe.Decrypter, error) {
			return jwe.NewDecrypter(jwe.DecryptOptions{
				KeyAlgorithms: []jwa.KeyAlgorithm{kw}, ContentEncryptions: []jwa.ContentEncryption{enc}, Key: key,
			})
		}
		if opts.Decrypter, err = decrypter(rk); err != nil {
			return nil, err
		}
		if otherOpts.Decrypter, err = decrypter(ok); err != nil {
			return nil, err
		}
		p.issue, p.nested = e.Encrypt, true
		p.forged, p.forgedName = jose.ErrDecryptionFailed, "jose.ErrDecryptionFailed"
	}
	if p.validate, err = jwt.NewValidator(opts); err != nil {
		return nil, err
	}
	if p.other, err = jwt.NewValidator(otherOpts); err != nil {
		return nil, err
	}
	return p, nil
}
