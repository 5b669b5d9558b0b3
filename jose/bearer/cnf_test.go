package bearer

import (
	"encoding/json"
	"net/http"
	"testing"
)

// cnfToken returns testClaims with the raw JSON claim "cnf": cnf, signed.
// The "cnf" member is written as the raw text given, escapes included.
func cnfToken(t *testing.T, cnfName, cnf string) string {
	t.Helper()
	b, err := json.Marshal(testClaims("orders:read"))
	if err != nil {
		t.Fatal(err)
	}
	if cnf != "" {
		b = append(append(b[:len(b)-1], `,"`+cnfName+`":`...), cnf+"}"...)
	}
	return sign(t, testKey, "", json.RawMessage(b))
}

// TestUncheckedConfirmation: a token whose "cnf" (RFC 7800 §3.1) holds a
// confirmation method the Middleware cannot check (a certificate's
// x5t#S256 of RFC 8705, a jwk, a jkt without Options.DPoP, a member it
// does not know) is refused, 401 invalid_token, with the Bearer scheme as
// with the DPoP scheme: read as a bearer token it would be usable by
// whoever holds it, which its binding was meant to prevent. A cnf that is
// not an object or is empty is refused as well; "cnf" in a claim's value
// is no binding.
func TestUncheckedConfirmation(t *testing.T) {
	prover, plain, withDPoP := cnfHandlers(t)
	jkt := prover.Thumbprint()
	const (
		unchecked = `Bearer realm="api", error="invalid_token", error_description="the access token is bound by a confirmation method (cnf) this server does not check"`
		invalid   = `Bearer realm="api", error="invalid_token", error_description="the access token is invalid"`
		dpopUnch  = `DPoP realm="api", algs="ES256", error="invalid_token", error_description="the access token is bound by a confirmation method (cnf) this server does not check"`
	)
	x5t := `{"x5t#S256":"bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2"}`
	for _, c := range []struct {
		name      string
		h         http.Handler
		cnfName   string
		cnf       string
		scheme    string
		status    int
		challenge string
	}{
		{"mTLS-bound (x5t#S256)", plain, "cnf", x5t, "Bearer", 401, unchecked},
		{"mTLS-bound, DPoP on", withDPoP, "cnf", x5t, "Bearer", 401, unchecked},
		{"mTLS-bound, escaped names", plain, `\u0063nf`, `{"x5t\u0023S256":"bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2"}`, "Bearer", 401, unchecked},
		{"jkt without Options.DPoP", plain, "cnf", `{"jkt":"` + jkt + `"}`, "Bearer", 401, unchecked},
		{"jwk (RFC 7800 §3.2)", plain, "cnf", `{"jwk":{"kty":"oct","k":"AAAA"}}`, "Bearer", 401, unchecked},
		{"jkt and x5t#S256 as Bearer, DPoP on", withDPoP, "cnf", `{"jkt":"` + jkt + `","x5t#S256":"bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2"}`, "Bearer", 401, unchecked},
		{"jkt and x5t#S256 with its proof", withDPoP, "cnf", `{"jkt":"` + jkt + `","x5t#S256":"bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2"}`, "DPoP", 401, dpopUnch},
		{"a member of no RFC", plain, "cnf", `{"future":1}`, "Bearer", 401, unchecked},
		{"empty cnf", plain, "cnf", `{}`, "Bearer", 401, invalid},
		{"cnf not an object", plain, "cnf", `"x5t"`, "Bearer", 401, invalid},
		{"cnf null", plain, "cnf", `null`, "Bearer", 401, invalid},
		{"cnf in a value only", plain, "note", `"cnf x5t#S256 \u0063"`, "Bearer", 200, ""},
		{"unbound", plain, "", "", "Bearer", 200, ""},
		{"jkt with its proof", withDPoP, "cnf", `{"jkt":"` + jkt + `"}`, "DPoP", 200, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			tok := cnfToken(t, c.cnfName, c.cnf)
			code, got := challengeOf(t, c.h, prover, c.scheme, tok)
			if code != c.status || got != c.challenge {
				t.Errorf("answer %d %q, want %d %q", code, got, c.status, c.challenge)
			}
		})
	}
}
