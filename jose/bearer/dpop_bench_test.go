package bearer

import (
	"context"
	"crypto"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
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

// discardWriter is an http.ResponseWriter that keeps the header of the
// last answer only, so that a benchmark of refusals measures them, not a
// recorder's growth.
type discardWriter struct {
	h    http.Header
	code int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardWriter) WriteHeader(code int)        { w.code = code }

// BenchmarkDPoPForgedToken measures the refusal of a forged access token
// (HS256 under another key, bound to the proof's key) presented with a
// valid proof, ES256 or PS256 with the costliest RSA key the Verifier
// allows (4096 bits, e = 2^31-1), beside the same token with no proof
// ("noproof"): the cost of a request without a valid token. To compare
// two builds, interleave their test binaries:
//
//	go test -c -o bearer.test ./jose/bearer
//	for i in 1 2 3 4 5 6; do ./bearer.test -test.run '^$' -test.bench DPoPForgedToken -test.benchmem; done
func BenchmarkDPoPForgedToken(b *testing.B) {
	const uri = "https://api.example/orders"
	data, err := os.ReadFile("../../testdata/keys/rsa4096-e2147483647.pem")
	if err != nil {
		b.Fatal(err)
	}
	rk, err := jose.ParseKeyPEM(data)
	if err != nil {
		b.Fatal(err)
	}
	rsaProver, err := dpop.NewProver(jwa.PS256, rk.Key.(crypto.Signer))
	if err != nil {
		b.Fatal(err)
	}
	dv, err := dpop.NewVerifier(dpop.VerifierOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.ES256, jwa.PS256},
		Replay:     noReplay{},
		Now:        func() time.Time { return testNow },
	})
	if err != nil {
		b.Fatal(err)
	}
	h := newMiddleware(b, Options{DPoP: dv}).Handler(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		b.Fatal("a forged token was accepted")
	}))
	for _, tc := range []struct {
		name   string
		prover *dpop.Prover
	}{{"noproof", newProver(b)}, {"ES256", newProver(b)}, {"PS256-4096", rsaProver}} {
		b.Run(tc.name, func(b *testing.B) {
			c := dpopClaims{Claims: testClaims("orders:read")}
			c.Cnf = &struct {
				JKT string `json:"jkt"`
			}{tc.prover.Thumbprint()}
			tok := sign(b, otherKey, "", c)
			req := httptest.NewRequest(http.MethodGet, uri, nil)
			req.Header.Set("Authorization", "DPoP "+tok)
			if tc.name != "noproof" {
				proof, err := tc.prover.Proof(http.MethodGet, uri, &dpop.ProofOptions{AccessToken: tok, IssuedAt: testNow})
				if err != nil {
					b.Fatal(err)
				}
				req.Header.Set("DPoP", proof)
			}
			w := &discardWriter{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				h.ServeHTTP(w, req)
			}
			if w.code != http.StatusUnauthorized {
				b.Fatalf("answered %d", w.code)
			}
		})
	}
}
