package bearer

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose/dpop"
)

// TestDPoPMalformedRequests: the refusals around the DPoP scheme, over a
// loopback server as TestDPoP. A malformed or oversized DPoP credential
// gets the DPoP challenge, not the Bearer one; a request whose scheme
// cannot be told (two Authorization headers, a DPoP header and a query
// token) gets both; a bound token sent as Bearer gets the DPoP challenge
// beside its Bearer error, so the client learns the scheme to use; a Host
// from which no target URI can be built for "htu" is a 400
// invalid_request, not a 401 nor a server error. With DPoPOnly, nothing
// of the Bearer scheme is read: no Bearer header, query or form token,
// and every refusal carries the DPoP challenge alone.
func TestDPoPMalformedRequests(t *testing.T) {
	prover := newProver(t)
	v := newDPoPVerifier(t)
	both := serve(t, newMiddleware(t, Options{Realm: "api", DPoP: v, AllowQuery: true}).Handler(echo))
	only := serve(t, newMiddleware(t, Options{Realm: "api", DPoP: v, DPoPOnly: true}).Handler(echo))
	bound := boundToken(t, prover.Thumbprint())
	unbound := boundToken(t, "")
	emptyJKT := sign(t, testKey, "", map[string]any{
		"iss": testIssuer, "aud": testAudience, "sub": "s", "exp": testNow.Unix() + 3600, "scope": "orders:read",
		"cnf": map[string]string{"jkt": ""},
	})
	huge := strings.Repeat("A", DefaultMaxTokenSize+1)

	const (
		dpopBare     = `DPoP realm="api", algs="ES256"`
		bearerBare   = `Bearer realm="api"`
		dpopMalform  = `DPoP realm="api", algs="ES256", error="invalid_request", error_description="the Authorization header is not one bearer credential"`
		bearerMalfm  = `Bearer realm="api", error="invalid_request", error_description="the Authorization header is not one bearer credential"`
		dpopTooLarge = `DPoP realm="api", algs="ES256", error="invalid_token", error_description="the access token is too large"`
		dpopMany     = `DPoP realm="api", algs="ES256", error="invalid_request", error_description="the access token is sent by more than one method"`
		bearerMany   = `Bearer realm="api", error="invalid_request", error_description="the access token is sent by more than one method"`
		dpopNoProof  = `DPoP realm="api", algs="ES256", error="invalid_dpop_proof", error_description="the DPoP proof is missing or invalid"`
		boundBearer  = `Bearer realm="api", error="invalid_token", error_description="the access token is bound to a key: present it with the DPoP scheme"`
		bearerBad    = `Bearer realm="api", error="invalid_token", error_description="the access token is invalid"`
		dpopBadURI   = `DPoP realm="api", algs="ES256", error="invalid_request", error_description="the request's target URI is malformed"`
	)
	type request struct {
		name    string
		srv     string // "both" or "only"
		method  string
		path    string
		host    string
		authz   []string
		proof   bool // a valid proof for the request and the DPoP token
		body    string
		status  int
		answers []string
	}
	for _, tt := range []request{
		{name: "DPoP without credential", authz: []string{"DPoP"}, status: 400, answers: []string{dpopMalform}},
		{name: "DPoP with spaces only", authz: []string{"DPoP    "}, status: 400, answers: []string{dpopMalform}},
		{name: "DPoP too large", authz: []string{"DPoP " + huge}, status: 401, answers: []string{dpopTooLarge}},
		{name: "DPoP not a b64token", authz: []string{"DPoP a,b"}, proof: true, status: 400, answers: []string{dpopMalform}},
		{name: "DPoP token without proof", authz: []string{"DPoP " + bound}, status: 401, answers: []string{dpopNoProof}},
		{name: "two Authorization headers", authz: []string{"DPoP " + bound, "Bearer " + unbound}, status: 400, answers: []string{bearerMalfm, dpopMalform}},
		{name: "DPoP and a query token", authz: []string{"DPoP " + bound}, path: "/?access_token=" + unbound, proof: true, status: 400, answers: []string{bearerMany, dpopMany}},
		{name: "bound token as Bearer", authz: []string{"Bearer " + bound}, status: 401, answers: []string{boundBearer, dpopBare}},
		{name: "empty cnf.jkt as Bearer", authz: []string{"Bearer " + emptyJKT}, status: 401, answers: []string{bearerBad}},
		{name: "Bearer without credential", authz: []string{"Bearer"}, status: 400, answers: []string{bearerMalfm}},
		{name: "port out of range", host: "api.example:99999", authz: []string{"DPoP " + bound}, proof: true, status: 400, answers: []string{dpopBadURI}},
		{name: "malformed percent-encoding in the host", host: "api%zz.example", authz: []string{"DPoP " + bound}, proof: true, status: 400, answers: []string{dpopBadURI}},

		{name: "DPoPOnly: Bearer without credential", srv: "only", authz: []string{"Bearer"}, status: 401, answers: []string{dpopBare}},
		{name: "DPoPOnly: Bearer too large", srv: "only", authz: []string{"Bearer " + huge}, status: 401, answers: []string{dpopBare}},
		{name: "DPoPOnly: Bearer token", srv: "only", authz: []string{"Bearer " + unbound}, status: 401, answers: []string{dpopBare}},
		{name: "DPoPOnly: bound token as Bearer", srv: "only", authz: []string{"Bearer " + bound}, status: 401, answers: []string{dpopBare}},
		{name: "DPoPOnly: query token", srv: "only", path: "/?access_token=" + unbound, status: 401, answers: []string{dpopBare}},
		{name: "DPoPOnly: form token", srv: "only", method: "POST", body: "access_token=" + unbound, status: 401, answers: []string{dpopBare}},
		{name: "DPoPOnly: two Authorization headers", srv: "only", authz: []string{"DPoP " + bound, "Bearer " + unbound}, status: 400, answers: []string{dpopMalform}},
		{name: "DPoPOnly: DPoP too large", srv: "only", authz: []string{"DPoP " + huge}, status: 401, answers: []string{dpopTooLarge}},
		{name: "DPoPOnly: no token", srv: "only", status: 401, answers: []string{dpopBare}},
		{name: "DPoPOnly: DPoP with its proof", srv: "only", authz: []string{"DPoP " + bound}, proof: true, status: 200},
	} {
		t.Run(tt.name, func(t *testing.T) {
			base := both.URL
			if tt.srv == "only" {
				base = only.URL
			}
			if tt.method == "" {
				tt.method = http.MethodGet
			}
			var body io.Reader
			if tt.body != "" {
				body = strings.NewReader(tt.body)
			}
			req, err := http.NewRequest(tt.method, base+tt.path, body)
			if err != nil {
				t.Fatal(err)
			}
			if tt.body != "" {
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			}
			if tt.host != "" {
				req.Host = tt.host
			}
			for _, a := range tt.authz {
				req.Header.Add("Authorization", a)
			}
			if tt.proof {
				u := *req.URL
				u.Host, u.RawQuery = req.Host, ""
				tok := strings.TrimSpace(strings.TrimPrefix(tt.authz[0], "DPoP "))
				htu := u.String()
				if tt.host != "" {
					htu = "http://api.example/" // the proof cannot name the malformed host
				}
				p, err := prover.Proof(tt.method, htu, &dpop.ProofOptions{AccessToken: tok})
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("DPoP", p)
			}
			resp := roundTrip(t, req)
			got := resp.Header.Values("WWW-Authenticate")
			if resp.StatusCode != tt.status || strings.Join(got, "\n") != strings.Join(tt.answers, "\n") {
				t.Errorf("status %d, challenges\n\t%s\nwant %d,\n\t%s", resp.StatusCode, strings.Join(got, "\n\t"), tt.status, strings.Join(tt.answers, "\n\t"))
			}
		})
	}
}

