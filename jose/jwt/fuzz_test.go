package jwt

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
)

// FuzzParseClaims feeds arbitrary bytes to the claims reader. It must never
// panic; what it refuses wraps ErrInvalidClaims and one of jose's
// ErrMalformed or ErrLimitExceeded; what it accepts is valid JSON, and the
// registered claims read from it survive AppendJSON and a second read, its
// dates in range with nanoseconds within the second.
func FuzzParseClaims(f *testing.F) {
	for _, s := range []string{
		`{}`,
		`{"iss":"joe",` + "\r\n" + ` "exp":1300819380,` + "\r\n" + ` "http://example.com/is_root":true}`,
		`{"aud":["a","b"],"nbf":1.5,"iat":1.3e9,"jti":"\u00e9"}`,
		`{"aud":"a","sub":"s","exp":253402300799}`,
		`{"exp":1,"exp":2}`,
		`{"exp":-1}`, `{"exp":"1"}`, `{"aud":[1]}`, `[]`, `{"a":{"b":[{"c":null}]}}`,
		`{"iss":"a","ISS":"b"}`, `{"x":[{"k":1,"\u212a":2}]}`, `{"\u017f":1,"S":2}`, `{"\u0130":1,"i":2}`,
		// Long names and values, which errors must quote cut (issue 18).
		`{"` + strings.Repeat("a", 2000) + `":1,"` + strings.Repeat("A", 2000) + `":2}`,
		`{"` + strings.Repeat("\u00e9", 1000) + `":1,"` + strings.Repeat("\u00e9", 1000) + `":2}`,
		`{"exp":` + strings.Repeat("9", 2000) + `}`, `{"nbf":0.` + strings.Repeat("0", 2000) + `19e2010}`,
		`{"iss":"` + strings.Repeat("\\u0001", 2000) + `"}`, `{"sub":"` + strings.Repeat("\u00e9", 1000) + `"}`,
		`{"aud":["` + strings.Repeat(`\u0001`, 100) + `","` + strings.Repeat(`\u0002`, 100) + `","` + strings.Repeat(`\u0003`, 100) + `","` + strings.Repeat(`\u0004`, 100) + `"]}`,
	} {
		f.Add([]byte(s))
	}
	// The checks a Validator makes of what it read: their errors name the
	// claims' values, and are bounded too.
	v := hsValidator(f, ValidatorOptions{Issuers: []string{"https://issuer.example"}, Audiences: []string{"https://api.example"},
		Subject: "user-1234", ExpiryOptional: true, Now: func() time.Time { return testNow }})
	f.Fuzz(func(t *testing.T, data []byte) {
		var c Claims
		err := parseClaims(data, defaultJSONLimits, &c, &privateSink{required: []string{"a"}})
		vectortest.CheckErrorText(t, err)
		if err != nil {
			if !errors.Is(err, ErrInvalidClaims) || !(errors.Is(err, jose.ErrMalformed) || errors.Is(err, jose.ErrLimitExceeded)) {
				t.Fatalf("error %v wraps no sentinel", err)
			}
			if !sameClaims(c, Claims{}) {
				t.Fatal("claims not cleared on error")
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		// A date read is within range, its nanoseconds within the second.
		for _, d := range []NumericDate{c.Expiry, c.NotBefore, c.IssuedAt} {
			if d.set && (d.sec < 0 || d.sec > MaxNumericDate || d.nsec < 0 || d.nsec >= 1e9 || d.sec == MaxNumericDate && d.nsec != 0) {
				t.Fatalf("date %d s %d ns read from %q", d.sec, d.nsec, data)
			}
		}
		// The case-folding check agrees with bytes.EqualFold, which
		// encoding/json's field matching follows.
		// UseNumber: a number out of float64's range (1e700) is valid
		// JSON, and its member names still count.
		var tree any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&tree); err != nil {
			t.Fatal(err)
		}
		ferr := checkFoldedNames(data, defaultJSONLimits)
		vectortest.CheckErrorText(t, ferr)
		if got, want := ferr != nil, hasFoldedPair(tree); got != want {
			t.Fatalf("checkFoldedNames refused=%v, bytes.EqualFold finds a pair=%v, in %q", got, want, data)
		}
		vectortest.CheckErrorText(t, v.checkClaims(&c, 0))
		out := c.AppendJSON(nil)
		var back Claims
		if err := parseClaims(out, defaultJSONLimits, &back, nil); err != nil {
			t.Fatalf("AppendJSON %s of accepted %q refused: %v", out, data, err)
		}
		if !sameClaims(back, c) {
			t.Fatalf("round trip %+v, want %+v", back, c)
		}
	})
}

// hasFoldedPair reports whether an object in v, decoded by encoding/json,
// has two member names that bytes.EqualFold reports equal.
func hasFoldedPair(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		names := make([]string, 0, len(v))
		for k, e := range v {
			for _, n := range names {
				if bytes.EqualFold([]byte(n), []byte(k)) {
					return true
				}
			}
			names = append(names, k)
			if hasFoldedPair(e) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if hasFoldedPair(e) {
				return true
			}
		}
	}
	return false
}
