package oidc

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/httpfetch"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// testNow is the fixed clock of the tests; tokens are issued at it.
var testNow = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

const testClient = "my-app"

// rsaKey loads a fixed RSA key of testdata/keys (no RSA generation in
// tests) with kid.
func rsaKey(t testing.TB, file, kid string) *jose.JWK {
	t.Helper()
	data, err := os.ReadFile("../../testdata/keys/" + file)
	if err != nil {
		t.Fatal(err)
	}
	k, err := jose.ParseKeyPEM(data)
	if err != nil {
		t.Fatal(err)
	}
	k.KeyID, k.Use = kid, "sig"
	return k
}

// idp is an OpenID provider on an httptest TLS server on the loopback: it
// serves its discovery document and its JWK Set, which the test rotates,
// and counts the requests of each.
type idp struct {
	srv        *httptest.Server
	docHits    atomic.Int64
	keyHits    atomic.Int64
	mu         sync.Mutex
	doc        http.HandlerFunc // nil: the standard document
	keys       []*jose.JWK      // published (public halves)
	docHeaders []string
}

func newIDP(t testing.TB, keys ...*jose.JWK) *idp {
	p := &idp{}
	for _, k := range keys {
		p.keys = append(p.keys, k.Public())
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		p.docHits.Add(1)
		p.mu.Lock()
		h, hdr := p.doc, p.docHeaders
		p.mu.Unlock()
		if h != nil {
			h(w, r)
			return
		}
		for i := 0; i+1 < len(hdr); i += 2 {
			w.Header().Set(hdr[i], hdr[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(p.document(p.srv.URL + "/jwks"))
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		p.keyHits.Add(1)
		p.mu.Lock()
		body, err := (&jose.Set{Keys: p.keys}).MarshalJSON()
		p.mu.Unlock()
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		w.Header().Set("Content-Type", "application/jwk-set+json")
		w.Write(body)
	})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	p.srv = httptest.NewUnstartedServer(mux)
	p.srv.Config.ErrorLog = log.New(io.Discard, "", 0) // broken connections are expected
	p.srv.StartTLS()
	t.Cleanup(p.srv.Close)
	return p
}

// document is the provider's discovery document with jwksURI.
func (p *idp) document(jwksURI string) []byte {
	b, _ := json.Marshal(map[string]any{
		"issuer":                                p.srv.URL,
		"authorization_endpoint":                p.srv.URL + "/authorize",
		"token_endpoint":                        p.srv.URL + "/token",
		"jwks_uri":                              jwksURI,
		"response_types_supported":              []string{"code"},
		"subject_types_supported":               []string{"public"},
		"id_token_signing_alg_values_supported": []string{"RS256", "ES256"},
		"scopes_supported":                      []string{"openid", "email"},
		"unknown_member":                        map[string]any{"nested": true},
	})
	return b
}

func (p *idp) setDoc(h http.HandlerFunc) {
	p.mu.Lock()
	p.doc = h
	p.mu.Unlock()
}

func (p *idp) publish(keys ...*jose.JWK) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.keys = nil
	for _, k := range keys {
		p.keys = append(p.keys, k.Public())
	}
}

// client is the default client of a Provider, trusting the test server's
// certificate.
func (p *idp) client(allowHTTP bool) *http.Client {
	c := httpfetch.NewClient(10*time.Second, allowHTTP)
	c.Transport.(*http.Transport).TLSClientConfig = p.srv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	return c
}

// options are Options trusting the test server's certificate.
func (p *idp) options() Options {
	return Options{Client: p.client(false)}
}

// sign signs claims (a JSON object) with key and alg, with header typ.
func sign(t testing.TB, key *jose.JWK, alg jwa.SignatureAlgorithm, typ string, claims string) []byte {
	t.Helper()
	s, err := jws.NewSigner(alg, key, &jws.SignerOptions{Type: typ})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := s.Compact([]byte(claims))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// claims returns a valid ID token's claims set for p, issued at testNow,
// with extra members appended (",\"nonce\":\"n\"").
func (p *idp) claims(extra string) string {
	return fmt.Sprintf(`{"iss":%q,"sub":"alice","aud":%q,"exp":%d,"iat":%d%s}`,
		p.srv.URL, testClient, testNow.Add(time.Hour).Unix(), testNow.Unix(), extra)
}

// fakeClock is the clock of a Provider under test, with its expiry timers
// fired by hand.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []func()
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// advance moves the clock and fires the timers that are due (all of them:
// the tests advance past every lifetime they set).
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	timers := c.timers
	c.timers = nil
	c.mu.Unlock()
	for _, f := range timers {
		f()
	}
}

func (c *fakeClock) afterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.timers = append(c.timers, f)
	return func() bool { return true }
}

// newTestProvider returns a Provider of p (not fetched) on clock c.
func newTestProvider(t testing.TB, p *idp, c *fakeClock, opts Options) *Provider {
	t.Helper()
	if opts.Client == nil {
		opts.Client = p.client(opts.AllowHTTP)
	}
	if opts.Keys.RefreshCooldown == 0 {
		opts.Keys.RefreshCooldown = time.Nanosecond // rotation picked up at once
	}
	prov, err := NewProvider(p.srv.URL, opts)
	if err != nil {
		t.Fatal(err)
	}
	if c != nil {
		prov.now, prov.afterFunc = c.Now, c.afterFunc
	}
	t.Cleanup(func() { prov.Close() })
	return prov
}

// untilNext returns how long Run waits before its next fetch.
func (p *Provider) untilNext() time.Duration { return p.fetches.UntilNext() }