// TestDPoPHeaderKey: the Middleware reads the DPoP proofs under the key
// net/http gives the DPoP header field, whatever its case on the wire.
func TestDPoPHeaderKey(t *testing.T) {
	if k := textproto.CanonicalMIMEHeaderKey("DPoP"); k != dpopHeader {
		t.Errorf("net/http keys the DPoP header as %q, the Middleware reads %q", k, dpopHeader)
	}
}

// TestDPoPHeaderCase: the DPoP header field's name is case-insensitive
// (RFC 9110 §5.1), and net/http files every spelling of it under the key
// the Middleware reads: over a loopback server, one "dpop" line is the
// proof, and a "dpop" line beside a "DPOP" one is two proofs, refused
// (ErrMultipleProofs). A map key net/http never makes ("DPoP", "dpop"),
// set by hand on a request, is no DPoP header: the request is refused
// for want of a proof, whatever that key holds.
func TestDPoPHeaderCase(t *testing.T) {
	prover := newProver(t)
	tok := boundToken(t, prover.Thumbprint())
	var errs []error
	m := newMiddleware(t, Options{Realm: "api", DPoP: newDPoPVerifier(t), OnError: func(w http.ResponseWriter, r *http.Request, e *Error) {
		errs = append(errs, e.Err)
		WriteError(w, r, e)
	}})
	srv := serve(t, m.Handler(echo))
	proof := func(uri string) string {
		p, err := prover.Proof("GET", uri, &dpop.ProofOptions{AccessToken: tok})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	uri := srv.URL + "/orders"
	for _, c := range []struct {
		name   string
		lines  []string
		status int
		want   error
	}{
		{"one dpop line", []string{"dpop"}, 200, nil},
		{"dpop and DPOP lines", []string{"dpop", "DPOP"}, 401, dpop.ErrMultipleProofs},
	} {
		errs = nil
		req, err := http.NewRequest("GET", uri, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "DPoP "+tok)
		for _, name := range c.lines {
			req.Header[name] = []string{proof(uri)} // written as is
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status || c.want != nil && (len(errs) != 1 || !errors.Is(errs[0], c.want)) {
			t.Errorf("%s: %d %v, want %d %v", c.name, resp.StatusCode, errs, c.status, c.want)
		}
	}
	for _, key := range []string{"DPoP", "dpop", "DPOP"} {
		errs = nil
		req := httptest.NewRequest("GET", "https://api.example/orders", nil)
		req.Header.Set("Authorization", "DPoP "+tok)
		req.Header[key] = []string{proof("https://api.example/orders")}
		rec := httptest.NewRecorder()
		m.Handler(echo).ServeHTTP(rec, req)
		if rec.Code != 401 || len(errs) != 1 || !errors.Is(errs[0], dpop.ErrNoProof) {
			t.Errorf("a proof under the map key %q: %d %v, want 401 %v", key, rec.Code, errs, dpop.ErrNoProof)
		}
	}
}
