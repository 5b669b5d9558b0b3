package jwt

// Published vectors, read from the repository's testdata: RFC 7519 §3.1
// (the same token as RFC 7515 Appendix A.1,
// testdata/latchset/non-json/rfc7515_A.1.jwsc and its key rfc7515_A.1.jwk,
// Apache-2.0, latchset/LICENSE); RFC 7519 Appendix A.1 and A.2
// (testdata/rfc7519/a1.jwt and a2.jwt, copied from the RFC's text, IETF
// Trust, Simplified BSD, rfc7519/LICENSE), decrypted with the RFC 7516 A.2
// key (testdata/joserfc/RFC7516-A.2.3.json, BSD-3-Clause, joserfc/LICENSE)
// and verified with the RFC 7515 A.2 key (latchset/rfc7515_A.2.jwk); and
// RFC 7520 §6 (testdata/cookbook/6.nesting_signatures_and_encryption.json,
// Unlicense, cookbook/LICENSE).

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
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

// TestRFC7519AppendixA is the issuing side of RFC 7519 Appendix A.1 and
// A.2 (whose published tokens TestRFC7519AppendixA1 and
// TestRFC7519AppendixA2 validate): the Encrypters make tokens of the same
// construction (RSA1_5 is randomized, so not the same bytes) from the
// §3.1 claims with the RFCs' keys, and they validate.
func TestRFC7519AppendixA(t *testing.T) {
	encKey := readKey(t, "joserfc", "RFC7516-A.2.3.json")
	sigKey := readKey(t, "latchset", "rfc7515_A.2.jwk")
	claims := json.RawMessage(rfc7519Claims)
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

// rfc7519Claims is the JWT Claims Set of RFC 7519 §3.1 as its octets are
// given there (a CRLF and one space between members): the plaintext of
// Appendix A.1 and the payload of the inner JWS of Appendix A.2.
const rfc7519Claims = "{\"iss\":\"joe\",\r\n \"exp\":1300819380,\r\n \"http://example.com/is_root\":true}"

// rfc7516A2Decrypter decrypts with the RFC 7516 Appendix A.2 RSA key, the
// recipient of both RFC 7519 Appendix A tokens, allowing exactly the
// algorithms given.
func rfc7516A2Decrypter(t *testing.T, algs []jwa.KeyAlgorithm, encs []jwa.ContentEncryption) *jwe.Decrypter {
	t.Helper()
	d, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms: algs, ContentEncryptions: encs, Key: readKey(t, "joserfc", "RFC7516-A.2.3.json"),
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// tamperSegment returns a copy of the compact token tok with one
// base64url character of segment seg changed (the middle one, never the
// last, so that the segment still decodes, to other bytes).
func tamperSegment(t *testing.T, tok []byte, seg int) []byte {
	t.Helper()
	parts := bytes.Split(bytes.Clone(tok), []byte("."))
	if seg >= len(parts) || len(parts[seg]) < 2 {
		t.Fatalf("token has no segment %d of two characters or more", seg)
	}
	p := parts[seg]
	i := len(p) / 2
	if p[i] == 'A' {
		p[i] = 'B'
	} else {
		p[i] = 'A'
	}
	return bytes.Join(parts, []byte("."))
}

// withHeader returns tok with its first segment replaced by the base64url
// encoding of header.
func withHeader(tok []byte, header string) []byte {
	_, rest, _ := bytes.Cut(tok, []byte("."))
	return []byte(base64.RawURLEncoding.EncodeToString([]byte(header)) + "." + string(rest))
}

// assertTamperedRefused checks that tok, with one character changed in
// each of its five JWE segments in turn, and with its protected header
// re-encoded as sameHeader (the same members in another order), is
// refused by v, never with a ClaimError (claims are not read before the
// token authenticates): the changed header no longer parses (its middle
// character, changed, puts a control character in a string:
// jose.ErrMalformed); every other change, and the re-encoded header, is
// the one opaque jose.ErrDecryptionFailed.
func assertTamperedRefused(t *testing.T, v *Validator, tok []byte, sameHeader string) {
	t.Helper()
	names := []string{"protected header", "encrypted key", "initialization vector", "ciphertext", "authentication tag"}
	for seg, name := range names {
		got, err := v.Validate(tamperSegment(t, tok, seg), nil)
		var ce *ClaimError
		switch {
		case err == nil:
			t.Errorf("%s tampered: accepted, claims %+v", name, got.Claims)
		case errors.As(err, &ce):
			t.Errorf("%s tampered: claims were read: %v", name, err)
		case seg == 0 && !errors.Is(err, jose.ErrMalformed):
			t.Errorf("%s tampered: %v, want %v", name, err, jose.ErrMalformed)
		case seg > 0 && !errors.Is(err, jose.ErrDecryptionFailed):
			t.Errorf("%s tampered: %v, want %v", name, err, jose.ErrDecryptionFailed)
		}
	}
	// The header is authenticated as the octets sent (RFC 7516 §5.1 step
	// 14), not as the JSON they mean.
	if _, err := v.Validate(withHeader(tok, sameHeader), nil); !errors.Is(err, jose.ErrDecryptionFailed) {
		t.Errorf("header re-encoded as %s: %v, want %v", sameHeader, err, jose.ErrDecryptionFailed)
	}
}

// TestRFC7519AppendixA1 decrypts the encrypted JWT of RFC 7519 Appendix
// A.1, as the RFC prints it: the §3.1 claims encrypted with RSA1_5 and
// A128CBC-HS256 to the RFC 7516 A.2 key, validated by a Validator with a
// Decrypter only.
func TestRFC7519AppendixA1(t *testing.T) {
	tok := vectortest.ReadFile(t, "rfc7519", "a1.jwt")
	// RSA1_5 is legacy (RFC 8725 §3.2): a Decrypter takes it only when
	// its allow-list names it.
	dec := rfc7516A2Decrypter(t, []jwa.KeyAlgorithm{jwa.RSA1_5}, []jwa.ContentEncryption{jwa.A128CBCHS256})
	at := func(now time.Time) *Validator {
		return mustValidator(t, ValidatorOptions{Decrypter: dec, AnyAudience: true, Issuers: []string{"joe"}, Now: func() time.Time { return now }})
	}
	var private map[string]any
	got, err := at(rfc7519Exp.Add(-time.Second)).Validate(tok, &private)
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Payload) != rfc7519Claims {
		t.Errorf("plaintext %q, want the §3.1 claims %q", got.Payload, rfc7519Claims)
	}
	if got.Claims.Issuer != "joe" || got.Claims.Expiry.IsZero() || got.Claims.Expiry.Unix() != 1300819380 ||
		private["http://example.com/is_root"] != true || len(private) != 3 {
		t.Errorf("claims %+v, private %v", got.Claims, private)
	}
	h := got.Header
	if h.Algorithm != "RSA1_5" || h.Encryption != "A128CBC-HS256" || h.Type != "" || h.ContentType != "" || got.Outer != nil {
		t.Errorf("header %+v outer %+v", h, got.Outer)
	}
	if names := h.Names(); len(names) != 2 {
		t.Errorf("header members %v, want alg and enc", names)
	}

	// At its exp (2011-03-22T18:43:00Z) it has expired: a claims error,
	// after a successful decryption.
	var ce *ClaimError
	if _, err := at(rfc7519Exp).Validate(tok, nil); !errors.As(err, &ce) || ce.Claim != "exp" || !errors.Is(err, ErrExpired) {
		t.Errorf("at exp: %v", err)
	}

	// Without RSA1_5, or without A128CBC-HS256, in the allow-lists, the
	// same key does not decrypt it.
	for _, d := range []*jwe.Decrypter{
		rfc7516A2Decrypter(t, []jwa.KeyAlgorithm{jwa.RSAOAEP, jwa.RSAOAEP256}, []jwa.ContentEncryption{jwa.A128CBCHS256}),
		rfc7516A2Decrypter(t, []jwa.KeyAlgorithm{jwa.RSA1_5}, []jwa.ContentEncryption{jwa.A256GCM, jwa.A256CBCHS512}),
	} {
		v := mustValidator(t, ValidatorOptions{Decrypter: d, AnyAudience: true, Now: func() time.Time { return rfc7519Exp.Add(-time.Second) }})
		if _, err := v.Validate(tok, nil); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
			t.Errorf("algorithms not allowed: %v", err)
		}
	}
	// Another RSA key: the one opaque decryption error (RSA1_5 goes on
	// with a random CEK, RFC 7516 §11.5, and the tag does not match).
	other := mustDecrypter(t, jwa.RSA1_5, jwa.A128CBCHS256, vectortest.RSAKey(t, 2048))
	if _, err := mustValidator(t, ValidatorOptions{Decrypter: other, AnyAudience: true}).Validate(tok, nil); !errors.Is(err, jose.ErrDecryptionFailed) {
		t.Errorf("another key: %v", err)
	}
	// A JWE is not a JWS: a Verifier-only Validator refuses it.
	ver := mustVerifier(t, jwa.RS256, readKey(t, "latchset", "rfc7515_A.2.jwk").Public())
	if _, err := mustValidator(t, ValidatorOptions{Verifier: ver, AnyAudience: true}).Validate(tok, nil); !errors.Is(err, jose.ErrMalformed) {
		t.Errorf("as a JWS: %v", err)
	}

	assertTamperedRefused(t, at(rfc7519Exp.Add(-time.Second)), tok, `{"enc":"A128CBC-HS256","alg":"RSA1_5"}`)
}

