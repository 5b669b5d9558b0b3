package dpop

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// selfSigned returns a self-signed certificate of key, DER.
func selfSigned(t testing.TB, key crypto.Signer) []byte {
	t.Helper()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "dpop client"},
		NotBefore:    testNow.Add(-time.Hour),
		NotAfter:     testNow.Add(time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

// jwkWith returns the public JWK of key with the extra members, as JSON.
func jwkWith(t testing.TB, key crypto.Signer, extra map[string]any) json.RawMessage {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(publicJWK(t, key), &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range extra {
		m[k] = v
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCheckRefusesCertificates: a proof whose "jwk" carries certificate
// members is refused with ErrKey before its certificates are parsed: a
// valid chain of the key itself (which jose would parse and accept), a
// chain that is not one (which jose would refuse as malformed, once it
// had parsed it), x5u, x5t and x5t#S256, and a member name spelled with
// a JSON escape. Nothing reaches the replay store.
func TestCheckRefusesCertificates(t *testing.T) {
	key := ecKey(t)
	cert := selfSigned(t, key)
	chain := []string{base64.StdEncoding.EncodeToString(cert), base64.StdEncoding.EncodeToString(cert)}
	s256 := sha256.Sum256(cert)
	n := 0
	proof := func(jwk json.RawMessage) string {
		n++
		h := goodHeader(t, key, "ES256")
		h["jwk"] = jwk
		return forge(t, jwa.ES256, key, h, goodClaims("x5-"+itoa(n)))
	}
	// jose itself accepts this JWK and parses its chain.
	k, err := jose.ParseKey(jwkWith(t, key, map[string]any{"x5c": chain}))
	if err != nil || len(k.Certificates) != 2 {
		t.Fatalf("jose.ParseKey of the jwk with x5c: %v", err)
	}
	escaped := strings.Replace(string(jwkWith(t, key, map[string]any{"x5c": chain})), `"x5c"`, `"x\u0035c"`, 1)
	for _, tt := range []struct {
		name, member string
		jwk          json.RawMessage
	}{
		{"x5c, valid chain", "x5c", jwkWith(t, key, map[string]any{"x5c": chain})},
		{"x5c, not certificates", "x5c", jwkWith(t, key, map[string]any{"x5c": []string{"AAAA", strings.Repeat("B", 4000)}})},
		{"x5c, not an array", "x5c", jwkWith(t, key, map[string]any{"x5c": 1})},
		{"x5c, escaped name", "x5c", json.RawMessage(escaped)},
		{"x5u, escaped name", "x5u", json.RawMessage(strings.Replace(string(jwkWith(t, key, map[string]any{"x5u": "https://client.example/c"})), `"x5u"`, `"\u0078\u0035u"`, 1))},
		{"x5u", "x5u", jwkWith(t, key, map[string]any{"x5u": "https://client.example/chain.pem"})},
		{"x5t", "x5t", jwkWith(t, key, map[string]any{"x5t": base64.RawURLEncoding.EncodeToString(s256[:20])})},
		{"x5t#S256", "x5t#S256", jwkWith(t, key, map[string]any{"x5t#S256": base64.RawURLEncoding.EncodeToString(s256[:])})},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := newVerifier(t, VerifierOptions{})
			p, err := v.Check(context.Background(), []string{proof(tt.jwk)}, "GET", testURI, "")
			if p != nil {
				t.Fatalf("accepted: %+v", p)
			}
			wantRefusal(t, err, ErrKey, CodeInvalidProof)
			if !strings.Contains(err.Error(), `member "`+tt.member+`"`) {
				t.Errorf("error %q does not name %q", err, tt.member)
			}
			if n := v.replay.(*MemoryStore).Len(); n != 0 {
				t.Errorf("replay store of %d entries", n)
			}
		})
	}
	// Header members of those names, outside "jwk", are not the key's:
	// jose reads them without parsing a certificate, and they pass.
	h := goodHeader(t, key, "ES256")
	h["x5u"] = "https://client.example/chain.pem"
	h["x5t#S256"] = base64.RawURLEncoding.EncodeToString(s256[:])
	if _, err := newVerifier(t, VerifierOptions{}).Check(context.Background(), []string{forge(t, jwa.ES256, key, h, goodClaims("hdr"))}, "GET", testURI, ""); err != nil {
		t.Errorf("header-level x5u and x5t#S256: %v", err)
	}
}

// TestCheckRefusesCertificatesHeaderForms: the scan of the header finds a
// certificate member of the "jwk" however the header is written: after
// 2 KB of other members (beyond the scan's 512-byte stack buffer), with
// whitespace around every token, its "jwk" name or the member's spelled
// with escapes, after nested values; a header with two "jwk" is refused
// as malformed by jws. Header forms jws refuses (padding, a byte-order
// mark) are refused, never accepted.
func TestCheckRefusesCertificatesHeaderForms(t *testing.T) {
	key := ecKey(t)
	cert := selfSigned(t, key)
	jwk := string(jwkWith(t, key, map[string]any{"x5c": []string{base64.StdEncoding.EncodeToString(cert)}}))
	s256 := string(jwkWith(t, key, map[string]any{"x5t#S256": "bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2"}))
	n := 0
	sign := func(header string, encode func([]byte) string) string {
		n++
		c, err := json.Marshal(goodClaims("hf-" + itoa(n)))
		if err != nil {
			t.Fatal(err)
		}
		return signInput(t, jwa.ES256, key, encode([]byte(header))+"."+jose.Base64URLEncode(c))
	}
	// The certificate's length varies with its signature, and a header
	// whose length is a multiple of 3 encodes with no padding at all:
	// trailing whitespace (valid JSON) makes sure "=" is there.
	padded := `{"typ":"dpop+jwt","alg":"ES256","jwk":` + jwk + `}`
	for len(padded)%3 == 0 {
		padded += " "
	}
	if e := base64.URLEncoding.EncodeToString([]byte(padded)); !strings.HasSuffix(e, "=") {
		t.Fatalf("padded header encodes as %q", e)
	}
	for _, tt := range []struct {
		name, header string
		encode       func([]byte) string
		sentinel     error
	}{
		{"after 2 KB of members", `{"typ":"dpop+jwt","alg":"ES256","pad":"` + strings.Repeat("a", 2000) + `","jwk":` + jwk + `}`, jose.Base64URLEncode, ErrKey},
		{"whitespace", " \n\t{ \"typ\" : \"dpop+jwt\" , \"alg\":\"ES256\",\n\"jwk\" :\n " + jwk + " } \n", jose.Base64URLEncode, ErrKey},
		{"escaped jwk", `{"typ":"dpop+jwt","alg":"ES256","j\u0077k":` + jwk + `}`, jose.Base64URLEncode, ErrKey},
		{"escaped x5t#S256", `{"typ":"dpop+jwt","alg":"ES256","jwk":` + strings.Replace(s256, `"x5t#S256"`, `"x5t\u0023S256"`, 1) + `}`, jose.Base64URLEncode, ErrKey},
		{"after nested values", `{"typ":"dpop+jwt","x":{"y":[1,{"z":2}]},"alg":"ES256","jwk":` + jwk + `}`, jose.Base64URLEncode, ErrKey},
		{"two jwk", `{"typ":"dpop+jwt","alg":"ES256","jwk":` + string(publicJWK(t, key)) + `,"jwk":` + jwk + `}`, jose.Base64URLEncode, ErrMalformedProof},
		{"padded", padded, base64.URLEncoding.EncodeToString, ErrMalformedProof},
		{"byte-order mark", "\ufeff" + `{"typ":"dpop+jwt","alg":"ES256","jwk":` + jwk + `}`, jose.Base64URLEncode, ErrMalformedProof},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := newVerifier(t, VerifierOptions{}).Check(context.Background(), []string{sign(tt.header, tt.encode)}, "GET", testURI, "")
			if p != nil {
				t.Fatalf("accepted: %+v", p)
			}
			wantRefusal(t, err, tt.sentinel, CodeInvalidProof)
		})
	}
}
