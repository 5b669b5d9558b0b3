package oidc

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
	"github.com/josebench/josebench/jose/jwt"
)

// legitDocument is a typical provider's document (1 KB, the members of
// a large provider's).
func legitDocument(iss string) []byte {
	return fmt.Appendf(nil, `{"issuer":%q,"authorization_endpoint":"%[1]s/o/oauth2/v2/auth","device_authorization_endpoint":"%[1]s/device/code",`+
		`"token_endpoint":"%[1]s/token","userinfo_endpoint":"%[1]s/v1/userinfo","revocation_endpoint":"%[1]s/revoke","jwks_uri":"%[1]s/oauth2/v3/certs",`+
		`"response_types_supported":["code","token","id_token","code token","code id_token","token id_token","code token id_token","none"],`+
		`"subject_types_supported":["public"],"id_token_signing_alg_values_supported":["RS256"],`+
		`"scopes_supported":["openid","email","profile"],"token_endpoint_auth_methods_supported":["client_secret_post","client_secret_basic"],`+
		`"claims_supported":["aud","email","email_verified","exp","family_name","given_name","iat","iss","name","picture","sub"],`+
		`"code_challenge_methods_supported":["plain","S256"],"grant_types_supported":["authorization_code","refresh_token",`+
		`"urn:ietf:params:oauth:grant-type:device_code","urn:ietf:params:oauth:grant-type:jwt-bearer"]}`, iss)
}

// hostileDocuments are the costliest documents of at most
// DefaultMaxDocumentSize bytes that parseMetadata reads.
func hostileDocuments(iss string) map[string][]byte {
	const size = DefaultMaxDocumentSize
	head := fmt.Sprintf(`{"issuer":%q,"jwks_uri":"%[1]s/jwks",`, iss)
	fill := func(prefix, unit, suffix string) []byte {
		n := (size - len(head) - len(prefix) - len(suffix)) / len(unit)
		body := head + prefix + strings.Repeat(unit, n)
		return []byte(strings.TrimSuffix(body, ",") + suffix)
	}
	return map[string][]byte{
		// 64 KiB of one-letter strings in a list read as []string.
		"array-of-16k-strings": fill(`"scopes_supported":[`, `"a",`, `]}`),
		// A string read of \u escapes.
		"escaped-string": fill(`"token_endpoint":"`, `\u00e9`, `"}`),
		// Unknown members, scanned: nested arrays to the depth limit.
		"nested-arrays": fill(`"x":[`, `[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],`, `]}`),
	}
}

// BenchmarkParseMetadata: the cost of reading a metadata document, a
// provider's typical one and the worst at the default limits (network
// excluded: a fetch adds a request, bounded by Timeout).
func BenchmarkParseMetadata(b *testing.B) {
	const iss = "https://accounts.example"
	cases := map[string][]byte{"legit-1KB": legitDocument(iss)}
	for name, doc := range hostileDocuments(iss) {
		cases["worst-"+name] = doc
	}
	for _, name := range []string{"legit-1KB", "worst-array-of-16k-strings", "worst-escaped-string", "worst-nested-arrays"} {
		doc := cases[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				if _, err := parseMetadata(doc, iss, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestHostileDocumentsParse: the documents of the benchmark are within the
// limit and read.
func TestHostileDocumentsParse(t *testing.T) {
	const iss = "https://accounts.example"
	t.Logf("legit document: %d bytes", len(legitDocument(iss)))
	if _, err := parseMetadata(legitDocument(iss), iss, false); err != nil {
		t.Fatal(err)
	}
	for name, doc := range hostileDocuments(iss) {
		if len(doc) > DefaultMaxDocumentSize || len(doc) < DefaultMaxDocumentSize-100 {
			t.Errorf("%s: %d bytes", name, len(doc))
		}
		if _, err := parseMetadata(doc, iss, false); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// BenchmarkVerify: an ES256 ID token through IDTokenVerifier.Verify,
// beside the jwt.Validator alone over the same provider's keys with the
// same claims checks that a Validator can express (iss, aud, exp, iat,
// sub), so that the cost of the ID-token rules (the second scan of the
// claims, azp, nonce, the access-token claims) reads as the difference.
func BenchmarkVerify(b *testing.B) {
	e1 := ecKey(b, "e1")
	idp := newIDP(b, e1)
	p := newTestProvider(b, idp, nil, Options{})
	now := func() time.Time { return testNow }
	algs := []jwa.SignatureAlgorithm{jwa.ES256}
	v, err := NewIDTokenVerifier(p, VerifierOptions{ClientID: testClient, Algorithms: algs, Now: now})
	if err != nil {
		b.Fatal(err)
	}
	ver, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: algs, KeyFuncContext: p.KeyFuncContext})
	if err != nil {
		b.Fatal(err)
	}
	val, err := jwt.NewValidator(jwt.ValidatorOptions{Verifier: ver, Issuers: []string{p.Issuer()}, Audiences: []string{testClient},
		Required: []string{"sub", "iat"}, Leeway: DefaultLeeway, Now: now})
	if err != nil {
		b.Fatal(err)
	}
	tok := sign(b, e1, jwa.ES256, "", idp.claims(`,"nonce":"n-0S6_WzA2Mj","azp":"my-app","auth_time":1796126000,"email":"alice@example.com"`))
	ctx := b.Context()
	if _, err := v.Verify(ctx, tok, Expect{Nonce: "n-0S6_WzA2Mj"}); err != nil {
		b.Fatal(err)
	}
	b.Run("validator", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := val.ValidateContext(ctx, tok, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("oidc", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := v.Verify(ctx, tok, Expect{Nonce: "n-0S6_WzA2Mj"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
