package dpop_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"time"

	"github.com/josebench/josebench/jose/bearer"
	"github.com/josebench/josebench/jose/dpop"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
	"github.com/josebench/josebench/jose/jwt"
)

// A client calls an API that takes DPoP-bound access tokens (RFC 9449
// §7.1): each request carries the token with the DPoP scheme and a fresh
// proof of its method and URI, whose "ath" is the token's hash. The
// server asks for a nonce (§8): a 401 with error="use_dpop_nonce" and a
// DPoP-Nonce header; the client then proves again with the nonce, once,
// and keeps the latest DPoP-Nonce it is sent for its next proofs.
func Example_client() {
	api, issue, _ := exampleAPI() // the resource server of Example_server, and its authorization server
	defer api.Close()
	url := api.URL + "/orders"

	// One key for the life of the access token; its thumbprint goes to the
	// authorization server as dpop_jkt (§10), which binds the token to it.
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		log.Fatal(err)
	}
	prover, err := dpop.NewProver(jwa.ES256, key)
	if err != nil {
		log.Fatal(err)
	}
	accessToken := issue(prover.Thumbprint())

	nonce := "" // the server's latest DPoP-Nonce
	get := func(url string) (*http.Response, error) {
		for try := 0; ; try++ {
			proof, err := prover.Proof("GET", url, &dpop.ProofOptions{AccessToken: accessToken, Nonce: nonce})
			if err != nil {
				return nil, err
			}
			req, err := http.NewRequest("GET", url, nil)
			if err != nil {
				return nil, err
			}
			req.Header.Set("Authorization", "DPoP "+accessToken)
			req.Header.Set("DPoP", proof) // a fresh proof for every request
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return nil, err
			}
			if n := resp.Header.Get("DPoP-Nonce"); n != "" {
				nonce = n
			}
			if try == 0 && resp.StatusCode == http.StatusUnauthorized && strings.Contains(resp.Header.Get("WWW-Authenticate"), `error="use_dpop_nonce"`) {
				fmt.Println("401 use_dpop_nonce: proving again with the nonce")
				resp.Body.Close()
				continue
			}
			return resp, nil
		}
	}
	for range 2 {
		resp, err := get(url)
		if err != nil {
			log.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, string(body))
	}
	// Output:
	// 401 use_dpop_nonce: proving again with the nonce
	// 200 orders of alice (DPoP)
	// 200 orders of alice (DPoP)
}

// A resource server takes DPoP-bound access tokens through the bearer
// middleware: with Options.DPoP it checks each request's proof (every
// check of RFC 9449 §4.3, "ath" against the token, the replay store), then
// the token with the Validator, then that the token's "cnf" "jkt" is the
// proof key's thumbprint (§6.1). With Nonces set, a proof must carry the
// server's current nonce (§8). A request without a token gets both
// challenges, Bearer and DPoP; a bound token sent as Bearer is refused
// (§7.2).
func Example_server() {
	api, issue, nonces := exampleAPI()
	defer api.Close()
	url := api.URL + "/orders"

	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	prover, _ := dpop.NewProver(jwa.ES256, key)
	accessToken := issue(prover.Thumbprint())
	send := func(scheme, nonce string) {
		req, _ := http.NewRequest("GET", url, nil)
		if scheme != "" {
			req.Header.Set("Authorization", scheme+" "+accessToken)
		}
		if scheme == "DPoP" {
			proof, _ := prover.Proof("GET", url, &dpop.ProofOptions{AccessToken: accessToken, Nonce: nonce})
			req.Header.Set("DPoP", proof)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			fmt.Println(resp.StatusCode, string(body))
			return
		}
		for _, c := range resp.Header.Values("WWW-Authenticate") {
			fmt.Println(resp.StatusCode, describedAs.ReplaceAllString(c, ""))
		}
		if resp.Header.Get("DPoP-Nonce") != "" {
			fmt.Println("    with a DPoP-Nonce")
		}
	}
	send("", "")
	send("Bearer", "")
	send("DPoP", "")
	nonce, err := nonces.Nonce(context.Background()) // what the DPoP-Nonce header said
	if err != nil {
		log.Fatal(err)
	}
	send("DPoP", nonce)
	// Output:
	// 401 Bearer realm="api"
	// 401 DPoP realm="api", algs="ES256 EdDSA"
	// 401 Bearer realm="api", error="invalid_token"
	// 401 DPoP realm="api", algs="ES256 EdDSA"
	// 401 DPoP realm="api", algs="ES256 EdDSA", error="use_dpop_nonce"
	//     with a DPoP-Nonce
	// 200 orders of alice (DPoP)
}

// describedAs matches the error_description of a challenge, a text for
// people that the example leaves out.
var describedAs = regexp.MustCompile(`, error_description="[^"]*"`)

// exampleAPI starts the resource server of the examples, GET /orders, and
// returns it with its authorization server's issue function (an RFC 9068
// access token for alice, bound to the key of thumbprint jkt) and its
// nonces.
func exampleAPI() (*httptest.Server, func(jkt string) string, *dpop.RotatingNonces) {
	asKey := []byte("the authorization server's HS256 key, 32+ bytes")
	tokens, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: asKey})
	if err != nil {
		log.Fatal(err)
	}
	validator, err := bearer.NewAccessTokenValidator(jwt.ValidatorOptions{
		Verifier:  tokens,
		Issuers:   []string{"https://as.example"},
		Audiences: []string{"https://api.example"},
	})
	if err != nil {
		log.Fatal(err)
	}

	nonces, err := dpop.NewRotatingNonces(nil, 0, nil) // nil: a random secret; servers sharing a secret agree
	if err != nil {
		log.Fatal(err)
	}
	proofs, err := dpop.NewVerifier(dpop.VerifierOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.ES256, jwa.EdDSA},
		Nonces:     nonces, // optional: proofs must carry the server's nonce (§8)
	})
	if err != nil {
		log.Fatal(err)
	}
	mw, err := bearer.New(bearer.Options{Validator: validator, Realm: "api", DPoP: proofs})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/orders", mw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, scheme := bearer.ClaimsFrom(r.Context()), "Bearer"
		if p := bearer.ProofFrom(r.Context()); p != nil { // nil for a bearer token
			scheme = "DPoP" // p.Thumbprint: the proof key's, the token's cnf.jkt
		}
		fmt.Fprintf(w, "orders of %s (%s)", c.Subject, scheme)
	})))

	signer, err := jwt.NewSigner(jwa.HS256, asKey, &jws.SignerOptions{Type: bearer.TypeAccessToken})
	if err != nil {
		log.Fatal(err)
	}
	issue := func(jkt string) string {
		type cnf struct {
			JKT string `json:"jkt"`
		}
		now := time.Now()
		tok, err := signer.Sign(struct {
			*bearer.Claims
			Cnf cnf `json:"cnf"` // RFC 9449 §6.1
		}{&bearer.Claims{
			Claims: jwt.Claims{
				Issuer: "https://as.example", Subject: "alice", Audience: jwt.Audience{"https://api.example"},
				Expiry: jwt.NewNumericDate(now.Add(5 * time.Minute)), IssuedAt: jwt.NewNumericDate(now), ID: "7d1e",
			},
			ClientID: "shop",
		}, cnf{jkt}})
		if err != nil {
			log.Fatal(err)
		}
		return string(tok)
	}
	return httptest.NewServer(mux), issue, nonces
}
