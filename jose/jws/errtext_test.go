package jws_test

import (
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// TestErrorTextCut: a long alg, crit name or duplicate member name of a
// token, compact or JSON, is quoted and cut in the error (issue 18,
// finding 4); no refusal, whatever it names, is longer than 1 KiB.
func TestErrorTextCut(t *testing.T) {
	v := fzVerifier(t)
	compact := func(h string) []byte { return []byte(jose.Base64URLEncode([]byte(h)) + ".Zm9v.AAAA") }
	flat := func(h string) []byte {
		return []byte(`{"payload":"Zm9v","protected":"` + jose.Base64URLEncode([]byte(h)) + `","signature":"AAAA"}`)
	}
	alg := `{"alg":"` + fzLong + `"}`
	dup := `{"alg":"HS256","` + fzLong + `":1,"` + fzLong + `":2}`
	crit := `{"alg":"HS256","crit":["` + fzLong + `"],"` + fzLong + `":1}`
	kid := `{"alg":"HS256","kid":"` + fzLong + `"}`
	for _, c := range []struct {
		tok []byte
		cut bool // the error names the long text
	}{
		{compact(alg), true}, {compact(dup), true}, {compact(crit), true}, {compact(kid), false},
		{flat(alg), true}, {flat(dup), true}, {flat(crit), true}, {flat(kid), false},
		{[]byte(`{"payload":"Zm9v","header":` + alg + `,"signature":"AAAA"}`), true},
		{[]byte(`{"payload":"Zm9v","header":` + dup + `,"signature":"AAAA"}`), true},
		{[]byte(`{"payload":"","signature":"","` + fzLong + `":1,"` + fzLong + `":2}`), true},
	} {
		var err error
		if c.tok[0] == '{' {
			_, err = v.VerifyJSON(c.tok)
		} else {
			_, err = v.VerifyCompact(c.tok)
		}
		if err == nil || len(err.Error()) > 1<<10 || c.cut && !strings.Contains(err.Error(), `…" (2000 bytes)`) {
			t.Errorf("%.100s...: %.300s", c.tok, err)
		}
	}
}

// TestErrorTextEscaped: an x5c leaf made by anyone, whose DNS names hold a
// terminal escape sequence, is refused before its chain is built when the
// caller verifies a host name (x509.VerifyOptions.DNSName); crypto/x509's
// error repeats those names raw, and the refusal shows them escaped, so
// that a token cannot write control characters into a service's logs.
func TestErrorTextEscaped(t *testing.T) {
	root := x5cIssue(t, nil, true, nil)
	roots := x509.NewCertPool()
	roots.AddCert(root.cert)
	forged := x5cIssue(t, nil, false, func(c *x509.Certificate) {
		c.DNSNames = []string{"\x1b]0;pwned\x07\x1b[2Jevil.example", strings.Repeat("\x1b[31m", 100)}
	})
	kf, err := jws.NewX5CKeyFunc(jws.X5COptions{Verify: x509.VerifyOptions{Roots: roots, DNSName: "api.example",
		KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}}})
	if err != nil {
		t.Fatal(err)
	}
	v, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, KeyFunc: kf})
	if err != nil {
		t.Fatal(err)
	}
	_, err = v.VerifyCompact(x5cToken(t, forged.key, x5cChain(forged)))
	if !errors.Is(err, jose.ErrKeyNotFound) || !strings.Contains(err.Error(), `\x1b]0;pwned\a\x1b[2Jevil.example`) || len(err.Error()) > 1<<10 {
		t.Fatalf("err = %q", err)
	}
	for _, r := range err.Error() {
		if !strconv.IsPrint(r) {
			t.Fatalf("the error holds %U: %q", r, err)
		}
	}
}

// TestKeyFuncErrorEscaped: a caller's KeyFunc that repeats the token's kid
// in its error, as "unknown kid %s" does, gets it escaped and cut in the
// Verifier's error as any other package's text is (untrusted.Error): a
// kid of terminal escapes and line breaks does not reach a log raw, and
// the caller's error is still wrapped.
func TestKeyFuncErrorEscaped(t *testing.T) {
	errUnknown := errors.New("unknown kid")
	v, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256},
		KeyFunc: func(h *jose.Header) (any, error) { return nil, fmt.Errorf("%w %s", errUnknown, h.KeyID) }})
	if err != nil {
		t.Fatal(err)
	}
	for _, kid := range []string{"k1\x1b[2J\nforged log line\r", strings.Repeat("\x1b[31m", 300)} {
		hdr, _ := json.Marshal(map[string]string{"alg": "HS256", "kid": kid})
		_, err = v.VerifyCompact([]byte(jose.Base64URLEncode(hdr) + ".e30.c2ln"))
		if !errors.Is(err, errUnknown) || len(err.Error()) > 1<<10 {
			t.Fatalf("err = %q", err)
		}
		for _, r := range err.Error() {
			if !strconv.IsPrint(r) {
				t.Fatalf("the error holds %U: %q", r, err)
			}
		}
	}
	if !strings.Contains(err.Error(), `unknown kid \x1b[31m`) {
		t.Errorf("err = %q", err)
	}
}
