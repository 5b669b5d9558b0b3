package jws_test

import (
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
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
