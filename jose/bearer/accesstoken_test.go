package bearer

import (
	"errors"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose/jwt"
)

// An access token Validator (RFC 9068) accepts "at+jwt" and
// "application/at+jwt" tokens with the claims of §2.2, and refuses plain
// JWTs and tokens lacking a required claim.
func TestAccessTokenValidator(t *testing.T) {
	v, err := NewAccessTokenValidator(testValidatorOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{"at+jwt", "application/at+jwt", "AT+JWT"} {
		var c Claims
		if _, err := v.Validate([]byte(sign(t, testKey, typ, testClaims("read"))), &c); err != nil || c.ClientID != "client-42" || c.Scope != "read" {
			t.Errorf("%s: %v %+v", typ, err, c)
		}
	}
	if _, err := v.Validate([]byte(sign(t, testKey, "", testClaims("read"))), nil); !errors.Is(err, jwt.ErrInvalidType) {
		t.Errorf("a plain JWT: %v", err)
	}
	noClient := testClaims("read")
	noClient.ClientID = ""
	if _, err := v.Validate([]byte(sign(t, testKey, "at+jwt", noClient)), nil); !errors.Is(err, jwt.ErrMissingClaim) {
		t.Errorf("no client_id: %v", err)
	}
	noJTI := testClaims("read")
	noJTI.ID = ""
	if _, err := v.Validate([]byte(sign(t, testKey, "at+jwt", noJTI)), nil); !errors.Is(err, jwt.ErrMissingClaim) {
		t.Errorf("no jti: %v", err)
	}

	// The caller's Required are kept, not modified.
	o := testValidatorOptions(t)
	o.Required = make([]string, 1, 8)
	o.Required[0] = "scope"
	if _, err := NewAccessTokenValidator(o); err != nil || len(o.Required) != 1 || o.Required[:2][1] != "" {
		t.Errorf("Required: %v %q", err, o.Required[:2])
	}
	o.Type = "application/at+jwt"
	if _, err := NewAccessTokenValidator(o); err != nil {
		t.Error(err)
	}

	for name, change := range map[string]func(*jwt.ValidatorOptions){
		"other type":      func(o *jwt.ValidatorOptions) { o.Type = "JWT" },
		"no issuer":       func(o *jwt.ValidatorOptions) { o.Issuers = nil },
		"any audience":    func(o *jwt.ValidatorOptions) { o.Audiences, o.AnyAudience = nil, true },
		"no audience":     func(o *jwt.ValidatorOptions) { o.Audiences = nil },
		"expiry optional": func(o *jwt.ValidatorOptions) { o.ExpiryOptional = true },
		"no key source":   func(o *jwt.ValidatorOptions) { o.Verifier = nil },
	} {
		o := testValidatorOptions(t)
		change(&o)
		if _, err := NewAccessTokenValidator(o); err == nil || !strings.Contains(err.Error(), ":") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
