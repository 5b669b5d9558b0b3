package jwks

import (
	"net/http"
	"testing"
	"time"
)

// TestExpiresWithoutDate: a set with Expires and no Date is fresh until
// Expires, its lifetime counted from when the response arrived (RFC 9110
// §6.6.1: a response without Date was dated on receipt), not from when
// the request was sent.
func TestExpiresWithoutDate(t *testing.T) {
	k := newECKey(t, "k1")
	body := setJSON(t, k)
	clk := newClock()
	expires := clk.Now().Add(time.Hour)
	p := newProvider(t, false, func(w http.ResponseWriter, r *http.Request) {
		clk.Add(2 * time.Minute) // the provider takes 2 min to answer
		w.Header()["Date"] = nil // net/http adds none
		w.Header().Set("Expires", expires.Format(http.TimeFormat))
		w.Write(body)
	})
	r := newRemote(t, p, clk, Options{})
	if err := r.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if st := r.Status(); !st.FreshUntil.Equal(expires) {
		t.Fatalf("fresh until %v (fetched %v), want Expires %v", st.FreshUntil, st.LastFetch, expires)
	}
}
