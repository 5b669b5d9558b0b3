package jwt

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// TestErrorText pins the text of the refusals, "jwt: what happened: kind"
// (see jose.ErrMalformed): the package named once, first, the claim next,
// the sentinel last; and the errors.Is and errors.As relations behind it.
func TestErrorText(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	tok := func(edit func(*Claims)) []byte {
		c := typicalClaims()
		edit(&c)
		return mustSign(t, s, &c)
	}
	claims := typicalClaims()
	typed := mustSign(t, mustSigner(t, jwa.HS256, hsKey, &jws.SignerOptions{Type: "at+jwt"}), &claims)
	for _, c := range []struct {
		name  string
		opts  ValidatorOptions
		token []byte
		claim string
		kind  error
		also  error
		dst   any
		want  string
	}{
		{"exp", ValidatorOptions{}, tok(func(c *Claims) { c.Expiry = NewNumericDate(testNow) }), "exp", ErrExpired, nil, nil,
			`jwt: "exp": 2026-12-01T12:00:00Z, now 2026-12-01T12:00:00Z: token has expired`},
		{"nbf", ValidatorOptions{Leeway: time.Second}, tok(func(c *Claims) { c.NotBefore = NewNumericDate(testNow.Add(time.Minute)) }), "nbf", ErrNotYetValid, nil, nil,
			`jwt: "nbf": 2026-12-01T12:01:00Z, now 2026-12-01T12:00:00Z, leeway 1s: token is not valid yet`},
		{"iat future", ValidatorOptions{}, tok(func(c *Claims) { c.IssuedAt = NewNumericDate(testNow.Add(time.Minute)) }), "iat", ErrIssuedInTheFuture, nil, nil,
			`jwt: "iat": 2026-12-01T12:01:00Z, now 2026-12-01T12:00:00Z: token was issued in the future`},
		{"iat old", ValidatorOptions{MaxAge: time.Second}, tok(func(*Claims) {}), "iat", ErrTooOld, nil, nil,
			`jwt: "iat": 2026-12-01T11:59:00Z, now 2026-12-01T12:00:00Z, max age 1s: token is older than the maximum age`},
		{"iss", ValidatorOptions{Issuers: []string{"https://other.example"}}, tok(func(*Claims) {}), "iss", ErrInvalidIssuer, nil, nil,
			`jwt: "iss": "https://issuer.example", expected one of ["https://other.example"]: unexpected issuer`},
		{"aud", ValidatorOptions{Audiences: []string{"https://mail.example"}}, tok(func(*Claims) {}), "aud", ErrInvalidAudience, nil, nil,
			`jwt: "aud": ["https://api.example"], expected one of ["https://mail.example"]: unexpected audience`},
		{"sub", ValidatorOptions{Subject: "user-1"}, tok(func(*Claims) {}), "sub", ErrInvalidSubject, nil, nil,
			`jwt: "sub": "user-1234", expected "user-1": unexpected subject`},
		{"required", ValidatorOptions{Required: []string{"email"}}, tok(func(*Claims) {}), "email", ErrMissingClaim, nil, nil,
			`jwt: "email": absent: missing required claim`},
		{"typ", ValidatorOptions{}, typed, "typ", ErrInvalidType, nil, nil,
			`jwt: "typ": "at+jwt", "JWT" expected: unexpected token type`},
		{"malformed", ValidatorOptions{}, mustSign(t, s, json.RawMessage(`{"exp":1796130000,"aud":"https://api.example","x":[1,2]}`)), "x", ErrMalformedClaims, jose.ErrMalformed,
			&xClaims{}, `jwt: "x": decoding into *jwt.xClaims: array cannot be decoded into string: malformed claims`},
		// A clock with nanoseconds: now is said at the claim's precision,
		// whole seconds, rounded up as the checks compare it.
		{"exp, clock in ns", ValidatorOptions{Now: func() time.Time { return testNow.Add(641287271) }}, tok(func(c *Claims) { c.Expiry = NewNumericDate(testNow) }), "exp", ErrExpired, nil, nil,
			`jwt: "exp": 2026-12-01T12:00:00Z, now 2026-12-01T12:00:01Z: token has expired`},
		{"nbf, clock in ns", ValidatorOptions{Now: func() time.Time { return testNow.Add(-2*time.Minute + 641287271) }}, tok(func(*Claims) {}), "nbf", ErrNotYetValid, nil, nil,
			`jwt: "nbf": 2026-12-01T11:59:00Z, now 2026-12-01T11:58:01Z: token is not valid yet`},
		{"limit", ValidatorOptions{MaxClaims: 2}, tok(func(*Claims) {}), "", errLimit, jose.ErrLimitExceeded,
			nil, `jwt: claims: object with more than 2 members at offset 50: claims exceed a limit`},
	} {
		_, err := hsValidator(t, c.opts).Validate(c.token, c.dst)
		var ce *ClaimError
		if !errors.As(err, &ce) || ce.Claim != c.claim || !errors.Is(err, c.kind) || !errors.Is(err, ErrInvalidClaims) || (c.also != nil && !errors.Is(err, c.also)) {
			t.Errorf("%s: %v (%#v), want a *ClaimError for %q wrapping %v", c.name, err, ce, c.claim, c.kind)
			continue
		}
		msg := err.Error()
		if c.want != "" && msg != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, msg, c.want)
		}
		if !strings.HasPrefix(msg, "jwt: ") || strings.Count(msg, "jwt: ") != 1 || !strings.HasSuffix(msg, ": "+c.kind.Error()) {
			t.Errorf("%s: %q does not read \"jwt: ...: %s\"", c.name, msg, c.kind)
		}
	}
}

