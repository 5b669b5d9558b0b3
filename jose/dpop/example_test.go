package dpop_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"fmt"

	"github.com/josebench/josebench/jose/dpop"
	"github.com/josebench/josebench/jose/jwa"
)

// A client proves possession of its key on each request; the resource
// server checks the proof, the token's binding, and refuses a replay.
func Example() {
	// Client: one key for the session, its thumbprint sent as dpop_jkt
	// when the access token is requested.
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	prover, err := dpop.NewProver(jwa.ES256, key)
	if err != nil {
		panic(err)
	}
	accessToken := "an access token bound to " + prover.Thumbprint()
	proof, err := prover.Proof("GET", "https://api.example/files?page=2", &dpop.ProofOptions{AccessToken: accessToken})
	if err != nil {
		panic(err)
	}
	// Request: Authorization: DPoP <accessToken>, DPoP: <proof>.

	// Server: one Verifier for all requests.
	v, err := dpop.NewVerifier(dpop.VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256, jwa.EdDSA}})
	if err != nil {
		panic(err)
	}
	check := func() error {
		p, err := v.Check(context.Background(), []string{proof}, "GET", "https://api.example/files", accessToken)
		if err != nil {
			return err
		}
		// The token's cnf.jkt, from its validated claims (dpop.TokenBinding).
		jkt := prover.Thumbprint()
		return dpop.CheckBinding(jkt, p)
	}
	fmt.Println("first:", check())
	err = check()
	var e *dpop.Error
	fmt.Println("again:", errors.Is(err, dpop.ErrReplay), errors.As(err, &e) && e.Code == dpop.CodeInvalidProof)
	// Output:
	// first: <nil>
	// again: true true
}

// A server that requires nonces answers a proof without one with
// use_dpop_nonce and the nonce to use (RFC 9449 §8).
func ExampleVerifierOptions_nonces() {
	nonces, err := dpop.NewRotatingNonces(nil, 0, nil)
	if err != nil {
		panic(err)
	}
	v, err := dpop.NewVerifier(dpop.VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, Nonces: nonces})
	if err != nil {
		panic(err)
	}
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	prover, _ := dpop.NewProver(jwa.ES256, key)
	proof, _ := prover.Proof("POST", "https://as.example/token", nil)
	_, err = v.Check(context.Background(), []string{proof}, "POST", "https://as.example/token", "")
	var e *dpop.Error
	if errors.As(err, &e) && e.Code == dpop.CodeUseNonce {
		// HTTP 400 {"error": "use_dpop_nonce"}, DPoP-Nonce: e.Nonce; the
		// client retries with it.
		proof, _ = prover.Proof("POST", "https://as.example/token", &dpop.ProofOptions{Nonce: e.Nonce})
		_, err = v.Check(context.Background(), []string{proof}, "POST", "https://as.example/token", "")
	}
	fmt.Println(err)
	// Output:
	// <nil>
}
