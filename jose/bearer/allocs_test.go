package bearer

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/dpop"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
)

// The Middleware's own cost: at most three allocations per request beyond
// the Validator's, with an HS256 token from the Authorization header.
func TestAllocs(t *testing.T) {
	tok := sign(t, testKey, "", testClaims("read write"))
	v := testValidator(t)
	m := newMiddleware(t, Options{Validator: v, Scopes: []string{"write"}})
	var ok int
	h := m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ClaimsFrom(r.Context()) != nil {
			ok++
		}
	}))
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	rec := httptest.NewRecorder()
	through := testing.AllocsPerRun(200, func() { h.ServeHTTP(rec, req) })
	if rec.Code != 200 || ok == 0 {
		t.Fatalf("the request was refused: %d %q", rec.Code, rec.Body)
	}
	btok := []byte(tok)
	ctx := req.Context()
	alone := testing.AllocsPerRun(200, func() {
		var c Claims
		if _, err := v.ValidateContext(ctx, btok, &c); err != nil {
			t.Fatal(err)
		}
	})
	if through-alone > 3 {
		t.Errorf("the middleware allocates %v times per request, the Validator alone %v: %v more, want at most 3", through, alone, through-alone)
	}
	t.Logf("allocations per request: %v through the middleware, %v for the Validator alone", through, alone)
}

// TestDPoPAllocs: the Middleware's own cost on a DPoP request (RFC 9449
// §7.1), beyond the proof's check and the token's validation: at most 6
// allocations (measured: 6; among them the claims' context and the
// request's copy carrying it, the target URI, the token's copy for the
// Validator and the "jkt" read from "cnf"), with an HS256 token bound to
// an ES256 proof, the replay store remembering nothing so that one proof
// serves every request.
func TestDPoPAllocs(t *testing.T) {
	const uri = "https://api.example/orders"
	prover := newProver(t)
	tok := boundToken(t, prover.Thumbprint())
	proof, err := prover.Proof(http.MethodGet, uri, &dpop.ProofOptions{AccessToken: tok, IssuedAt: testNow})
	if err != nil {
		t.Fatal(err)
	}
	dv, err := dpop.NewVerifier(dpop.VerifierOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.ES256},
		Replay:     noReplay{},
		Now:        func() time.Time { return testNow },
	})
	if err != nil {
		t.Fatal(err)
	}
	v := testValidator(t)
	var ok int
	h := newMiddleware(t, Options{Validator: v, DPoP: dv}).Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ClaimsFrom(r.Context()) != nil && ProofFrom(r.Context()) != nil {
			ok++
		}
	}))
	req := httptest.NewRequest(http.MethodGet, uri, nil)
	req.Header.Set("Authorization", "DPoP "+tok)
	req.Header.Set("DPoP", proof)
	rec := httptest.NewRecorder()
	through := testing.AllocsPerRun(50, func() { h.ServeHTTP(rec, req) })
	if rec.Code != 200 || ok == 0 {
		t.Fatalf("the request was refused: %d %q", rec.Code, rec.Header().Values("WWW-Authenticate"))
	}
	ctx := req.Context()
	check := testing.AllocsPerRun(50, func() {
		if _, err := dv.Check(ctx, []string{proof}, http.MethodGet, uri, tok); err != nil {
			t.Fatal(err)
		}
	})
	btok := []byte(tok)
	alone := testing.AllocsPerRun(50, func() {
		var c Claims
		if _, err := v.ValidateContext(ctx, btok, &c); err != nil {
			t.Fatal(err)
		}
	})
	if own := through - check - alone; own > 6 && !vectortest.RaceEnabled {
		t.Errorf("a DPoP request allocates %v times through the middleware, the proof's check %v, the token's validation %v: %v of the middleware's own, want at most 6", through, check, alone, own)
	}
	t.Logf("allocations per DPoP request: %v through the middleware, %v the proof's check, %v the token's validation", through, check, alone)
}
