package subjects

import (
	"errors"
	"testing"
	"time"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
	"github.com/josebench/josebench/jose/jwt"
)

// The pre-timing checks of the JWT variants fail, naming the check, when a
// validator accepts a bad token or refuses it with the wrong sentinel.
func TestJWTChecks(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	otherKey := []byte("fedcba9876543210fedcba9876543210")
	s, err := jwt.NewSigner(jwa.HS256, key, nil)
	if err != nil {
		t.Fatal(err)
	}
	validator := func(k []byte, o jwt.ValidatorOptions) *jwt.Validator {
		ver, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: k})
		if err != nil {
			t.Fatal(err)
		}
		o.Verifier, o.Now = ver, func() time.Time { return jwtNow }
		v, err := jwt.NewValidator(o)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	aud := jwt.ValidatorOptions{Audiences: []string{jwtAudience}}
	good := jwtPair{issue: s.Sign, validate: validator(key, aud), other: validator(otherKey, aud),
		forged: jose.ErrVerificationFailed, forgedName: "jose.ErrVerificationFailed"}
	if err := good.check(); err != nil {
		t.Fatalf("good pair: %v", err)
	}
	for check, p := range map[string]jwtPair{
		CheckWrongAudience: {issue: s.Sign, validate: validator(key, jwt.ValidatorOptions{AnyAudience: true}), other: good.other, forged: good.forged},
		CheckExpired:       {issue: s.Sign, validate: validator(key, jwt.ValidatorOptions{Audiences: aud.Audiences, Leeway: time.Minute}), other: good.other, forged: good.forged},
		CheckOtherKey:      {issue: s.Sign, validate: good.validate, other: good.validate, forged: good.forged},
		// A nested pair's tag flip on a JWS token: the check itself fails.
		CheckFlippedTag:       {issue: s.Sign, validate: good.validate, other: good.other, forged: good.forged, nested: true},
		CheckFlippedSignature: {issue: s.Sign, validate: good.validate, other: good.other, forged: jose.ErrDecryptionFailed},
	} {
		var ce *CheckError
		if err := p.check(); !errors.As(err, &ce) || ce.Check != check {
			t.Errorf("%s: %v", check, err)
		}
	}
	var v bench.Variant
	v.Subject, v.Alg, v.JWT = "benchNothing", "HS256", true
	if _, err := prepareJWT(&v); err == nil {
		t.Error("a JWT variant with another group's subject prepared")
	}
}
