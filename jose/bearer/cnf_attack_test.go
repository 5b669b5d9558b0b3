package bearer

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
	"github.com/josebench/josebench/jose/jwt"
)

// rawClaimsToken returns testClaims with the raw JSON text members
// (",\"name\":value..." without the leading comma) appended, signed.
func rawClaimsToken(t testing.TB, members string) string {
	t.Helper()
	b, err := json.Marshal(testClaims("orders:read"))
	if err != nil {
		t.Fatal(err)
	}
	if members != "" {
		b = append(append(b[:len(b)-1], ","+members...), '}')
	}
	// Signed as raw bytes: jwt's Signer refuses claims it would not
	// validate, a duplicate name among them.
	s, err := jws.NewSigner(jwa.HS256, testKey, &jws.SignerOptions{Type: "JWT"})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := s.Compact(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(tok)
}

// TestConfirmationSearch: the search of a token's claims for "cnf" finds
// only the top-level claim, its name escaped or not, and never refuses an
// unbound token for "cnf" met elsewhere (a nested private claim, an array,
// a string) or for a backslash; a second "cnf", or a "cnf" with a member
// twice (one of them escaped), is refused as malformed, never read as the
// one or the other; an escaped "jkt" is a "jkt".
func TestConfirmationSearch(t *testing.T) {
	prover, plain, withDPoP := cnfHandlers(t)
	jkt := prover.Thumbprint()
	const (
		invalid   = `Bearer realm="api", error="invalid_token", error_description="the access token is invalid"`
		dpopInv   = `DPoP realm="api", algs="ES256", error="invalid_token", error_description="the access token is invalid"`
		boundBear = `Bearer realm="api", error="invalid_token", error_description="the access token is bound to a key: present it with the DPoP scheme"|DPoP realm="api", algs="ES256"`
		x5t       = `{"x5t#S256":"bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2"}`
	)
	for _, c := range []struct {
		name      string
		h         http.Handler
		members   string
		scheme    string
		status    int
		challenge string
	}{
		{"cnf in a nested private claim", plain, `"ext":{"cnf":` + x5t + `}`, "Bearer", 200, ""},
		{"escaped cnf in a nested private claim", withDPoP, `"ext":{"\u0063nf":` + x5t + `,"a":[{"cnf":{}}]}`, "Bearer", 200, ""},
		{"cnf in an array", plain, `"ext":[{"cnf":` + x5t + `},"cnf",{"cnf":null}]`, "Bearer", 200, ""},
		{"cnf as a value's name in a string", plain, `"note":"{\"cnf\":{\"x5t#S256\":\"x\"}}"`, "Bearer", 200, ""},
		{"a backslash, no cnf", plain, `"site":"https:\/\/client.example\/"`, "Bearer", 200, ""},
		{"two cnf, one escaped", withDPoP, `"cnf":{"jkt":"` + jkt + `"},"\u0063nf":` + x5t, "DPoP", 401, dpopInv},
		{"two cnf as Bearer", plain, `"\u0063nf":` + x5t + `,"cnf":{"jkt":"x"}`, "Bearer", 401, invalid},
		{"jkt twice in cnf", withDPoP, `"cnf":{"jkt":"` + jkt + `","\u006akt":"` + jkt + `"}`, "DPoP", 401, dpopInv},
		{"escaped jkt with its proof", withDPoP, `"cnf":{"\u006akt":"` + jkt + `"}`, "DPoP", 200, ""},
		{"escaped cnf and jkt as Bearer, DPoP on", withDPoP, `"\u0063\u006e\u0066":{"\u006a\u006b\u0074":"` + jkt + `"}`, "Bearer", 401, boundBear},
	} {
		t.Run(c.name, func(t *testing.T) {
			tok := rawClaimsToken(t, c.members)
			code, got := challengeOf(t, c.h, prover, c.scheme, tok)
			if code != c.status || got != c.challenge {
				t.Errorf("answer %d %q, want %d %q", code, got, c.status, c.challenge)
			}
		})
	}
}

// TestConfirmationValidatorLimits: a token the Validator accepts within
// limits raised beyond jsonx's defaults (ValidatorOptions.MaxDepth 40,
// MaxClaims 400) is not refused by the search for "cnf" for going beyond
// those defaults: its claims (with a "\u" escape, or "cnf" in a value) were
// refused 401 invalid_token, its unbound holder locked out, and a bound
// one's "cnf" never read.
func TestConfirmationValidatorLimits(t *testing.T) {
	opts := testValidatorOptions(t)
	opts.MaxDepth, opts.MaxClaims = 40, 400
	val, err := jwt.NewValidator(opts)
	if err != nil {
		t.Fatal(err)
	}
	h := newMiddleware(t, Options{Validator: val}).Handler(echo)
	var wide strings.Builder
	wide.WriteString(`"perms":{`)
	for i := range 300 {
		if i > 0 {
			wide.WriteByte(',')
		}
		wide.WriteString(`"p` + strconv.Itoa(i) + `":1`)
	}
	wide.WriteString(`}`)
	deep := `"deep":` + strings.Repeat(`{"a":`, 36) + "1" + strings.Repeat("}", 36)
	const unchecked = `Bearer error="invalid_token", error_description="the access token is bound by a confirmation method (cnf) this server does not check"`
	for _, c := range []struct {
		name, members string
		status        int
		challenge     string
	}{
		{"300 members, an escape", wide.String() + `,"site":"\u0078"`, 200, ""},
		{"300 members, cnf in a value", wide.String() + `,"note":"cnf"`, 200, ""},
		{"depth 37, an escape", deep + `,"site":"\u0078"`, 200, ""},
		{"300 members, bound to a certificate", wide.String() + `,"cnf":{"x5t#S256":"x"}`, 401, unchecked},
		{"depth 37, bound to a certificate", deep + `,"cnf":{"x5t#S256":"x"}`, 401, unchecked},
	} {
		tok := rawClaimsToken(t, c.members)
		if _, err := val.Validate([]byte(tok), new(Claims)); err != nil {
			t.Fatalf("%s: the Validator refuses the token: %v", c.name, err)
		}
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if got := rec.Header().Get("WWW-Authenticate"); rec.Code != c.status || got != c.challenge {
			t.Errorf("%s: answer %d %q, want %d %q", c.name, rec.Code, got, c.status, c.challenge)
		}
	}
}

// BenchmarkConfirmation: the cost of the search for "cnf" on a token at
// the default size limit whose claims are objects nested to the
// Validator's default depth: "plain" holds neither "cnf" nor a "\u" escape
// (the search alone), "scanned" a "\u" escape (the claims scanned again),
// "bound" a "cnf" with an unchecked member (scanned, refused). Run the
// three in one binary, several times, for their ratios:
//
//	go test -c -o bearer.test ./jose/bearer
//	for i in 1 2 3 4 5; do ./bearer.test -test.run '^$' -test.bench Confirmation; done
func BenchmarkConfirmation(b *testing.B) {
	// Objects nested 14 deep under the claims set (depth 16 with it and
	// the innermost value's), repeated to fill the 8 KiB token.
	nest := strings.Repeat(`{"a":`, 14) + "1" + strings.Repeat("}", 14)
	var m strings.Builder
	for i := 0; m.Len() < 5600; i++ {
		if i > 0 {
			m.WriteByte(',')
		}
		m.WriteString(`"n` + strconv.Itoa(i) + `":` + nest)
	}
	h := newMiddleware(b, Options{}).Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	for _, c := range []struct {
		name, extra string
		status      int
	}{
		{"plain", `"s":"xx"`, 200},
		{"scanned", `"s":"\u0078"`, 200},
		{"bound", `"cnf":{"x5t#S256":"x"}`, 401},
	} {
		tok := rawClaimsToken(b, m.String()+","+c.extra)
		if len(tok) > DefaultMaxTokenSize {
			b.Fatalf("token of %d bytes", len(tok))
		}
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			req.Header.Set("Authorization", "Bearer "+tok)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != c.status {
				b.Fatalf("status %d %q, want %d", rec.Code, rec.Header().Get("WWW-Authenticate"), c.status)
			}
			b.ReportMetric(float64(len(tok)), "token-bytes")
			b.ReportAllocs()
			for b.Loop() {
				h.ServeHTTP(httptest.NewRecorder(), req)
			}
		})
	}
}

// TestMayHaveCnf: the search finds every spelling of "cnf" as a member
// name (escaped letters included), and passes claims whose only escapes
// cannot spell it.
func TestMayHaveCnf(t *testing.T) {
	for _, c := range []struct {
		claims string
		want   bool
	}{
		{`{"cnf":{}}`, true},
		{`{"\u0063nf":{}}`, true},
		{`{"c\u006ef":{}}`, true},
		{`{"cn\u0066":{}}`, true},
		{`{"c\u006Ef":{}}`, true},
		{`{"sub":"a","site":"https:\/\/x","q":"\"\\\n\f"}`, false},
		{`{"sub":"a"}`, false},
	} {
		if got := mayHaveCnf([]byte(c.claims)); got != c.want {
			t.Errorf("mayHaveCnf(%s) = %v, want %v", c.claims, got, c.want)
		}
	}
}
