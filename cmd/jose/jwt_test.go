package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
)

// The fixed JWTs of testdata/tokens, issued at testTime by the commands of
// jwtIssues (HMAC and Ed25519 signatures are deterministic).
const (
	tJWT       = "testdata/tokens/claims.jwt"        // HS256; exp testTime+1h
	tJWTAt     = "testdata/tokens/at.jwt"            // EdDSA, typ at+jwt; nbf +10m, exp +2h
	tJWTNoExp  = "testdata/tokens/noexp.jwt"         // HS256; no exp, no iat
	tJWTForged = "testdata/tokens/claims-forged.jwt" // claims.jwt, "sub" changed, signature kept
	// EdDSA (ed.jwk), then ECDH-ES with A256GCM (x25519.jwk); iat
	// testTime, exp +1h. A JWE is random: made once by
	//	jose jwt issue --alg EdDSA --key ed.jwk --iss https://issuer.example --sub alice --aud api \
	//		--iat 2026-12-01T12:00:00Z --exp 2026-12-01T13:00:00Z --enc-alg ECDH-ES --enc A256GCM --enc-key x25519.jwk
	tJWTNested = "testdata/tokens/nested.jwt"
)

// jwtIssues are the commands that made the fixed JWTs.
var jwtIssues = []struct {
	file string
	args []string
}{
	{tJWT, []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--iss", "https://issuer.example", "--sub", "alice", "--aud", "api", "--jti", "id-1", "--claims", `{"scope": "read write", "admin": false}`}},
	{tJWTAt, []string{"jwt", "issue", "--alg", "EdDSA", "--key", kEd, "--typ", "at+jwt", "--iss", "https://issuer.example", "--sub", "bob", "--aud", "api,web", "--exp", "2h", "--nbf", "10m"}},
	{tJWTNoExp, []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--aud", "api", "--exp", "none", "--iat", "none", "--claims", `{"sub":"carol"}`}},
}

// TestJWTFixedTokens checks that the fixed JWTs are what "jwt issue" makes
// at testTime, so that the validate cases test this command's tokens.
func TestJWTFixedTokens(t *testing.T) {
	for _, tt := range jwtIssues {
		got := mustRun(t, nil, tt.args...)
		if want := readFile(t, strings.TrimPrefix(tt.file, "testdata/")); !bytes.Equal(got, want) {
			t.Errorf("jose %s:\n%s\nwant (%s)\n%s", strings.Join(tt.args, " "), got, tt.file, want)
		}
	}
}

// jwtGoldenCases are golden cases run at testTime plus at.
var jwtGoldenCases = []struct {
	name string
	in   string
	at   time.Duration
	args []string
}{
	{"jwt-issue", "", 0, jwtIssues[0].args},
	{"jwt-issue-at", "", 0, jwtIssues[1].args},
	{"jwt-issue-misfit", "", 0, []string{"jwt", "issue", "--alg", "HS256", "--key", kEC}},
	{"jwt-issue-set", "", 0, []string{"jwt", "issue", "--alg", "ES256", "--key", kSet}},
	{"jwt-issue-missing-key", "", 0, []string{"jwt", "issue", "--alg", "ES256", "--key", "testdata/keys/nope.jwk"}},
	{"jwt-issue-claims-dup", "", 0, []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--claims", `{"scope":"a","scope":"b"}`}},
	{"jwt-issue-claims-type", "", 0, []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--claims", `{"exp":"tomorrow"}`}},
	{"jwt-issue-exp-range", "", 0, []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--exp", "1960-01-01T00:00:00Z"}},
	{"jwt-issue-claims-trailing", "", 0, []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--claims", `{"a":1} {"b":2}`}},
	{"jwt-issue-typ-misfit", "", 0, []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--claims", `{"aud":["api",1]}`}},

	{"jwt-validate", tJWT, 30 * time.Minute, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api", "--iss", "https://issuer.example", "--sub", "alice", "--require", "scope,jti"}},
	{"jwt-validate-file", "", 0, []string{"jwt", "validate", "--alg", "ES256,HS256", "--key", kHS256, "--any-audience", tJWT}},
	{"jwt-validate-at", tJWTAt, 30 * time.Minute, []string{"jwt", "validate", "--alg", "EdDSA", "--key", kSetPublic, "--aud", "web", "--typ", "at+jwt"}},
	{"jwt-validate-expired", tJWT, 2 * time.Hour, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api"}},
	{"jwt-validate-at-exp", tJWT, time.Hour, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api"}},
	{"jwt-validate-leeway", tJWT, time.Hour + 30*time.Second, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api", "--leeway", "1m"}},
	{"jwt-validate-not-yet", tJWTAt, 5 * time.Minute, []string{"jwt", "validate", "--alg", "EdDSA", "--key", kEd, "--aud", "api", "--typ", "at+jwt"}},
	{"jwt-validate-issued-later", tJWT, -time.Minute, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api"}},
	{"jwt-validate-max-age", tJWT, 30 * time.Minute, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api", "--max-age", "10m"}},
	{"jwt-validate-wrong-aud", tJWT, 0, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "billing,mail"}},
	{"jwt-validate-wrong-iss", tJWT, 0, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api", "--iss", "https://other.example"}},
	{"jwt-validate-wrong-sub", tJWT, 0, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api", "--sub", "bob"}},
	{"jwt-validate-require", tJWT, 0, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api", "--require", "email"}},
	{"jwt-validate-typ", tJWTAt, 30 * time.Minute, []string{"jwt", "validate", "--alg", "EdDSA", "--key", kEd, "--aud", "api"}},
	{"jwt-validate-typ-expected", tJWT, 0, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api", "--typ", "at+jwt"}},
	{"jwt-validate-no-exp-missing", tJWTNoExp, 0, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api"}},
	{"jwt-validate-no-exp", tJWTNoExp, 0, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api", "--no-exp"}},
	{"jwt-validate-forged", tJWTForged, 0, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api"}},
	{"jwt-validate-alg-not-allowed", tJWT, 0, []string{"jwt", "validate", "--alg", "HS384", "--key", kHS256Any, "--aud", "api"}},
	{"jwt-validate-key-permits-none", tJWT, 0, []string{"jwt", "validate", "--alg", "HS384", "--key", kHS256, "--aud", "api"}},
	{"jwt-validate-no-key-in-set", tJWT, 0, []string{"jwt", "validate", "--alg", "HS256", "--key", kSetPublic, "--aud", "api"}},
	{"jwt-validate-not-claims", tEd, 0, []string{"jwt", "validate", "--alg", "EdDSA", "--key", kEd, "--any-audience"}},
	{"jwt-validate-json", tEdFlat, 0, []string{"jwt", "validate", "--alg", "EdDSA", "--key", kEd, "--any-audience"}},
	{"jwt-validate-jwe", tA128KW, 0, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--any-audience"}},
	{"jwt-validate-nested", tJWTNested, 30 * time.Minute, []string{"jwt", "validate", "--alg", "EdDSA", "--key", kSetPublic, "--aud", "api", "--enc-alg", "ECDH-ES,A128KW", "--enc", "A256GCM", "--enc-key", kX25519}},
	{"jwt-validate-nested-expired", tJWTNested, time.Hour, []string{"jwt", "validate", "--alg", "EdDSA", "--key", kEd, "--aud", "api", "--enc-alg", "ECDH-ES", "--enc", "A256GCM", "--enc-key", kX25519}},
	{"jwt-validate-nested-wrong-key", tJWTNested, 0, []string{"jwt", "validate", "--alg", "EdDSA", "--key", kEd, "--aud", "api", "--enc-alg", "A128KW", "--enc", "A256GCM", "--enc-key", kA128KW}},
	{"jwt-validate-nested-enc-not-allowed", tJWTNested, 0, []string{"jwt", "validate", "--alg", "EdDSA", "--key", kEd, "--aud", "api", "--enc-alg", "ECDH-ES", "--enc", "A128GCM", "--enc-key", kX25519}},
	{"jwt-validate-nested-no-enc", tJWTNested, 0, []string{"jwt", "validate", "--alg", "EdDSA", "--key", kEd, "--aud", "api"}},
	{"jwt-validate-signed-not-nested", tJWT, 0, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api", "--enc-alg", "ECDH-ES", "--enc", "A256GCM", "--enc-key", kX25519}},
	{"jwt-issue-nested-misfit", "", 0, []string{"jwt", "issue", "--alg", "EdDSA", "--key", kEd, "--enc-alg", "A128KW", "--enc", "A256GCM", "--enc-key", kEd}},
	{"jwt-validate-empty", "", 0, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--any-audience", "-"}},

	// Usage errors: exit 2.
	{"usage-jwt", "", 0, []string{"jwt"}},
	{"usage-jwt-unknown", "", 0, []string{"jwt", "sign"}},
	{"usage-jwt-issue-no-alg", "", 0, []string{"jwt", "issue", "--key", kHS256}},
	{"usage-jwt-issue-none", "", 0, []string{"jwt", "issue", "--alg", "none", "--key", kHS256}},
	{"usage-jwt-issue-no-key", "", 0, []string{"jwt", "issue", "--alg", "HS256"}},
	{"usage-jwt-issue-arg", "", 0, []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "claims.json"}},
	{"usage-jwt-issue-both", "", 0, []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--sub", "alice", "--claims", `{"sub":"bob"}`}},
	{"usage-jwt-issue-both-aud", "", 0, []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--aud", "api", "--claims", `{"aud":"web"}`}},
	{"usage-jwt-issue-claims", "", 0, []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--claims", `["sub"]`}},
	{"usage-jwt-issue-claims-json", "", 0, []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--claims", `{sub:1}`}},
	{"usage-jwt-issue-exp", "", 0, []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--exp", "tomorrow"}},
	{"usage-jwt-issue-nested-partial", "", 0, []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--enc", "A256GCM"}},
	{"usage-jwt-issue-nested-two", "", 0, []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--enc-alg", "A128KW,ECDH-ES", "--enc", "A256GCM", "--enc-key", kA128KW}},
	{"usage-jwt-issue-nested-unknown", "", 0, []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--enc-alg", "A128KW", "--enc", "A7GCM", "--enc-key", kA128KW}},
	{"usage-jwt-issue-nested-stdin", "", 0, []string{"jwt", "issue", "--alg", "HS256", "--key", "-", "--enc-alg", "A128KW", "--enc", "A256GCM", "--enc-key", "-"}},
	{"usage-jwt-validate-nested-stdin", "", 0, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api", "--enc-alg", "A128KW", "--enc", "A256GCM", "--enc-key", "-"}},
	{"usage-jwt-validate-nested-none", tJWTNested, 0, []string{"jwt", "validate", "--alg", "EdDSA", "--key", kEd, "--aud", "api", "--enc-alg", "none", "--enc", "A256GCM", "--enc-key", kX25519}},
	{"usage-jwt-validate-no-aud", tJWT, 0, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256}},
	{"usage-jwt-validate-both-aud", tJWT, 0, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api", "--any-audience"}},
	{"usage-jwt-validate-no-alg", tJWT, 0, []string{"jwt", "validate", "--key", kHS256, "--aud", "api"}},
	{"usage-jwt-validate-none", tJWT, 0, []string{"jwt", "validate", "--alg", "HS256,none", "--key", kHS256, "--aud", "api"}},
	{"usage-jwt-validate-no-key", tJWT, 0, []string{"jwt", "validate", "--alg", "HS256", "--aud", "api"}},
	{"usage-jwt-validate-stdin-twice", tJWT, 0, []string{"jwt", "validate", "--alg", "HS256", "--key", "-", "--aud", "api"}},
	{"usage-jwt-validate-leeway", tJWT, 0, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api", "--leeway", "-1s"}},
	{"usage-jwt-validate-max-age", tJWT, 0, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api", "--max-age", "-1s"}},
	{"usage-jwt-validate-leeway-unit", tJWT, 0, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api", "--leeway", "30"}},
}

func TestJWTGolden(t *testing.T) {
	for _, tt := range jwtGoldenCases {
		t.Run(tt.name, func(t *testing.T) {
			checkGolden(t, tt.name, tt.in, testTime.Add(tt.at), tt.args)
		})
	}
}

// claimsOf returns the claims set of the compact JWS tok, unverified.
func claimsOf(t *testing.T, tok []byte) string {
	t.Helper()
	parts := strings.Split(strings.TrimSpace(string(tok)), ".")
	if len(parts) != 3 {
		t.Fatalf("%q is not a compact JWS", tok)
	}
	payload, err := jose.Base64URLDecode(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	return string(payload)
}

// TestJWTIssueClaims checks the claims set "jwt issue" writes, member by
// member, at testTime (1796126400).
func TestJWTIssueClaims(t *testing.T) {
	issue := []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, `{"exp":1796130000,"iat":1796126400}`},
		{[]string{"--exp", "none", "--iat", "none"}, `{}`},
		{[]string{"--exp", "90s", "--nbf", "-5m", "--iat", "-1m"}, `{"exp":1796126490,"nbf":1796126100,"iat":1796126340}`},
		{[]string{"--exp", "2030-01-02T15:04:05Z", "--nbf", "now", "--iat", "2026-12-01T11:00:00.75+01:00"}, `{"exp":1893596645,"nbf":1796126400,"iat":1796119200}`},
		{[]string{"--iss", "me", "--sub", "alice", "--aud", "api", "--jti", "1"}, `{"iss":"me","sub":"alice","aud":"api","exp":1796130000,"iat":1796126400,"jti":"1"}`},
		// --aud is repeatable and takes comma lists; more than one value
		// is an array.
		{[]string{"--aud", "api, web", "--aud", "mail", "--exp", "none"}, `{"aud":["api","web","mail"],"iat":1796126400}`},
		// --claims comes after the flags' claims, compacted, in its order.
		{[]string{"--sub", "alice", "--claims", ` { "scope" : "read", "n": [1, 2], "a": {"b": null} } `}, `{"sub":"alice","exp":1796130000,"iat":1796126400,"scope":"read","n":[1,2],"a":{"b":null}}`},
		// A default gives way to the claim in --claims.
		{[]string{"--claims", `{"exp":1796127000,"iat":1796126000}`}, `{"exp":1796127000,"iat":1796126000}`},
		{[]string{"--exp", "none", "--iat", "none", "--claims", `{"sub":"x"}`}, `{"sub":"x"}`},
		{[]string{"--claims", `{}`}, `{"exp":1796130000,"iat":1796126400}`},
		{[]string{"--claims", `  `}, `{"exp":1796130000,"iat":1796126400}`},
	} {
		if got := claimsOf(t, mustRun(t, nil, append(issue, tt.args...)...)); got != tt.want {
			t.Errorf("%q: claims %s, want %s", tt.args, got, tt.want)
		}
	}
	// The header: "typ": "JWT" unless --typ, and the key's kid unless --kid.
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, `{"alg":"HS256","kid":"hs-1","typ":"JWT"}`},
		{[]string{"--kid", "k2", "--typ", "at+jwt"}, `{"alg":"HS256","kid":"k2","typ":"at+jwt"}`},
	} {
		tok := strings.Split(string(mustRun(t, nil, append(issue, tt.args...)...)), ".")
		h, err := jose.Base64URLDecode(tok[0])
		if err != nil || string(h) != tt.want {
			t.Errorf("%q: header %s (%v), want %s", tt.args, h, err, tt.want)
		}
	}
}

// TestJWTRoundTrip issues a JWT with every kind of signing key and
// validates it with the public key, at several times and with the checks
// that refuse it.
func TestJWTRoundTrip(t *testing.T) {
	rsaPub := writeTemp(t, "rsa-pub.jwk", mustRun(t, nil, "key", "public", kRSA))
	for _, tt := range []struct {
		alg  string
		keys keyPair
	}{
		{"HS256", newKeyPair(t, "--kty", "oct", "--alg", "HS256")},
		{"HS512", newKeyPair(t, "--kty", "oct", "--alg", "HS512")},
		{"ES256", newKeyPair(t, "--kty", "EC", "--alg", "ES256")},
		{"ES384", newKeyPair(t, "--kty", "EC", "--alg", "ES384")},
		{"EdDSA", newKeyPair(t, "--kty", "OKP", "--alg", "EdDSA")},
		{"RS256", keyPair{kRSA, rsaPub}},
		{"PS384", keyPair{kRSAPKCS1, rsaPub}},
	} {
		issued := testTime.Add(-time.Hour) // the token is issued an hour before testTime
		code, tok, stderr := runCLIAt(t, issued, nil, "jwt", "issue", "--alg", tt.alg, "--key", tt.keys.private,
			"--iss", "https://issuer.example", "--sub", "alice", "--aud", "api,web", "--exp", "2h", "--nbf", "-1m", "--jti", "j1",
			"--claims", `{"scope":"read","roles":["a","b"]}`)
		if code != exitOK || stderr != "" || strings.Count(tok, "\n") != 1 {
			t.Fatalf("%s: issue: exit %d, stdout %q, stderr %q", tt.alg, code, tok, stderr)
		}
		base := []string{"jwt", "validate", "--alg", "ES256," + tt.alg, "--key", tt.keys.public, "--sub", "alice"}
		checks := []string{"--aud", "web", "--iss", "https://issuer.example"}
		validate := append(base[:len(base):len(base)], checks...)
		want := `{"iss":"https://issuer.example","sub":"alice","aud":["api","web"],"exp":1796130000,"nbf":1796122740,"iat":1796122800,"jti":"j1","scope":"read","roles":["a","b"]}`
		for _, at := range []time.Duration{-time.Hour, 0, time.Hour - time.Second} {
			code, out, stderr := runCLIAt(t, testTime.Add(at), []byte(tok), validate...)
			var b bytes.Buffer
			if err := json.Compact(&b, []byte(out)); code != exitOK || stderr != "" || err != nil || b.String() != want {
				t.Errorf("%s: validate at %v: exit %d, stdout %q, stderr %q", tt.alg, at, code, out, stderr)
			}
		}
		// inspect shows the claims, and says they are not verified.
		var in struct {
			Verified *bool
			Header   map[string]any
			Payload  map[string]any
		}
		if err := json.Unmarshal(mustRun(t, []byte(tok), "inspect"), &in); err != nil || in.Verified == nil || *in.Verified || in.Header["typ"] != "JWT" || in.Payload["sub"] != "alice" {
			t.Errorf("%s: inspect: %+v (%v)", tt.alg, in, err)
		}

		// Refusals: exit 1, nothing on stdout, one line on stderr naming
		// the cause.
		for _, r := range []struct {
			name string
			at   time.Duration
			tok  string
			args []string
			msg  string // how stderr starts after "jose: jwt validate: "
			kind string // how its line ends
		}{
			{"expired", time.Hour, tok, checks, `"exp": `, ": token has expired (a new token is needed; --leeway tolerates clock skew)"},
			{"long expired", 48 * time.Hour, tok, checks, `"exp": `, ": token has expired (a new token is needed; --leeway tolerates clock skew)"},
			{"not yet valid", -time.Hour - 2*time.Minute, tok, checks, `"nbf": `, ": token is not valid yet (--leeway tolerates clock skew)"},
			{"wrong audience", 0, tok, []string{"--aud", "mail", "--iss", "https://issuer.example"}, `"aud": `, ": unexpected audience"},
			{"wrong issuer", 0, tok, []string{"--aud", "api", "--iss", "https://evil.example"}, `"iss": `, ": unexpected issuer"},
			{"wrong subject", 0, tok, []string{"--any-audience", "--sub", "bob"}, `"sub": `, ": unexpected subject"},
			{"missing claim", 0, tok, []string{"--any-audience", "--require", "email"}, `"email": `, ": missing required claim"},
			{"tampered signature", 0, string(tamper(t, []byte(tok), 2)), checks, "verification failed", ": the token was not signed with this key, or was changed"},
			{"tampered claims", 0, string(tamper(t, []byte(tok), 1)), checks, "verification failed", ": the token was not signed with this key, or was changed"},
			{"tampered header", 0, string(tamper(t, []byte(tok), 0)), checks, "standard input: not a JWS or JWE: the protected header", ""},
		} {
			code, out, stderr := runCLIAt(t, testTime.Add(r.at), []byte(r.tok), append(base[:len(base):len(base)], r.args...)...)
			if code != exitFailure || out != "" || !strings.HasPrefix(stderr, "jose: jwt validate: "+r.msg) || !strings.HasSuffix(stderr, r.kind+"\n") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("%s: %s: exit %d, stdout %q, stderr %q (want %q ... %q)", tt.alg, r.name, code, out, stderr, r.msg, r.kind)
			}
		}
	}
}

// TestJWTValidateRefuses checks the refusals that do not depend on the
// signing key.
func TestJWTValidateRefuses(t *testing.T) {
	validate := []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--any-audience"}
	// An unsecured JWT is refused whatever --alg says.
	none := jose.Base64URLEncode([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + jose.Base64URLEncode([]byte(`{"sub":"root","exp":1896126400}`)) + "."
	if code, out, stderr := runCLI(t, []byte(none), validate...); code != exitFailure || out != "" || !strings.Contains(stderr, `alg "none"`) {
		t.Errorf("alg none: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	// A JWT signed with the same key for another purpose (an explicit type)
	// is refused unless that type is expected.
	tok := mustRun(t, nil, "jwt", "issue", "--alg", "HS256", "--key", kHS256, "--typ", "secevent+jwt")
	if code, out, stderr := runCLI(t, tok, validate...); code != exitFailure || out != "" || !strings.Contains(stderr, `"typ": `) || !strings.HasSuffix(stderr, ": unexpected token type (--typ names the expected type)\n") {
		t.Errorf("explicit type: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if got := mustRun(t, tok, append(validate, "--typ", "application/secevent+jwt")...); !bytes.Contains(got, []byte(`"exp": 1796130000`)) {
		t.Errorf("expected type: %s", got)
	}
	// The key from standard input, the token from a file.
	if got := mustRun(t, readFile(t, "keys", "hs256.jwk"), "jwt", "validate", "--alg", "HS256", "--key", "-", "--aud", "api", tJWT); !bytes.Contains(got, []byte(`"sub": "alice"`)) {
		t.Errorf("key on stdin: %s", got)
	}
	// A token over the size limit is refused before it is read whole.
	huge := bytes.Repeat([]byte("a"), maxToken+1)
	if code, _, stderr := runCLI(t, huge, validate...); code != exitFailure || !strings.Contains(stderr, "larger than") {
		t.Errorf("huge token: exit %d, stderr %q", code, stderr)
	}
}

// TestJWTNestedRoundTrip issues nested JWTs (signed, then encrypted) and
// validates them; a tampered JWE is the one opaque decryption error, and a
// validator of nested JWTs refuses a signed one.
func TestJWTNestedRoundTrip(t *testing.T) {
	rsaPub := writeTemp(t, "rsa-pub.jwk", mustRun(t, nil, "key", "public", kRSA))
	ec := newKeyPair(t, "--kty", "EC", "--alg", "ES256")
	for _, tt := range []struct {
		alg, enc string
		keys     keyPair
	}{
		{"ECDH-ES", "A256GCM", keyPair{kX25519, kX25519}},
		{"ECDH-ES+A128KW", "A128CBC-HS256", newKeyPair(t, "--kty", "EC", "--alg", "ECDH-ES+A128KW")},
		{"A128KW", "A128GCM", keyPair{kA128KW, kA128KW}},
		{"RSA-OAEP-256", "A256GCM", keyPair{kRSA, rsaPub}},
	} {
		name := tt.alg + " " + tt.enc
		tok := mustRun(t, nil, "jwt", "issue", "--alg", "ES256", "--key", ec.private, "--sub", "alice", "--aud", "api",
			"--enc-alg", tt.alg, "--enc", tt.enc, "--enc-key", tt.keys.public)
		if n := bytes.Count(tok, []byte(".")); n != 4 {
			t.Fatalf("%s: %d dots in %s", name, n, tok)
		}
		validate := []string{"jwt", "validate", "--alg", "ES256", "--key", ec.public, "--aud", "api",
			"--enc-alg", tt.alg, "--enc", tt.enc, "--enc-key", tt.keys.private}
		if got := mustRun(t, tok, validate...); !bytes.Contains(got, []byte(`"sub": "alice"`)) {
			t.Errorf("%s: validate: %s", name, got)
		}
		// "jose decrypt" gives the signed JWT inside, which validates alone.
		inner := mustRun(t, tok, "decrypt", "--alg", tt.alg, "--enc", tt.enc, "--key", tt.keys.private)
		if got := mustRun(t, inner, "jwt", "validate", "--alg", "ES256", "--key", ec.public, "--aud", "api"); !bytes.Contains(got, []byte(`"sub": "alice"`)) {
			t.Errorf("%s: inner JWT: %s", name, got)
		}
		for _, part := range []int{3, 4} {
			code, out, stderr := runCLI(t, tamper(t, tok, part), validate...)
			if code != exitFailure || out != "" || stderr != "jose: jwt validate: decryption failed\n" {
				t.Errorf("%s: part %d tampered: exit %d, stdout %q, stderr %q", name, part, code, out, stderr)
			}
		}
		code, out, stderr := runCLI(t, inner, validate...)
		if code != exitFailure || out != "" || !strings.Contains(stderr, "not a nested one") {
			t.Errorf("%s: signed JWT to a nested validator: exit %d, stdout %q, stderr %q", name, code, out, stderr)
		}
	}
}

// TestDuplicateName: the member names an object holds twice, at any depth.
func TestDuplicateName(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":1,"a":2}`:                      "a",
		`{"a":{"b":1,"b":2}}`:                "b",
		`{"a":[{"c":1},{"c":2}],"b":[1]}`:    "",
		`{"a":[{"c":1,"c":2}]}`:              "c",
		`{"a":{"a":1},"b":"a"}`:              "",
		`{"x":[1,"x",{"x":{}}],"y":2,"x":3}`: "x",
		`{}`:                                 "",
	} {
		if got := duplicateName([]byte(in)); got != want {
			t.Errorf("duplicateName(%s) = %q, want %q", in, got, want)
		}
	}
}
