package jwt

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/jwa"
)

// TestNumericDateWhitespace: UnmarshalJSON takes a JSON text, which may
// have white space around its value (RFC 8259 §2); it reads the same date
// as without it. A fraction followed by white space was read with the
// spaces as digits ("6230.3 " as 6232.7, and since the NumericDate holds
// integers, as a date whose AppendJSON writes "6230.+','*).'*").
func TestNumericDateWhitespace(t *testing.T) {
	for _, in := range []string{
		"0", "-0", "-0.0", "7", "6230.3", "1300819380", "1300819380.5", "1300819380.123456789",
		"1.30081938e9", "13008193805e-1", "253402300799", "253402300799.0",
		// Refused with or without white space.
		"-1", "253402300800", "253402300799.5", "1e400", "9223372036854775808", `"1"`, "null",
	} {
		var want NumericDate
		wantErr := want.UnmarshalJSON([]byte(in))
		for _, pad := range [][2]string{{" ", ""}, {"", " "}, {"\t", "\n"}, {"", "\r\n"}, {" \t\r\n", " \t\r\n"}} {
			padded := pad[0] + in + pad[1]
			var d NumericDate
			err := d.UnmarshalJSON([]byte(padded))
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
				t.Errorf("%q: error %v, want %v", padded, err, wantErr)
				continue
			}
			if d != want {
				t.Errorf("%q: read %v (%s), want %v (%s)", padded, d, d.AppendJSON(nil), want, want.AppendJSON(nil))
			}
			if b := d.AppendJSON(nil); !json.Valid(b) {
				t.Errorf("%q: written as %q", padded, b)
			}
		}
	}
}

// TestNumericDateRefusalNames: a date made from the zero time.Time is
// refused as such only when it is that instant (a nanosecond later it is
// before the epoch), and Sign names the date it refuses even when another
// member has the same seconds (dateClaim compares the whole date).
func TestNumericDateRefusalNames(t *testing.T) {
	for _, c := range []struct {
		d    NumericDate
		want error
	}{
		{NewNumericDate(time.Time{}), errDateZeroTime},
		{NumericDateOf(time.Time{}), errDateZeroTime},
		{NumericDateOf(time.Time{}.Add(1)), errDateRange},
		{NumericDateOf(time.Time{}.Add(-1)), errDateRange},
		{NumericDateOf(time.Unix(-1, 999_999_999)), errDateRange},
		{NumericDateOf(time.Unix(MaxNumericDate, 1)), errDateRange},
	} {
		if _, err := c.d.MarshalJSON(); !errors.Is(err, c.want) {
			t.Errorf("%d s %d ns: %v, want %v", c.d.sec, c.d.nsec, err, c.want)
		}
	}
	// A map goes through encoding/json and dateClaim; its order is
	// random, so that a dateClaim comparing seconds only would name "a"
	// about every other time.
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	claims := map[string]any{"a": NumericDateOf(time.Unix(MaxNumericDate, 0)), "b": NumericDateOf(time.Unix(MaxNumericDate, 5))}
	for range 32 {
		_, err := s.Sign(claims)
		var ce *ClaimError
		if !errors.As(err, &ce) || ce.Claim != "b" || !errors.Is(err, errDateRange) {
			t.Fatalf("Sign: %v, want the ClaimError of \"b\"", err)
		}
	}
}
