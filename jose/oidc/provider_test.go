package oidc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwks"
)

func TestWellKnownURL(t *testing.T) {
	for _, c := range []struct {
		issuer string
		kind   WellKnown
		want   string // "": refused
	}{
		{"https://id.example", OpenIDConfiguration, "https://id.example/.well-known/openid-configuration"},
		{"https://id.example/", OpenIDConfiguration, "https://id.example/.well-known/openid-configuration"},
		{"https://id.example/tenant/a", OpenIDConfiguration, "https://id.example/tenant/a/.well-known/openid-configuration"},
		{"https://id.example:8443/t/", OpenIDConfiguration, "https://id.example:8443/t/.well-known/openid-configuration"},
		{"https://id.example", OAuthAuthorizationServer, "https://id.example/.well-known/oauth-authorization-server"},
		{"https://id.example/tenant/a/", OAuthAuthorizationServer, "https://id.example/.well-known/oauth-authorization-server/tenant/a"},
		{"https://id.example", WellKnown(7), ""},
		{"http://id.example", OpenIDConfiguration, ""},
		{"https://id.example?x=1", OpenIDConfiguration, ""},
		{"https://id.example?", OpenIDConfiguration, ""},
		{"https://id.example#f", OpenIDConfiguration, ""},
		{"https://id.example#", OpenIDConfiguration, ""},
		{"https://user:pw@id.example", OpenIDConfiguration, ""},
		{"id.example", OpenIDConfiguration, ""},
		{"ftp://id.example", OpenIDConfiguration, ""},
		{"https://id.example/%zz", OpenIDConfiguration, ""},
	} {
		got, err := wellKnownURL(c.issuer, c.kind, false)
		if c.want == "" {
			if err == nil {
				t.Errorf("%q: accepted as %q", c.issuer, got)
			} else if strings.Contains(err.Error(), "pw") {
				t.Errorf("%q: error shows the password: %v", c.issuer, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q %d: %q, %v; want %q", c.issuer, c.kind, got, err, c.want)
		}
	}
	if got, err := wellKnownURL("http://127.0.0.1:80", OpenIDConfiguration, true); err != nil || got != "http://127.0.0.1:80/.well-known/openid-configuration" {
		t.Errorf("AllowHTTP: %q, %v", got, err)
	}
}

func TestOptions(t *testing.T) {
	for _, o := range []Options{
		{Timeout: -1}, {MinRefreshInterval: -1}, {MaxRefreshInterval: -1}, {RefreshCooldown: -1},
		{MaxDocumentSize: -1}, {MinRefreshInterval: 2 * time.Hour, MaxRefreshInterval: time.Hour},
	} {
		if _, err := NewProvider("https://id.example", o); err == nil || !strings.HasPrefix(err.Error(), "oidc: ") {
			t.Errorf("%+v: %v", o, err)
		}
	}
	p, err := NewProvider("https://id.example", Options{MaxStale: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.opts.MaxStale != 0 || p.opts.Timeout != jwks.DefaultTimeout || p.opts.MaxDocumentSize != DefaultMaxDocumentSize ||
		p.opts.MinRefreshInterval != jwks.DefaultMinRefreshInterval || p.opts.MaxRefreshInterval != jwks.DefaultMaxRefreshInterval ||
		p.opts.RefreshCooldown != jwks.DefaultRefreshCooldown {
		t.Errorf("defaults %+v", p.opts)
	}
	if p.Issuer() != "https://id.example" || p.DocumentURL() != "https://id.example/.well-known/openid-configuration" {
		t.Errorf("Issuer %q DocumentURL %q", p.Issuer(), p.DocumentURL())
	}
	q, _ := NewProvider("https://id.example", Options{})
	defer q.Close()
	if q.opts.MaxStale != jwks.DefaultMaxStale {
		t.Errorf("MaxStale default %v", q.opts.MaxStale)
	}
}

// TestDiscover fetches a real document over TLS and the JWK Set of its
// jwks_uri.
func TestDiscover(t *testing.T) {
	idp := newIDP(t, rsaKey(t, "rsa2048.pem", "k1"))
	p, err := Discover(t.Context(), idp.srv.URL, idp.options())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	m, err := p.Metadata(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if m.Issuer != idp.srv.URL || m.JWKSURI != idp.srv.URL+"/jwks" || m.TokenEndpoint != idp.srv.URL+"/token" ||
		len(m.IDTokenSigningAlgValuesSupported) != 2 || m.ScopesSupported[1] != "email" || len(m.Raw) == 0 {
		t.Fatalf("metadata %+v", m)
	}
	keys, err := p.Keys(t.Context())
	if err != nil || keys.URL() != idp.srv.URL+"/jwks" {
		t.Fatalf("Keys: %v", err)
	}
	set, err := p.KeyFuncContext(t.Context(), &jose.Header{KeyID: "k1"})
	if err != nil || len(set.(*jose.Set).Keys) != 1 {
		t.Fatalf("KeyFuncContext: %v, %v", set, err)
	}
	st := p.Status()
	if st.Requests != 1 || st.LastError != nil || st.Keys.Keys != 1 || st.FreshUntil.IsZero() || st.Issuer != idp.srv.URL {
		t.Fatalf("status %+v", st)
	}
	// Cached: no more requests for the document.
	for range 10 {
		if _, err := p.Metadata(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	if n := idp.docHits.Load(); n != 1 {
		t.Fatalf("%d document requests", n)
	}
	// The fast path allocates nothing.
	h := &jose.Header{KeyID: "k1"}
	ctx := t.Context()
	if a := testing.AllocsPerRun(100, func() { p.KeyFuncContext(ctx, h) }); a != 0 {
		t.Errorf("KeyFuncContext allocates %v times", a)
	}
	p.Close()
	p.Close()
	for _, err := range []error{p.Refresh(t.Context()), func() error { _, err := p.Metadata(t.Context()); return err }()} {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("after Close: %v", err)
		}
	}
	if _, err := Discover(t.Context(), "http://id.example", Options{}); err == nil {
		t.Error("Discover of an http issuer")
	}
}

// TestHostileDocuments: each document is refused with a bounded error
// that wraps ErrDiscovery, and no JWK Set is fetched for it.
func TestHostileDocuments(t *testing.T) {
	idp := newIDP(t, rsaKey(t, "rsa2048.pem", "k1"))
	doc := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }
	}
	iss := idp.srv.URL
	long := strings.Repeat("\u202eA", 5000)
	cases := []struct {
		name string
		h    http.HandlerFunc
		want string
		is   error
	}{
		{"wrong issuer", doc(`{"issuer":"https://evil.example","jwks_uri":"https://evil.example/jwks"}`), `issuer "https://evil.example" is not the configured`, ErrIssuerMismatch},
		{"issuer with a slash", doc(fmt.Sprintf(`{"issuer":%q,"jwks_uri":%q}`, iss+"/", iss+"/jwks")), "is not the configured", ErrIssuerMismatch},
		{"issuer in another case", doc(fmt.Sprintf(`{"issuer":%q,"jwks_uri":%q}`, strings.ToUpper(iss), iss+"/jwks")), "is not the configured", ErrIssuerMismatch},
		{"no issuer", doc(fmt.Sprintf(`{"jwks_uri":%q}`, iss+"/jwks")), `issuer "" is not`, ErrIssuerMismatch},
		{"long issuer", doc(fmt.Sprintf(`{"issuer":%q,"jwks_uri":%q}`, long, iss+"/jwks")), "(20000 bytes)", ErrIssuerMismatch},
		{"issuer not a string", doc(fmt.Sprintf(`{"issuer":["%s"],"jwks_uri":%q}`, iss, iss+"/jwks")), `"issuer"`, jose.ErrMalformed},
		{"duplicate issuer", doc(fmt.Sprintf(`{"issuer":"https://evil.example","issuer":%q,"jwks_uri":%q}`, iss, iss+"/jwks")), "duplicate", nil},
		{"http jwks_uri", doc(fmt.Sprintf(`{"issuer":%q,"jwks_uri":"http://127.0.0.1/jwks"}`, iss)), `jwks_uri "http://127.0.0.1/jwks" is not an absolute https URL`, nil},
		{"relative jwks_uri", doc(fmt.Sprintf(`{"issuer":%q,"jwks_uri":"/jwks"}`, iss)), "is not an absolute https URL", nil},
		{"no jwks_uri", doc(fmt.Sprintf(`{"issuer":%q}`, iss)), "no jwks_uri", nil},
		{"algs not strings", doc(fmt.Sprintf(`{"issuer":%q,"jwks_uri":%q,"id_token_signing_alg_values_supported":"RS256"}`, iss, iss+"/jwks")), "id_token_signing_alg_values_supported", nil},
		{"not an object", doc(`["issuer"]`), "not a metadata document", jose.ErrMalformed},
		{"not JSON", doc("<html>" + long), "not a metadata document", jose.ErrMalformed},
		{"huge by Content-Length", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "100000000")
			w.Write([]byte("{"))
		}, "content length 100000000 exceeds 65536 bytes", jose.ErrLimitExceeded},
		{"huge streamed", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"issuer":"`))
			for i := 0; i < 1000; i++ {
				if _, err := w.Write(make([]byte, 1024)); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}, "body exceeds 65536 bytes", jose.ErrLimitExceeded},
		{"redirect loop", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, r.URL.Path, http.StatusFound)
		}, "stopped after 10 redirects", nil},
		{"redirect to http", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "http://127.0.0.1:1/"+long, http.StatusFound)
		}, "https is required", nil},
		{"status 500", func(w http.ResponseWriter, r *http.Request) { http.Error(w, long, 500) }, "status 500 Internal Server Error", nil},
		{"status 304", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(304) }, "unconditional request", nil},
		{"hostile status line", func(w http.ResponseWriter, r *http.Request) {
			c, _, _ := w.(http.Hijacker).Hijack()
			defer c.Close()
			c.Write([]byte("HTTP/1.1 200 " + strings.Repeat("\x1b[2J", 5000) + "\r\nContent-Length: 2\r\n\r\n{}"))
		}, "(20004 bytes)", ErrIssuerMismatch},
		{"broken body", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "1000")
			w.Write([]byte(`{"issuer":`))
		}, "reading the body", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			idp.setDoc(c.h)
			keyHits := idp.keyHits.Load()
			p := newTestProvider(t, idp, nil, Options{})
			err := p.Refresh(t.Context())
			if !errors.Is(err, ErrDiscovery) || !strings.Contains(err.Error(), c.want) || c.is != nil && !errors.Is(err, c.is) {
				t.Fatalf("err %v, want %q", err, c.want)
			}
			if !strings.HasPrefix(err.Error(), "oidc: GET "+p.DocumentURL()+": ") {
				t.Errorf("err %q does not name the document", err)
			}
			if len(err.Error()) > 600 || strings.ContainsAny(err.Error(), "\x1b\u202e") {
				t.Errorf("unbounded or unescaped error (%d bytes): %q", len(err.Error()), err)
			}
			if _, err := p.Metadata(t.Context()); !errors.Is(err, ErrDiscovery) {
				t.Errorf("Metadata after a failed fetch: %v", err)
			}
			if idp.keyHits.Load() != keyHits {
				t.Error("the JWK Set was fetched")
			}
			if st := p.Status(); !errors.Is(st.LastError, ErrDiscovery) || st.Keys.URL != "" {
				t.Errorf("status %+v", st)
			}
		})
	}
	idp.setDoc(nil)
}

