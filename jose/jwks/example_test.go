package jwks_test

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
	"github.com/josebench/josebench/jose/jwks"
	"github.com/josebench/josebench/jose/jws"
	"github.com/josebench/josebench/jose/jwt"
)

// Example validates an RS256 ID token from an identity provider whose JWK
// Set is published at its jwks_uri: the keys come from a Remote, the
// claims are checked by a jwt.Validator over the jws.Verifier. The
// provider here is an httptest server on the loopback, signing with a
// fixed test key.
func Example() {
	provider, idToken := startProvider()
	defer provider.Close()

	// The service: a Remote for the provider's jwks_uri, fetched once at
	// start-up, and a Verifier that takes its keys from it.
	keys, err := jwks.New(provider.URL+"/.well-known/jwks.json", jwks.Options{
		Client: provider.Client(), // trusts the test server's certificate; omit for a real provider
	})
	if err != nil {
		log.Fatal(err)
	}
	defer keys.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := keys.Refresh(ctx); err != nil {
		log.Fatal(err)
	}
	v, err := jws.NewVerifier(jws.VerifyOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.RS256},
		KeyFunc:    keys.KeyFunc,
	})
	if err != nil {
		log.Fatal(err)
	}

	validator, err := jwt.NewValidator(jwt.ValidatorOptions{
		Verifier:  v,
		Issuers:   []string{"https://provider.example"},
		Audiences: []string{"my-app"},
		Now:       func() time.Time { return time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC) }, // a fixed clock, for the example's output
	})
	if err != nil {
		log.Fatal(err)
	}

	tok, err := validator.Validate(idToken, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s from %s, key %s\n", tok.Claims.Subject, tok.Claims.Issuer, tok.Header.KeyID)
	st := keys.Status()
	fmt.Println("keys:", st.Keys, "requests:", st.Requests)
	// Output:
	// alice from https://provider.example, key 2026-12
	// keys: 1 requests: 1
}

// startProvider starts the identity provider: it publishes the public half
// of its signing key and returns an ID token signed with it.
func startProvider() (*httptest.Server, []byte) {
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
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/jwk-set+json")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		w.Write(published)
	}))
	signer, err := jws.NewSigner(jwa.RS256, key, &jws.SignerOptions{Type: "JWT"})
	if err != nil {
		log.Fatal(err)
	}
	tok, err := signer.Compact([]byte(`{"iss":"https://provider.example","sub":"alice","aud":"my-app","exp":1796130000}`))
	if err != nil {
		log.Fatal(err)
	}
	return srv, tok
}
