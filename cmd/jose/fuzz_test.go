package main

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// FuzzInspect feeds arbitrary input to "jose inspect": it must exit with 0
// and print JSON saying "verified": false, or exit with 1 and one line on
// standard error; never panic.
func FuzzInspect(f *testing.F) {
	for _, name := range []string{tHS256, tEd, tEdFlat, tEdDetach, tBinary, tGeneral, tA128KW, tECDHFlat} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"recipients":[{"header":{}}],"unprotected":{},"ciphertext":""}`))
	f.Add([]byte("...."))
	long := strings.Repeat("\u00e9", 1000)
	f.Add([]byte(base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","`+long+`":1,"`+long+`":2}`)) + ".e30.AAAA"))
	f.Add([]byte(`{"payload":"e30","signature":"AAAA","header":{"` + long + `":1,"` + long + `":2}}`))
	f.Add([]byte(base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"ES256","jwk":{"kty":"`+long+`"}}`)) + ".e30.AAAA"))
	f.Add([]byte(base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"ES256","jwk":{"kty":"EC","crv":"`+long+`","x":"AA","y":"AA"}}`)) + ".e30.AAAA"))
	f.Fuzz(func(t *testing.T, tok []byte) {
		code, out, stderr := runCLI(t, tok, "inspect")
		switch code {
		case exitOK:
			var v map[string]any
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, out)
			}
			if v["verified"] != false {
				t.Fatalf("output does not say verified: false:\n%s", out)
			}
		case exitFailure:
			if out != "" || !strings.HasPrefix(stderr, "jose: inspect: ") || strings.Count(stderr, "\n") != 1 {
				t.Fatalf("failure: stdout %q, stderr %q", out, stderr)
			}
			// The input's text is quoted cut (issue 18): no error line
			// is longer than 1 KiB, whatever the input.
			if len(stderr) > 1<<10 {
				t.Fatalf("error line of %d bytes: %.300s", len(stderr), stderr)
			}
		default:
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
	})
}
