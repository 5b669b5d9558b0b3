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
// standard error; never panic, and never print a character that
// hiddenIn finds.
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
	f.Add([]byte(base64.RawURLEncoding.EncodeToString([]byte("{\"alg\":\"HS256\",\"kid\":\"\u202e\x7f\"}")) + "." + base64.RawURLEncoding.EncodeToString([]byte("{\"sub\":\"\u2066\xff\"}")) + ".AAAA"))
	long := strings.Repeat("\u00e9", 1000)
	f.Add([]byte(base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","`+long+`":1,"`+long+`":2}`)) + ".e30.AAAA"))
	f.Add([]byte(`{"payload":"e30","signature":"AAAA","header":{"` + long + `":1,"` + long + `":2}}`))
	f.Add([]byte(base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"ES256","jwk":{"kty":"`+long+`"}}`)) + ".e30.AAAA"))
	f.Add([]byte(base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"ES256","jwk":{"kty":"EC","crv":"`+long+`","x":"AA","y":"AA"}}`)) + ".e30.AAAA"))
	f.Fuzz(func(t *testing.T, tok []byte) {
		code, out, stderr := runCLI(t, tok, "inspect")
		// Nothing a terminal would hide or let reorder the text is
		// printed as it is (issue 23).
		if r, ok := hiddenIn(out + stderr); ok {
			t.Fatalf("prints %U as it is: stdout %q, stderr %q", r, out, stderr)
		}
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

// FuzzTokenArg feeds arbitrary TOKEN arguments to "jose inspect" and
// "jose verify": an argument that names no file is taken as the token when
// it is one, and refused in one line of at most 1 KiB otherwise; never a
// panic.
func FuzzTokenArg(f *testing.F) {
	for _, name := range []string{tHS256, tEdFlat, tA128KW} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("not.a.token")
	f.Add("{}")
	f.Add(" e30.e30. ")
	f.Fuzz(func(t *testing.T, arg string) {
		if strings.HasPrefix(arg, "-") || strings.ContainsAny(arg, "/\\") {
			return // a flag, or a path outside the test's directory
		}
		for _, args := range [][]string{{"inspect", arg}, {"verify", "--alg", "HS256", "--key", kHS256, arg}} {
			code, out, stderr := runCLI(t, nil, args...)
			if code == exitOK {
				continue
			}
			if out != "" || strings.Count(stderr, "\n") != 1 || len(stderr) > 1<<10 {
				t.Fatalf("%s: exit %d, stdout %q, stderr %.300q (%d bytes)", args[0], code, out, stderr, len(stderr))
			}
		}
	})
}
