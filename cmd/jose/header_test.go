package main

import (
	"encoding/base64"
	"strings"
	"testing"
)

// TestHeaderValues pins what --header makes of each value: the raw
// protected header the token carries (a number kept as written, JSON
// compacted), or the refusal. Each accepted token also verifies.
func TestHeaderValues(t *testing.T) {
	for _, tt := range []struct {
		header string
		want   string // the protected header, or the refusal on stderr
		code   int
	}{
		{"x=null", `{"alg":"HS256","kid":"hs-1","x":null}`, exitOK},
		{"x=", `{"alg":"HS256","kid":"hs-1","x":""}`, exitOK},
		{"x=true", `{"alg":"HS256","kid":"hs-1","x":true}`, exitOK},
		{`x="5"`, `{"alg":"HS256","kid":"hs-1","x":"5"}`, exitOK},
		{"x=5", `{"alg":"HS256","kid":"hs-1","x":5}`, exitOK},
		{"x= 5 ", `{"alg":"HS256","kid":"hs-1","x":5}`, exitOK},
		{"x=[1, 2]", `{"alg":"HS256","kid":"hs-1","x":[1,2]}`, exitOK},
		{"x=a=b", `{"alg":"HS256","kid":"hs-1","x":"a=b"}`, exitOK},
		{"x=acme", `{"alg":"HS256","kid":"hs-1","x":"acme"}`, exitOK},
		{"x={", `{"alg":"HS256","kid":"hs-1","x":"{"}`, exitOK}, // not JSON: a string
		{"x=12345678901234567890", `{"alg":"HS256","kid":"hs-1","x":12345678901234567890}`, exitOK},
		{"x=1.5e308", `{"alg":"HS256","kid":"hs-1","x":1.5e308}`, exitOK},
		{"x=0e-400", `{"alg":"HS256","kid":"hs-1","x":0e-400}`, exitOK},
		{"ALG=x", `{"alg":"HS256","kid":"hs-1","ALG":"x"}`, exitOK}, // names are case-sensitive
		{"x=1e400", `--header "x": the number 1e400 is out of the range of a double (IEEE 754), which most readers of the header cannot hold: give it as a string, --header 'x="1e400"'`, exitUsage},
		{"x=-1e400", `the number -1e400 is out of the range`, exitUsage},
		{"x=1e-400", `the number 1e-400 is out of the range`, exitUsage},
		{`x={"a":[1,1E400]}`, `the number 1E400 is out of the range of a double (IEEE 754), which most readers of the header cannot hold: give it as a string, "1E400"`, exitUsage},
		{"x", `want NAME=VALUE, not "x"`, exitUsage},
		{"=1", `want NAME=VALUE, not "=1"`, exitUsage},
		{"alg=HS512", `--header "alg": give "alg" with --alg`, exitUsage},
		{"kid=x", `--header "kid": give "kid" with --kid`, exitUsage},
		{"typ=JWT", `--header "typ": give "typ" with --typ`, exitUsage},
		{"cty=text", `--header "cty": give "cty" with --cty`, exitUsage},
		// Not the command's to set: it never writes b64 or crit.
		{"b64=false", `--header "b64": the unencoded payload option (RFC 7797) is not supported by this command`, exitUsage},
		{`crit=["x"]`, `--header "crit": critical extensions (RFC 7515 §4.1.11) are not supported by this command`, exitUsage},
		// A JWS with "enc" reads as a JWE (RFC 7516 §9).
		{"enc=A128GCM", `--header "enc": a JWS has no "enc": that member marks a JWE (RFC 7516 §9)`, exitUsage},
		// Not UTF-8: encoding/json would have written U+FFFD instead.
		{"x=\xff", `--header "x=\xff": not UTF-8 text`, exitUsage},
		{"x\xff=1", `--header "x\xff=1": not UTF-8 text`, exitUsage},
		{"x=" + strings.Repeat("a", 9000), `--header: the protected header would be larger than the 8192 bytes a reader accepts: give shorter values`, exitUsage},
		{"x5u=5", `--header "x5u": must be a string, not a number`, exitUsage},
	} {
		code, stdout, stderr := runCLI(t, []byte("hello"), "sign", "--alg", "HS256", "--key", kHS256, "--header", tt.header)
		if code != tt.code {
			t.Errorf("--header %s: exit %d, want %d (stderr %q)", tt.header, code, tt.code, stderr)
			continue
		}
		if code != exitOK {
			if !strings.Contains(stderr, tt.want) || stdout != "" {
				t.Errorf("--header %s: stdout %q, stderr %q, want %q", tt.header, stdout, stderr, tt.want)
			}
			continue
		}
		tok := strings.TrimSpace(stdout)
		h, _, _ := strings.Cut(tok, ".")
		got, err := base64.RawURLEncoding.DecodeString(h)
		if err != nil || string(got) != tt.want {
			t.Errorf("--header %s: header %s (%v), want %s", tt.header, got, err, tt.want)
		}
		if out := mustRun(t, nil, "verify", "--alg", "HS256", "--key", kHS256, tok); string(out) != "hello" {
			t.Errorf("--header %s: verified %q", tt.header, out)
		}
	}
	// A name twice, even with the same value.
	if code, _, stderr := runCLI(t, []byte("hello"), "sign", "--alg", "HS256", "--key", kHS256, "--header", "x=1", "--header", "x=1"); code != exitUsage || !strings.Contains(stderr, `--header "x": given twice`) {
		t.Errorf("twice: exit %d, stderr %q", code, stderr)
	}
	// "jwt issue" has no --cty: the command sets it (on a nested JWT's JWE).
	if code, _, stderr := runCLI(t, nil, "jwt", "issue", "--alg", "HS256", "--key", kHS256, "--header", "cty=JWT"); code != exitUsage || !strings.Contains(stderr, `--header "cty": the command sets "cty" itself`) {
		t.Errorf("jwt issue cty: exit %d, stderr %q", code, stderr)
	}
	// "encrypt" refuses what the encrypter writes.
	for _, name := range []string{"enc", "zip", "epk", "p2s", "p2c", "iv", "tag", "ek", "apu", "apv", "b64", "crit"} {
		code, _, stderr := runCLI(t, []byte("hi"), "encrypt", "--alg", "A128KW", "--enc", "A128GCM", "--key", kA128KW, "--header", name+"=1")
		if code != exitUsage || !strings.Contains(stderr, `--header "`+name+`"`) || strings.Contains(stderr, "extra members") {
			t.Errorf("encrypt --header %s: exit %d, stderr %q", name, code, stderr)
		}
	}
}
