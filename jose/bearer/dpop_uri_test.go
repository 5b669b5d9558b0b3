package bearer

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose/dpop"
)

// TestDPoPURIAbsoluteForm: a request line in absolute form (RFC 9112
// §3.2.2, "GET http://host/api/orders HTTP/1.1", which net/http accepts
// from any client) is checked against the path it carries, as one in
// origin form: behind http.StripPrefix, r.URL's stripped path would let a
// proof made for /orders be used at /api/orders, and refuse the proof the
// client made for the path it addressed.
func TestDPoPURIAbsoluteForm(t *testing.T) {
	prover := newProver(t)
	v := newDPoPVerifier(t)
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
		{"no authority, the URI the client addressed", "http:/api/orders", "http://" + host + "/api/orders", 200},
		{"no authority, the stripped path", "http:/api/orders", "http://" + host + "/orders", 401},
		{"a '#' in the path, the path before it", "/api/orders#x", "http://" + host + "/api/orders", 401},
		{"a '#' in the path, as %23", "/api/orders#x", "http://" + host + "/api/orders%23x", 200},
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
	prover := newProver(t)
	v := newDPoPVerifier(t)
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
	v := newDPoPVerifier(t)
	h := newMiddleware(t, Options{DPoP: v}).Handler(echo)
	req := &http.Request{Method: http.MethodGet, Header: http.Header{"Authorization": {"DPoP " + boundToken(t, "x")}, "Dpop": {"a.b.c"}}}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusBadRequest {
		t.Errorf("status %d, want 400", rec.Code)
	}
}

// TestDPoPURIRequestTargets: the default DPoPURI of each form of request
// line net/http accepts (RFC 9112 §3.2), its path always the request
// line's, never r.URL's (which a handler in front may have stripped, here
// set to "/stripped"): an absolute form without an authority
// ("http:/api/orders", which net/http takes with the Host header's host)
// took r.URL's path; the asterisk form took "*" as part of the host; a
// "#" (no fragment in a request line; net/http keeps it in r.URL.Path,
// "/a#b" routed as the path "a#b") cut the path there, so that a proof for
// /files/a was accepted at /files/a#b. The asterisk and authority forms
// have an empty path (RFC 9112 §3.3); a target with neither a path nor an
// authority ("http:api") has no URI an "htu" can match (400).
func TestDPoPURIRequestTargets(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{"GET /api/orders?x=1 HTTP/1.1", "http://api.example/api/orders"},
		{"GET //double/slash HTTP/1.1", "http://api.example//double/slash"},
		{"GET /a%2Fb HTTP/1.1", "http://api.example/a%2Fb"},
		{"GET /a%23b HTTP/1.1", "http://api.example/a%23b"},
		{"GET /files/a#b HTTP/1.1", "http://api.example/files/a%23b"},
		{"GET /files/a#b?c#d HTTP/1.1", "http://api.example/files/a%23b"},
		{"GET /a?b#c HTTP/1.1", "http://api.example/a"},
		{"GET http://other.example/api/orders HTTP/1.1", "http://other.example/api/orders"},
		{"GET HTTP://other.example/api/orders?x HTTP/1.1", "http://other.example/api/orders"},
		{"GET http://other.example/files/a#b HTTP/1.1", "http://other.example/files/a%23b"},
		{"GET http://other.example HTTP/1.1", "http://other.example/"},
		{"GET http://other.example?x/y HTTP/1.1", "http://other.example/"},
		{"GET http://u@other.example/p HTTP/1.1", "http://other.example/p"},
		{"GET http:/api/orders HTTP/1.1", "http://api.example/api/orders"},
		{"GET x:/api/orders HTTP/1.1", "http://api.example/api/orders"},
		{"GET http:///api/orders HTTP/1.1", "http://api.example/api/orders"},
		{"GET http:/?x HTTP/1.1", "http://api.example/"},
		{"OPTIONS * HTTP/1.1", "http://api.example/"},
		{"GET * HTTP/1.1", "http://api.example/"},
		{"CONNECT other.example:8443 HTTP/1.1", "http://other.example:8443/"},
		{"CONNECT /api/orders HTTP/1.1", "http://api.example/api/orders"},
		{"GET http:api HTTP/1.1", ""},
		{"GET http:?x HTTP/1.1", "http://api.example/"},
	} {
		r, err := http.ReadRequest(bufio.NewReader(strings.NewReader(tt.line + "\r\nHost: api.example\r\n\r\n")))
		if err != nil {
			t.Errorf("%s: net/http refuses it: %v", tt.line, err)
			continue
		}
		r.URL.Path, r.URL.RawPath = "/stripped", ""
		u := requestURI(r)
		got, err := dpop.NormalizeURI(u)
		if got != tt.want || (err != nil) != (tt.want == "") {
			t.Errorf("%s: DPoPURI %q, normalized %q (%v), want %q", tt.line, u, got, err, tt.want)
		}
	}
}
