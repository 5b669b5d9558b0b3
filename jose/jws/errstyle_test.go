package jws_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// TestErrorStyle: errors read "jws: what happened: kind", the sentinel's
// text last, for the JSON parser's refusals too.
func TestErrorStyle(t *testing.T) {
	v := rvVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: rvHKey})
	for name, data := range map[string]string{
		"trailing comma": `{"payload":"AA","protected":"eyJhbGciOiJIUzI1NiJ9","signature":"AA",}`,
		"not an object":  `[1]`,
	} {
		_, err := v.VerifyJSON([]byte(data))
		if !errors.Is(err, jose.ErrMalformed) || !strings.HasPrefix(err.Error(), "jws: ") || !strings.HasSuffix(err.Error(), ": "+jose.ErrMalformed.Error()) {
			t.Errorf("%s: %q, want \"jws: ...: %v\"", name, err, jose.ErrMalformed)
		}
	}
}
