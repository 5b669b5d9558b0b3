package jose

import (
	"bytes"
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose/internal/vectortest"
)

// jwkTRead returns the contents of a test data file.
func jwkTRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// jwkTMembers returns the member names of a JSON object.
func jwkTMembers(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("invalid JSON object %s: %v", data, err)
	}
	return m
}

// jwkTEqualKeys reports whether two Go keys are equal.
func jwkTEqualKeys(a, b any) bool {
	if ab, ok := a.([]byte); ok {
		bb, ok := b.([]byte)
		return ok && bytes.Equal(ab, bb)
	}
	e, ok := a.(interface{ Equal(crypto.PublicKey) bool })
	if ok {
		return e.Equal(b)
	}
	pe, ok := a.(interface{ Equal(crypto.PrivateKey) bool })
	return ok && pe.Equal(b)
}

// The RFC 7517 Appendix A.2 RSA private key and A.2 EC private key, the
// base of the refusal tests.
var (
	jwkTRSAPriv = `{"kty":"RSA","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw","e":"AQAB","d":"X4cTteJY_gn4FYPsXB8rdXix5vwsg1FLN5E3EaG6RJoVH-HLLKD9M7dx5oo7GURknchnrRweUkC7hT5fJLM0WbFAKNLWY2vv7B6NqXSzUvxT0_YSfqijwp3RTzlBaCxWp4doFk5N2o8Gy_nHNKroADIkJ46pRUohsXywbReAdYaMwFs9tv8d_cPVY3i07a3t8MN6TNwm0dSawm9v47UiCl3Sk5ZiG7xojPLu4sbg1U2jx4IBTNBznbJSzFHK66jT8bgkuqsk0GjskDJk19Z4qwjwbsnn4j2WBii3RL-Us2lGVkY8fkFzme1z0HbIkfz0Y6mqnOYtqc0X4jfcKoAC8Q","p":"83i-7IvMGXoMXCskv73TKr8637FiO7Z27zv8oj6pbWUQyLPQBQxtPVnwD20R-60eTDmD2ujnMt5PoqMrm8RfmNhVWDtjjMmCMjOpSXicFHj7XOuVIYQyqVWlWEh6dN36GVZYk93N8Bc9vY41xy8B9RzzOGVQzXvNEvn7O0nVbfs","q":"3dfOR9cuYq-0S-mkFLzgItgMEfFzB2q3hWehMuG0oCuqnb3vobLyumqjVZQO1dIrdwgTnCdpYzBcOfW5r370AFXjiWft_NGEiovonizhKpo9VVS78TzFgxkIdrecRezsZ-1kYd_s1qDbxtkDEgfAITAG9LUnADun4vIcb6yelxk","dp":"G4sPXkc6Ya9y8oJW9_ILj4xuppu0lzi_H7VTkS8xj5SdX3coE0oimYwxIi2emTAue0UOa5dpgFGyBJ4c8tQ2VF402XRugKDTP8akYhFo5tAA77Qe_NmtuYZc3C3m3I24G2GvR5sSDxUyAN2zq8Lfn9EUms6rY3Ob8YeiKkTiBj0","dq":"s9lAH9fggBsoFR8Oac2R_E2gw282rT2kGOAhvIllETE1efrA6huUUvMfBcMpn8lqeW6vzznYY5SSQF7pMdC_agI3nG8Ibp1BUb0JUiraRNqUfLhcQb_d9GF4Dh7e74WbRsobRonujTYN1xCaP6TO61jvWrX-L18txXw494Q_cgk","qi":"GyM_p6JrXySiz1toFgKbWV-JdI3jQ4ypu9rbMWx3rQJBfmt0FoYzgUIZEVFEcOqwemRN81zoDAaa-Bk0KWNGDjJHZDdDmFhW3AN7lI-puxk_mHZGJ11rxyR8O55XLSe3SPmRfKwZI6yU24ZxvQKFYItdldUKGzO6Ia6zTKhAVRU","alg":"RS256","kid":"2011-04-29"}`
	jwkTECPriv  = `{"kty":"EC","crv":"P-256","x":"MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4","y":"4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM","d":"870MB6gfuTJ4HtUnUvYMyJpr5eUZNP4Bk43bVdj3eAE","use":"enc","kid":"1"}`
)

// RFC 8037 Appendix A.1-A.3: an Ed25519 key and its thumbprint.
const (
	jwkTEd25519Priv       = `{"kty":"OKP","crv":"Ed25519","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}`
	jwkTEd25519Pub        = `{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}`
	jwkTEd25519Seed       = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
	jwkTEd25519PubHex     = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
	jwkTEd25519Thumbprint = "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"
)

// RFC 8037 Appendix A.6 (RFC 7748 §6.1): the X25519 ephemeral key, whose
// secret scalar is given in hex.
const (
	jwkTX25519Pub    = `{"kty":"OKP","crv":"X25519","x":"hSDwCYkwp1R0i33ctD73Wg2_Og0mOBr066SpjqqbTmo"}`
	jwkTX25519Secret = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"
)

