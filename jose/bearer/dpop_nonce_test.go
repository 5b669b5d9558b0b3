package bearer

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/dpop"
	"github.com/josebench/josebench/jose/jwa"
)

// TestDPoPNonceOnSuccess: with a nonce source, an accepted DPoP request's
// response carries the current nonce (RFC 9449 §8.2), so that a client
// moves to the next nonce while its own is still valid, and never has to
// be refused with use_dpop_nonce once it has one; end to end over
// net/http, the nonces rotating with a clock the test moves. A bearer
// request, and a DPoP request to a server without a nonce source, get no
// DPoP-Nonce.
func TestDPoPNonceOnSuccess(t *testing.T) {
	prover := newProver(t)
	var clock atomic.Int64
	clock.Store(time.Now().Truncate(time.Minute).UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()) }
	nonces, err := dpop.NewRotatingNonces([]byte("0123456789abcdef0123456789abcdef"), time.Minute, now)
	if err != nil {
		t.Fatal(err)
	}
	newServer := func(src dpop.NonceSource) string {
		v, err := dpop.NewVerifier(dpop.VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, Nonces: src, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		return serve(t, newMiddleware(t, Options{DPoP: v}).Handler(echo)).URL + "/orders"
	}
	url := newServer(nonces)
	bound, unbound := boundToken(t, prover.Thumbprint()), boundToken(t, "")
	do := func(t *testing.T, url, scheme, tok, nonce string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", scheme+" "+tok)
		if scheme == "DPoP" {
			p, err := prover.Proof(http.MethodGet, url, &dpop.ProofOptions{AccessToken: tok, Nonce: nonce, IssuedAt: now()})
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("DPoP", p)
		}
		resp := roundTrip(t, req)
		return resp.StatusCode, resp.Header.Get("DPoP-Nonce")
	}

	status, n1 := do(t, url, "DPoP", bound, "")
	if status != 401 || n1 == "" {
		t.Fatalf("proof without a nonce: %d, DPoP-Nonce %q", status, n1)
	}
	status, got := do(t, url, "DPoP", bound, n1)
	if status != 200 || got != n1 {
		t.Errorf("proof with the nonce: %d, DPoP-Nonce %q, want 200 and %q", status, got, n1)
	}
	// The next period: n1 is still accepted, and the answer gives n2.
	clock.Add(int64(time.Minute))
	status, n2 := do(t, url, "DPoP", bound, n1)
	if status != 200 || n2 == "" || n2 == n1 {
		t.Fatalf("proof with the previous nonce: %d, DPoP-Nonce %q (previous %q), want 200 and a new nonce", status, n2, n1)
	}
	// One period more: n1 has expired, but the client moved to n2 and is
	// not refused.
	clock.Add(int64(time.Minute))
	if status, _ := do(t, url, "DPoP", bound, n1); status != 401 {
		t.Errorf("proof with an expired nonce: %d, want 401", status)
	}
	status, n3 := do(t, url, "DPoP", bound, n2)
	if status != 200 || n3 == "" || n3 == n2 {
		t.Errorf("proof with the nonce of the last answer: %d, DPoP-Nonce %q", status, n3)
	}
	if status, got := do(t, url, "Bearer", unbound, ""); status != 200 || got != "" {
		t.Errorf("bearer request: %d, DPoP-Nonce %q, want 200 and none", status, got)
	}
	if status, got := do(t, newServer(nil), "DPoP", bound, ""); status != 200 || got != "" {
		t.Errorf("DPoP request without a nonce source: %d, DPoP-Nonce %q, want 200 and none", status, got)
	}
}

// TestDPoPURIAsReceived: the default target URI is the request's as the
// client sent it, so that a Middleware mounted behind http.StripPrefix,
// which rewrites r.URL, checks "htu" against the path the client
// addressed (RFC 9449 §4.3 check 9), not the handler's.
func TestDPoPURIAsReceived(t *testing.T) {
	prover := newProver(t)
	v := newDPoPVerifier(t)
	m := newMiddleware(t, Options{DPoP: v})
	mux := http.NewServeMux()
	mux.Handle("/api/", http.StripPrefix("/api", m.Handler(echo)))
	srv := serve(t, mux)
	tok := boundToken(t, prover.Thumbprint())
	for _, tt := range []struct {
		name, target, htu string
		status            int
	}{
		{"the URI the client addressed", "/api/orders?page=2", "/api/orders", 200},
		{"escaped as sent", "/api/or%64ers", "/api/orders", 200},
		{"the stripped path", "/api/orders", "/orders", 401},
		{"another path", "/api/orders", "/api/other", 401},
	} {
		req, err := http.NewRequest(http.MethodGet, srv.URL+tt.target, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := prover.Proof(http.MethodGet, srv.URL+tt.htu, &dpop.ProofOptions{AccessToken: tok})
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "DPoP "+tok)
		req.Header.Set("DPoP", p)
		resp := roundTrip(t, req)
		if resp.StatusCode != tt.status {
			t.Errorf("%s: request %s with htu %s: %d, want %d", tt.name, tt.target, tt.htu, resp.StatusCode, tt.status)
		}
	}
}
