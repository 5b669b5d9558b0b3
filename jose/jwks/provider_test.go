package jwks

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/testclock"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// provider is a JWK Set endpoint on a real httptest server on the
// loopback. Its behaviour is the handler of the moment; it counts requests
// and keeps the headers of the last one.
type provider struct {
	srv      *httptest.Server
	requests atomic.Int64

	mu      sync.Mutex
	handler http.HandlerFunc
	last    http.Header
}

// newProvider starts a provider serving h over TLS, or over plain HTTP
// when plain; it is closed when the test ends.
func newProvider(t testing.TB, plain bool, h http.HandlerFunc) *provider {
	p := &provider{handler: h}
	serve := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.requests.Add(1)
		p.mu.Lock()
		p.last = r.Header.Clone()
		h := p.handler
		p.mu.Unlock()
		h(w, r)
	})
	p.srv = httptest.NewUnstartedServer(serve)
	// Tests that cancel or close mid-request make the server log the
	// broken connections; they are expected.
	p.srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	if plain {
		p.srv.Start()
	} else {
		p.srv.StartTLS()
	}
	t.Cleanup(p.srv.Close)
	return p
}

func (p *provider) set(h http.HandlerFunc) {
	p.mu.Lock()
	p.handler = h
	p.mu.Unlock()
}

func (p *provider) lastHeader() http.Header {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last
}

// serveSet returns a handler that writes body with the header pairs hdr.
func serveSet(body []byte, hdr ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(hdr); i += 2 {
			w.Header().Set(hdr[i], hdr[i+1])
		}
		w.Header().Set("Content-Type", "application/jwk-set+json")
		w.Write(body)
	}
}

// clock is the settable time source of these tests ([testclock.Clock]):
// its timers fire when Add moves the time past them.
type clock = testclock.Clock

func newClock() *clock { return testclock.New() }

// newRemote returns a Remote for p (the TLS client of p's server, or the
// default client for a plain server) on clock c (nil: real time), closed
// when the test ends.
func newRemote(t testing.TB, p *provider, c *clock, opts Options) *Remote {
	t.Helper()
	if p.srv.TLS != nil && opts.Client == nil {
		opts.Client = p.srv.Client()
	}
	if p.srv.TLS == nil {
		opts.AllowHTTP = true
	}
	r, err := New(p.srv.URL+"/jwks.json", opts)
	if err != nil {
		t.Fatal(err)
	}
	if c != nil {
		r.now, r.afterFunc = c.Now, c.AfterFunc
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// ecKey is a P-256 signing key published under kid.
type ecKey struct {
	kid  string
	priv *ecdsa.PrivateKey
}

func newECKey(t testing.TB, kid string) ecKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return ecKey{kid, k}
}

// setJSON returns the published JWK Set of keys.
func setJSON(t testing.TB, keys ...ecKey) []byte {
	t.Helper()
	s := &jose.Set{Keys: []*jose.JWK{}}
	for _, k := range keys {
		s.Keys = append(s.Keys, &jose.JWK{Key: &k.priv.PublicKey, KeyID: k.kid, Use: "sig", Algorithm: "ES256"})
	}
	b, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// token returns an ES256 compact JWS signed by k, with its kid unless
// noKid.
func (k ecKey) token(t testing.TB, noKid bool) []byte {
	t.Helper()
	opts := &jws.SignerOptions{KeyID: k.kid}
	if noKid {
		opts.KeyID = ""
	}
	s, err := jws.NewSigner(jwa.ES256, k.priv, opts)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := s.Compact([]byte(`{"sub":"alice"}`))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// verifier returns an ES256 jws.Verifier over r.
func verifier(t testing.TB, r *Remote) *jws.Verifier {
	t.Helper()
	v, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, KeyFunc: r.KeyFunc})
	if err != nil {
		t.Fatal(err)
	}
	return v
}
