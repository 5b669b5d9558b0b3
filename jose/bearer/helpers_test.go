package bearer

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/dpop"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
	"github.com/josebench/josebench/jose/jwt"
)

// The fixed HS256 key, clock and audience of the tests.
var (
	testKey      = []byte("0123456789abcdef0123456789abcdef")
	otherKey     = []byte("fedcba9876543210fedcba9876543210")
	testNow      = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	testAudience = "https://api.example"
	testIssuer   = "https://issuer.example"
)

func testValidatorOptions(t testing.TB) jwt.ValidatorOptions {
	t.Helper()
	ver, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	return jwt.ValidatorOptions{
		Verifier:  ver,
		Issuers:   []string{testIssuer},
		Audiences: []string{testAudience},
		Now:       func() time.Time { return testNow },
	}
}

func testValidator(t testing.TB) *jwt.Validator {
	t.Helper()
	v, err := jwt.NewValidator(testValidatorOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// testClaims is an access token's claims, valid at testNow for an hour.
func testClaims(scope string) *Claims {
	return &Claims{
		Claims: jwt.Claims{
			Issuer:   testIssuer,
			Subject:  "user-1234",
			Audience: jwt.Audience{testAudience},
			Expiry:   jwt.NewNumericDate(testNow.Add(time.Hour)),
			IssuedAt: jwt.NewNumericDate(testNow.Add(-time.Minute)),
			ID:       "b9c1f3c2-5a4e-4f7e-9d0a-1c2b3d4e5f60",
		},
		Scope:    scope,
		ClientID: "client-42",
	}
}

// sign returns claims signed with key, with the type typ ("": JWT).
func sign(t testing.TB, key []byte, typ string, claims any) string {
	t.Helper()
	s, err := jwt.NewSigner(jwa.HS256, key, &jws.SignerOptions{Type: typ})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := s.Sign(claims)
	if err != nil {
		t.Fatal(err)
	}
	return string(tok)
}

func newMiddleware(t testing.TB, opts Options) *Middleware {
	t.Helper()
	if opts.Validator == nil {
		opts.Validator = testValidator(t)
	}
	m, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// echo is the protected handler of the tests: it answers 200 with the
// subject and the scope of the token.
var echo = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	c := ClaimsFrom(r.Context())
	if c == nil || TokenFrom(r.Context()) == nil {
		http.Error(w, "no claims", http.StatusInternalServerError)
		return
	}
	w.Write([]byte(c.Subject + " " + c.Scope))
})

// serve runs h on a loopback server for the test.
func serve(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// newProver returns a DPoP prover (RFC 9449 §4) with a fresh P-256 key.
func newProver(t testing.TB) *dpop.Prover {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	p, err := dpop.NewProver(jwa.ES256, key)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// newDPoPVerifier returns a DPoP proof verifier (RFC 9449 §4.3) for ES256,
// without nonces and on the real clock.
func newDPoPVerifier(t testing.TB) *dpop.Verifier {
	t.Helper()
	v, err := dpop.NewVerifier(dpop.VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// challengeOf serves a GET of https://api.example/orders with tok under
// scheme ("Bearer" or "DPoP", the latter with prover's proof, RFC 9449 §7.1)
// to h, and returns the status and the WWW-Authenticate values joined by "|".
func challengeOf(t testing.TB, h http.Handler, prover *dpop.Prover, scheme, tok string) (int, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "https://api.example/orders", nil)
	req.Header.Set("Authorization", scheme+" "+tok)
	if scheme == "DPoP" {
		p, err := prover.Proof("GET", "https://api.example/orders", &dpop.ProofOptions{AccessToken: tok})
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("DPoP", p)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, strings.Join(rec.Header().Values("WWW-Authenticate"), "|")
}

// roundTrip sends req with the default client and returns its response,
// the body read and closed.
func roundTrip(t testing.TB, req *http.Request) *http.Response {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// cnfHandlers returns a prover and two protected handlers of realm "api":
// plain without DPoP, withDPoP checking ES256 proofs (RFC 9449 §7.1).
func cnfHandlers(t testing.TB) (prover *dpop.Prover, plain, withDPoP http.Handler) {
	t.Helper()
	prover = newProver(t)
	plain = newMiddleware(t, Options{Realm: "api"}).Handler(echo)
	withDPoP = newMiddleware(t, Options{Realm: "api", DPoP: newDPoPVerifier(t)}).Handler(echo)
	return prover, plain, withDPoP
}
