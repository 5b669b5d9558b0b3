package jwe_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// TestErrorStyle: errors read "jwe: what happened: kind", the sentinel's
// text last, for the JSON parser's and the key management parameters'
// refusals too.
func TestErrorStyle(t *testing.T) {
	p256, x := ecKeys(t)
	d := rvDecrypter(t, jwe.DecryptOptions{Key: p256})
	check := func(name string, err, kind error) {
		t.Helper()
		if !errors.Is(err, kind) || !strings.HasPrefix(err.Error(), "jwe: ") || !strings.HasSuffix(err.Error(), ": "+kind.Error()) {
			t.Errorf("%s: %q, want \"jwe: ...: %v\"", name, err, kind)
		}
	}
	_, err := d.DecryptJSON([]byte(`{"protected":"eyJhbGciOiJkaXIifQ","ciphertext":"AA","iv":"AA","tag":"AA",}`))
	check("trailing comma", err, jose.ErrMalformed)
	_, err = d.DecryptJSON([]byte(`{"recipients":[1],"ciphertext":"AA","iv":"AA","tag":"AA"}`))
	check("recipient not an object", err, jose.ErrMalformed)
	// An X25519 epk for a P-256 key: a key management parameter refused.
	tok := rvCompact(t, jwa.ECDHES, jwa.A128GCM, x.PublicKey(), nil)
	_, err = d.DecryptCompact(tok)
	check("epk of another curve", err, jose.ErrMalformed)
}