// TestRFC7519AppendixA2 validates the nested JWT of RFC 7519 Appendix A.2,
// as the RFC prints it: the RS256 JWT of RFC 7515 Appendix A.2 encrypted
// with RSA1_5 and A128CBC-HS256 to the RFC 7516 A.2 key, "cty": "JWT" in
// the JWE Protected Header, validated by a Validator with a Verifier and a
// Decrypter.
func TestRFC7519AppendixA2(t *testing.T) {
	tok := vectortest.ReadFile(t, "rfc7519", "a2.jwt")
	inner := vectortest.ReadTrimmed(t, "latchset", "non-json", "rfc7515_A.2.jwsc")
	sigPub := readKey(t, "latchset", "rfc7515_A.2.jwk").Public()
	ver := mustVerifier(t, jwa.RS256, sigPub)
	dec := rfc7516A2Decrypter(t, []jwa.KeyAlgorithm{jwa.RSA1_5}, []jwa.ContentEncryption{jwa.A128CBCHS256})
	before := func() time.Time { return rfc7519Exp.Add(-time.Second) }
	v := mustValidator(t, ValidatorOptions{Verifier: ver, Decrypter: dec, AnyAudience: true, Issuers: []string{"joe"}, Now: before})

	// The plaintext is the RFC 7515 A.2 JWS, byte for byte (458 octets,
	// RFC 7519 A.2).
	m, err := dec.DecryptCompact(tok)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(m.Plaintext, inner) || len(inner) != 458 {
		t.Errorf("plaintext (%d octets) %q, want RFC 7515 A.2's JWS (%d octets)", len(m.Plaintext), m.Plaintext, len(inner))
	}

	var private map[string]any
	got, err := v.Validate(tok, &private)
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Payload) != rfc7519Claims || got.Claims.Issuer != "joe" || got.Claims.Expiry.IsZero() ||
		got.Claims.Expiry.Unix() != 1300819380 || private["http://example.com/is_root"] != true {
		t.Errorf("payload %q claims %+v private %v", got.Payload, got.Claims, private)
	}
	o := got.Outer
	if o == nil || o.Algorithm != "RSA1_5" || o.Encryption != "A128CBC-HS256" || o.ContentType != "JWT" || len(o.Names()) != 3 {
		t.Fatalf("outer header %+v", o)
	}
	if h := got.Header; h.Algorithm != "RS256" || len(h.Names()) != 1 {
		t.Errorf("inner header %+v, want alg RS256 only", h)
	}

	// At its exp: expired, once decrypted and verified.
	v2 := mustValidator(t, ValidatorOptions{Verifier: ver, Decrypter: dec, AnyAudience: true, Now: func() time.Time { return rfc7519Exp }})
	if _, err := v2.Validate(tok, nil); !errors.Is(err, ErrExpired) {
		t.Errorf("at exp: %v", err)
	}
	// A Decrypter alone does not take a nested JWT's JWS for claims.
	if _, err := mustValidator(t, ValidatorOptions{Decrypter: dec, AnyAudience: true, Now: before}).Validate(tok, nil); !errors.Is(err, ErrInvalidContentType) {
		t.Errorf("Decrypter only: %v", err)
	}
	// The inner JWS is verified with the Verifier's own allow-list and key.
	for name, w := range map[string]*jws.Verifier{
		"PS256 only":  mustVerifier(t, jwa.PS256, sigPub),
		"another key": mustVerifier(t, jwa.RS256, &vectortest.RSAKey(t, 2048).PublicKey),
	} {
		_, err := mustValidator(t, ValidatorOptions{Verifier: w, Decrypter: dec, AnyAudience: true, Now: before}).Validate(tok, nil)
		if want := map[bool]error{true: jose.ErrAlgorithmNotAllowed, false: jose.ErrVerificationFailed}[name == "PS256 only"]; !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", name, err, want)
		}
	}

	assertTamperedRefused(t, v, tok, `{"enc":"A128CBC-HS256","alg":"RSA1_5","cty":"JWT"}`)

	// The inner JWS with one character of its signature changed, encrypted
	// again to the same key (anyone with the public key can): the JWE
	// decrypts, the signature does not verify. The untampered JWS,
	// encrypted the same way, is accepted, so the refusal is the
	// signature's.
	e, err := jwe.NewEncrypter(jwa.RSA1_5, jwa.A128CBCHS256, readKey(t, "joserfc", "RFC7516-A.2.3.json").Public(), &jwe.EncrypterOptions{ContentType: TypeJWT})
	if err != nil {
		t.Fatal(err)
	}
	for _, tampered := range []bool{false, true} {
		pt := inner
		if tampered {
			pt = tamperSegment(t, inner, 2)
		}
		reTok, err := e.Compact(pt)
		if err != nil {
			t.Fatal(err)
		}
		_, err = v.Validate(reTok, nil)
		if tampered && !errors.Is(err, jose.ErrVerificationFailed) || !tampered && err != nil {
			t.Errorf("inner JWS re-encrypted, signature tampered %v: %v", tampered, err)
		}
	}
}
