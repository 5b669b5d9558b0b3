package dpop

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/jwa"
)

// resourceHandler is a small resource server over a Verifier: a DPoP
// access token (the token is its own cnf.jkt, for the test) with its proof,
// answered as RFC 9449 §7.1 and §9 say.
func resourceHandler(v *Verifier) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		uri := "http://" + r.Host + r.URL.EscapedPath()
		challenge := func(e *Error) {
			if e.Nonce != "" {
				w.Header().Set("DPoP-Nonce", e.Nonce)
			}
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`DPoP error=%q, algs="ES256"`, e.Code))
			w.WriteHeader(http.StatusUnauthorized)
		}
		jkt := strings.TrimPrefix(token, "bound-to-") // the test's stand-in for the token's cnf.jkt
		if strings.EqualFold(scheme, "Bearer") {
			var e *Error
			if errors.As(CheckBearer(jkt), &e) {
				challenge(e)
				return
			}
		}
		p, err := v.Check(r.Context(), r.Header.Values("DPoP"), r.Method, uri, token)
		if err == nil {
			err = CheckBinding(jkt, p)
		}
		var e *Error
		switch {
		case errors.As(err, &e):
			challenge(e)
		case err != nil:
			w.WriteHeader(http.StatusInternalServerError)
		default:
			n, _ := v.Nonce(r.Context())
			w.Header().Set("DPoP-Nonce", n)
			io.WriteString(w, "hello "+p.Thumbprint)
		}
	})
}

// TestNonceFlowHTTP runs the nonce flow of RFC 9449 §9 over HTTP: the
// first request, without a nonce, is refused with use_dpop_nonce and a
// DPoP-Nonce; the retry with it succeeds; a replay of it is refused; once
// the nonce is two periods old a proof with it is refused again with a
// fresh nonce. A bound token presented as Bearer is refused (§7.2).
func TestNonceFlowHTTP(t *testing.T) {
	now := time.Now()
	clock := func() time.Time { return now }
	nonces, err := NewRotatingNonces(nil, time.Minute, clock)
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewVerifier(VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, Nonces: nonces, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(resourceHandler(v))
	defer srv.Close()
	prover := newProver(t, jwa.ES256, ecKey(t))
	token := "bound-to-" + prover.Thumbprint()
	url := srv.URL + "/resource?page=1"

	send := func(scheme, nonce string, proofs ...string) *http.Response {
		t.Helper()
		req, _ := http.NewRequestWithContext(context.Background(), "GET", url, nil)
		req.Header.Set("Authorization", scheme+" "+token)
		for _, p := range proofs {
			req.Header.Add("DPoP", p)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	proof := func(nonce string) string {
		t.Helper()
		p, err := prover.Proof("GET", url, &ProofOptions{AccessToken: token, Nonce: nonce, IssuedAt: now})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	wantStatus := func(resp *http.Response, status int, code string) {
		t.Helper()
		if resp.StatusCode != status {
			t.Fatalf("status %d, want %d", resp.StatusCode, status)
		}
		if code != "" && !strings.Contains(resp.Header.Get("WWW-Authenticate"), `error="`+code+`"`) {
			t.Errorf("WWW-Authenticate %q, want error %s", resp.Header.Get("WWW-Authenticate"), code)
		}
	}

	resp := send("DPoP", "", proof(""))
	wantStatus(resp, http.StatusUnauthorized, CodeUseNonce)
	nonce := resp.Header.Get("DPoP-Nonce")
	if nonce == "" {
		t.Fatal("no DPoP-Nonce")
	}
	retry := proof(nonce)
	wantStatus(send("DPoP", nonce, retry), http.StatusOK, "")
	wantStatus(send("DPoP", nonce, retry), http.StatusUnauthorized, CodeInvalidProof) // replay
	wantStatus(send("DPoP", nonce), http.StatusUnauthorized, CodeInvalidProof)        // no proof
	wantStatus(send("DPoP", nonce, proof(nonce), proof(nonce)), http.StatusUnauthorized, CodeInvalidProof)
	wantStatus(send("Bearer", ""), http.StatusUnauthorized, CodeInvalidToken)
	other := newProver(t, jwa.ES256, ecKey(t))
	p, _ := other.Proof("GET", url, &ProofOptions{AccessToken: token, Nonce: nonce, IssuedAt: now})
	wantStatus(send("DPoP", nonce, p), http.StatusUnauthorized, CodeInvalidToken) // another key

	now = now.Add(2 * time.Minute)
	resp = send("DPoP", nonce, proof(nonce))
	wantStatus(resp, http.StatusUnauthorized, CodeUseNonce)
	if fresh := resp.Header.Get("DPoP-Nonce"); fresh == "" || fresh == nonce {
		t.Fatalf("DPoP-Nonce %q after rotation", fresh)
	}
	wantStatus(send("DPoP", "", proof(resp.Header.Get("DPoP-Nonce"))), http.StatusOK, "")
}
