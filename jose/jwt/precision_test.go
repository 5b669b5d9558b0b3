package jwt

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/jwa"
)

// TestWholeSecondPrecision checks that "iat" and "nbf" written in whole
// seconds are compared at that precision (issue 20 item 5): a fresh token
// from an issuer whose clock leads the verifier's by less than a second is
// accepted with a leeway of 0, one a whole second or more ahead is
// refused, a fractional date is still compared to the nanosecond, and
// "exp" is not loosened.
func TestWholeSecondPrecision(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	const ns = time.Nanosecond
	issued := testNow.Add(time.Second) // the issuer's whole second: 12:00:01
	cases := []struct {
		name   string
		now    time.Time // the verifier's clock
		claims string
		leeway time.Duration
		want   error
	}{
		// The issuer's clock read 12:00:01.2 and it wrote iat 12:00:01;
		// the verifier's clock is 300 ms behind: 12:00:00.9.
		{"iat lead 300ms", issued.Add(-100 * time.Millisecond), `"iat":%d`, 0, nil},
		{"iat lead 1ns short of 1s", issued.Add(-time.Second + ns), `"iat":%d`, 0, nil},
		{"iat lead exactly 1s", issued.Add(-time.Second), `"iat":%d`, 0, ErrIssuedInTheFuture},
		{"iat lead 1s and 1ns", issued.Add(-time.Second - ns), `"iat":%d`, 0, ErrIssuedInTheFuture},
		{"iat lead 1.5s, leeway 1s", issued.Add(-1500 * time.Millisecond), `"iat":%d`, time.Second, nil},
		{"iat lead 2s, leeway 1s", issued.Add(-2 * time.Second), `"iat":%d`, time.Second, ErrIssuedInTheFuture},
		{"iat lead 2s and 1ns, leeway 1s", issued.Add(-2*time.Second - ns), `"iat":%d`, time.Second, ErrIssuedInTheFuture},
		{"nbf lead 300ms", issued.Add(-300 * time.Millisecond), `"nbf":%d`, 0, nil},
		{"nbf lead 1ns short of 1s", issued.Add(-time.Second + ns), `"nbf":%d`, 0, nil},
		{"nbf lead exactly 1s", issued.Add(-time.Second), `"nbf":%d`, 0, ErrNotYetValid},
		// A fraction is the issuer's precision: compared exactly.
		{"fractional iat 1ns ahead", issued.Add(-ns), `"iat":%d.000000001`, 0, ErrIssuedInTheFuture},
		{"fractional iat at now", issued.Add(ns), `"iat":%d.000000001`, 0, nil},
		{"fractional nbf 1ns ahead", issued.Add(-ns), `"nbf":%d.000000001`, 0, ErrNotYetValid},
		// exp is not loosened: expired at its second, whatever the fraction
		// of the verifier's clock.
		{"exp exactly now", issued, `"exp":%d`, 0, ErrExpired},
		{"exp 1ns ago", issued.Add(ns), `"exp":%d`, 0, ErrExpired},
		{"exp 1ns ahead", issued.Add(-ns), `"exp":%d`, 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			claims := `{"iss":"https://issuer.example","aud":"https://api.example",` + fmt.Sprintf(c.claims, issued.Unix())
			if c.claims[1:4] != "exp" {
				claims += fmt.Sprintf(`,"exp":%d`, issued.Add(time.Hour).Unix())
			}
			claims += "}"
			now := c.now
			v := hsValidator(t, ValidatorOptions{Leeway: c.leeway, Now: func() time.Time { return now }})
			_, err := v.Validate(mustSign(t, s, json.RawMessage(claims)), nil)
			if c.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("err %v, want %v", err, c.want)
			}
		})
	}
}
