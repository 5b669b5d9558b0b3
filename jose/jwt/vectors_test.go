package jwt

// Published vectors: RFC 7519 §3.1 (the same token as RFC 7515 Appendix
// A.1, testdata/latchset/non-json/rfc7515_A.1.jwsc and its key
// rfc7515_A.1.jwk, Apache-2.0, latchset/LICENSE) and RFC 7520 §6
// (testdata/cookbook/6.nesting_signatures_and_encryption.json, Unlicense,
// cookbook/LICENSE), read from the repository's testdata. The tokens of RFC
// 7519 Appendix A.1 and A.2 are not among the shared vectors: their
// constructions (an RSA1_5/A128CBC-HS256 encrypted JWT with the RFC 7516
// A.2 key, and the RFC 7515 A.2 RS256 JWT nested in it) are round-tripped
// here with the RFCs' keys instead.

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

func readKey(t *testing.T, elem ...string) *jose.JWK {
	t.Helper()
	k, err := jose.ParseKey(vectortest.ReadTrimmed(t, elem...))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// rfc7519Exp is the "exp" of the RFC 7519 §3.1 and RFC 7520 §6 claims:
// 2011-03-22T18:43:00Z.
var rfc7519Exp = time.Unix(1300819380, 0)

// TestRFC7519Section3_1 validates the example JWT of RFC 7519 §3.1: its
// header and claims have CRLF and spaces inside, its typ is "JWT" and its
// private claim a URI name.
func TestRFC7519Section3_1(t *testing.T) {
	tok := vectortest.ReadTrimmed(t, "latchset", "non-json", "rfc7515_A.1.jwsc")
	key := readKey(t, "latchset", "rfc7515_A.1.jwk")
	ver, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: key})
	if err != nil {
		t.Fatal(err)
	}
	at := func(now time.Time) *Validator {
		return mustValidator(t, ValidatorOptions{Verifier: ver, AnyAudience: true, Issuers: []string{"joe"}, Now: func() time.Time { return now }})
	}
	var private map[string]any
	got, err := at(rfc7519Exp.Add(-time.Second)).Validate(tok, &private)
	if err != nil {
		t.Fatal(err)
	}
	if got.Claims.Issuer != "joe" || !got.Claims.Expiry.Time().Equal(rfc7519Exp) || got.Header.Type != "JWT" ||
		private["http://example.com/is_root"] != true {
		t.Fatalf("claims %+v header %+v private %v", got.Claims, got.Header, private)
	}
	// At its exp the token has expired; the error says so, not "forged".
	_, err = at(rfc7519Exp).Validate(tok, nil)
	if !errors.Is(err, ErrExpired) || errors.Is(err, jose.ErrVerificationFailed) {
		t.Fatalf("at exp: %v", err)
	}
	// Another issuer expected.
	v := mustValidator(t, ValidatorOptions{Verifier: ver, AnyAudience: true, Issuers: []string{"jane"}, Now: func() time.Time { return rfc7519Exp.Add(-time.Hour) }})
	if _, err := v.Validate(tok, nil); !errors.Is(err, ErrInvalidIssuer) {
		t.Fatalf("issuer: %v", err)
	}
}