// jwkTMutate returns base with fn applied to its members.
func jwkTMutate(t *testing.T, base string, fn func(m map[string]any)) string {
	t.Helper()
	m := jwkTMembers(t, []byte(base))
	fn(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestParseKeyVectors parses the keys of RFC 7515 Appendix A, RFC 7517
// Appendix B, RFC 7520 §3 (cookbook) and the latchset copies of RFC 7520's
// keys, and checks that each marshals back to the same JSON.
func TestParseKeyVectors(t *testing.T) {
	tests := []struct {
		file    string
		kty     string
		crv     string
		kid     string
		private bool
		certs   int
	}{
		{"../testdata/cookbook/jwk/3_1.ec_public_key.json", "EC", "P-521", "bilbo.baggins@hobbiton.example", false, 0},
		{"../testdata/cookbook/jwk/3_2.ec_private_key.json", "EC", "P-521", "bilbo.baggins@hobbiton.example", true, 0},
		{"../testdata/cookbook/jwk/3_3.rsa_public_key.json", "RSA", "", "bilbo.baggins@hobbiton.example", false, 0},
		{"../testdata/cookbook/jwk/3_4.rsa_private_key.json", "RSA", "", "bilbo.baggins@hobbiton.example", true, 0},
		{"../testdata/cookbook/jwk/3_5.symmetric_key_mac_computation.json", "oct", "", "018c0ae5-4d9b-471b-bfd6-eef314bc7037", true, 0},
		{"../testdata/cookbook/jwk/3_6.symmetric_key_encryption.json", "oct", "", "1e571774-2e08-40da-8308-e8d68773842d", true, 0},
		{"../testdata/latchset/rfc7515_A.1.jwk", "oct", "", "", true, 0},
		{"../testdata/latchset/rfc7515_A.2.jwk", "RSA", "", "", true, 0},
		{"../testdata/latchset/rfc7515_A.3.jwk", "EC", "P-256", "", true, 0},
		{"../testdata/latchset/rfc7515_A.4.jwk", "EC", "P-521", "", true, 0},
		{"../testdata/latchset/rfc7517_B.jwk", "RSA", "", "1b94c", false, 1},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			data := jwkTRead(t, tt.file)
			k, err := ParseKey(data)
			if err != nil {
				t.Fatal(err)
			}
			if k.KeyType() != tt.kty || k.Curve() != tt.crv || k.KeyID != tt.kid || k.IsPrivate() != tt.private || len(k.Certificates) != tt.certs {
				t.Errorf("got kty %q crv %q kid %q private %v certs %d", k.KeyType(), k.Curve(), k.KeyID, k.IsPrivate(), len(k.Certificates))
			}
			if !k.Supported() || k.Err() != nil {
				t.Errorf("Supported %v, Err %v", k.Supported(), k.Err())
			}
			out, err := k.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if !vectortest.SameJSON(t, data, out) {
				t.Errorf("round trip differs:\n in  %s\n out %s", data, out)
			}
		})
	}
	// Every latchset JWK (RFC 7515, RFC 7517, RFC 7520) round-trips.
	files, _ := filepath.Glob("../testdata/latchset/*.jwk")
	if len(files) < 40 {
		t.Fatalf("found %d latchset keys", len(files))
	}
	for _, f := range files {
		data := jwkTRead(t, f)
		k, err := ParseKey(data)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		out, err := k.MarshalJSON()
		if err != nil || !vectortest.SameJSON(t, data, out) {
			t.Errorf("%s: round trip: %v\n in  %s\n out %s", f, err, data, out)
		}
	}
}

// TestRFC7517AppendixB checks the x5c example: the leaf certificate's key
// is the JWK's.
func TestRFC7517AppendixB(t *testing.T) {
	k, err := ParseKey(jwkTRead(t, "../testdata/latchset/rfc7517_B.jwk"))
	if err != nil {
		t.Fatal(err)
	}
	if !jwkTEqualKeys(k.Key, k.Certificates[0].PublicKey) {
		t.Error("leaf key differs")
	}
	if got := k.Certificates[0].Subject.CommonName; got != "Brian Campbell" {
		t.Errorf("leaf subject %q", got)
	}
	// x5t and x5t#S256 of the leaf are accepted, wrong ones refused.
	sum1, sum256 := jwkTCertSums(k.Certificates[0].Raw)
	m := jwkTMembers(t, jwkTRead(t, "../testdata/latchset/rfc7517_B.jwk"))
	m["x5t"], m["x5t#S256"] = Base64URLEncode(sum1), Base64URLEncode(sum256)
	good, _ := json.Marshal(m)
	k2, err := ParseKey(good)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(k2.CertificateThumbprintSHA1, sum1) || !bytes.Equal(k2.CertificateThumbprintSHA256, sum256) {
		t.Error("thumbprints not kept")
	}
	out, _ := k2.MarshalJSON()
	if !vectortest.SameJSON(t, good, out) {
		t.Errorf("round trip differs: %s", out)
	}
	for _, name := range []string{"x5t", "x5t#S256"} {
		m2 := jwkTClone(m)
		b := slices.Clone(sum256)
		if name == "x5t" {
			b = slices.Clone(sum1)
		}
		b[0] ^= 1
		m2[name] = Base64URLEncode(b)
		bad, _ := json.Marshal(m2)
		if _, err := ParseKey(bad); !errors.Is(err, ErrInvalidKey) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s mismatch: %v", name, err)
		}
	}
}

func jwkTClone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func jwkTCertSums(der []byte) (s1, s256 []byte) {
	h1 := crypto.SHA1.New()
	h1.Write(der)
	s := sha256.Sum256(der)
	return h1.Sum(nil), s[:]
}

// TestRFC8037 checks RFC 8037 Appendix A.1-A.3 and the X25519 key of A.6.
func TestRFC8037(t *testing.T) {
	priv, err := ParseKey([]byte(jwkTEd25519Priv))
	if err != nil {
		t.Fatal(err)
	}
	seed, _ := hex.DecodeString(jwkTEd25519Seed)
	pubBytes, _ := hex.DecodeString(jwkTEd25519PubHex)
	key, ok := priv.Key.(ed25519.PrivateKey)
	if !ok || !bytes.Equal(key.Seed(), seed) || !bytes.Equal(key[32:], pubBytes) {
		t.Fatalf("A.1: got %T %x", priv.Key, priv.Key)
	}
	pub, err := ParseKey([]byte(jwkTEd25519Pub))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pub.Key.(ed25519.PublicKey), pubBytes) {
		t.Error("A.2: public key differs")
	}
	if out, _ := priv.Public().MarshalJSON(); !vectortest.SameJSON(t, out, []byte(jwkTEd25519Pub)) {
		t.Errorf("A.2: Public() = %s", out)
	}
	for _, k := range []*JWK{priv, pub} {
		tp, err := k.Thumbprint(crypto.SHA256)
		if err != nil || Base64URLEncode(tp) != jwkTEd25519Thumbprint {
			t.Errorf("A.3: thumbprint %s, %v", Base64URLEncode(tp), err)
		}
	}
	in, _ := pub.thumbprintInput()
	if want := `{"crv":"Ed25519","kty":"OKP","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}`; string(in) != want {
		t.Errorf("A.3: thumbprint input %s", in)
	}

	secret, _ := hex.DecodeString(jwkTX25519Secret)
	m := jwkTMembers(t, []byte(jwkTX25519Pub))
	m["d"] = Base64URLEncode(secret)
	data, _ := json.Marshal(m)
	x, err := ParseKey(data)
	if err != nil {
		t.Fatal(err)
	}
	xk, ok := x.Key.(*ecdh.PrivateKey)
	if !ok || !bytes.Equal(xk.Bytes(), secret) || x.KeyType() != "OKP" || x.Curve() != "X25519" {
		t.Fatalf("A.6: got %T", x.Key)
	}
	if out, _ := x.Public().MarshalJSON(); !vectortest.SameJSON(t, out, []byte(jwkTX25519Pub)) {
		t.Errorf("A.6: Public() = %s", out)
	}
}

