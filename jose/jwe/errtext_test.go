package jwe_test

import (
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
)

// TestErrorTextCut: a long alg, enc, zip, crit name or duplicate member
// name of a token, compact or JSON, is quoted and cut in the error (issue
// 18, finding 4); no refusal is longer than 1 KiB.
func TestErrorTextCut(t *testing.T) {
	d := fzDecrypter(t)
	compact := func(h string) []byte {
		return []byte(jose.Base64URLEncode([]byte(h)) + "..AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA")
	}
	flat := func(h string) []byte {
		return []byte(`{"protected":"` + jose.Base64URLEncode([]byte(h)) + `","iv":"AAAAAAAAAAAAAAAA","ciphertext":"AAAA","tag":"AAAAAAAAAAAAAAAAAAAAAA"}`)
	}
	headers := []string{
		`{"alg":"` + fzLong + `","enc":"A128GCM"}`, `{"alg":"dir","enc":"` + fzLong + `"}`,
		`{"alg":"dir","enc":"A128GCM","zip":"` + fzLong + `"}`, `{"alg":"dir","enc":"A128GCM","` + fzLong + `":1,"` + fzLong + `":2}`,
		`{"alg":"dir","enc":"A128GCM","crit":["` + fzLong + `"],"` + fzLong + `":1}`,
	}
	var tokens [][]byte
	for _, h := range headers {
		tokens = append(tokens, compact(h), flat(h))
	}
	tokens = append(tokens, []byte(`{"ciphertext":"","`+fzLong+`":1,"`+fzLong+`":2}`))
	for _, tok := range tokens {
		var err error
		if tok[0] == '{' {
			_, err = d.DecryptJSON(tok)
		} else {
			_, err = d.DecryptCompact(tok)
		}
		if err == nil || len(err.Error()) > 1<<10 || !strings.Contains(err.Error(), `…" (2000 bytes)`) {
			t.Errorf("%.100s...: %.300s", tok, err)
		}
	}
}