// TestRFC7520Section6 validates the nested JWT of RFC 7520 §6: a PS256 JWS
// ("typ": "JWT") encrypted with RSA-OAEP and A128GCM ("cty": "JWT").
func TestRFC7520Section6(t *testing.T) {
	var vec struct {
		Sign struct {
			Input struct {
				Payload string          `json:"payload"`
				Key     json.RawMessage `json:"key"`
			} `json:"input"`
		} `json:"sign"`
		Encrypt struct {
			Input struct {
				Key json.RawMessage `json:"key"`
			} `json:"input"`
			Output struct {
				Compact  string          `json:"compact"`
				JSONFlat json.RawMessage `json:"json_flat"`
			} `json:"output"`
		} `json:"encrypt"`
	}
	if err := json.Unmarshal(vectortest.ReadFile(t, "cookbook", "6.nesting_signatures_and_encryption.json"), &vec); err != nil {
		t.Fatal(err)
	}
	sigKey, err := jose.ParseKey(vec.Sign.Input.Key)
	if err != nil {
		t.Fatal(err)
	}
	encKey, err := jose.ParseKey(vec.Encrypt.Input.Key)
	if err != nil {
		t.Fatal(err)
	}
	pub := sigKey.Public()
	ver, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.PS256}, Keys: &jose.Set{Keys: []*jose.JWK{pub}}})
	if err != nil {
		t.Fatal(err)
	}
	dec := mustDecrypter(t, jwa.RSAOAEP, jwa.A128GCM, encKey)
	v := mustValidator(t, ValidatorOptions{
		Verifier: ver, Decrypter: dec, AnyAudience: true, Issuers: []string{"hobbiton.example"},
		Now: func() time.Time { return rfc7519Exp.Add(-time.Minute) },
	})
	var private map[string]any
	got, err := v.Validate([]byte(vec.Encrypt.Output.Compact), &private)
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Payload) != vec.Sign.Input.Payload || got.Claims.Issuer != "hobbiton.example" ||
		got.Outer.ContentType != "JWT" || got.Header.Type != "JWT" || got.Header.Algorithm != "PS256" || private["http://example.com/is_root"] != true {
		t.Fatalf("payload %s claims %+v outer %+v header %+v", got.Payload, got.Claims, got.Outer, got.Header)
	}
	// The same token validated as a plain JWS (Verifier only) or a plain
	// JWE (Decrypter only) is refused: it is neither.
	if _, err := mustValidator(t, ValidatorOptions{Verifier: ver, AnyAudience: true}).Validate([]byte(vec.Encrypt.Output.Compact), nil); !errors.Is(err, jose.ErrMalformed) {
		t.Fatalf("as a JWS: %v", err)
	}
	if _, err := mustValidator(t, ValidatorOptions{Decrypter: dec, AnyAudience: true}).Validate([]byte(vec.Encrypt.Output.Compact), nil); !errors.Is(err, ErrInvalidContentType) {
		t.Fatalf("as an encrypted JWT: %v", err)
	}
	// JWTs are compact (RFC 7519 §1): the flattened JSON output is refused.
	if _, err := v.Validate(vec.Encrypt.Output.JSONFlat, nil); !errors.Is(err, jose.ErrMalformed) {
		t.Fatalf("flattened: %v", err)
	}
	// After its exp: expired, with the claim named.
	v2 := mustValidator(t, ValidatorOptions{Verifier: ver, Decrypter: dec, AnyAudience: true, Now: func() time.Time { return rfc7519Exp }})
	var ce *ClaimError
	if _, err := v2.Validate([]byte(vec.Encrypt.Output.Compact), nil); !errors.As(err, &ce) || ce.Claim != "exp" || !errors.Is(err, ErrExpired) {
		t.Fatalf("at exp: %v", err)
	}
}

// TestRFC7519AppendixA round-trips the constructions of RFC 7519 Appendix
// A.1 (an encrypted JWT, RSA1_5 and A128CBC-HS256, with the RFC 7516 A.2
// key) and A.2 (the RFC 7515 A.2 RS256 JWT nested in it, "cty": "JWT"),
// with the RFC 7519 §3.1 claims.
func TestRFC7519AppendixA(t *testing.T) {
	encKey := readKey(t, "joserfc", "RFC7516-A.2.3.json")
	sigKey := readKey(t, "latchset", "rfc7515_A.2.jwk")
	claims := json.RawMessage(`{"iss":"joe",` + "\r\n" + ` "exp":1300819380,` + "\r\n" + ` "http://example.com/is_root":true}`)
	encPub := encKey.Public()
	sigPub := sigKey.Public()
	dec := mustDecrypter(t, jwa.RSA1_5, jwa.A128CBCHS256, encKey)
	now := func() time.Time { return rfc7519Exp.Add(-time.Second) }

	// A.1: encrypted.
	e, err := NewEncrypter(jwa.RSA1_5, jwa.A128CBCHS256, encPub, nil)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := e.Encrypt(claims)
	if err != nil {
		t.Fatal(err)
	}
	got, err := mustValidator(t, ValidatorOptions{Decrypter: dec, AnyAudience: true, Issuers: []string{"joe"}, Now: now}).Validate(tok, nil)
	if err != nil || string(got.Payload) != string(claims) || got.Header.Algorithm != "RSA1_5" || got.Header.Encryption != "A128CBC-HS256" {
		t.Fatalf("A.1: %v %+v", err, got)
	}

	// A.2: nested.
	s := mustSigner(t, jwa.RS256, sigKey, nil)
	ne, err := NewNestedEncrypter(s, jwa.RSA1_5, jwa.A128CBCHS256, encPub, nil)
	if err != nil {
		t.Fatal(err)
	}
	tok, err = ne.Encrypt(claims)
	if err != nil {
		t.Fatal(err)
	}
	ver := mustVerifier(t, jwa.RS256, sigPub)
	got, err = mustValidator(t, ValidatorOptions{Verifier: ver, Decrypter: dec, AnyAudience: true, Issuers: []string{"joe"}, Now: now}).Validate(tok, nil)
	if err != nil || got.Outer.ContentType != "JWT" || got.Outer.Algorithm != "RSA1_5" || got.Header.Algorithm != "RS256" || got.Claims.Issuer != "joe" {
		t.Fatalf("A.2: %v %+v", err, got)
	}
	// The JWE header of A.2 carries exactly alg, enc and cty.
	m, err := dec.DecryptCompact(tok)
	if err != nil {
		t.Fatal(err)
	}
	if names := m.Protected.Names(); len(names) != 3 {
		t.Fatalf("A.2 JWE header members %v", names)
	}
}
