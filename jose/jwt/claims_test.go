package jwt

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/jsonx"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// TestNumericDate checks the decoding of NumericDate values (RFC 7519 §2)
// at their edges.
func TestNumericDate(t *testing.T) {
	cases := []struct {
		in   string
		sec  int64
		nsec int
		ok   bool
	}{
		{"0", 0, 0, true},
		{"-0", 0, 0, true},
		{"-0.0", 0, 0, true},
		{"-0e3", 0, 0, true},
		{"1300819380", 1300819380, 0, true},
		{"1300819380.5", 1300819380, 500000000, true},
		{"1300819380.123456789", 1300819380, 123456789, true},
		{"1300819380.1234567899", 1300819380, 123456789, true}, // truncated to ns
		{"1300819380.000000001", 1300819380, 1, true},
		{"1.30081938e9", 1300819380, 0, true},
		{"1.3008193805E9", 1300819380, 500000000, true},
		{"13008193805e-1", 1300819380, 500000000, true},
		{"0.5", 0, 500000000, true},
		{"253402300799", 253402300799, 0, true},
		{"253402300799.0", 253402300799, 0, true},
		{"2.53402300799e11", 253402300799, 0, true},
		{"253402300799.5", 0, 0, false},
		{"253402300800", 0, 0, false},
		{"2534023008000.5", 0, 0, false},
		{"9223372036854775808", 0, 0, false}, // beyond int64
		{"1e400", 0, 0, false},               // +Inf as float64
		{"1e20", 0, 0, false},
		{"-1", 0, 0, false},
		{"-0.5", 0, 0, false},
		{"-1e3", 0, 0, false},
		{`"1300819380"`, 0, 0, false},
		{"null", 0, 0, false},
		{"true", 0, 0, false},
		{"[1]", 0, 0, false},
		{`{"a":1}`, 0, 0, false},
		{"NaN", 0, 0, false},
		{"Infinity", 0, 0, false},
		{"01", 0, 0, false},
		{"1.", 0, 0, false},
		{"+1", 0, 0, false},
		{"1 2", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, c := range cases {
		var d NumericDate
		err := d.UnmarshalJSON([]byte(c.in))
		if c.ok != (err == nil) {
			t.Errorf("%s: err %v, want ok=%v", c.in, err, c.ok)
			continue
		}
		if !c.ok {
			if !d.IsZero() {
				t.Errorf("%s: refused value changed the date", c.in)
			}
			continue
		}
		if d.IsZero() || d.Time().Unix() != c.sec || d.Time().Nanosecond() != c.nsec || d.Time().Location() != time.UTC {
			t.Errorf("%s: got %v (%d.%09d)", c.in, d, d.Time().Unix(), d.Time().Nanosecond())
		}
		// Written back, it reads as the same instant.
		var back NumericDate
		if err := back.UnmarshalJSON(d.AppendJSON(nil)); err != nil || !back.Time().Equal(d.Time()) {
			t.Errorf("%s: written as %s, read back %v (%v)", c.in, d.AppendJSON(nil), back, err)
		}
	}
	// In a claims set, a bad date is a malformed claim naming it.
	for _, name := range []string{"exp", "nbf", "iat"} {
		var c Claims
		err := parseClaims([]byte(`{"`+name+`":"1300819380"}`), defaultJSONLimits, &c, nil)
		var ce *ClaimError
		if !errors.As(err, &ce) || ce.Claim != name || !errors.Is(err, ErrMalformedClaims) || !errors.Is(err, jose.ErrMalformed) {
			t.Errorf("%s as a string: %v", name, err)
		}
	}
}

func TestNumericDateForms(t *testing.T) {
	var zero NumericDate
	if !zero.IsZero() || zero.Unix() != 0 || zero.String() != "absent" || string(zero.AppendJSON(nil)) != "0" || !zero.Time().IsZero() {
		t.Fatalf("zero NumericDate: %v", zero)
	}
	epoch := NewNumericDate(time.Unix(0, 0))
	if epoch.IsZero() || string(epoch.AppendJSON(nil)) != "0" {
		t.Fatal("the epoch is a present date")
	}
	at := time.Date(2011, 3, 22, 18, 43, 0, 250_000_000, time.FixedZone("X", 3600))
	if d := NewNumericDate(at); string(d.AppendJSON(nil)) != "1300815780" || d.Unix() != 1300815780 {
		t.Fatalf("NewNumericDate: %s", d.AppendJSON(nil))
	}
	d := NumericDateOf(at)
	if string(d.AppendJSON(nil)) != "1300815780.25" || d.String() != "2011-03-22T17:43:00.25Z" {
		t.Fatalf("NumericDateOf: %s %s", d.AppendJSON(nil), d)
	}
	if b, err := json.Marshal(struct {
		D NumericDate `json:"d,omitzero"`
		E NumericDate `json:"e,omitzero"`
	}{D: d}); err != nil || string(b) != `{"d":1300815780.25}` {
		t.Fatalf("json.Marshal: %s %v", b, err)
	}
}

// TestAudience checks "aud" as a string or an array (RFC 7519 §4.1.3).
func TestAudience(t *testing.T) {
	for in, want := range map[string]Audience{
		`"a"`:            {"a"},
		`["a"]`:          {"a"},
		`["a","b"]`:      {"a", "b"},
		`[]`:             {},
		`"\u0061\n"`:     {"a\n"},
		`["x\"y", "\/"]`: {`x"y`, "/"},
	} {
		var a Audience
		if err := json.Unmarshal([]byte(in), &a); err != nil || a == nil || !equalAud(a, want) {
			t.Errorf("%s: %q %v", in, a, err)
		}
	}
	for _, in := range []string{`1`, `null`, `["a",1]`, `[["a"]]`, `{"a":1}`, `true`, `"a`, `["a",]`} {
		var a Audience
		if err := a.UnmarshalJSON([]byte(in)); err == nil {
			t.Errorf("%s accepted", in)
		}
	}
	for _, c := range []struct {
		a    Audience
		json string
	}{{Audience{"a"}, `"a"`}, {Audience{"a", "b"}, `["a","b"]`}, {Audience{}, `[]`}} {
		if b, err := json.Marshal(c.a); err != nil || string(b) != c.json {
			t.Errorf("%q: %s", c.a, b)
		}
	}
	if !(Audience{"a", "b"}).Contains("b") || (Audience{"a"}).Contains("A") {
		t.Error("Contains")
	}
}

func equalAud(a, b Audience) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestClaimsJSON checks that Claims.AppendJSON writes what encoding/json
// writes for the struct, and that parseClaims reads it back.
func TestClaimsJSON(t *testing.T) {
	full := typicalClaims()
	full.Audience = Audience{"a", "b"}
	full.Issuer = "<iss> & \"quoted\" \u2028 \x01"
	frac := Claims{Expiry: NumericDateOf(testNow.Add(1500 * time.Millisecond))}
	for _, c := range []Claims{{}, typicalClaims(), full, frac, {ID: "j"}, {Audience: Audience{"only"}}} {
		got := c.AppendJSON(nil)
		if !json.Valid(got) {
			t.Fatalf("invalid JSON %s", got)
		}
		want, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var a, b any
		if err := json.Unmarshal(got, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(want, &b); err != nil {
			t.Fatal(err)
		}
		if ja, _ := json.Marshal(a); string(ja) != func() string { jb, _ := json.Marshal(b); return string(jb) }() {
			t.Fatalf("AppendJSON %s, encoding/json %s", got, want)
		}
		var back Claims
		if err := parseClaims(got, defaultJSONLimits, &back, nil); err != nil {
			t.Fatalf("%s: %v", got, err)
		}
		if !sameClaims(back, c) {
			t.Fatalf("read back %+v, want %+v", back, c)
		}
	}
}

func sameClaims(a, b Claims) bool {
	return a.Issuer == b.Issuer && a.Subject == b.Subject && a.ID == b.ID && equalAud(a.Audience, b.Audience) &&
		a.Expiry == b.Expiry &&
		a.NotBefore == b.NotBefore &&
		a.IssuedAt == b.IssuedAt
}

// TestParseClaimsRefusals: what the claims reader refuses, and with which
// error.
func TestParseClaimsRefusals(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 20) + "1" + strings.Repeat("}", 20)
	var many strings.Builder
	many.WriteString("{")
	for i := range 300 {
		if i > 0 {
			many.WriteString(",")
		}
		many.WriteString(`"c` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `` + string(rune('a'+i/26)) + `":1`)
	}
	many.WriteString("}")
	cases := []struct {
		name, in string
		want     error
		claim    string
	}{
		{"duplicate registered", `{"exp":1,"exp":2}`, ErrMalformedClaims, ""},
		{"duplicate private", `{"a":1,"b":2,"a":3}`, ErrMalformedClaims, ""},
		{"duplicate by escape", `{"iss":"a","\u0069ss":"b"}`, ErrMalformedClaims, ""},
		{"duplicate nested", `{"x":{"a":1,"a":1}}`, ErrMalformedClaims, ""},
		{"not an object", `["iss"]`, ErrMalformedClaims, ""},
		{"string", `"x"`, ErrMalformedClaims, ""},
		{"trailing data", `{"iss":"a"} {}`, ErrMalformedClaims, ""},
		{"empty", ``, ErrMalformedClaims, ""},
		{"invalid UTF-8", "{\"iss\":\"\xff\"}", ErrMalformedClaims, ""},
		{"lone surrogate", `{"sub":"\ud800"}`, ErrMalformedClaims, ""},
		{"iss number", `{"iss":1}`, ErrMalformedClaims, "iss"},
		{"sub null", `{"sub":null}`, ErrMalformedClaims, "sub"},
		{"jti array", `{"jti":["a"]}`, ErrMalformedClaims, "jti"},
		{"aud number", `{"aud":1}`, ErrMalformedClaims, "aud"},
		{"aud mixed", `{"aud":["a",2]}`, ErrMalformedClaims, "aud"},
		{"exp string", `{"exp":"1"}`, ErrMalformedClaims, "exp"},
		{"nbf negative", `{"nbf":-1}`, ErrMalformedClaims, "nbf"},
		{"iat huge", `{"iat":1e300}`, ErrMalformedClaims, "iat"},
		{"too deep", deep, jose.ErrLimitExceeded, ""},
		{"too many members", many.String(), jose.ErrLimitExceeded, ""},
	}
	for _, c := range cases {
		var got Claims
		got.Issuer = "left over"
		err := parseClaims([]byte(c.in), defaultJSONLimits, &got, nil)
		var ce *ClaimError
		if !errors.Is(err, c.want) || !errors.Is(err, ErrInvalidClaims) || !errors.As(err, &ce) || ce.Claim != c.claim {
			t.Errorf("%s: err %v, want %v on %q", c.name, err, c.want, c.claim)
			continue
		}
		if got.Issuer != "" {
			t.Errorf("%s: claims not cleared on error", c.name)
		}
	}
	// The limits are the Validator's: raised, the same sets pass.
	var c Claims
	if err := parseClaims([]byte(deep), jsonx.Limits{MaxDepth: 32}, &c, nil); err != nil {
		t.Errorf("deep with MaxDepth 32: %v", err)
	}
	if err := parseClaims([]byte(many.String()), jsonx.Limits{MaxMembers: 300}, &c, nil); err != nil {
		t.Errorf("300 members with MaxClaims 300: %v", err)
	}
}

// TestStringPool: string claims without escapes share one copy of the
// claims text; escaped ones are decoded on their own; neither aliases the
// input (which the caller may reuse).
func TestStringPool(t *testing.T) {
	in := []byte(`{"iss":"issuer","sub":"s\u00e9b","jti":"id","aud":["x","y\/z"]}`)
	var c Claims
	if err := parseClaims(in, defaultJSONLimits, &c, nil); err != nil {
		t.Fatal(err)
	}
	for i := range in {
		in[i] = 'X'
	}
	if c.Issuer != "issuer" || c.Subject != "séb" || c.ID != "id" || !equalAud(c.Audience, Audience{"x", "y/z"}) {
		t.Fatalf("claims changed with the input: %+v", c)
	}
	in = []byte(`{"iss":"issuer","sub":"s\u00e9b","jti":"id","aud":"x"}`)
	c = Claims{}
	if err := parseClaims(in, defaultJSONLimits, &c, nil); err != nil {
		t.Fatal(err)
	}
	for i := range in {
		in[i] = 'X'
	}
	if c.Issuer != "issuer" || c.Subject != "séb" || c.ID != "id" || !equalAud(c.Audience, Audience{"x"}) {
		t.Fatalf("claims changed with the input (one audience): %+v", c)
	}
	var p stringPool
	if p.of(nil) != "" || p.of([]byte("ab")) != "ab" {
		t.Fatal("empty pool")
	}
}

// TestPrivateClaims decodes private claims into a struct and a map, from
// the same bytes the registered claims were read from.
func TestPrivateClaims(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	v := hsValidator(t, ValidatorOptions{})
	tok := mustSign(t, s, typicalAccessToken())

	var at accessToken
	got, err := v.Validate(tok, &at)
	if err != nil {
		t.Fatal(err)
	}
	if at.Scope != "read write" || at.ClientID != "client-42" || !sameClaims(at.Claims, got.Claims) || !sameClaims(at.Claims, typicalClaims()) {
		t.Fatalf("struct: %+v", at)
	}
	var m map[string]any
	if _, err := v.Validate(tok, &m); err != nil {
		t.Fatal(err)
	}
	if m["scope"] != "read write" || m["iss"] != "https://issuer.example" || m["exp"] != float64(testNow.Add(time.Hour).Unix()) {
		t.Fatalf("map: %v", m)
	}
	var raw map[string]json.RawMessage
	if _, err := v.Validate(tok, &raw); err != nil || string(raw["client_id"]) != `"client-42"` {
		t.Fatalf("raw map: %v %v", raw, err)
	}
	var c Claims
	if _, err := v.Validate(tok, &c); err != nil || !sameClaims(c, typicalClaims()) {
		t.Fatalf("*Claims: %+v %v", c, err)
	}
	if !bytes.Equal(got.Payload, mustPayload(t, tok)) {
		t.Fatal("Token.Payload is not the claims set")
	}

	// The embedded Claims are the validated ones, even where
	// encoding/json would read a differently cased member name.
	odd := mustSign(t, s, json.RawMessage(`{"exp":`+string(typicalClaims().Expiry.AppendJSON(nil))+`,"aud":"https://api.example","iss":"real","ISS":"fake","scope":"x"}`))
	var at2 accessToken
	if _, err := v.Validate(odd, &at2); err != nil || at2.Issuer != "real" || at2.Scope != "x" {
		t.Fatalf("case-folded duplicate: %+v %v", at2, err)
	}

	// A private claim that does not fit the caller's type is a malformed
	// claims error; dst is decoded only after validation.
	bad := mustSign(t, s, json.RawMessage(`{"exp":`+string(typicalClaims().Expiry.AppendJSON(nil))+`,"aud":"https://api.example","scope":7}`))
	var at3 accessToken
	if _, err := v.Validate(bad, &at3); !errors.Is(err, ErrMalformedClaims) {
		t.Fatalf("scope as a number: %v", err)
	}
	expired := typicalAccessToken()
	expired.Expiry = NewNumericDate(testNow.Add(-time.Hour))
	var at4 accessToken
	if _, err := v.Validate(mustSign(t, s, expired), &at4); !errors.Is(err, ErrExpired) || at4.Scope != "" || at4.Issuer != "" {
		t.Fatalf("expired: %v, dst %+v", err, at4)
	}
}

func mustPayload(t *testing.T, tok []byte) []byte {
	t.Helper()
	parts := bytes.Split(tok, []byte("."))
	p, err := jose.Base64URLDecode(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDuplicateClaimsRefused: a signed token with a repeated claim name is
// refused after it verifies, as malformed claims (RFC 7519 §4).
func TestDuplicateClaimsRefused(t *testing.T) {
	js := mustSigner(t, jwa.HS256, hsKey, nil)
	// Sign refuses to issue it...
	if _, err := js.Sign(json.RawMessage(`{"aud":"https://api.example","exp":9999999999,"aud":"other"}`)); !errors.Is(err, ErrMalformedClaims) {
		t.Fatalf("Sign: %v", err)
	}
	// ...and a token made elsewhere is refused by the Validator.
	v := hsValidator(t, ValidatorOptions{})
	for _, payload := range []string{
		`{"aud":"https://api.example","exp":9999999999,"aud":"other"}`,
		// Names are compared unescaped: "\u0065xp" is "exp", at any depth.
		`{"aud":"https://api.example","exp":9999999999,"\u0065xp":1}`,
		`{"aud":"https://api.example","exp":9999999999,"x":{"a":1,"\u0061":2}}`,
		`{"aud":"https://api.example","exp":9999999999,"\ud83d\ude00":1,"😀":2}`,
		`{"aud":"https://api.example","exp":9999999999,"a\/b":1,"a/b":2}`,
	} {
		if _, err := v.Validate(signRaw(t, []byte(payload)), nil); !errors.Is(err, ErrMalformedClaims) || !errors.Is(err, ErrInvalidClaims) {
			t.Errorf("Validate %s: %v", payload, err)
		}
	}
}

// signRaw signs payload as an HS256 JWS with typ JWT, bypassing the
// checks of Signer.Sign.
func signRaw(t testing.TB, payload []byte) []byte {
	t.Helper()
	h := jose.Base64URLEncode([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + jose.Base64URLEncode(payload)
	sg, err := jwa.NewSigner(jwa.HS256, hsKey)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := sg.Sign(nil, []byte(h))
	if err != nil {
		t.Fatal(err)
	}
	return []byte(h + "." + jose.Base64URLEncode(sig))
}

// TestNumericDateExact: a date literal is read exactly or refused (issue
// 18, finding 6). strconv.ParseFloat stops counting an exponent past
// 99999, so 0.(700,000 zeros)19e700010, which is 1.9e9 (a date in 2030,
// as Python and JavaScript read it), read as 0; such a literal, and any
// with an exponent of more than 32 bytes, is a malformed claim, in
// Claims, in a struct with a NumericDate field and through
// NumericDate.UnmarshalJSON. Every reading that was exact stays.
func TestNumericDateExact(t *testing.T) {
	zeros := strings.Repeat("0", 700000)
	refused := []string{
		"0." + zeros + "19e700010",
		"0." + zeros + "19E+700010",
		"1e100000", "1e-100000", "0.1e999999", "1e0000000000000000000000100000",
		"0.0000000000000000000000000001e37",  // 33 bytes
		"1300819380.000000000000000000000e0", // 34 bytes
		"0." + zeros + "1300819380e700010",   // the same date, exactly, but unread by strconv
		"13008193800000000000000000000e-19",  // 33 bytes
		strings.Repeat("1", 40) + "e-31",     // 1.1e9, 44 bytes
	}
	for _, in := range refused {
		var d NumericDate
		if err := d.UnmarshalJSON([]byte(in)); err == nil || !d.IsZero() {
			t.Errorf("%.40s (%d bytes): read as %v", in, len(in), d)
		}
		for _, name := range []string{"exp", "nbf", "iat"} {
			var c Claims
			err := parseClaims([]byte(`{"`+name+`":`+in+`}`), jsonx.Limits{MaxDepth: 16, MaxMembers: 64}, &c, nil)
			var ce *ClaimError
			if !errors.As(err, &ce) || ce.Claim != name || !errors.Is(err, ErrMalformedClaims) || !strings.Contains(err.Error(), "not read exactly") {
				t.Errorf("%s: %.40s: %v", name, in, err)
			}
		}
		var s struct {
			AuthTime NumericDate `json:"auth_time"`
		}
		if err := json.Unmarshal([]byte(`{"auth_time":`+in+`}`), &s); err == nil {
			t.Errorf("auth_time %.40s: read as %v", in, s.AuthTime)
		}
	}
	// Through a Validator, into Claims, a map and a struct with embedded
	// Claims and a NumericDate of its own (the struct codec). The tokens
	// are signed by jws, as a peer would: Sign refuses such claims.
	s, err := jws.NewSigner(jwa.HS256, hsKey, nil)
	if err != nil {
		t.Fatal(err)
	}
	v := hsValidator(t, ValidatorOptions{})
	hostile := "0." + zeros + "19e700010"
	for _, claims := range []string{
		`{"exp":1796130000,"aud":"https://api.example","nbf":` + hostile + `}`,
		`{"exp":1796130000,"aud":"https://api.example","auth_time":` + hostile + `}`,
	} {
		tok, err := s.Compact([]byte(claims))
		if err != nil {
			t.Fatal(err)
		}
		for _, dst := range []any{nil, &map[string]any{}, &struct {
			Claims
			AuthTime NumericDate `json:"auth_time"`
		}{}} {
			if _, isMap := dst.(*map[string]any); strings.Contains(claims, "auth_time") && (dst == nil || isMap) {
				continue // a NumericDate only in the struct
			}
			_, err := v.Validate(tok, dst)
			if !errors.Is(err, ErrMalformedClaims) || len(err.Error()) > 1<<10 {
				t.Errorf("%.60s into %T: %.300v", claims, dst, err)
			}
		}
	}

	// Kept: integers and fractions of any length, exponents of up to 32
	// bytes and five digits.
	for in, want := range map[string]time.Time{
		"1300819380":                       time.Unix(1300819380, 0),
		"1300819380." + zeros + "1":        time.Unix(1300819380, 0),
		"0." + zeros + "19":                time.Unix(0, 0),
		"1300819380.123456789" + zeros:     time.Unix(1300819380, 123456789),
		"1.30081938e9":                     time.Unix(1300819380, 0),
		"1.30081938e+09":                   time.Unix(1300819380, 0),
		"130081938000000e-5":               time.Unix(1300819380, 0),
		"0.00000000000000130081938e24":     time.Unix(1300819380, 0),
		"0.000000000000000000130081938e28": time.Unix(1300819380, 0), // 32 bytes
		"1300819380e000000000000000000000": time.Unix(1300819380, 0), // 32 bytes, leading zeros of the exponent
		"13008193800000e-00004":            time.Unix(1300819380, 0),
		"1e-99999":                         time.Unix(0, 0),
		"0e99999":                          time.Unix(0, 0),
	} {
		var d NumericDate
		if err := d.UnmarshalJSON([]byte(in)); err != nil || !d.Time().Equal(want) {
			t.Errorf("%.40s (%d bytes): %v, %v; want %v", in, len(in), d, err, want.UTC())
		}
	}
}

// TestNumericDateLongInteger: an integer of any length past MaxNumericDate
// is out of range, said so, whether or not strconv could read it (it has
// no exponent to be read inexactly).
func TestNumericDateLongInteger(t *testing.T) {
	for _, in := range []string{"253402300800", "99999999999999999999", "1" + strings.Repeat("0", 40), "1" + strings.Repeat("0", 700000)} {
		var d NumericDate
		err := d.UnmarshalJSON([]byte(in))
		if err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("%.40s (%d digits): %v", in, len(in), err)
		}
	}
}

// TestClaimsAppendJSONDates checks Claims.AppendJSON against encoding/json
// for the dates it writes, "iat" equal to "nbf" or not (appendMembers then
// copies the digits of "nbf"), whole or fractional, and either absent.
func TestClaimsAppendJSONDates(t *testing.T) {
	at := time.Unix(1796126340, 0)
	for _, c := range []struct {
		name     string
		nbf, iat NumericDate
	}{
		{"equal", NewNumericDate(at), NewNumericDate(at)},
		{"iat later", NewNumericDate(at), NewNumericDate(at.Add(time.Second))},
		{"iat earlier", NewNumericDate(at.Add(time.Second)), NewNumericDate(at)},
		{"equal seconds, other fraction", NumericDateOf(at.Add(250 * time.Millisecond)), NumericDateOf(at.Add(500 * time.Millisecond))},
		{"equal fractions", NumericDateOf(at.Add(250 * time.Millisecond)), NumericDateOf(at.Add(250 * time.Millisecond))},
		{"whole and fraction", NewNumericDate(at), NumericDateOf(at.Add(250 * time.Millisecond))},
		{"nbf only", NewNumericDate(at), NumericDate{}},
		{"iat only", NumericDate{}, NewNumericDate(at)},
		{"epoch", NewNumericDate(time.Unix(0, 0)), NewNumericDate(time.Unix(0, 0))},
	} {
		cl := Claims{Issuer: "i", NotBefore: c.nbf, IssuedAt: c.iat, ID: "j"}
		want, err := json.Marshal(cl)
		if err != nil {
			t.Fatal(err)
		}
		// Into a buffer that must grow, and into one that need not.
		for _, dst := range [][]byte{nil, make([]byte, 0, 256)} {
			if got := cl.AppendJSON(dst); string(got) != string(want) {
				t.Errorf("%s: AppendJSON %s, encoding/json %s", c.name, got, want)
			}
		}
	}
}
