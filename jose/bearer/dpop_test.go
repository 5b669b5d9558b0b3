package bearer

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/dpop"
	"github.com/josebench/josebench/jose/jwa"
)

// dpopClaims are testClaims bound to the key of thumbprint jkt (RFC 9449
// §6.1), or unbound when jkt is "".
type dpopClaims struct {
	*Claims
	Cnf *struct {
		JKT string `json:"jkt"`
	} `json:"cnf,omitempty"`
}

func boundToken(t *testing.T, jkt string) string {
	c := dpopClaims{Claims: testClaims("orders:read")}
	if jkt != "" {
		c.Cnf = &struct {
			JKT string `json:"jkt"`
		}{jkt}
	}
	return sign(t, testKey, "", c)
}

// TestDPoP: the DPoP scheme of RFC 9449 §7 through the middleware, over a
// real loopback server: a bound token with its proof is accepted and the
// handler gets the proof; each refusal gets its DPoP challenge; the nonce
// flow (§8) ends in success; a bound token sent as Bearer is refused
// (§7.2), an unbound one sent as DPoP too (§6.1); a request with no token
// gets both challenges, or only DPoP's with DPoPOnly.
func TestDPoP(t *testing.T) {
	prover := newProver(t)
	otherProver := newProver(t)
	nonces, err := dpop.NewRotatingNonces([]byte("0123456789abcdef0123456789abcdef"), time.Minute, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	newMW := func(t *testing.T, withNonces, only bool) *Middleware {
		opts := dpop.VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256, jwa.EdDSA}}
		if withNonces {
			opts.Nonces = nonces
		}
		v, err := dpop.NewVerifier(opts)
		if err != nil {
			t.Fatal(err)
		}
		return newMiddleware(t, Options{Realm: "api", DPoP: v, DPoPOnly: only, Scopes: []string{"orders:read"}})
	}
	var gotThumb string
	handler := func(m *Middleware) http.Handler {
		return m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if p := ProofFrom(r.Context()); p != nil {
				gotThumb = p.Thumbprint
			} else {
				gotThumb = "none"
			}
			io.WriteString(w, ClaimsFrom(r.Context()).Subject)
		}))
	}
	jkt := prover.Thumbprint()
	bound := boundToken(t, jkt)
	unbound := boundToken(t, "")

	type answer struct {
		status int
		auth   []string
		nonce  bool
	}
	do := func(t *testing.T, url, authz string, proofs ...string) (answer, http.Header) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		if authz != "" {
			req.Header.Set("Authorization", authz)
		}
		for _, p := range proofs {
			req.Header.Add("DPoP", p)
		}
		resp := roundTrip(t, req)
		return answer{resp.StatusCode, resp.Header.Values("WWW-Authenticate"), resp.Header.Get("DPoP-Nonce") != ""}, resp.Header
	}
	proof := func(t *testing.T, p *dpop.Prover, method, url, tok, nonce string) string {
		t.Helper()
		s, err := p.Proof(method, url, &dpop.ProofOptions{AccessToken: tok, Nonce: nonce})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	const (
		dpopBare  = `DPoP realm="api", algs="ES256 EdDSA"`
		bearerNil = `Bearer realm="api"`
		badProof  = `DPoP realm="api", algs="ES256 EdDSA", error="invalid_dpop_proof", error_description="the DPoP proof is missing or invalid"`
		notBound  = `DPoP realm="api", algs="ES256 EdDSA", error="invalid_token", error_description="the access token is not bound to the DPoP proof's key"`
		useNonce  = `DPoP realm="api", algs="ES256 EdDSA", error="use_dpop_nonce", error_description="the DPoP proof must carry the server's nonce"`
		boundBear = `Bearer realm="api", error="invalid_token", error_description="the access token is bound to a key: present it with the DPoP scheme"`
	)

	t.Run("schemes", func(t *testing.T) {
		srv := serve(t, handler(newMW(t, false, false)))
		url := srv.URL + "/orders"
		same := func(name string, got answer, want answer) {
			t.Helper()
			if got.status != want.status || strings.Join(got.auth, "|") != strings.Join(want.auth, "|") || got.nonce != want.nonce {
				t.Errorf("%s:\n got %+v\nwant %+v", name, got, want)
			}
		}
		got, _ := do(t, url, "DPoP "+bound, proof(t, prover, "GET", url, bound, ""))
		same("bound token with its proof", got, answer{200, nil, false})
		if gotThumb != jkt {
			t.Errorf("ProofFrom: thumbprint %q, want %q", gotThumb, jkt)
		}
		got, _ = do(t, url, "dpop "+bound, proof(t, prover, "GET", url, bound, ""))
		same("scheme in lower case", got, answer{200, nil, false})
		got, _ = do(t, url, "DPoP "+bound)
		same("no proof", got, answer{401, []string{badProof}, false})
		p := proof(t, prover, "GET", url, bound, "")
		got, _ = do(t, url, "DPoP "+bound, p, p)
		same("two proofs", got, answer{401, []string{badProof}, false})
		got, _ = do(t, url, "DPoP "+bound, p)
		same("the proof once", got, answer{200, nil, false})
		got, _ = do(t, url, "DPoP "+bound, p)
		same("a replayed proof", got, answer{401, []string{badProof}, false})
		got, _ = do(t, url, "DPoP "+bound, proof(t, prover, "POST", url, bound, ""))
		same("proof of another method", got, answer{401, []string{badProof}, false})
		got, _ = do(t, url, "DPoP "+bound, proof(t, prover, "GET", srv.URL+"/other", bound, ""))
		same("proof of another URI", got, answer{401, []string{badProof}, false})
		got, _ = do(t, url, "DPoP "+bound, proof(t, prover, "GET", url, unbound, ""))
		same("proof for another token (ath)", got, answer{401, []string{badProof}, false})
		got, _ = do(t, url, "DPoP "+bound, proof(t, otherProver, "GET", url, bound, ""))
		same("proof by another key", got, answer{401, []string{notBound}, false})
		got, _ = do(t, url, "DPoP "+unbound, proof(t, prover, "GET", url, unbound, ""))
		same("unbound token as DPoP", got, answer{401, []string{notBound}, false})
		got, _ = do(t, url, "Bearer "+bound)
		same("bound token as Bearer", got, answer{401, []string{boundBear, dpopBare}, false})
		got, _ = do(t, url, "Bearer "+unbound)
		same("unbound token as Bearer", got, answer{200, nil, false})
		if gotThumb != "none" {
			t.Errorf("ProofFrom of a bearer token: %q", gotThumb)
		}
		got, _ = do(t, url, "")
		same("no token", got, answer{401, []string{bearerNil, dpopBare}, false})
	})

	t.Run("DPoPOnly", func(t *testing.T) {
		srv := serve(t, handler(newMW(t, false, true)))
		url := srv.URL + "/orders"
		if got, _ := do(t, url, "Bearer "+unbound); got.status != 401 || strings.Join(got.auth, "|") != dpopBare {
			t.Errorf("bearer token with DPoPOnly: %+v", got)
		}
		if got, _ := do(t, url, "DPoP "+bound, proof(t, prover, "GET", url, bound, "")); got.status != 200 {
			t.Errorf("DPoP token with DPoPOnly: %+v", got)
		}
	})

	t.Run("nonce", func(t *testing.T) {
		srv := serve(t, handler(newMW(t, true, false)))
		url := srv.URL + "/orders"
		got, h := do(t, url, "DPoP "+bound, proof(t, prover, "GET", url, bound, ""))
		if got.status != 401 || strings.Join(got.auth, "|") != useNonce || !got.nonce {
			t.Fatalf("proof without the nonce: %+v", got)
		}
		got, _ = do(t, url, "DPoP "+bound, proof(t, prover, "GET", url, bound, h.Get("DPoP-Nonce")))
		if got.status != 200 {
			t.Errorf("proof with the server's nonce: %+v", got)
		}
	})

	t.Run("options", func(t *testing.T) {
		v := newDPoPVerifier(t)
		for _, o := range []Options{
			{Validator: testValidator(t), DPoPOnly: true},
			{Validator: testValidator(t), DPoPOnly: true, DPoP: v, AllowForm: true},
			{Validator: testValidator(t), DPoPOnly: true, DPoP: v, AllowQuery: true},
		} {
			if _, err := New(o); err == nil {
				t.Errorf("New(%+v) accepted", o)
			}
		}
	})
}

// TestDPoPErrorHook: OnError gets the DPoP Verifier's *dpop.Error as Err.
func TestDPoPErrorHook(t *testing.T) {
	v := newDPoPVerifier(t)
	var got *Error
	m := newMiddleware(t, Options{DPoP: v, OnError: func(w http.ResponseWriter, r *http.Request, e *Error) {
		got = e
		WriteError(w, r, e)
	}})
	srv := serve(t, m.Handler(echo))
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	// A token bound to a key: an unbound one is refused before the proof
	// is read (TestDPoPTokenFirst).
	req.Header.Set("Authorization", "DPoP "+boundToken(t, newProver(t).Thumbprint()))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got == nil || got.Code != dpop.CodeInvalidProof || !errors.Is(got, dpop.ErrNoProof) {
		t.Fatalf("OnError got %+v", got)
	}
}
