package jwt

import (
	"encoding/json"
	"testing"
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
