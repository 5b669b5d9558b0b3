package bearer_test

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/josebench/josebench/jose/bearer"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
	"github.com/josebench/josebench/jose/jwt"
)

// An API protected by the middleware: JWT access tokens (RFC 9068) of one
// issuer, for this API, with the scope "orders:read". With a provider's
// keys, the Verifier's key source would be the KeyFuncContext of a
// jwks.Remote, and the request's context would bound its fetches.
func Example() {
	key := []byte("an HS256 key of at least 32 bytes!")
	ver, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: key})
	if err != nil {
		log.Fatal(err)
	}
	v, err := bearer.NewAccessTokenValidator(jwt.ValidatorOptions{
		Verifier:  ver,
		Issuers:   []string{"https://issuer.example"},
		Audiences: []string{"https://api.example"},
	})
	if err != nil {
		log.Fatal(err)
	}
	m, err := bearer.New(bearer.Options{Validator: v, Realm: "orders", Scopes: []string{"orders:read"}})
	if err != nil {
		log.Fatal(err)
	}
	api := m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := bearer.ClaimsFrom(r.Context())
		fmt.Fprintf(w, "orders of %s, for client %s", c.Subject, c.ClientID)
	}))
	srv := httptest.NewServer(api)
	defer srv.Close()

	// A token as the authorization server would issue it.
	s, err := jwt.NewSigner(jwa.HS256, key, &jws.SignerOptions{Type: bearer.TypeAccessToken})
	if err != nil {
		log.Fatal(err)
	}
	now := time.Now()
	tok, err := s.Sign(&bearer.Claims{
		Claims: jwt.Claims{
			Issuer: "https://issuer.example", Subject: "alice", Audience: jwt.Audience{"https://api.example"},
			Expiry: jwt.NewNumericDate(now.Add(5 * time.Minute)), IssuedAt: jwt.NewNumericDate(now), ID: "4f1c2d",
		},
		Scope:    "orders:read profile",
		ClientID: "shop",
	})
	if err != nil {
		log.Fatal(err)
	}

	for _, auth := range []string{"", "Bearer " + string(tok), "Bearer not-a-token"} {
		req, _ := http.NewRequest("GET", srv.URL, nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			fmt.Println(resp.StatusCode, string(body))
			continue
		}
		fmt.Println(resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	// Output:
	// 401 Bearer realm="orders"
	// 200 orders of alice, for client shop
	// 401 Bearer realm="orders", error="invalid_token", error_description="the access token is invalid"
}
