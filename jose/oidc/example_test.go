package oidc_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
	"github.com/josebench/josebench/jose/jwt"
	"github.com/josebench/josebench/jose/oidc"
)

// Example verifies an ID token from a provider found by its issuer URL:
// Discover reads the provider's /.well-known/openid-configuration, checks
// its issuer and takes the keys from its jwks_uri; the IDTokenVerifier
// checks the token for this client, the nonce it sent, and the access
// token that came with it. The provider is an httptest server on the
// loopback, signing with a fixed test key.
func Example() {
	provider, signer := startProvider()
	defer provider.Close()
	issuer := provider.URL

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	p, err := oidc.Discover(ctx, issuer, oidc.Options{
		Client: provider.Client(), // trusts the test server's certificate; omit for a real provider
	})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	v, err := oidc.NewIDTokenVerifier(p, oidc.VerifierOptions{
		ClientID: "my-app",
		Now:      func() time.Time { return time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC) }, // a fixed clock, for the example's output
	})
	if err != nil {
		log.Fatal(err)
	}

	// What the token endpoint returned.
	const accessToken = "jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y"
	idToken, err := signer.Compact(fmt.Appendf(nil,
		`{"iss":%q,"sub":"alice","aud":"my-app","exp":1796130000,"iat":1796126400,"nonce":"n-0S6_WzA2Mj","at_hash":"77QmUPtjPfzWtF2AnpK9RQ"}`, issuer))
	if err != nil {
		log.Fatal(err)
	}

	id, err := v.Verify(ctx, idToken, oidc.Expect{Nonce: "n-0S6_WzA2Mj"}) // in a handler: r.Context()
	if err != nil {
		log.Fatal(err)
	}
	if err := id.VerifyAccessToken(accessToken); err != nil {
		log.Fatal(err)
	}
	fmt.Println("subject:", id.Subject, "key:", id.Token.Header.KeyID)
	st := p.Status()
	fmt.Println("document requests:", st.Requests, "keys:", st.Keys.Keys)
	// Output:
	// subject: alice key: 2026-12
	// document requests: 1 keys: 1
}

// startProvider starts the OpenID provider: it serves its discovery
// document and the public half of its signing key, and returns the signer
// of its ID tokens.
func startProvider() (*httptest.Server, *jws.Signer) {
	pemData, err := os.ReadFile("../../testdata/keys/rsa2048.pem")
	if err != nil {
		log.Fatal(err)
	}
	key, err := jose.ParseKeyPEM(pemData)
	if err != nil {
		log.Fatal(err)
	}
	key.KeyID, key.Algorithm, key.Use = "2026-12", "RS256", "sig"
	published, err := (&jose.Set{Keys: []*jose.JWK{key.Public()}}).MarshalJSON()
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	var srv *httptest.Server
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		fmt.Fprintf(w, `{"issuer":%q,"jwks_uri":%q,"id_token_signing_alg_values_supported":["RS256"],"response_types_supported":["code"],"subject_types_supported":["public"]}`,
			srv.URL, srv.URL+"/jwks")
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/jwk-set+json")
		w.Write(published)
	})
	srv = httptest.NewTLSServer(mux)
	signer, err := jws.NewSigner(jwa.RS256, key, &jws.SignerOptions{Type: "JWT"})
	if err != nil {
		log.Fatal(err)
	}
	return srv, signer
}

// ExampleProvider_KeyFuncContext validates the access tokens a discovered
// provider issues: the provider is the key source of a jws.Verifier, and
// a jwt.Validator checks the claims (this is what a bearer middleware
// runs for each request, with the request's context).
func ExampleProvider_KeyFuncContext() {
	provider, signer := startProvider()
	defer provider.Close()

	ctx := context.Background() // in a handler: r.Context()
	p, err := oidc.Discover(ctx, provider.URL, oidc.Options{Client: provider.Client()})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	ver, err := jws.NewVerifier(jws.VerifyOptions{
		Algorithms:     []jwa.SignatureAlgorithm{jwa.RS256},
		KeyFuncContext: p.KeyFuncContext,
	})
	if err != nil {
		log.Fatal(err)
	}
	validator, err := jwt.NewValidator(jwt.ValidatorOptions{
		Verifier:  ver,
		Issuers:   []string{p.Issuer()},
		Audiences: []string{"https://api.example"},
		Now:       func() time.Time { return time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC) },
	})
	if err != nil {
		log.Fatal(err)
	}
	token, err := signer.Compact(fmt.Appendf(nil, `{"iss":%q,"sub":"alice","aud":"https://api.example","exp":1796130000}`, p.Issuer()))
	if err != nil {
		log.Fatal(err)
	}
	tok, err := validator.ValidateContext(ctx, token, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tok.Claims.Subject)
	// Output:
	// alice
}
