package bearer

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose/dpop"
	"github.com/josebench/josebench/jose/jwa"
)

// TestDPoPURIAbsoluteForm: a request line in absolute form (RFC 9112
// §3.2.2, "GET http://host/api/orders HTTP/1.1", which net/http accepts
// from any client) is checked against the path it carries, as one in
// origin form: behind http.StripPrefix, r.URL's stripped path would let a
// proof made for /orders be used at /api/orders, and refuse the proof the
// client made for the path it addressed.
func TestDPoPURIAbsoluteForm(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	prover, err := dpop.NewProver(jwa.ES256, key)
	if err != nil {
		t.Fatal(err)
	}
	v, err := dpop.NewVerifier(dpop.VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}})
	if err != nil {
		t.Fatal(err)
	}
	m := newMiddleware(t, Options{DPoP: v})
	mux := http.NewServeMux()
	mux.Handle("/api/", http.StripPrefix("/api", m.Handler(echo)))
	srv := serve(t, mux)
	host := strings.TrimPrefix(srv.URL, "http://")
	tok := boundToken(t, prover.Thumbprint())
	for _, tt := range []struct {
		name, target, htu string
		status            int
	}{
		{"the URI the client addressed", "http://" + host + "/api/orders?page=2", "http://" + host + "/api/orders", 200},
		{"the stripped path", "http://" + host + "/api/orders", "http://" + host + "/orders", 401},
		{"another path", "http://" + host + "/api/orders", "http://" + host + "/api/other", 401},
	} {
		p, err := prover.Proof(http.MethodGet, tt.htu, &dpop.ProofOptions{AccessToken: tok})
		if err != nil {
			t.Fatal(err)
		}
		conn, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		_, err = io.WriteString(conn, "GET "+tt.target+" HTTP/1.1\r\nHost: "+host+"\r\nAuthorization: DPoP "+tok+"\r\nDPoP: "+p+"\r\nConnection: close\r\n\r\n")
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		conn.Close()
		if resp.StatusCode != tt.status {
			t.Errorf("%s: request line GET %s, htu %s: %d, want %d", tt.name, tt.target, tt.htu, resp.StatusCode, tt.status)
		}
	}
}

// TestDPoPURIInProgram: a request made in the program (http.NewRequest,
// no RequestURI, no TLS connection) given to the handler is checked
// against its URL, scheme included: an https URL was checked as http.
func TestDPoPURIInProgram(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	prover, err := dpop.NewProver(jwa.ES256, key)
	if err != nil {
		t.Fatal(err)
	}
	v, err := dpop.NewVerifier(dpop.VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}})
	if err != nil {
		t.Fatal(err)
	}
	h := newMiddleware(t, Options{DPoP: v}).Handler(echo)
	tok := boundToken(t, prover.Thumbprint())
	for _, tt := range []struct {
		url, htu string
		status   int
	}{
		{"https://api.example/orders?x=1", "https://api.example/orders", 200},
		{"http://api.example/orders", "http://api.example/orders", 200},
		{"https://api.example/orders", "http://api.example/orders", 401},
	} {
		req, err := http.NewRequest(http.MethodGet, tt.url, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := prover.Proof(http.MethodGet, tt.htu, &dpop.ProofOptions{AccessToken: tok})
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "DPoP "+tok)
		req.Header.Set("DPoP", p)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tt.status {
			t.Errorf("%s with htu %s: %d, want %d", tt.url, tt.htu, rec.Code, tt.status)
		}
	}
}

// TestDPoPURINoURL: a request made in the program without a URL (the
// Middleware's credential reading allows it) gets a 400, not a panic.
func TestDPoPURINoURL(t *testing.T) {
	v, err := dpop.NewVerifier(dpop.VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}})
	if err != nil {
		t.Fatal(err)
	}
	h := newMiddleware(t, Options{DPoP: v}).Handler(echo)
	req := &http.Request{Method: http.MethodGet, Header: http.Header{"Authorization": {"DPoP " + boundToken(t, "x")}, "Dpop": {"a.b.c"}}}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusBadRequest {
		t.Errorf("status %d, want 400", rec.Code)
	}
}