// xClaims is a private claim of a type that "x": [1,2] does not fit.
type xClaims struct {
	X string `json:"x"`
}

// TestSentinelText: the sentinels name no package (as those of jose), so
// that the package that builds an error names itself once.
func TestSentinelText(t *testing.T) {
	for _, e := range []error{ErrInvalidClaims, ErrExpired, ErrNotYetValid, ErrIssuedInTheFuture, ErrTooOld, ErrInvalidIssuer,
		ErrInvalidAudience, ErrInvalidSubject, ErrMissingClaim, ErrInvalidType, ErrInvalidContentType, ErrMalformedClaims, errLimit} {
		if msg := e.Error(); msg == "" || strings.Contains(msg, ":") {
			t.Errorf("sentinel %q names a package or a detail", msg)
		}
		if e != ErrInvalidClaims && !errors.Is(e, ErrInvalidClaims) {
			t.Errorf("%v does not wrap ErrInvalidClaims", e)
		}
	}
}

// TestIssueErrorText: claims that Sign refuses read
// "jwt: claims that would not validate: ...: malformed claims", the
// package named once, and unwrap to the *ClaimError.
func TestIssueErrorText(t *testing.T) {
	_, err := mustSigner(t, jwa.HS256, hsKey, nil).Sign(map[string]any{"exp": "tomorrow"})
	const want = `jwt: claims that would not validate: "exp": not a JSON number: malformed claims`
	var ce *ClaimError
	if err == nil || err.Error() != want || !errors.As(err, &ce) || ce.Claim != "exp" || !errors.Is(err, ErrMalformedClaims) || !errors.Is(err, jose.ErrMalformed) {
		t.Errorf("got %v (%#v), want %s", err, ce, want)
	}
}

