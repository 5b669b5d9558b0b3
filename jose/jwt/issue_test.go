package jwt

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

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
	if _, err := NewSigner(jwa.HS256, []byte("short"), nil); err == nil || !strings.HasPrefix(err.Error(), "jwt: ") {
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
	if _, err := NewEncrypter(jwa.Direct, jwa.A128GCM, key[:5], nil); err == nil || !strings.HasPrefix(err.Error(), "jwt: ") {
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
