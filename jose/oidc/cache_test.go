package oidc

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwks"
)

// waitFetch waits for the fetch in progress of p, if any, to end (and
// its result to be in use).
func waitFetch(p *Provider) { p.fetches.Wait() }

// TestDocumentCache: the document is used for its max-age within the
// bounds, revalidated with its ETag, fetched again without waiting once
// stale, kept while fetches fail (for MaxStale), and a failure is
// followed by the cooldown.
func TestDocumentCache(t *testing.T) {
	idp := newIDP(t, rsaKey(t, "rsa2048.pem", "k1"))
	var mu sync.Mutex
	etag, body := `"v1"`, idp.document(idp.srv.URL+"/jwks")
	serve := func(e string, b []byte) {
		mu.Lock()
		etag, body = e, b
		mu.Unlock()
	}
	idp.setDoc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		etag, body := etag, body
		mu.Unlock()
		w.Header().Set("Cache-Control", "max-age=600")
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Write(body)
	})
	c := &fakeClock{now: testNow}
	p := newTestProvider(t, idp, c, Options{})
	m1, err := p.Metadata(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if st := p.Status(); !st.FreshUntil.Equal(testNow.Add(10*time.Minute)) || !st.StaleUntil.Equal(testNow.Add(10*time.Minute+6*time.Hour)) {
		t.Fatalf("lifetime %+v", st)
	}
	// Stale: the old document is returned at once, and a fetch (a 304)
	// starts in the background.
	c.advance(11 * time.Minute)
	m2, err := p.Metadata(t.Context())
	if err != nil || m2 != m1 {
		t.Fatalf("stale document: %v", err)
	}
	waitFetch(p)
	if n := idp.docHits.Load(); n != 2 {
		t.Fatalf("%d requests", n)
	}
	if st := p.Status(); st.LastError != nil || !st.FreshUntil.Equal(testNow.Add(21*time.Minute)) {
		t.Fatalf("after 304: %+v", st)
	}
	// A new body with the same content: the same *Metadata.
	serve(`"v2"`, idp.document(idp.srv.URL+"/jwks"))
	c.advance(11 * time.Minute)
	p.Metadata(t.Context())
	waitFetch(p)
	if m3, _ := p.Metadata(t.Context()); m3 != m1 {
		t.Fatal("an identical document was parsed again")
	}
	// A new document naming the same jwks_uri: the same Remote (and its
	// set), not a new one.
	keys0, _ := p.Keys(t.Context())
	serve(`"v2b"`, append(idp.document(idp.srv.URL+"/jwks"), '\n'))
	if err := p.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if m, _ := p.Metadata(t.Context()); m == m1 {
		t.Fatal("a changed document was not parsed")
	}
	if k, _ := p.Keys(t.Context()); k != keys0 {
		t.Fatal("a new Remote for the same jwks_uri")
	}
	// A new document, another jwks_uri: a new Remote; the one before is
	// retired, and closed when the jwks_uri changes again.
	serve(`"v3"`, idp.document(idp.srv.URL+"/jwks?v=2"))
	keys1, _ := p.Keys(t.Context())
	if err := p.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	keys2, _ := p.Keys(t.Context())
	if keys2 == keys1 || keys2.URL() != idp.srv.URL+"/jwks?v=2" {
		t.Fatalf("jwks_uri change: %v %v", keys1.URL(), keys2.URL())
	}
	if _, err := keys1.Get(t.Context(), ""); err != nil {
		t.Fatalf("retired Remote closed at once: %v", err)
	}
	serve(`"v4"`, idp.document(idp.srv.URL+"/jwks?v=3"))
	if err := p.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := keys1.Get(t.Context(), ""); err == nil {
		t.Fatal("the Remote two jwks_uri ago is still open")
	}
	keys3, _ := p.Keys(t.Context())
	// A document for another issuer is refused, and the one in use kept.
	idp.setDoc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"issuer":"https://evil.example","jwks_uri":"https://evil.example/jwks"}`))
	})
	if err := p.Refresh(t.Context()); !errors.Is(err, ErrIssuerMismatch) {
		t.Fatalf("refresh with another issuer: %v", err)
	}
	if m, err := p.Metadata(t.Context()); err != nil || m.Issuer != idp.srv.URL || m.JWKSURI != idp.srv.URL+"/jwks?v=3" {
		t.Fatalf("document in use after a hostile one: %+v, %v", m, err)
	}
	// Failures: the document in use is kept, within MaxStale.
	idp.setDoc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", 503) })
	if err := p.Refresh(t.Context()); !errors.Is(err, ErrDiscovery) {
		t.Fatalf("failed refresh: %v", err)
	}
	c.advance(11 * time.Minute)
	hits := idp.docHits.Load()
	if _, err := p.KeyFuncContext(t.Context(), &jose.Header{}); err != nil {
		t.Fatalf("stale document while the provider is down: %v", err)
	}
	waitFetch(p)
	// Within the cooldown after the failure: no further request.
	for range 5 {
		p.Metadata(t.Context())
	}
	waitFetch(p)
	if n := idp.docHits.Load() - hits; n != 1 {
		t.Fatalf("%d requests within the cooldown", n)
	}
	// Beyond MaxStale: the error of the last fetch.
	c.advance(7 * time.Hour)
	if _, err := p.Metadata(t.Context()); !errors.Is(err, ErrDiscovery) {
		t.Fatalf("beyond MaxStale: %v", err)
	}
	if n := idp.docHits.Load() - hits; n != 2 {
		t.Fatalf("%d requests", n)
	}
	// Within the cooldown again, with no usable document: the last
	// error at once, no request.
	if _, err := p.Metadata(t.Context()); !errors.Is(err, ErrDiscovery) || idp.docHits.Load()-hits != 2 {
		t.Fatalf("within the cooldown: %v", err)
	}
	// Close closes the Remote in use and the one retired.
	p.Close()
	for _, k := range []*jwks.Remote{keys2, keys3} {
		if _, err := k.Get(t.Context(), ""); !errors.Is(err, jwks.ErrClosed) {
			t.Fatalf("%s after Close: %v", k.URL(), err)
		}
	}
}

// TestNoCacheHeaders: a document without freshness headers is used for
// MaxRefreshInterval; one saying no-store for MinRefreshInterval.
func TestNoCacheHeaders(t *testing.T) {
	idp := newIDP(t)
	c := &fakeClock{now: testNow}
	p := newTestProvider(t, idp, c, Options{MaxRefreshInterval: 2 * time.Hour})
	if err := p.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if st := p.Status(); !st.FreshUntil.Equal(testNow.Add(2 * time.Hour)) {
		t.Fatalf("no headers: %+v", st)
	}
	idp.mu.Lock()
	idp.docHeaders = []string{"Cache-Control", "no-store"}
	idp.mu.Unlock()
	if err := p.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if st := p.Status(); !st.FreshUntil.Equal(testNow.Add(5 * time.Minute)) {
		t.Fatalf("no-store: %+v", st)
	}
}

// TestConcurrentVerify: goroutines verifying while the document goes
// stale and is fetched again, and the set rotates (run with -race).
func TestConcurrentVerify(t *testing.T) {
	k1, k2 := rsaKey(t, "rsa2048.pem", "k1"), rsaKey(t, "rsa3072.pem", "k2")
	idp := newIDP(t, k1, k2)
	c := &fakeClock{now: testNow}
	p := newTestProvider(t, idp, c, Options{RefreshCooldown: time.Nanosecond, MinRefreshInterval: time.Nanosecond})
	v, err := NewIDTokenVerifier(p, VerifierOptions{ClientID: testClient, Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	toks := [][]byte{sign(t, k1, jwa.RS256, "", idp.claims("")), sign(t, k2, jwa.RS256, "", idp.claims(""))}
	if err := p.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				if _, err := v.Verify(t.Context(), toks[(g+i)%2], Expect{}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for range 5 {
		c.advance(2 * time.Hour)
		if _, err := p.Metadata(t.Context()); err != nil {
			t.Fatal(err)
		}
		waitFetch(p)
		p.Status()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := idp.docHits.Load(); n != 6 {
		t.Errorf("%d document requests: the stale document was never fetched again", n)
	}
}

// TestRun: Run fetches the document and, through the Remote's Run, the
// set, before any verification; it returns at the end of its context, or
// at Close.
func TestRun(t *testing.T) {
	idp := newIDP(t, rsaKey(t, "rsa2048.pem", "k1"))
	c := &fakeClock{now: testNow}
	p := newTestProvider(t, idp, c, Options{})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	for idp.keyHits.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	if n := idp.docHits.Load(); n != 1 {
		t.Fatalf("%d document requests", n)
	}
	if d := p.untilNext(); d != time.Hour-jwks.DefaultTimeout { // a tenth of the lifetime, at most Timeout
		t.Fatalf("next fetch in %v", d)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v", err)
	}
	// After a failure: the cooldown.
	idp.setDoc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", 500) })
	p.Refresh(t.Context())
	if d := p.untilNext(); d != p.opts.RefreshCooldown {
		t.Fatalf("next fetch after a failure in %v", d)
	}
	// Close ends Run.
	go func() { done <- p.Run(t.Context()) }()
	for p.Status().Requests < 3 {
		time.Sleep(time.Millisecond)
	}
	p.Close()
	if err := <-done; !errors.Is(err, ErrClosed) {
		t.Fatalf("Run across Close: %v", err)
	}
	if err := p.Run(t.Context()); !errors.Is(err, ErrClosed) {
		t.Fatalf("Run after Close: %v", err)
	}
}