// TestErrorTextCut: the token's text in an error, a claim's name or value,
// "typ", or the text of encoding/json's and time's errors, is quoted and
// cut (internal/untrusted), so that no refusal is longer than 1 KiB
// (issue 18, finding 4).
func TestErrorTextCut(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	long := strings.Repeat("x", 100000)
	num := strings.Repeat("9", 100000)
	const cut = `…" (100000 bytes)`
	tok := func(edit func(*Claims)) []byte {
		c := typicalClaims()
		edit(&c)
		return mustSign(t, s, &c)
	}
	raw := func(claims string) []byte {
		return mustSign(t, s, json.RawMessage(`{"exp":1796130000,"aud":"https://api.example",`+claims+`}`))
	}
	noAud := func(claims string) []byte {
		return mustSign(t, s, json.RawMessage(`{"exp":1796130000,`+claims+`}`))
	}
	var anyDst any
	var auds Audience
	var ctlAuds Audience
	for range 10 {
		auds = append(auds, strings.Repeat("a", 10000))
		ctlAuds = append(ctlAuds, strings.Repeat("\x01", 100))
	}
	for _, c := range []struct {
		name  string
		opts  ValidatorOptions
		token []byte
		dst   any
		want  string // in the text
	}{
		{"iss", ValidatorOptions{Issuers: []string{"https://issuer.example"}}, tok(func(c *Claims) { c.Issuer = long }), nil, cut},
		{"sub", ValidatorOptions{Subject: "user-1234"}, tok(func(c *Claims) { c.Subject = long }), nil, cut},
		{"aud", ValidatorOptions{}, tok(func(c *Claims) { c.Audience = auds }), nil, `…" (10000 bytes) … (10 values)]`},
		// Values of control characters, each quoted four times its
		// length: fewer are shown, and the error stays under 1 KiB.
		{"aud of control characters", ValidatorOptions{}, tok(func(c *Claims) { c.Audience = ctlAuds }), nil, `…" (100 bytes) … (10 values)]`},
		{"typ", ValidatorOptions{}, mustSign(t, mustSigner(t, jwa.HS256, hsKey, &jws.SignerOptions{Type: long[:5000]}), &Claims{Expiry: NewNumericDate(testNow.Add(time.Hour))}), nil, `…" (5000 bytes)`},
		{"names differing in case", ValidatorOptions{}, raw(`"` + long + `":1,"` + strings.ToUpper(long) + `":2`), &anyDst, cut},
		{"number into an int", ValidatorOptions{}, raw(`"n":` + num), &struct {
			Claims
			N int `json:"n"`
		}{}, cut},
		{"number into a map", ValidatorOptions{AnyAudience: true}, noAud(`"n":` + num), &map[string]int{}, "… ("},
		{"map key", ValidatorOptions{AnyAudience: true}, noAud(`"` + long + `":"x"`), &map[string]int{}, "cannot unmarshal string"},
		// encoding/json repeats a key it cannot read as a number raw:
		// shown escaped.
		{"map key with a terminal escape", ValidatorOptions{AnyAudience: true},
			mustSign(t, s, json.RawMessage(`{"\u001b]0;pwned\u0007\u001b[2J":"x","exp":1796130000}`)), &map[int]any{}, `number \x1b]0;pwned\a\x1b[2J into`},
		{"time", ValidatorOptions{}, raw(`"t":"` + long + `"`), &struct {
			T time.Time `json:"t"`
		}{}, "… ("},
		{"time, embedded Claims", ValidatorOptions{}, raw(`"t":"` + long + `"`), &struct {
			Claims
			T time.Time `json:"t"`
		}{}, "… ("},
	} {
		_, err := hsValidator(t, c.opts).Validate(c.token, c.dst)
		if err == nil || !errors.Is(err, ErrInvalidClaims) {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		t.Logf("%s: %s", c.name, err)
		if msg := err.Error(); len(msg) > 1<<10 || !strings.Contains(msg, c.want) || strings.ContainsFunc(msg, func(r rune) bool { return !strconv.IsPrint(r) }) {
			t.Errorf("%s: error of %d bytes: %.400q\nwant it to contain %s, printable", c.name, len(msg), msg, c.want)
		}
	}
}