// TestParseKeyRefusals checks every refusal of ParseKey: the error wraps the
// expected sentinel and names the member.
func TestParseKeyRefusals(t *testing.T) {
	ecx := "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4"
	cert := jwkTMembers(t, jwkTRead(t, "../testdata/latchset/rfc7517_B.jwk"))["x5c"]
	ec := func(fn func(m map[string]any)) string { return jwkTMutate(t, jwkTECPriv, fn) }
	rsaKey := func(fn func(m map[string]any)) string { return jwkTMutate(t, jwkTRSAPriv, fn) }
	ed := func(fn func(m map[string]any)) string { return jwkTMutate(t, jwkTEd25519Priv, fn) }
	many := `{"kty":"oct","k":"AAAA"`
	for i := range 70 {
		many += `,"m` + string(rune('a'+i/26)) + string(rune('a'+i%26)) + `":1`
	}
	many += "}"
	tests := []struct {
		name, data string
		err        error
		text       string // in the error message
	}{
		{"not JSON", `{`, ErrMalformed, ""},
		{"array", `[]`, ErrMalformed, ""},
		{"string", `"x"`, ErrMalformed, ""},
		{"trailing data", `{"kty":"oct","k":"AAAA"} {}`, ErrMalformed, ""},
		{"duplicate kty", `{"kty":"oct","kty":"oct","k":"AAAA"}`, ErrMalformed, `"kty"`},
		{"duplicate escaped", `{"kty":"oct","k":"AAAA","\u006b":"AAAA"}`, ErrMalformed, `"k"`},
		{"too many members", many, ErrLimitExceeded, ""},
		{"too deep", `{"kty":"oct","k":"AAAA","x":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`, ErrLimitExceeded, ""},
		{"missing kty", `{"k":"AAAA"}`, ErrMalformed, `"kty"`},
		{"kty number", `{"kty":1,"k":"AAAA"}`, ErrMalformed, `"kty"`},
		{"kty null", `{"kty":null,"k":"AAAA"}`, ErrMalformed, `"kty"`},
		{"unknown kty", `{"kty":"XYZ","k":"AAAA"}`, ErrUnsupportedAlgorithm, `"XYZ"`},
		{"empty kty", `{"kty":"","crv":"X25519","x":"` + ecx + `"}`, ErrUnsupportedAlgorithm, `""`},
		{"kid number", `{"kty":"oct","k":"AAAA","kid":1}`, ErrMalformed, `"kid"`},
		{"use array", `{"kty":"oct","k":"AAAA","use":["sig"]}`, ErrMalformed, `"use"`},
		{"alg null", `{"kty":"oct","k":"AAAA","alg":null}`, ErrMalformed, `"alg"`},
		{"key_ops string", `{"kty":"oct","k":"AAAA","key_ops":"sign"}`, ErrMalformed, `"key_ops"`},
		{"key_ops number", `{"kty":"oct","k":"AAAA","key_ops":["sign",1]}`, ErrMalformed, `"key_ops"`},
		{"key_ops duplicate", `{"kty":"oct","k":"AAAA","key_ops":["sign","verify","sign"]}`, ErrMalformed, `"key_ops"`},
		{"key_ops too long", `{"kty":"oct","k":"AAAA","key_ops":[` + strings.Repeat(`"a",`, MaxKeyOps) + `"b"]}`, ErrLimitExceeded, `"key_ops"`},
		{"k number", `{"kty":"oct","k":12}`, ErrMalformed, `"k"`},
		{"k padded", `{"kty":"oct","k":"AAA="}`, ErrMalformed, `"k"`},
		{"k standard alphabet", `{"kty":"oct","k":"AA+/"}`, ErrMalformed, `"k"`},
		{"k whitespace", `{"kty":"oct","k":"AA AA"}`, ErrMalformed, `"k"`},
		{"k escaped newline", `{"kty":"oct","k":"AAAA\nAAAA"}`, ErrMalformed, `"k"`},
		{"k non-canonical", `{"kty":"oct","k":"AAB"}`, ErrMalformed, `"k"`},
		{"k empty", `{"kty":"oct","k":""}`, ErrInvalidKey, `"k"`},
		{"k missing", `{"kty":"oct"}`, ErrMalformed, `"k"`},
		{"x5t wrong length", `{"kty":"oct","k":"AAAA","x5t":"AAAA"}`, ErrMalformed, `"x5t"`},
		{"x5t#S256 wrong length", `{"kty":"oct","k":"AAAA","x5t#S256":"AAAA"}`, ErrMalformed, `"x5t#S256"`},
		{"x5c not array", `{"kty":"oct","k":"AAAA","x5c":"MIIB"}`, ErrMalformed, `"x5c"`},
		{"x5c empty", `{"kty":"oct","k":"AAAA","x5c":[]}`, ErrMalformed, `"x5c"`},
		{"x5c bad base64", `{"kty":"oct","k":"AAAA","x5c":["MII_"]}`, ErrMalformed, `"x5c"`},
		{"x5c not a certificate", `{"kty":"oct","k":"AAAA","x5c":["AAAA"]}`, ErrMalformed, `"x5c"`},
		{"x5c too long", `{"kty":"oct","k":"AAAA","x5c":[` + strings.Repeat(`"AAAA",`, MaxCertificates) + `"AAAA"]}`, ErrLimitExceeded, `"x5c"`},
		{"x5c on a symmetric key", jwkTMutate(t, `{"kty":"oct","k":"AAAA"}`, func(m map[string]any) { m["x5c"] = cert }), ErrInvalidKey, `"x5c"`},
		{"x5c of another key", rsaKey(func(m map[string]any) { m["x5c"] = cert }), ErrInvalidKey, `"x5c"`},

		{"EC missing crv", ec(func(m map[string]any) { delete(m, "crv") }), ErrMalformed, `"crv"`},
		{"EC crv number", ec(func(m map[string]any) { m["crv"] = 256 }), ErrMalformed, `"crv"`},
		{"EC unsupported crv", ec(func(m map[string]any) { m["crv"] = "brainpoolP256r1" }), ErrUnsupportedAlgorithm, `"crv"`},
		{"EC P-256 point as secp256k1", ec(func(m map[string]any) { m["crv"] = "secp256k1" }), ErrInvalidKey, `"x"`},
		{"EC wrong crv", ec(func(m map[string]any) { m["crv"] = "P-384" }), ErrMalformed, `"x"`},
		{"EC missing x", ec(func(m map[string]any) { delete(m, "x") }), ErrMalformed, `"x"`},
		{"EC missing y", ec(func(m map[string]any) { delete(m, "y") }), ErrMalformed, `"y"`},
		{"EC x short", ec(func(m map[string]any) { m["x"] = ecx[:42] }), ErrMalformed, `"x"`},
		{"EC x leading zero", ec(func(m map[string]any) { m["x"] = "AA" + ecx }), ErrMalformed, `"x"`},
		{"EC x non-canonical", ec(func(m map[string]any) { m["x"] = ecx[:42] + "5" }), ErrMalformed, `"x"`},
		{"EC y padded", ec(func(m map[string]any) { m["y"] = m["y"].(string) + "=" }), ErrMalformed, `"y"`},
		{"EC d short", ec(func(m map[string]any) { m["d"] = "AAAA" }), ErrMalformed, `"d"`},
		{"EC point off the curve", ec(func(m map[string]any) { m["y"] = ecx }), ErrInvalidKey, `"x" and "y"`},
		{"EC d of another key", ec(func(m map[string]any) { m["d"] = ecx }), ErrInvalidKey, `"d"`},
		{"EC d zero", ec(func(m map[string]any) { m["d"] = Base64URLEncode(make([]byte, 32)) }), ErrInvalidKey, `"d"`},

		{"RSA oth", rsaKey(func(m map[string]any) { m["oth"] = []any{map[string]any{"r": "AQ", "d": "AQ", "t": "AQ"}} }), ErrUnsupportedAlgorithm, `"oth"`},
		{"RSA missing n", rsaKey(func(m map[string]any) { delete(m, "n") }), ErrMalformed, `"n"`},
		{"RSA missing e", rsaKey(func(m map[string]any) { delete(m, "e") }), ErrMalformed, `"e"`},
		{"RSA n leading zero", rsaKey(func(m map[string]any) { m["n"] = "AA" + m["n"].(string) }), ErrMalformed, `"n"`},
		{"RSA n even", rsaKey(func(m map[string]any) { m["n"] = "AQAA" }), ErrInvalidKey, `"n"`},
		{"RSA e leading zero", rsaKey(func(m map[string]any) { m["e"] = "AAEAAQ" }), ErrMalformed, `"e"`},
		{"RSA e one", rsaKey(func(m map[string]any) { m["e"] = "AQ" }), ErrInvalidKey, `"e"`},
		{"RSA e even", rsaKey(func(m map[string]any) { m["e"] = "AQAA" }), ErrInvalidKey, `"e"`},
		{"RSA e too large", rsaKey(func(m map[string]any) { m["e"] = "AQAAAAE" }), ErrInvalidKey, `"e"`},
		{"RSA n too large", rsaKey(func(m map[string]any) { m["n"] = "Q" + strings.Repeat("B", 2799) }), ErrLimitExceeded, `"n"`},
		{"RSA d without primes", rsaKey(func(m map[string]any) {
			for _, n := range []string{"p", "q", "dp", "dq", "qi"} {
				delete(m, n)
			}
		}), ErrUnsupportedAlgorithm, `"p"`},
		{"RSA missing qi", rsaKey(func(m map[string]any) { delete(m, "qi") }), ErrUnsupportedAlgorithm, `"qi"`},
		{"RSA p without d", rsaKey(func(m map[string]any) { delete(m, "d") }), ErrUnsupportedAlgorithm, `"d"`},
		{"RSA d longer than n", rsaKey(func(m map[string]any) { m["d"] = m["n"].(string) + "AAAA" }), ErrInvalidKey, `"d"`},
		{"RSA empty dq", rsaKey(func(m map[string]any) { m["dq"] = "" }), ErrMalformed, `"dq"`},
		{"RSA wrong d", rsaKey(func(m map[string]any) { m["d"] = m["dp"] }), ErrInvalidKey, `"d"`},
		{"RSA wrong p", rsaKey(func(m map[string]any) { m["p"], m["q"] = m["dp"], m["dq"] }), ErrInvalidKey, `"p" and "q"`},
		{"RSA wrong dp", rsaKey(func(m map[string]any) { m["dp"] = m["dq"] }), ErrInvalidKey, `"dp"`},
		{"RSA wrong qi", rsaKey(func(m map[string]any) { m["qi"] = m["dq"] }), ErrInvalidKey, `"qi"`},

		{"OKP missing crv", ed(func(m map[string]any) { delete(m, "crv") }), ErrMalformed, `"crv"`},
		{"OKP Ed448", ed(func(m map[string]any) { m["crv"] = "Ed448" }), ErrUnsupportedAlgorithm, `"Ed448"`},
		{"OKP X448", ed(func(m map[string]any) { m["crv"] = "X448" }), ErrUnsupportedAlgorithm, `"X448"`},
		{"OKP P-256", ed(func(m map[string]any) { m["crv"] = "P-256" }), ErrUnsupportedAlgorithm, `"P-256"`},
		{"OKP missing x", ed(func(m map[string]any) { delete(m, "x") }), ErrMalformed, `"x"`},
		{"OKP x short", ed(func(m map[string]any) { m["x"] = ecx[:40] }), ErrMalformed, `"x"`},
		{"OKP d short", ed(func(m map[string]any) { m["d"] = ecx[:40] }), ErrMalformed, `"d"`},
		{"Ed25519 d of another key", ed(func(m map[string]any) { m["d"] = ecx }), ErrInvalidKey, `"d"`},
		{"X25519 d of another key", jwkTMutate(t, jwkTX25519Pub, func(m map[string]any) { m["d"] = ecx }), ErrInvalidKey, `"d"`},
		{"OKP y is a string", ed(func(m map[string]any) { m["x"] = 5 }), ErrMalformed, `"x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := ParseKey([]byte(tt.data))
			if err == nil {
				t.Fatalf("accepted: %s", tt.data)
			}
			if k != nil {
				t.Error("non-nil key with an error")
			}
			if !errors.Is(err, tt.err) {
				t.Errorf("error %q does not wrap %q", err, tt.err)
			}
			if !strings.Contains(err.Error(), tt.text) || !strings.HasPrefix(err.Error(), "jose: ") {
				t.Errorf("error %q does not name %s", err, tt.text)
			}
			var u JWK
			u.KeyID = "unchanged"
			if err := json.Unmarshal([]byte(tt.data), &u); err == nil || u.KeyID != "unchanged" {
				t.Errorf("UnmarshalJSON: %v, changed %v", err, u.KeyID != "unchanged")
			}
		})
	}
}

// TestUnknownMembers checks that unknown members survive a round trip, in
// order, byte for byte, and that Public drops those named like secrets.
func TestUnknownMembers(t *testing.T) {
	in := `{"kty":"EC","crv":"P-256","x":"MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4","y":"4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM","d":"870MB6gfuTJ4HtUnUvYMyJpr5eUZNP4Bk43bVdj3eAE","ext":true,"x-custom":{"a":[1,2.5e3,"\u00e9"]},"kid":"1","k":"AAAA","x5u":"https://example.com/c","iat":1}`
	k, err := ParseKey([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	out, err := k.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `"ext":true,"x-custom":{"a":[1,2.5e3,"\u00e9"]},"k":"AAAA","x5u":"https://example.com/c","iat":1}`
	if !bytes.HasSuffix(out, []byte(want)) {
		t.Errorf("got %s", out)
	}
	if !vectortest.SameJSON(t, []byte(in), out) {
		t.Errorf("round trip differs: %s", out)
	}
	pub, _ := k.Public().MarshalJSON()
	m := jwkTMembers(t, pub)
	if _, ok := m["k"]; ok {
		t.Errorf("Public kept a secret-named member: %s", pub)
	}
	if _, ok := m["d"]; ok || m["ext"] != true || m["iat"] != 1.0 {
		t.Errorf("Public: %s", pub)
	}
	// The parsed key does not alias the input.
	buf := []byte(in)
	k2, _ := ParseKey(buf)
	for i := range buf {
		buf[i] = ' '
	}
	out2, _ := k2.MarshalJSON()
	if !bytes.Equal(out, out2) {
		t.Errorf("key aliases its input: %s", out2)
	}
}

// jwkTGoKeys returns one Go key of every supported kind, private keys first
// and their public keys after; the RSA key is the fixed 2048-bit test key.
func jwkTGoKeys(t *testing.T) map[string]any {
	t.Helper()
	rk, err := ParseKeyPEM(jwkTRead(t, "../testdata/keys/rsa2048.pem"))
	if err != nil {
		t.Fatal(err)
	}
	rsaKey := rk.Key.(*rsa.PrivateKey)
	keys := map[string]any{"RSA": rsaKey, "RSA public": &rsaKey.PublicKey}
	for _, c := range []elliptic.Curve{elliptic.P256(), elliptic.P384(), elliptic.P521()} {
		k, err := ecdsa.GenerateKey(c, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		keys[c.Params().Name] = k
		keys[c.Params().Name+" public"] = &k.PublicKey
	}
	epub, epriv, _ := ed25519.GenerateKey(rand.Reader)
	keys["Ed25519"], keys["Ed25519 public"] = epriv, epub
	x, _ := ecdh.X25519().GenerateKey(rand.Reader)
	keys["X25519"], keys["X25519 public"] = x, x.PublicKey()
	keys["oct"] = []byte("0123456789abcdef0123456789abcdef")
	return keys
}

// TestGoKeyRoundTrip takes every kind of Go key through NewJWK, JSON and
// PEM and back.
func TestGoKeyRoundTrip(t *testing.T) {
	for name, key := range jwkTGoKeys(t) {
		t.Run(name, func(t *testing.T) {
			k, err := NewJWK(key)
			if err != nil {
				t.Fatal(err)
			}
			private := !strings.HasSuffix(name, "public")
			if k.IsPrivate() != private || !k.Supported() {
				t.Errorf("IsPrivate %v Supported %v", k.IsPrivate(), k.Supported())
			}
			k.KeyID, k.Use, k.Algorithm = "kid-"+name, "sig", "X"
			data, err := json.Marshal(k)
			if err != nil {
				t.Fatal(err)
			}
			var back JWK
			if err := json.Unmarshal(data, &back); err != nil {
				t.Fatalf("%s: %v", data, err)
			}
			if !jwkTEqualKeys(key, back.Key) || back.KeyID != k.KeyID || back.Use != "sig" || back.Algorithm != "X" {
				t.Errorf("JSON round trip: %s", data)
			}
			tp1, err1 := k.Thumbprint(crypto.SHA256)
			tp2, err2 := back.Thumbprint(crypto.SHA256)
			if err1 != nil || err2 != nil || !bytes.Equal(tp1, tp2) {
				t.Errorf("thumbprints %x %x: %v %v", tp1, tp2, err1, err2)
			}
			pub := k.Public()
			if name == "oct" {
				if pub != nil {
					t.Error("Public of a symmetric key")
				}
				if _, err := k.MarshalPEM(); !errors.Is(err, ErrInvalidKey) {
					t.Errorf("MarshalPEM of a symmetric key: %v", err)
				}
				return
			}
			pubJSON, err := pub.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range privateMembers {
				if _, ok := jwkTMembers(t, pubJSON)[m]; ok {
					t.Errorf("public JWK has %q: %s", m, pubJSON)
				}
			}
			if pub.IsPrivate() || pub.KeyID != k.KeyID {
				t.Errorf("Public: private %v kid %q", pub.IsPrivate(), pub.KeyID)
			}
			tp3, _ := pub.Thumbprint(crypto.SHA256)
			if !bytes.Equal(tp1, tp3) {
				t.Error("thumbprint of the public key differs")
			}
			p, err := k.MarshalPEM()
			if err != nil {
				t.Fatal(err)
			}
			fromPEM, err := ParseKeyPEM(p)
			if err != nil {
				t.Fatal(err)
			}
			if !jwkTEqualKeys(key, fromPEM.Key) {
				t.Errorf("PEM round trip differs:\n%s", p)
			}
		})
	}
}

// TestNewJWKConversions checks the ecdh conversions and the refusals of
// NewJWK.
func TestNewJWKConversions(t *testing.T) {
	var ek *ecdsa.PrivateKey
	for _, c := range []elliptic.Curve{elliptic.P256(), elliptic.P384(), elliptic.P521()} {
		ek, _ = ecdsa.GenerateKey(c, rand.Reader)
		eh, _ := ek.ECDH()
		k, err := NewJWK(eh)
		if err != nil || !ek.Equal(k.Key) || k.KeyType() != "EC" || k.Curve() != c.Params().Name {
			t.Errorf("ecdh %s private: %v", c.Params().Name, err)
		}
		k, err = NewJWK(eh.PublicKey())
		if err != nil || !ek.PublicKey.Equal(k.Key) {
			t.Errorf("ecdh %s public: %v", c.Params().Name, err)
		}
	}
	src := []byte("0123456789abcdef")
	k, _ := NewJWK(src)
	src[0] = 'X'
	if k.Key.([]byte)[0] != '0' {
		t.Error("NewJWK does not copy a symmetric key")
	}

	rk, _ := ParseKey([]byte(jwkTRSAPriv))
	rsaKey := rk.Key.(*rsa.PrivateKey)
	multi := *rsaKey
	multi.Primes = append(slices.Clone(multi.Primes), big.NewInt(3))
	badRSA := *rsaKey
	badRSA.D = big.NewInt(12345)
	badE := rsaKey.PublicKey
	badE.E = 4
	badEd := slices.Clone(ed25519.NewKeyFromSeed(make([]byte, 32)))
	badEd[40] ^= 1
	badEC := *ek
	badEC.PublicKey = ecdsa.PublicKey{Curve: elliptic.P384(), X: big.NewInt(1), Y: big.NewInt(1)}
	tests := []struct {
		name string
		key  any
		err  error
	}{
		{"nil", nil, ErrUnsupportedAlgorithm},
		{"string", "secret", ErrUnsupportedAlgorithm},
		{"empty bytes", []byte{}, ErrInvalidKey},
		{"nil *rsa.PublicKey", (*rsa.PublicKey)(nil), ErrUnsupportedAlgorithm},
		{"nil *rsa.PrivateKey", (*rsa.PrivateKey)(nil), ErrUnsupportedAlgorithm},
		{"nil *ecdsa.PrivateKey", (*ecdsa.PrivateKey)(nil), ErrUnsupportedAlgorithm},
		{"nil *ecdsa.PublicKey", (*ecdsa.PublicKey)(nil), ErrUnsupportedAlgorithm},
		{"nil *ecdh.PrivateKey", (*ecdh.PrivateKey)(nil), ErrUnsupportedAlgorithm},
		{"nil *ecdh.PublicKey", (*ecdh.PublicKey)(nil), ErrUnsupportedAlgorithm},
		{"multi-prime RSA", &multi, ErrUnsupportedAlgorithm},
		{"invalid RSA", &badRSA, ErrInvalidKey},
		{"RSA e even", &badE, ErrInvalidKey},
		{"RSA private e even", &rsa.PrivateKey{PublicKey: badE, D: rsaKey.D, Primes: rsaKey.Primes}, ErrInvalidKey},
		{"Ed25519 public short", ed25519.PublicKey(make([]byte, 31)), ErrInvalidKey},
		{"Ed25519 private short", ed25519.PrivateKey(make([]byte, 63)), ErrInvalidKey},
		{"Ed25519 inconsistent", badEd, ErrInvalidKey},
		{"EC off the curve", &badEC.PublicKey, ErrInvalidKey},
		{"EC private mismatch", &badEC, ErrInvalidKey},
		{"P-224", &ecdsa.PublicKey{Curve: elliptic.P224()}, ErrUnsupportedAlgorithm},
		{"P-224 private", &ecdsa.PrivateKey{PublicKey: ecdsa.PublicKey{Curve: elliptic.P224()}}, ErrUnsupportedAlgorithm},
		{"JWK", &JWK{}, ErrInvalidKey},
	}
	for _, tt := range tests {
		if k, err := NewJWK(tt.key); !errors.Is(err, tt.err) || k != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// TestMarshalRefusals checks that hand-built JWKs that cannot be written
// are refused.
func TestMarshalRefusals(t *testing.T) {
	rk, _ := ParseKey([]byte(jwkTRSAPriv))
	rsaKey := rk.Key.(*rsa.PrivateKey)
	multi := *rsaKey
	multi.Primes = append(slices.Clone(multi.Primes), big.NewInt(3))
	p256, _ := ecdh.P256().GenerateKey(rand.Reader)
	tests := []struct {
		name string
		key  any
		err  error
	}{
		{"nil", nil, ErrInvalidKey},
		{"empty bytes", []byte{}, ErrInvalidKey},
		{"string", "x", ErrUnsupportedAlgorithm},
		{"multi-prime", &multi, ErrUnsupportedAlgorithm},
		{"RSA e even", &rsa.PublicKey{N: rsaKey.N, E: 2}, ErrInvalidKey},
		{"RSA private e even", &rsa.PrivateKey{PublicKey: rsa.PublicKey{N: rsaKey.N, E: 2}, D: rsaKey.D, Primes: rsaKey.Primes}, ErrInvalidKey},
		{"P-224", &ecdsa.PublicKey{Curve: elliptic.P224()}, ErrUnsupportedAlgorithm},
		{"P-224 private", &ecdsa.PrivateKey{PublicKey: ecdsa.PublicKey{Curve: elliptic.P224()}}, ErrUnsupportedAlgorithm},
		{"EC invalid point", &ecdsa.PublicKey{Curve: elliptic.P256(), X: big.NewInt(1), Y: big.NewInt(1)}, ErrInvalidKey},
		{"Ed25519 public short", ed25519.PublicKey{1}, ErrInvalidKey},
		{"Ed25519 private short", ed25519.PrivateKey{1}, ErrInvalidKey},
		{"ecdh P-256 private", p256, ErrUnsupportedAlgorithm},
	}
	// A NIST curve's ecdh public key (jwe's ephemeral keys) is written as
	// the EC key it is, the same JSON as its ecdsa form.
	epk, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), p256.PublicKey().Bytes())
	if err != nil {
		t.Fatal(err)
	}
	got, err := (&JWK{Key: p256.PublicKey()}).AppendJSON(nil)
	want, _ := (&JWK{Key: epk}).AppendJSON(nil)
	if err != nil || string(got) != string(want) {
		t.Errorf("ecdh P-256 public: %s, %v; want %s", got, err, want)
	}
	for _, tt := range tests {
		k := &JWK{Key: tt.key}
		if out, err := k.AppendJSON([]byte("prefix")); !errors.Is(err, tt.err) || string(out) != "prefix" {
			t.Errorf("%s: %q, %v", tt.name, out, err)
		}
		// Supported checks the Go type only: these three have a supported
		// type but invalid values.
		typed := tt.name == "RSA e even" || tt.name == "RSA private e even" || tt.name == "EC invalid point"
		if k.Supported() != typed {
			t.Errorf("%s: Supported %v", tt.name, k.Supported())
		}
		if _, err := k.Thumbprint(crypto.SHA256); err == nil {
			t.Errorf("%s: thumbprint", tt.name)
		}
	}
	if out, err := (*JWK)(nil).MarshalJSON(); err != nil || string(out) != "null" {
		t.Errorf("nil JWK: %s %v", out, err)
	}
}

// TestPublic checks Public: no private member, key_ops mapped to public
// operations, certificates and metadata kept.
func TestPublic(t *testing.T) {
	k, err := ParseKey([]byte(jwkTMutate(t, jwkTECPriv, func(m map[string]any) {
		delete(m, "use")
		m["key_ops"] = []any{"sign", "verify", "deriveKey", "decrypt", "unwrapKey", "custom"}
		m["alg"] = "ES256"
	})))
	if err != nil {
		t.Fatal(err)
	}
	pub := k.Public()
	want := []KeyOp{OpVerify, OpEncrypt, OpWrapKey, "custom"}
	if !slices.Equal(pub.KeyOps, want) || pub.Algorithm != "ES256" || pub.KeyID != "1" || pub.IsPrivate() {
		t.Errorf("Public: %+v", pub)
	}
	k.KeyOps = []KeyOp{OpDeriveBits}
	if ops := k.Public().KeyOps; ops == nil || len(ops) != 0 {
		t.Errorf("deriveBits only: %v", ops)
	}
	// The public key of a public key is itself.
	if !jwkTEqualKeys(pub.Key, pub.Public().Key) {
		t.Error("Public of a public key differs")
	}
	if (*JWK)(nil).Public() != nil || (&JWK{}).Public() != nil {
		t.Error("Public of an empty JWK")
	}
	b, _ := ParseKey(jwkTRead(t, "../testdata/latchset/rfc7517_B.jwk"))
	if pb := b.Public(); len(pb.Certificates) != 1 || pb.Use != "sig" {
		t.Errorf("Public dropped x5c or use: %+v", pb)
	}
}

// TestPermits checks that a key is only used as its alg, use and key_ops
// declare.
func TestPermits(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	tests := []struct {
		k   JWK
		alg string
		op  KeyOp
		ok  bool
	}{
		{JWK{Key: key}, "HS256", OpSign, true},
		{JWK{Key: key}, "A256KW", OpUnwrapKey, true},
		{JWK{Key: key, Algorithm: "HS256"}, "HS256", OpVerify, true},
		{JWK{Key: key, Algorithm: "HS256"}, "HS384", OpVerify, false},
		{JWK{Key: key, Use: "sig"}, "HS256", OpSign, true},
		{JWK{Key: key, Use: "sig"}, "A256KW", OpWrapKey, false},
		{JWK{Key: key, Use: "enc"}, "HS256", OpVerify, false},
		{JWK{Key: key, Use: "enc"}, "A256KW", OpWrapKey, true},
		{JWK{Key: key, Use: "enc"}, "ECDH-ES", OpDeriveKey, true},
		{JWK{Key: key, Use: "enc"}, "dir", OpDecrypt, true},
		{JWK{Key: key, Use: "other"}, "HS256", OpSign, false},
		{JWK{Key: key, KeyOps: []KeyOp{OpVerify}}, "HS256", OpVerify, true},
		{JWK{Key: key, KeyOps: []KeyOp{OpVerify}}, "HS256", OpSign, false},
		{JWK{Key: key, KeyOps: []KeyOp{}}, "HS256", OpVerify, false},
		{JWK{Key: key}, "HS256", "frobnicate", false},
		{JWK{Key: key, Use: "sig", KeyOps: []KeyOp{OpEncrypt}}, "HS256", OpEncrypt, false},
	}
	for i, tt := range tests {
		err := tt.k.Permits(tt.alg, tt.op)
		if (err == nil) != tt.ok {
			t.Errorf("%d: Permits(%s, %s) = %v", i, tt.alg, tt.op, err)
		}
		if err != nil && (!errors.Is(err, ErrAlgorithmNotAllowed) || !strings.HasPrefix(err.Error(), "jose: ")) {
			t.Errorf("%d: error %v", i, err)
		}
	}
	err := (&JWK{Key: key, Algorithm: "HS384"}).Permits("HS256", OpSign)
	if want := `jose: oct key is for alg "HS384", not "HS256": algorithm not allowed`; err == nil || err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	err = (&JWK{Key: key, KeyID: "k1", Use: "enc"}).Permits("HS256", OpSign)
	if want := `jose: key "k1" has use "enc", not usable to sign: algorithm not allowed`; err == nil || err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if err := (&JWK{}).Permits("HS256", OpSign); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("empty JWK: %v", err)
	}
	if err := (*JWK)(nil).Permits("HS256", OpSign); err == nil {
		t.Error("nil JWK permitted")
	}
}

// TestKeyTypeAndCurve checks the accessors on every kind of key.
func TestKeyTypeAndCurve(t *testing.T) {
	for name, key := range jwkTGoKeys(t) {
		k := &JWK{Key: key}
		kty, crv := k.KeyType(), k.Curve()
		var want string
		switch {
		case strings.HasPrefix(name, "RSA"):
			want = "RSA"
		case strings.HasPrefix(name, "P-"):
			want = "EC"
		case name == "oct":
			want = "oct"
		default:
			want = "OKP"
		}
		if kty != want {
			t.Errorf("%s: kty %q", name, kty)
		}
		if wantCrv, _, _ := strings.Cut(name, " "); (want == "EC" || want == "OKP") && crv != wantCrv {
			t.Errorf("%s: crv %q", name, crv)
		}
		if k.IsSymmetric() != (name == "oct") {
			t.Errorf("%s: IsSymmetric", name)
		}
	}
	var nilKey *JWK
	if nilKey.KeyType() != "" || nilKey.Curve() != "" || nilKey.IsPrivate() || nilKey.IsSymmetric() || nilKey.Supported() {
		t.Error("nil JWK accessors")
	}
	p256, _ := ecdh.P256().GenerateKey(rand.Reader)
	if (&JWK{Key: p256}).Curve() != "" || (&JWK{Key: p256.PublicKey()}).Curve() != "" {
		t.Error("curve of an ecdh P-256 key in Key")
	}
}

// TestROCA checks that the Wycheproof ROCA key (json_web_key_test.json,
// group jws_rsa_roca_key) is refused and that the fixed test keys are not.
func TestROCA(t *testing.T) {
	roca := `{"kty":"RSA","n":"AanFpofbj7KjD4Lf-N2hVMKR7yewSyXhhbirIMTGpfYEhZ_lnt5UoK98DnKIgArXGTu3MaW_HhFw16HGaTDUHqPrId7fe4r11CqRw09yBFuW79V8sYIwHdzCaWflUI6auImYbVfoN9_nD5n8N8SY9DwXw7mwZM9wREPXoDPgOoIWl6q_MPsp7n0zs3Z5ZaiQWOOzl1S9OhwAfSiiOwz6efnXEaxuTEtPd7BjSx7NaFka8Dx9U7YqXy2RFj1O9PjyaDGuRh7YXsX3iMUSP_wSyHQg_c_qHRtKUsNSGCT7OZg0hzm2KphtjnayKJvC64vAbROBR4Ubg6Bxg9IQVZ-QYyE","e":"AQAB","kid":"kid-rsa-roca-sign"}`
	if _, err := ParseKey([]byte(roca)); !errors.Is(err, ErrInvalidKey) || !strings.Contains(err.Error(), "ROCA") {
		t.Errorf("ROCA key: %v", err)
	}
	for _, f := range []string{"rsa1024", "rsa2048", "rsa3072", "rsa4096"} {
		if _, err := ParseKeyPEM(jwkTRead(t, "../testdata/keys/"+f+".pem")); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	// The subgroup generated by 65537 mod 3 is {1, 2}; mod 11, {1, 10}.
	if got := rocaSubgroups[0]; len(got) != 3 || !got[1] || !got[2] {
		t.Errorf("subgroup mod 3: %v", got)
	}
	if !rocaVulnerable(big.NewInt(1)) {
		t.Error("1 is in every subgroup")
	}
	if rocaVulnerable(big.NewInt(2)) {
		t.Error("2 is not in the subgroup mod 11")
	}
}

// TestROCAResidues checks the word-wise reduction of rocaVulnerable against
// big.Int arithmetic: every power of 65537 has the fingerprint, and twice
// it is judged as the per-prime definition says.
func TestROCAResidues(t *testing.T) {
	naive := func(n *big.Int) bool {
		for i, p := range rocaPrimes {
			r := new(big.Int).Mod(n, big.NewInt(int64(p))).Int64()
			if !rocaSubgroups[i][r] {
				return false
			}
		}
		return true
	}
	n := big.NewInt(1)
	g := big.NewInt(65537)
	for k := range 300 {
		if !rocaVulnerable(n) {
			t.Fatalf("65537^%d not flagged", k)
		}
		twice := new(big.Int).Lsh(n, 1)
		if rocaVulnerable(twice) != naive(twice) {
			t.Fatalf("2*65537^%d: %v", k, rocaVulnerable(twice))
		}
		n.Mul(n, g)
	}
}

func BenchmarkROCA(b *testing.B) {
	k, err := ParseKey([]byte(jwkTRSAPriv))
	if err != nil {
		b.Fatal(err)
	}
	n := k.Key.(*rsa.PrivateKey).N
	b.ReportAllocs()
	for b.Loop() {
		rocaVulnerable(n)
	}
}
