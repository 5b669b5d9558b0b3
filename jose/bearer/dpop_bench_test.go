package bearer

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/dpop"
	"github.com/josebench/josebench/jose/jwa"
)

// noReplay is a ReplayStore that remembers nothing, so that a benchmark
// checks one proof again and again: the cost measured is the Verifier's
// and the Middleware's, not the store's (BenchmarkMemoryStoreFlood in
// jose/dpop measures that).
type noReplay struct{}

func (noReplay) Remember(context.Context, [32]byte, time.Time, time.Time) (bool, error) {
	return false, nil
}

// BenchmarkDPoPRequest measures, in one run, a request with a DPoP-bound
// HS256 access token and its ES256 proof (RFC 9449 §7.1) through the
// Middleware ("middleware"), beside its parts: the proof's check alone
// (dpop.Verifier.Check, "check"), the token's validation alone into the
// same Claims ("validator"), and a bearer token without "cnf" through a
// Middleware without DPoP ("bearer"). The Verifier's clock is fixed at the
// proof's "iat" and its replay store remembers nothing, so that one proof
// serves every iteration. To interleave the cases of two builds, run the
// test binaries in turn:
//
//	go test -c -o bearer.test ./jose/bearer
//	for i in 1 2 3 4 5 6; do ./bearer.test -test.run '^$' -test.bench DPoPRequest; done
func BenchmarkDPoPRequest(b *testing.B) {
	const uri = "https://api.example/orders"
	prover := newProver(b)
	c := dpopClaims{Claims: testClaims("orders:read")}
	c.Cnf = &struct {
		JKT string `json:"jkt"`
	}{prover.Thumbprint()}
	tok := sign(b, testKey, "", c)
	proof, err := prover.Proof(http.MethodGet, uri, &dpop.ProofOptions{AccessToken: tok, IssuedAt: testNow})
	if err != nil {
		b.Fatal(err)
	}
	dv, err := dpop.NewVerifier(dpop.VerifierOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.ES256},
		Replay:     noReplay{},
		Now:        func() time.Time { return testNow },
	})
	if err != nil {
		b.Fatal(err)
	}
	v := testValidator(b)
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ClaimsFrom(r.Context()) == nil {
			b.Fatal("no claims")
		}
	})
	run := func(b *testing.B, h http.Handler, req *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("refused: %d %q", rec.Code, rec.Header().Values("WWW-Authenticate"))
		}
		b.ReportAllocs()
		for b.Loop() {
			h.ServeHTTP(rec, req)
		}
	}
	b.Run("middleware", func(b *testing.B) {
		h := newMiddleware(b, Options{Validator: v, DPoP: dv, Scopes: []string{"orders:read"}}).Handler(ok)
		req := httptest.NewRequest(http.MethodGet, uri, nil)
		req.Header.Set("Authorization", "DPoP "+tok)
		req.Header.Set("DPoP", proof)
		run(b, h, req)
	})
	b.Run("check", func(b *testing.B) {
		ctx := context.Background()
		proofs := []string{proof}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := dv.Check(ctx, proofs, http.MethodGet, uri, tok); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("validator", func(b *testing.B) {
		btok := []byte(tok)
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			var c Claims
			if _, err := v.ValidateContext(ctx, btok, &c); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("bearer", func(b *testing.B) {
		h := newMiddleware(b, Options{Validator: v, Scopes: []string{"orders:read"}}).Handler(ok)
		req := httptest.NewRequest(http.MethodGet, uri, nil)
		req.Header.Set("Authorization", "Bearer "+sign(b, testKey, "", testClaims("orders:read")))
		run(b, h, req)
	})
}