// TestHangingProvider: a provider that never answers holds a call for at
// most its context's deadline (the error wraps it), and a fetch for at
// most Options.Timeout.
func TestHangingProvider(t *testing.T) {
	idp := newIDP(t)
	release := make(chan struct{})
	defer close(release)
	entered := make(chan struct{}, 16)
	idp.setDoc(func(w http.ResponseWriter, r *http.Request) {
		select { // never blocks the server
		case entered <- struct{}{}:
		default:
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	p := newTestProvider(t, idp, nil, Options{Timeout: time.Hour})
	// The deadline passes once the provider has the request (a timer
	// could fire before the call starts the fetch on a slow machine:
	// a done context starts none).
	ctx, expire := vectortest.Expiring()
	errc := make(chan error, 1)
	go func() { _, err := p.KeyFuncContext(ctx, &jose.Header{}); errc <- err }()
	vectortest.Recv(t, entered, "the request for the document")
	expire()
	err := vectortest.Recv(t, errc, "KeyFuncContext to return after its deadline")
	// The error of the call's deadline, not of a fetch (the test client's
	// own timeout of 10 s would end the fetch with a deadline too).
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrDiscovery) || !strings.Contains(err.Error(), "waiting for the document: ") {
		t.Fatalf("err %v", err)
	}
	if st := p.Status(); st.Requests != 1 || !p.Status().LastAttempt.After(time.Time{}) {
		t.Fatalf("status %+v", st)
	}
	// Options.Timeout ends the fetch itself.
	q := newTestProvider(t, idp, nil, Options{Timeout: 50 * time.Millisecond})
	err = q.Refresh(t.Context())
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "within Options.Timeout 50ms") {
		t.Fatalf("err %v", err)
	}
	// A done context starts nothing.
	done, cancel2 := context.WithCancel(t.Context())
	cancel2()
	r := newTestProvider(t, idp, nil, Options{})
	if err := r.Refresh(done); !errors.Is(err, context.Canceled) {
		t.Fatalf("Refresh with a done context: %v", err)
	}
	if _, err := r.Metadata(done); !errors.Is(err, context.Canceled) {
		t.Fatalf("Metadata with a done context: %v", err)
	}
	if r.Status().Requests != 0 {
		t.Fatal("a done context started a fetch")
	}
	// Close during a fetch aborts it; the waiters get ErrClosed.
	s := newTestProvider(t, idp, nil, Options{Timeout: time.Hour})
	errc = make(chan error, 1)
	go func() { errc <- s.Refresh(context.Background()) }()
	vectortest.Eventually(t, "the request for the document", func() bool { return s.Status().Requests != 0 })
	s.Close()
	if err := vectortest.Recv(t, errc, "Refresh to return at Close"); !errors.Is(err, ErrClosed) {
		t.Fatalf("Refresh across Close: %v", err)
	}
}
