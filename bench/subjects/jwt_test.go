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

// The pre-timing checks of the JWT variants fail when a validator accepts
// a bad token, or refuses it with the wrong sentinel.
func TestJWTRefusalChecks(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	s, err := jwt.NewSigner(jwa.HS256, key, nil)
	if err != nil {
		t.Fatal(err)
	}
	ver, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: key})
	if err != nil {
		t.Fatal(err)
	}
	validator := func(o jwt.ValidatorOptions) *jwt.Validator {
		o.Verifier, o.Now = ver, func() time.Time { return jwtNow }
		v, err := jwt.NewValidator(o)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	good := validator(jwt.ValidatorOptions{Audiences: []string{jwtAudience}})
	if err := checkJWTRefusals(s.Sign, good, jose.ErrVerificationFailed); err != nil {
		t.Fatalf("good validator: %v", err)
	}
	for name, c := range map[string]struct {
		v      *jwt.Validator
		forged error
	}{
		"any audience":      {validator(jwt.ValidatorOptions{AnyAudience: true}), jose.ErrVerificationFailed},
		"leeway":            {validator(jwt.ValidatorOptions{Audiences: []string{jwtAudience}, Leeway: time.Minute}), jose.ErrVerificationFailed},
		"wrong forged code": {good, jose.ErrDecryptionFailed},
	} {
		if err := checkJWTRefusals(s.Sign, c.v, c.forged); !errors.Is(err, errNotRefused) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A JWT variant with a subject of another group is an error.
	var v bench.Variant
	v.Subject = "benchNothing"
	v.Alg, v.JWT = "HS256", true
	if _, err := prepareJWT(&v); err == nil {
		t.Error("unknown subject prepared")
	}
}
