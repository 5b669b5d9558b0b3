// The document is cached by the state machine of the JWK Set
// (jose/internal/cachedfetch): these tests pin where the Provider's own
// copy of it differed from jwks.Remote's.

package oidc

import (
	"errors"
	"net/http"
	"testing"
	"time"
)

// TestDocumentCooldownFromEnd: the cooldown after a failed fetch of the
// document is counted from the end of the failure, as for the JWK Set
// (jwks TestCooldownFromEnd): a provider that takes 20 s to fail is not
// asked again 10 s after, however long ago the fetch started. (The
// Provider counted it from the start of the fetch, so that with a
// Timeout near RefreshCooldown a failing provider was asked back to
// back.)
func TestDocumentCooldownFromEnd(t *testing.T) {
	idp := newIDP(t, rsaKey(t, "rsa2048.pem", "k1"))
	c := &fakeClock{now: testNow}
	p := newTestProvider(t, idp, c, Options{})
	m, err := p.Metadata(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	const slow = 20 * time.Second
	idp.setDoc(func(w http.ResponseWriter, r *http.Request) {
		c.advance(slow) // the provider takes 20 s to fail
		http.Error(w, "overloaded", http.StatusServiceUnavailable)
	})
	c.advance(time.Hour + time.Minute) // stale: no caching headers, MaxRefreshInterval
	if err := p.Refresh(t.Context()); !errors.Is(err, ErrDiscovery) {
		t.Fatal(err)
	}
	if d := p.untilNext(); d != p.opts.RefreshCooldown {
		t.Fatalf("Run waits %v after a failure, want the cooldown from its end", d)
	}
	// 35 s after the failed fetch started, 15 s after it ended: the
	// stale document is used, without a request.
	c.advance(p.opts.RefreshCooldown - slow + 5*time.Second)
	for range 5 {
		if got, err := p.Metadata(t.Context()); err != nil || got != m {
			t.Fatalf("stale document within the cooldown: %v", err)
		}
		waitFetch(p)
	}
	if n := idp.docHits.Load(); n != 2 {
		t.Fatalf("%d requests within the cooldown of the failed fetch's end, want 2", n)
	}
	// The cooldown from the end has passed: the next call fetches.
	c.advance(p.opts.RefreshCooldown - 5*time.Second)
	idp.setDoc(nil)
	p.Metadata(t.Context())
	waitFetch(p)
	if n, st := idp.docHits.Load(), p.Status(); n != 3 || st.LastError != nil {
		t.Fatalf("after the cooldown: %d requests, %v", n, st.LastError)
	}
}

// TestExpiresWithoutDate: a document with Expires and no Date is fresh
// until Expires, its lifetime counted from when the response arrived
// (RFC 9110 §6.6.1: a response without Date was dated on receipt), as
// for the JWK Set (jwks TestExpiresWithoutDate). (The Provider counted it
// from when the request was sent, so that a provider answering in two
// minutes had its document used two minutes past its Expires.)
func TestExpiresWithoutDate(t *testing.T) {
	idp := newIDP(t, rsaKey(t, "rsa2048.pem", "k1"))
	c := &fakeClock{now: testNow}
	expires := testNow.Add(time.Hour)
	idp.setDoc(func(w http.ResponseWriter, r *http.Request) {
		c.advance(2 * time.Minute) // the provider takes 2 min to answer
		w.Header()["Date"] = nil   // net/http adds none
		w.Header().Set("Expires", expires.Format(http.TimeFormat))
		w.Write(idp.document(idp.srv.URL + "/jwks"))
	})
	p := newTestProvider(t, idp, c, Options{})
	if err := p.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if st := p.Status(); !st.FreshUntil.Equal(expires) || !st.LastFetch.Equal(testNow.Add(2*time.Minute)) {
		t.Fatalf("fresh until %v (fetched %v), want Expires %v", st.FreshUntil, st.LastFetch, expires)
	}
}
