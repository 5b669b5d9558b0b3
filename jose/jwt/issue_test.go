package jwt

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
	"github.com/josebench/josebench/jose/jws"
)

// TestSignClaimForms signs every accepted form of claims and checks that
// each gives the same claims set back.
func TestSignClaimForms(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	if s.Algorithm() != jwa.HS256 {
		t.Fatal(s.Algorithm())
	}
	v := hsValidator(t, ValidatorOptions{})
	c := typicalClaims()
	enc := c.AppendJSON(nil)
	for name, claims := range map[string]any{
		"*Claims":         &c,
		"Claims":          c,
		"json.RawMessage": json.RawMessage(enc),
		"[]byte":          enc,
		"struct":          typicalAccessToken(),
		"map":             map[string]any{"iss": c.Issuer, "sub": c.Subject, "aud": []string{"https://api.example"}, "exp": c.Expiry, "jti": c.ID},
	} {
		tok := mustSign(t, s, claims)
		got, err := v.Validate(tok, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.Claims.Issuer != c.Issuer || got.Claims.ID != c.ID || !got.Claims.Expiry.Time().Equal(c.Expiry.Time()) || got.Header.Type != "JWT" {
			t.Fatalf("%s: %+v", name, got.Claims)
		}
	}
	// AppendSign appends to dst, and keeps dst on error.
	dst := []byte("prefix:")
	out, err := s.AppendSign(dst, &c)
	if err != nil || !bytes.HasPrefix(out, dst) {
		t.Fatalf("AppendSign: %q %v", out, err)
	}
	if _, err := v.Validate(out[len(dst):], nil); err != nil {
		t.Fatal(err)
	}
	if out, err := s.AppendSign(dst, nil); err == nil || string(out) != "prefix:" {
		t.Fatalf("AppendSign(nil): %q %v", out, err)
	}
}

// TestSignRefusals: claims no Validator would load are not signed.
func TestSignRefusals(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	var nilClaims *Claims
	for name, claims := range map[string]any{
		"nil":            nil,
		"nil *Claims":    nilClaims,
		"array":          []string{"a"},
		"string":         "claims",
		"raw not object": json.RawMessage(`[1]`),
		"raw invalid":    json.RawMessage(`{"a":`),
		"raw duplicate":  []byte(`{"a":1,"a":2}`),
		"exp as string":  map[string]any{"exp": "tomorrow"},
		"aud as number":  map[string]any{"aud": 1},
		"unmarshalable":  map[string]any{"f": func() {}},
		"too deep":       json.RawMessage(`{"a":` + strings.Repeat(`{"a":`, 20) + "1" + strings.Repeat("}", 21)),
		"negative iat": struct {
			I int `json:"iat"`
		}{-5},
		"NaN-like exp text": json.RawMessage(`{"exp":NaN}`),
	} {
		if _, err := s.Sign(claims); err == nil {
			t.Errorf("%s: signed", name)
		}
	}
}

// TestSignerOptions checks typ defaults and the refused options.
func TestSignerOptions(t *testing.T) {
	c := typicalClaims()
	for _, typ := range []string{"", "at+jwt"} {
		s := mustSigner(t, jwa.HS256, hsKey, &jws.SignerOptions{Type: typ, KeyID: "k1"})
		m, err := mustVerifier(t, jwa.HS256, hsKey).VerifyCompact(mustSign(t, s, &c))
		if err != nil {
			t.Fatal(err)
		}
		want := typ
		if want == "" {
			want = "JWT"
		}
		if m.Protected.Type != want || m.Protected.KeyID != "k1" {
			t.Fatalf("typ %q: header %+v", typ, m.Protected)
		}
	}
	for name, o := range map[string]*jws.SignerOptions{
		"cty":       {ContentType: "JWT"},
		"unencoded": {Unencoded: true},
	} {
		if _, err := NewSigner(jwa.HS256, hsKey, o); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	// jws's refusal, passed on as it is: no bare "jwt: " before "jws: "
	// (jose.ErrMalformed's doc); the sentinel kept.
	if _, err := NewSigner(jwa.HS256, []byte("short"), nil); err == nil || !errors.Is(err, jose.ErrInvalidKey) ||
		err.Error() != "jws: NewSigner: jwa: the key is a 5-byte secret; HS256 needs a secret of at least 32 bytes: invalid key for algorithm" {
		t.Errorf("weak key: %v", err)
	}
	if _, err := NewSigner(jwa.SignatureAlgorithm("none"), hsKey, nil); err == nil {
		t.Error("alg none accepted")
	}
}

// TestEncrypterOptions checks the encrypted and nested Encrypters' headers
// and refused options.
func TestEncrypterOptions(t *testing.T) {
	key := hsKey[:16]
	dec := mustDecrypter(t, jwa.Direct, jwa.A128GCM, key)
	e, err := NewEncrypter(jwa.Direct, jwa.A128GCM, key, &jwe.EncrypterOptions{KeyID: "e1"})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := e.Encrypt(typicalClaims())
	if err != nil {
		t.Fatal(err)
	}
	m, err := dec.DecryptCompact(tok)
	if err != nil {
		t.Fatal(err)
	}
	if m.Protected.Type != "JWT" || m.Protected.ContentType != "" || m.Protected.KeyID != "e1" {
		t.Fatalf("encrypted JWT header %+v", m.Protected)
	}
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	for _, cty := range []string{"", "JWT", "application/jwt"} {
		ne, err := NewNestedEncrypter(s, jwa.Direct, jwa.A128GCM, key, &jwe.EncrypterOptions{ContentType: cty})
		if err != nil {
			t.Fatalf("cty %q: %v", cty, err)
		}
		tok, err := ne.Encrypt(typicalClaims())
		if err != nil {
			t.Fatal(err)
		}
		m, err := dec.DecryptCompact(tok)
		if err != nil {
			t.Fatal(err)
		}
		if m.Protected.ContentType != "JWT" || m.Protected.Type != "" {
			t.Fatalf("nested header %+v", m.Protected)
		}
	}
	if _, err := NewNestedEncrypter(nil, jwa.Direct, jwa.A128GCM, key, nil); err == nil {
		t.Error("nested without a signer")
	}
	if _, err := NewNestedEncrypter(s, jwa.Direct, jwa.A128GCM, key, &jwe.EncrypterOptions{ContentType: "text/plain"}); err == nil {
		t.Error("nested with cty text/plain")
	}
	if _, err := NewEncrypter(jwa.Direct, jwa.A128GCM, key, &jwe.EncrypterOptions{ContentType: "JWT"}); err == nil {
		t.Error("encrypted with cty")
	}
	if _, err := NewEncrypter(jwa.Direct, jwa.A128GCM, key, &jwe.EncrypterOptions{Unprotected: &jose.Header{KeyID: "x"}}); err == nil {
		t.Error("unprotected header")
	}
	if _, err := NewEncrypter(jwa.Direct, jwa.A128GCM, key[:5], nil); err == nil || !errors.Is(err, jose.ErrInvalidKey) ||
		err.Error() != "jwe: NewEncrypter: jwa: the key is a 5-byte secret; dir with A128GCM needs a 16-byte secret: invalid key for algorithm" {
		t.Errorf("short dir key: %v", err)
	}
	if _, err := e.Encrypt(json.RawMessage(`[]`)); !errors.Is(err, ErrMalformedClaims) {
		t.Errorf("encrypting an array: %v", err)
	}
	ne, err := NewNestedEncrypter(s, jwa.Direct, jwa.A128GCM, key, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ne.Encrypt(json.RawMessage(`[]`)); !errors.Is(err, ErrMalformedClaims) {
		t.Errorf("nested of an array: %v", err)
	}
}

// TestSignDateRefusals: Sign, AppendSign and Encrypt (and nested
// encryption) refuse the dates a Validator refuses, in Claims, in a struct
// embedding Claims, in a private NumericDate field and in a map, as for
// maps before (issue 18, finding 7): past MaxNumericDate (year 10000),
// before the epoch, and the zero time.Time, which would be written as
// -62135596800 and gets an error saying so.
func TestSignDateRefusals(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	e, err := NewEncrypter(jwa.Direct, jwa.A128GCM, hsKey[:16], nil)
	if err != nil {
		t.Fatal(err)
	}
	nested, err := NewNestedEncrypter(s, jwa.Direct, jwa.A128GCM, hsKey[:16], nil)
	if err != nil {
		t.Fatal(err)
	}
	issue := map[string]func(any) error{
		"Sign":       func(c any) error { _, err := s.Sign(c); return err },
		"AppendSign": func(c any) error { _, err := s.AppendSign(make([]byte, 0, 4096), c); return err },
		"Encrypt":    func(c any) error { _, err := e.Encrypt(c); return err },
		"nested":     func(c any) error { _, err := nested.Encrypt(c); return err },
	}
	type private struct {
		Claims
		AuthTime NumericDate `json:"auth_time"`
	}
	type viaJSON struct { // no plan: encoding/json writes it
		Claims
		T struct{ X int } `json:"t"`
	}
	year10000 := NewNumericDate(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC))
	last := NumericDateOf(time.Unix(MaxNumericDate, 1))
	negative := NewNumericDate(time.Unix(-1, 0))
	zero := NewNumericDate(time.Time{})
	for _, d := range []struct {
		name string
		date NumericDate
		want string // in the error
	}{
		{"year 10000", year10000, "out of range"},
		{"a nanosecond past MaxNumericDate", last, "out of range"},
		{"negative", negative, "out of range"},
		{"zero time.Time", zero, "zero time.Time"},
	} {
		claims := map[string]any{}
		for _, name := range []string{"exp", "nbf", "iat"} {
			c := typicalClaims()
			switch name {
			case "exp":
				c.Expiry = d.date
			case "nbf":
				c.NotBefore = d.date
			case "iat":
				c.IssuedAt = d.date
			}
			claims[name+" in *Claims"] = &c
			claims[name+" in Claims"] = c
			claims[name+" in a struct"] = accessToken{Claims: c, Scope: "read"}
			claims[name+" in a *struct"] = &accessToken{Claims: c, Scope: "read"}
			claims[name+" in a struct through encoding/json"] = viaJSON{Claims: c}
			claims[name+" in a map"] = map[string]any{"aud": "https://api.example", name: d.date}
			claims[name+" as *NumericDate in a map"] = map[string]*NumericDate{name: &d.date}
		}
		claims["private NumericDate"] = private{Claims: typicalClaims(), AuthTime: d.date}
		claims["private NumericDate in a map"] = map[string]any{"auth_time": d.date}
		for what, c := range claims {
			for how, f := range issue {
				err := f(c)
				if err == nil || !errors.Is(err, ErrMalformedClaims) || !strings.Contains(err.Error(), d.want) || strings.Count(err.Error(), "jwt: ") != 1 {
					t.Errorf("%s: %s, %s: %v", d.name, how, what, err)
				}
			}
		}
	}
	// The dates a Validator accepts are issued: the epoch and
	// MaxNumericDate itself.
	c := typicalClaims()
	c.NotBefore, c.Expiry = NewNumericDate(time.Unix(0, 0)), NewNumericDate(time.Unix(MaxNumericDate, 0))
	for how, f := range issue {
		if err := f(&c); err != nil {
			t.Errorf("%s of the epoch and MaxNumericDate: %v", how, err)
		}
	}
	// Dates and numbers encoding/json cannot write at all are refused
	// as malformed claims too.
	for what, c := range map[string]any{
		"time.Time of year 10000 in a map": map[string]any{"exp": time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
		"NaN in a map":                     map[string]any{"exp": math.NaN()},
		"NaN in a struct": struct {
			Claims
			F float64 `json:"f"`
		}{Claims: typicalClaims(), F: math.NaN()},
	} {
		for how, f := range issue {
			if err := f(c); !errors.Is(err, ErrMalformedClaims) || strings.Count(err.Error(), "jwt: ") != 1 {
				t.Errorf("%s, %s: %v", how, what, err)
			}
		}
	}
	// The zero NumericDate is an absent date.
	if err := issue["Sign"](private{Claims: typicalClaims()}); err != nil {
		t.Errorf("absent private date: %v", err)
	}
}
