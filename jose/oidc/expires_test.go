package oidc

import (
	"net/http"
	"testing"
	"time"
)

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
