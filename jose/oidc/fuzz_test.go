package oidc

import (
	"strings"
	"testing"
)

// FuzzParseMetadata: whatever the document, parseMetadata returns a
// document for the configured issuer with an https jwks_uri, or an error,
// and never panics.
func FuzzParseMetadata(f *testing.F) {
	const iss = "https://id.example"
	for _, s := range []string{
		`{"issuer":"https://id.example","jwks_uri":"https://id.example/jwks","id_token_signing_alg_values_supported":["RS256"]}`,
		`{"issuer":"https://id.example","issuer":"https://id.example","jwks_uri":"https://id.example/jwks"}`,
		`{"issuer":"https://id.example","jwks_uri":"http://id.example/jwks"}`,
		`{"issuer":"https://id.example","jwks_uri":"https://id.example/jwks","scopes_supported":"openid","x":[[[[{}]]]]}`,
		`{"issuer":"https:\/\/id.example","jwks_uri":"https://id.example/jwks"}`,
		`[]`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		m, err := parseMetadata(body, iss, false)
		if err != nil {
			if len(err.Error()) > 1024 {
				t.Fatalf("error of %d bytes", len(err.Error()))
			}
			return
		}
		if m.Issuer != iss || !strings.HasPrefix(strings.ToLower(m.JWKSURI), "https://") {
			t.Fatalf("accepted %+v", m)
		}
	})
}
