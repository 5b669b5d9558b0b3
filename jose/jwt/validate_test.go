package jwt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
	"github.com/josebench/josebench/jose/jws"
)

// claimsAt returns a claims set with the registered claims given as
// offsets from testNow (a nil offset leaves the claim out), and aud.
func claimsAt(exp, nbf, iat *time.Duration, extra string) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"iss":"https://issuer.example","aud":"https://api.example"`)
	for _, c := range []struct {
		name string
		off  *time.Duration
	}{{"exp", exp}, {"nbf", nbf}, {"iat", iat}} {
		if c.off != nil {
			d := NumericDateOf(testNow.Add(*c.off))
			fmt.Fprintf(&b, `,%q:%s`, c.name, d.AppendJSON(nil))
		}
	}
	b.WriteString(extra)
	b.WriteString("}")
	return json.RawMessage(b.String())
}

func dur(d time.Duration) *time.Duration { return &d }

// TestTimeBoundaries checks every time claim at its boundary, with and
// without leeway: exp exactly now is expired (RFC 7519 §4.1.4: the
// current time must be before it), nbf exactly now is valid (§4.1.5: on
// or after), iat in the future is refused, MaxAge counts from iat.
func TestTimeBoundaries(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	hour := dur(time.Hour)
	const ns = time.Nanosecond
	cases := []struct {
		name          string
		exp, nbf, iat *time.Duration
		leeway        time.Duration
		maxAge        time.Duration
		want          error // nil: accepted
	}{
		{"exp in the future", hour, nil, nil, 0, 0, nil},
		{"exp exactly now", dur(0), nil, nil, 0, 0, ErrExpired},
		{"exp 1ns after now", dur(ns), nil, nil, 0, 0, nil},
		{"exp 1s ago", dur(-time.Second), nil, nil, 0, 0, ErrExpired},
		{"exp now minus leeway", dur(-time.Minute), nil, nil, time.Minute, 0, ErrExpired},
		{"exp within leeway", dur(-time.Minute + ns), nil, nil, time.Minute, 0, nil},
		{"exp missing", nil, nil, nil, 0, 0, ErrMissingClaim},
		{"nbf exactly now", hour, dur(0), nil, 0, 0, nil},
		{"nbf 1ns ahead", hour, dur(ns), nil, 0, 0, ErrNotYetValid},
		{"nbf at now plus leeway", hour, dur(time.Minute), nil, time.Minute, 0, nil},
		{"nbf past leeway", hour, dur(time.Minute + ns), nil, time.Minute, 0, ErrNotYetValid},
		{"iat now", hour, nil, dur(0), 0, 0, nil},
		{"iat 1ns ahead", hour, nil, dur(ns), 0, 0, ErrIssuedInTheFuture},
		{"iat ahead within leeway", hour, nil, dur(time.Minute), time.Minute, 0, nil},
		{"iat ahead past leeway", hour, nil, dur(time.Minute + ns), time.Minute, 0, ErrIssuedInTheFuture},
		{"max age exactly", hour, nil, dur(-time.Hour), 0, time.Hour, nil},
		{"max age exceeded", hour, nil, dur(-time.Hour - ns), 0, time.Hour, ErrTooOld},
		{"max age within leeway", hour, nil, dur(-time.Hour - time.Second), time.Second, time.Hour, nil},
		{"max age without iat", hour, nil, nil, 0, time.Hour, ErrMissingClaim},
		// MaxAge plus Leeway beyond a time.Duration saturates rather than
		// wrapping to a negative age that refuses every token.
		{"max age and leeway overflow", hour, nil, dur(-time.Hour), time.Hour, math.MaxInt64, nil},
		{"fractional exp", dur(500 * time.Millisecond), nil, nil, 0, 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := hsValidator(t, ValidatorOptions{Leeway: c.leeway, MaxAge: c.maxAge})
			tok := mustSign(t, s, claimsAt(c.exp, c.nbf, c.iat, ""))
			got, err := v.Validate(tok, nil)
			if c.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if got.Claims.Issuer != "https://issuer.example" {
					t.Fatalf("claims %+v", got.Claims)
				}
				return
			}
			if !errors.Is(err, c.want) || !errors.Is(err, ErrInvalidClaims) {
				t.Fatalf("err %v, want %v", err, c.want)
			}
			var ce *ClaimError
			if !errors.As(err, &ce) || ce.Claim == "" {
				t.Fatalf("err %v is not a ClaimError naming the claim", err)
			}
		})
	}
	// ExpiryOptional: no exp is fine, a past exp is still refused.
	v := hsValidator(t, ValidatorOptions{ExpiryOptional: true})
	if _, err := v.Validate(mustSign(t, s, claimsAt(nil, nil, nil, "")), nil); err != nil {
		t.Fatalf("ExpiryOptional: %v", err)
	}
	if _, err := v.Validate(mustSign(t, s, claimsAt(dur(-time.Second), nil, nil, "")), nil); !errors.Is(err, ErrExpired) {
		t.Fatalf("ExpiryOptional with past exp: %v", err)
	}
	// Required "exp" wins over ExpiryOptional.
	v = hsValidator(t, ValidatorOptions{ExpiryOptional: true, Required: []string{"exp"}})
	if _, err := v.Validate(mustSign(t, s, claimsAt(nil, nil, nil, "")), nil); !errors.Is(err, ErrMissingClaim) {
		t.Fatalf("Required exp: %v", err)
	}
}

// TestDefaultClock checks that without Now the Validator uses the real
// clock (a token valid around the real now is accepted, one expired a
// minute ago is not).
func TestDefaultClock(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	v, err := NewValidator(ValidatorOptions{Verifier: mustVerifier(t, jwa.HS256, hsKey), AnyAudience: true})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, err := v.Validate(mustSign(t, s, &Claims{Expiry: NewNumericDate(now.Add(time.Hour))}), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Validate(mustSign(t, s, &Claims{Expiry: NewNumericDate(now.Add(-time.Minute))}), nil); !errors.Is(err, ErrExpired) {
		t.Fatal(err)
	}
}

// TestAudienceIssuerSubject covers aud as a string and as an array, and the
// issuer, subject and required-claim checks.
func TestAudienceIssuerSubject(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	exp := NumericDateOf(testNow.Add(time.Hour)).AppendJSON(nil)
	tok := func(members string) []byte {
		return mustSign(t, s, json.RawMessage(`{"exp":`+string(exp)+members+`}`))
	}
	cases := []struct {
		name    string
		opts    ValidatorOptions
		members string
		want    error
		claim   string
	}{
		{"aud string", ValidatorOptions{Audiences: []string{"a"}}, `,"aud":"a"`, nil, ""},
		{"aud array", ValidatorOptions{Audiences: []string{"a"}}, `,"aud":["x","a"]`, nil, ""},
		{"aud one of several expected", ValidatorOptions{Audiences: []string{"b", "a"}}, `,"aud":["a"]`, nil, ""},
		{"aud wrong", ValidatorOptions{Audiences: []string{"a"}}, `,"aud":"b"`, ErrInvalidAudience, "aud"},
		{"aud wrong array", ValidatorOptions{Audiences: []string{"a"}}, `,"aud":["b","c"]`, ErrInvalidAudience, "aud"},
		{"aud empty array", ValidatorOptions{Audiences: []string{"a"}}, `,"aud":[]`, ErrInvalidAudience, "aud"},
		{"aud case differs", ValidatorOptions{Audiences: []string{"a"}}, `,"aud":"A"`, ErrInvalidAudience, "aud"},
		{"aud missing", ValidatorOptions{Audiences: []string{"a"}}, ``, ErrMissingClaim, "aud"},
		{"any audience, none", ValidatorOptions{AnyAudience: true}, ``, nil, ""},
		{"any audience, some", ValidatorOptions{AnyAudience: true}, `,"aud":"z"`, nil, ""},
		{"iss ok", ValidatorOptions{AnyAudience: true, Issuers: []string{"i1", "i2"}}, `,"iss":"i2"`, nil, ""},
		{"iss wrong", ValidatorOptions{AnyAudience: true, Issuers: []string{"i1"}}, `,"iss":"i2"`, ErrInvalidIssuer, "iss"},
		{"iss missing", ValidatorOptions{AnyAudience: true, Issuers: []string{"i1"}}, ``, ErrMissingClaim, "iss"},
		{"sub ok", ValidatorOptions{AnyAudience: true, Subject: "s"}, `,"sub":"s"`, nil, ""},
		{"sub wrong", ValidatorOptions{AnyAudience: true, Subject: "s"}, `,"sub":"t"`, ErrInvalidSubject, "sub"},
		{"sub missing", ValidatorOptions{AnyAudience: true, Subject: "s"}, ``, ErrMissingClaim, "sub"},
		{"required registered present", ValidatorOptions{AnyAudience: true, Required: []string{"jti", "iat", "nbf", "iss", "sub", "aud"}},
			`,"jti":"j","iat":1,"nbf":1,"iss":"i","sub":"s","aud":["a"]`, nil, ""},
		// An empty value is no value: "" for the strings, as before, and
		// [] for "aud" (it names no recipient); null for a private claim.
		{"required aud empty array", ValidatorOptions{AnyAudience: true, Required: []string{"aud"}}, `,"aud":[]`, ErrMissingClaim, "aud"},
		{"required iss empty", ValidatorOptions{AnyAudience: true, Required: []string{"iss"}}, `,"iss":""`, ErrMissingClaim, "iss"},
		{"required private null", ValidatorOptions{AnyAudience: true, Required: []string{"scope"}}, `,"scope":null`, ErrMissingClaim, "scope"},
		{"required private empty string", ValidatorOptions{AnyAudience: true, Required: []string{"scope"}}, `,"scope":""`, nil, ""},
		{"required jti missing", ValidatorOptions{AnyAudience: true, Required: []string{"jti"}}, ``, ErrMissingClaim, "jti"},
		{"required nbf missing", ValidatorOptions{AnyAudience: true, Required: []string{"nbf"}}, `,"iat":1`, ErrMissingClaim, "nbf"},
		{"required iat missing", ValidatorOptions{AnyAudience: true, Required: []string{"iat"}}, ``, ErrMissingClaim, "iat"},
		{"required iss missing", ValidatorOptions{AnyAudience: true, Required: []string{"iss"}}, ``, ErrMissingClaim, "iss"},
		{"required sub missing", ValidatorOptions{AnyAudience: true, Required: []string{"sub"}}, ``, ErrMissingClaim, "sub"},
		{"required aud missing", ValidatorOptions{AnyAudience: true, Required: []string{"aud"}}, ``, ErrMissingClaim, "aud"},
		{"required private present", ValidatorOptions{AnyAudience: true, Required: []string{"scope", "cnf", "scope"}}, `,"scope":"r","cnf":{"jkt":"x"}`, nil, ""},
		{"required private missing", ValidatorOptions{AnyAudience: true, Required: []string{"scope", "cnf"}}, `,"scope":"r"`, ErrMissingClaim, "cnf"},
		{"required private nested is not top level", ValidatorOptions{AnyAudience: true, Required: []string{"jkt"}}, `,"cnf":{"jkt":"x"}`, ErrMissingClaim, "jkt"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.opts.Verifier = mustVerifier(t, jwa.HS256, hsKey)
			v := mustValidator(t, c.opts)
			_, err := v.Validate(tok(c.members), nil)
			if c.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var ce *ClaimError
			if !errors.Is(err, c.want) || !errors.As(err, &ce) || ce.Claim != c.claim {
				t.Fatalf("err %v, want %v on %q", err, c.want, c.claim)
			}
			if !strings.Contains(err.Error(), `"`+c.claim+`"`) {
				t.Fatalf("message %q does not name %q", err, c.claim)
			}
		})
	}
}

// TestExplicitTyping checks "typ" as RFC 8725 §3.11 and RFC 7515 §4.1.9
// say, from the protected header only.
func TestExplicitTyping(t *testing.T) {
	claims := typicalClaims()
	cases := []struct {
		typ, want string // token's typ ("" for none), Validator's Type
		ok        bool
	}{
		{"JWT", "", true},
		{"jwt", "", true},
		{"application/jwt", "", true},
		{"Application/JWT", "", true},
		{"-", "", false}, // no typ at all
		{"at+jwt", "", false},
		{"text/jwt", "", false},
		{"at+jwt", "at+jwt", true},
		{"AT+JWT", "at+jwt", true},
		{"application/at+jwt", "at+jwt", true},
		{"at+jwt", "application/at+jwt", true},
		{"JWT", "at+jwt", false},
		{"-", "at+jwt", false},
		{"application/jwt", "jwt", true},
		{"application/jwt", "text/jwt", false},
		{"secevent+jwt", "at+jwt", false},
	}
	for _, c := range cases {
		t.Run(c.typ+"/"+c.want, func(t *testing.T) {
			var tok []byte
			if c.typ == "-" {
				// jws directly: jwt.NewSigner always writes a typ.
				js, err := jws.NewSigner(jwa.HS256, hsKey, nil)
				if err != nil {
					t.Fatal(err)
				}
				if tok, err = js.Compact(claims.AppendJSON(nil)); err != nil {
					t.Fatal(err)
				}
			} else {
				tok = mustSign(t, mustSigner(t, jwa.HS256, hsKey, &jws.SignerOptions{Type: c.typ}), &claims)
			}
			v := hsValidator(t, ValidatorOptions{Type: c.want})
			_, err := v.Validate(tok, nil)
			if c.typ == "-" && c.want == "" {
				c.ok = true // an absent typ is a plain JWT
			}
			if c.ok != (err == nil) || (err != nil && !errors.Is(err, ErrInvalidType)) {
				t.Fatalf("typ %q against %q: err %v, want ok=%v", c.typ, c.want, err, c.ok)
			}
		})
	}
	if !SameType("JWT", "application/JWT") || SameType("JWT", "application/") || SameType("a/b", "b") {
		t.Fatal("SameType")
	}
}

// TestAuthenticationFirst checks that a token that fails to verify or
// decrypt gets the jws/jwe error, not a claims one, even when its claims
// are also bad: claims are never read before the token authenticates.
func TestAuthenticationFirst(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	v := hsValidator(t, ValidatorOptions{})
	expired := typicalClaims()
	expired.Expiry = NewNumericDate(testNow.Add(-time.Hour))
	for name, tok := range map[string][]byte{
		"valid":   mustSign(t, s, typicalClaims()),
		"expired": mustSign(t, s, expired),
	} {
		bad := []byte(string(tok))
		bad[len(bad)-1] ^= 'A' ^ 'B'
		_, err := v.Validate(bad, nil)
		if !errors.Is(err, jose.ErrVerificationFailed) && !errors.Is(err, jose.ErrMalformed) || errors.Is(err, ErrInvalidClaims) {
			t.Fatalf("%s, tampered: %v", name, err)
		}
		other := mustSign(t, mustSigner(t, jwa.HS256, []byte(strings.Repeat("k", 32)), nil), typicalClaims())
		if _, err := v.Validate(other, nil); !errors.Is(err, jose.ErrVerificationFailed) {
			t.Fatalf("other key: %v", err)
		}
	}
	// alg none is refused by jws, whatever the claims.
	none := []byte(jose.Base64URLEncode([]byte(`{"alg":"none"}`)) + "." + jose.Base64URLEncode(typicalClaims().appendJSONValue()) + ".")
	if _, err := v.Validate(none, nil); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
		t.Fatalf("alg none: %v", err)
	}
	// A JWE handed to a JWS-only Validator, and JSON serializations, are
	// not JWTs it accepts.
	e, err := NewEncrypter(jwa.Direct, jwa.A128GCM, hsKey[:16], nil)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := e.Encrypt(typicalClaims())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Validate(enc, nil); !errors.Is(err, jose.ErrMalformed) {
		t.Fatalf("JWE to a JWS validator: %v", err)
	}
	js, err := jws.NewSigner(jwa.HS256, hsKey, nil)
	if err != nil {
		t.Fatal(err)
	}
	flat, err := js.Flattened(typicalClaims().appendJSONValue(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Validate(flat, nil); !errors.Is(err, jose.ErrMalformed) {
		t.Fatalf("flattened JWS: %v", err)
	}
}

func (c Claims) appendJSONValue() []byte { return c.AppendJSON(nil) }

// TestNested covers nested JWTs (RFC 7519 §5.2): cty from the protected
// header only, inner JWS verified with its own allow-list, and the shapes
// a nested Validator refuses.
func TestNested(t *testing.T) {
	k := p256Key()
	inner := mustSigner(t, jwa.ES256, k, nil)
	e, err := NewNestedEncrypter(inner, jwa.ECDHESA128KW, jwa.A128GCM, &k.PublicKey, nil)
	if err != nil {
		t.Fatal(err)
	}
	dec := mustDecrypter(t, jwa.ECDHESA128KW, jwa.A128GCM, k)
	ver := mustVerifier(t, jwa.ES256, &k.PublicKey)
	v := mustValidator(t, ValidatorOptions{Verifier: ver, Decrypter: dec, Audiences: []string{"https://api.example"}})
	tok, err := e.Encrypt(typicalAccessToken())
	if err != nil {
		t.Fatal(err)
	}
	var at accessToken
	got, err := v.Validate(tok, &at)
	if err != nil {
		t.Fatal(err)
	}
	if got.Outer == nil || got.Outer.ContentType != "JWT" || got.Header.Algorithm != "ES256" || got.Header.Type != "JWT" ||
		at.Scope != "read write" || at.Claims.Subject != "user-1234" {
		t.Fatalf("outer %+v header %+v claims %+v", got.Outer, got.Header, at)
	}

	// An encrypted JWT (not nested) is refused by a nested Validator: cty.
	plain, err := NewEncrypter(jwa.ECDHESA128KW, jwa.A128GCM, &k.PublicKey, nil)
	if err != nil {
		t.Fatal(err)
	}
	ptok, err := plain.Encrypt(typicalClaims())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Validate(ptok, nil); !errors.Is(err, ErrInvalidContentType) {
		t.Fatalf("encrypted JWT to a nested validator: %v", err)
	}
	// A nested token to a Decrypter-only Validator: refused, the inner
	// JWS is never taken for claims.
	vd := mustValidator(t, ValidatorOptions{Decrypter: dec, AnyAudience: true})
	if _, err := vd.Validate(tok, nil); !errors.Is(err, ErrInvalidContentType) {
		t.Fatalf("nested to a decrypt-only validator: %v", err)
	}
	if got, err := vd.Validate(ptok, nil); err != nil || got.Header.Type != "JWT" || got.Claims.ID == "" {
		t.Fatalf("encrypted JWT: %v %+v", err, got)
	}
	// A signed JWT to a nested Validator: a JWE is required.
	if _, err := v.Validate(mustSign(t, inner, typicalClaims()), nil); !errors.Is(err, jose.ErrMalformed) {
		t.Fatalf("JWS to a nested validator: %v", err)
	}
	// The inner JWS is verified with the Verifier's allow-list: an HS256
	// inner token inside a good JWE is refused.
	hsInner := mustSigner(t, jwa.HS256, hsKey, nil)
	e2, err := NewNestedEncrypter(hsInner, jwa.ECDHESA128KW, jwa.A128GCM, &k.PublicKey, nil)
	if err != nil {
		t.Fatal(err)
	}
	tok2, err := e2.Encrypt(typicalClaims())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Validate(tok2, nil); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
		t.Fatalf("HS256 inner: %v", err)
	}
	// A tampered JWE is the jwe error.
	bad := []byte(string(tok))
	bad[len(bad)-2] ^= 1
	if _, err := v.Validate(bad, nil); !errors.Is(err, jose.ErrDecryptionFailed) && !errors.Is(err, jose.ErrMalformed) {
		t.Fatalf("tampered JWE: %v", err)
	}
	// A typ on the JWE must pass the typing rule too.
	e3, err := NewNestedEncrypter(inner, jwa.ECDHESA128KW, jwa.A128GCM, &k.PublicKey, &jwe.EncrypterOptions{Type: "at+jwt"})
	if err != nil {
		t.Fatal(err)
	}
	tok3, err := e3.Encrypt(typicalClaims())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Validate(tok3, nil); !errors.Is(err, ErrInvalidType) {
		t.Fatalf("outer typ: %v", err)
	}
}

// TestNestedContentTypeProtectedOnly checks that the nesting decision
// reads "cty" from the JWE Protected Header only: a flattened JWE whose
// "cty": "JWT" sits in the unprotected header (which an attacker can add
// to any token) is not a nested JWT (RFC 7519 §5.2, issue 9 point 4).
func TestNestedContentTypeProtectedOnly(t *testing.T) {
	k := p256Key()
	key := hsKey[:16]
	inner := mustSign(t, mustSigner(t, jwa.ES256, k, nil), typicalClaims())
	dec := mustDecrypter(t, jwa.Direct, jwa.A128GCM, key)
	v := mustValidator(t, ValidatorOptions{Verifier: mustVerifier(t, jwa.ES256, &k.PublicKey), Decrypter: dec, AnyAudience: true})
	for _, c := range []struct {
		name string
		opts *jwe.EncrypterOptions
		ok   bool
	}{
		{"protected cty", &jwe.EncrypterOptions{ContentType: "JWT"}, true},
		{"unprotected cty", &jwe.EncrypterOptions{Unprotected: &jose.Header{ContentType: "JWT"}}, false},
	} {
		e, err := jwe.NewEncrypter(jwa.Direct, jwa.A128GCM, key, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		flat, err := e.Flattened(inner, nil)
		if err != nil {
			t.Fatal(err)
		}
		m, err := dec.DecryptJSON(flat)
		if err != nil {
			t.Fatal(err)
		}
		if m.Header.ContentType != "JWT" {
			t.Fatalf("%s: merged header lacks cty", c.name)
		}
		err = v.checkOuter(m)
		if c.ok != (err == nil) || (err != nil && !errors.Is(err, ErrInvalidContentType)) {
			t.Fatalf("%s: %v", c.name, err)
		}
		// Validate itself takes compact JWTs only (RFC 7519 §1).
		if _, err := v.Validate(flat, nil); !errors.Is(err, jose.ErrMalformed) {
			t.Fatalf("%s: flattened JWE accepted by Validate: %v", c.name, err)
		}
	}
}

// TestUnencodedPayloadRefused: a JWS with "b64": false (RFC 7797), which
// jws verifies, is not a JWT: its claims are the base64url-encoded payload
// (RFC 7519 §7.2 step 8), as NewSigner's refusal of Unencoded says.
func TestUnencodedPayloadRefused(t *testing.T) {
	v := hsValidator(t, ValidatorOptions{AnyAudience: true})
	for _, b64 := range []string{"false", "true"} {
		payload := `{"sub":"x","exp":9999999999}`
		if b64 == "true" {
			payload = jose.Base64URLEncode([]byte(payload))
		}
		h := jose.Base64URLEncode([]byte(`{"alg":"HS256","b64":`+b64+`,"crit":["b64"]}`)) + "." + payload
		sg, err := jwa.NewSigner(jwa.HS256, hsKey)
		if err != nil {
			t.Fatal(err)
		}
		sig, err := sg.Sign(nil, []byte(h))
		if err != nil {
			t.Fatal(err)
		}
		_, err = v.Validate([]byte(h+"."+jose.Base64URLEncode(sig)), nil)
		var ce *ClaimError
		if b64 == "false" && (!errors.Is(err, ErrMalformedClaims) || !errors.As(err, &ce) || ce.Claim != "b64") {
			t.Errorf("b64 false: %v", err)
		}
		if b64 == "true" && err != nil {
			t.Errorf("b64 true: %v", err)
		}
	}
}

// TestNewValidatorOptions checks the refused configurations.
func TestNewValidatorOptions(t *testing.T) {
	ver := mustVerifier(t, jwa.HS256, hsKey)
	for name, o := range map[string]ValidatorOptions{
		"no key source":        {AnyAudience: true},
		"no audience decision": {Verifier: ver},
		"both audience":        {Verifier: ver, Audiences: []string{"a"}, AnyAudience: true},
		"negative leeway":      {Verifier: ver, AnyAudience: true, Leeway: -1},
		"negative max age":     {Verifier: ver, AnyAudience: true, MaxAge: -1},
		"empty issuer":         {Verifier: ver, AnyAudience: true, Issuers: []string{""}},
		"empty audience":       {Verifier: ver, Audiences: []string{""}},
		"empty required":       {Verifier: ver, AnyAudience: true, Required: []string{""}},
		"65 private required":  {Verifier: ver, AnyAudience: true, Required: manyNames(65)},
	} {
		if _, err := NewValidator(o); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	v, err := NewValidator(ValidatorOptions{Verifier: ver, AnyAudience: true, Required: manyNames(64), Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(`{"exp":` + fmt.Sprint(testNow.Unix()+60))
	for _, n := range manyNames(64) {
		fmt.Fprintf(&b, `,%q:1`, n)
	}
	b.WriteString("}")
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	if _, err := v.Validate(mustSign(t, s, json.RawMessage(b.String())), nil); err != nil {
		t.Fatalf("64 required private claims: %v", err)
	}
	if _, err := v.Validate(mustSign(t, s, json.RawMessage(strings.Replace(b.String(), `"c63":1`, `"x":1`, 1))), nil); !errors.Is(err, ErrMissingClaim) {
		t.Fatalf("63 of 64: %v", err)
	}
}

func manyNames(n int) []string {
	var s []string
	for i := range n {
		s = append(s, fmt.Sprint("c", i))
	}
	return s
}

// TestConcurrentValidate runs one Validator from several goroutines (run
// with -race).
func TestConcurrentValidate(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	v := hsValidator(t, ValidatorOptions{})
	tok := mustSign(t, s, typicalAccessToken())
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			for range 50 {
				var at accessToken
				if _, err := v.Validate(tok, &at); err != nil || at.ClientID != "client-42" {
					errs <- fmt.Errorf("%v %+v", err, at)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestConcurrentValidateMixed runs one Validator from several goroutines
// on every decoding path at once (the plan cache switching between types,
// encoding/json, maps, refusals), for -race.
func TestConcurrentValidateMixed(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	v := hsValidator(t, ValidatorOptions{Required: []string{"scope"}})
	tok := mustSign(t, s, typicalAccessToken())
	expired := typicalAccessToken()
	expired.Expiry = NewNumericDate(testNow.Add(-time.Hour))
	expTok := mustSign(t, s, &expired)
	type other struct {
		Claims
		Scope string `json:"scope"`
	}
	type viaJSON struct {
		Claims
		Scope string    `json:"scope"`
		T     time.Time `json:"t,omitzero"`
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			var tk Token
			for i := range 40 {
				var err error
				switch (g + i) % 5 {
				case 0:
					var at accessToken
					if _, err = v.Validate(tok, &at); err == nil && at.ClientID != "client-42" {
						err = fmt.Errorf("accessToken %+v", at)
					}
				case 1:
					var o other
					if err = v.ValidateInto(&tk, tok, &o); err == nil && o.Scope != "read write" {
						err = fmt.Errorf("other %+v", o)
					}
				case 2:
					var j viaJSON
					if _, err = v.Validate(tok, &j); err == nil && (j.Scope != "read write" || j.Issuer == "") {
						err = fmt.Errorf("viaJSON %+v", j)
					}
				case 3:
					var m map[string]any
					if _, err = v.Validate(tok, &m); err == nil && m["client_id"] != "client-42" {
						err = fmt.Errorf("map %v", m)
					}
				case 4:
					if _, e := v.Validate(expTok, new(accessToken)); !errors.Is(e, ErrExpired) {
						err = fmt.Errorf("expired: %v", e)
					}
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestValidateIntoDstOwnsAudience: the caller's claims decoded by
// ValidateInto are values of their own: the next token validated with the
// same Token does not change the audience of the previous dst (a single
// "aud" value is kept in the Token's storage, which only t.Claims shares).
func TestValidateIntoDstOwnsAudience(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	v := hsValidator(t, ValidatorOptions{AnyAudience: true})
	a, b := typicalAccessToken(), typicalAccessToken()
	b.Audience = Audience{"https://other.example"}
	ta, tb := mustSign(t, s, &a), mustSign(t, s, &b)
	var tk Token
	var c1, c2 Claims
	var s1, s2 accessToken
	type viaJSON struct {
		Claims
		T time.Time `json:"t,omitzero"`
	}
	var j1, j2 viaJSON
	for _, d := range [][2]any{{&c1, &c2}, {&s1, &s2}, {&j1, &j2}} {
		if err := v.ValidateInto(&tk, ta, d[0]); err != nil {
			t.Fatal(err)
		}
		if err := v.ValidateInto(&tk, tb, d[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []*Claims{&c1, &s1.Claims, &j1.Claims} {
		if len(c.Audience) != 1 || c.Audience[0] != "https://api.example" {
			t.Errorf("the first token's audience became %q", c.Audience)
		}
	}
	if !tk.Claims.Audience.Contains("https://other.example") || !c2.Audience.Contains("https://other.example") {
		t.Fatalf("%q %q", tk.Claims.Audience, c2.Audience)
	}
}

// TestValidateIntoDirtyToken: a Token reused after a token with every
// registered claim, of a nested JWT (Outer set), gets nothing of it from a
// token with none, validated by another Validator: ValidateInto clears
// what validate, which no longer clears a Token itself, only sets when
// present.
func TestValidateIntoDirtyToken(t *testing.T) {
	k := p256Key()
	e, err := NewNestedEncrypter(mustSigner(t, jwa.ES256, k, nil), jwa.ECDHESA128KW, jwa.A128GCM, &k.PublicKey, nil)
	if err != nil {
		t.Fatal(err)
	}
	nested := mustValidator(t, ValidatorOptions{Verifier: mustVerifier(t, jwa.ES256, &k.PublicKey),
		Decrypter: mustDecrypter(t, jwa.ECDHESA128KW, jwa.A128GCM, k), Audiences: []string{"https://api.example"}})
	full, err := e.Encrypt(typicalAccessToken())
	if err != nil {
		t.Fatal(err)
	}
	signed := hsValidator(t, ValidatorOptions{AnyAudience: true, ExpiryOptional: true})
	empty := mustSign(t, mustSigner(t, jwa.HS256, hsKey, nil), json.RawMessage(`{"scope":"x"}`))
	var tok Token
	for range 2 {
		if err := nested.ValidateInto(&tok, full, nil); err != nil || tok.Outer == nil || tok.Claims.Subject != "user-1234" {
			t.Fatalf("nested: %v, %+v", err, tok)
		}
		if err := signed.ValidateInto(&tok, empty, nil); err != nil {
			t.Fatal(err)
		}
		if !sameClaims(tok.Claims, Claims{}) || tok.Claims.Audience != nil || tok.Outer != nil ||
			tok.Header == nil || tok.Header.Algorithm != "HS256" || string(tok.Payload) != `{"scope":"x"}` {
			t.Fatalf("after a nested JWT with every claim: claims %+v, outer %+v, header %+v, payload %s",
				tok.Claims, tok.Outer, tok.Header, tok.Payload)
		}
	}
}

// TestValidateSingleAudienceEscaped: a single "aud" with an escape, which
// Validate reads into the Token's own storage, is decoded before the
// audience check, there and through ValidateInto.
func TestValidateSingleAudienceEscaped(t *testing.T) {
	v := hsValidator(t, ValidatorOptions{ExpiryOptional: true})
	tok := mustSign(t, mustSigner(t, jwa.HS256, hsKey, nil), json.RawMessage(`{"aud":"https:\/\/api.\u0065xample"}`))
	got, err := v.Validate(tok, nil)
	if err != nil || len(got.Claims.Audience) != 1 || got.Claims.Audience[0] != "https://api.example" {
		t.Fatalf("Validate: %v, %+v", err, got)
	}
	var reused Token
	if err := v.ValidateInto(&reused, tok, nil); err != nil || reused.Claims.Audience[0] != "https://api.example" {
		t.Fatalf("ValidateInto: %v, %+v", err, reused.Claims)
	}
}

// TestValidateInto: a reused Token gets each token's claims and header, a
// refused token leaves it empty, and the claims' strings of an earlier
// token stay valid.
func TestValidateInto(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, &jws.SignerOptions{KeyID: "k"})
	v := hsValidator(t, ValidatorOptions{})
	var tok Token
	first := typicalClaims()
	second := typicalClaims()
	second.Subject, second.ID = "someone-else", "another-id"
	if err := v.ValidateInto(&tok, mustSign(t, s, &first), nil); err != nil {
		t.Fatal(err)
	}
	sub := tok.Claims.Subject
	var got accessToken
	if err := v.ValidateInto(&tok, mustSign(t, s, typicalAccessToken()), &got); err != nil || got.Scope != "read write" {
		t.Fatalf("%v %+v", err, got)
	}
	if err := v.ValidateInto(&tok, mustSign(t, s, &second), nil); err != nil {
		t.Fatal(err)
	}
	if tok.Claims.Subject != "someone-else" || tok.Claims.ID != "another-id" || tok.Header.KeyID != "k" || sub != "user-1234" ||
		!tok.Claims.Audience.Contains("https://api.example") || !bytes.Contains(tok.Payload, []byte("someone-else")) {
		t.Fatalf("reused token %+v, earlier subject %q", tok.Claims, sub)
	}
	expired := typicalClaims()
	expired.Expiry = NewNumericDate(testNow.Add(-time.Hour))
	if err := v.ValidateInto(&tok, mustSign(t, s, &expired), nil); !errors.Is(err, ErrExpired) {
		t.Fatal(err)
	}
	if tok.Header != nil || tok.Outer != nil || len(tok.Payload) != 0 || tok.Claims.Subject != "" || tok.Claims.Expiry.set {
		t.Fatalf("after an error: %+v", tok)
	}
	if err := v.ValidateInto(&tok, []byte("not.a.jwt"), nil); err == nil || tok.Header != nil {
		t.Fatalf("malformed: %v", err)
	}
	if err := v.ValidateInto(&tok, mustSign(t, s, &first), nil); err != nil || tok.Claims.Subject != "user-1234" {
		t.Fatalf("after errors: %v", err)
	}
}

// TestTokenSizeClass: Validate's one allocation for a Token and its
// buffer is of the 1024-byte size class of the Go allocator, as
// tokenWithBuffer's doc says (the classes around it are 896 and 1152
// bytes): a field added to Token (audLent took 8 of the spare bytes)
// must not push it into the next class, which BenchmarkRatio measured
// slower, and allocation counts do not show.
func TestTokenSizeClass(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the sizes are those of a 64-bit platform")
	}
	if n := unsafe.Sizeof(tokenWithBuffer{}); n <= 896 || n > 1024 {
		t.Errorf("tokenWithBuffer is %d bytes, not of the 1024-byte size class", n)
	}
}
