package jwks

import (
	"errors"
	"net/http"
	"strconv"
	"testing"
)

// TestRequestsCountsRedirects: Status().Requests counts the HTTP requests
// sent, each redirect one, not fetches, with the default client and with
// the caller's (issue 18, finding 8c).
func TestRequestsCountsRedirects(t *testing.T) {
	k := newECKey(t, "k1")
	body := setJSON(t, k)
	for _, c := range []struct {
		name      string
		redirects int // before the set; -1: for ever
		ok        bool
	}{{"3 redirects", 3, true}, {"redirect loop", -1, false}} {
		for _, plain := range []bool{false, true} { // the caller's client, the default one
			t.Run(c.name+"/plain "+strconv.FormatBool(plain), func(t *testing.T) {
				p := newProvider(t, plain, nil)
				p.set(func(w http.ResponseWriter, req *http.Request) {
					n, _ := strconv.Atoi(req.URL.Query().Get("n"))
					if c.redirects < 0 || n < c.redirects {
						http.Redirect(w, req, "/jwks.json?n="+strconv.Itoa(n+1), http.StatusFound)
						return
					}
					w.Write(body)
				})
				r := newRemote(t, p, newClock(), Options{})
				if r.ownClient != plain {
					t.Fatalf("own client %v", r.ownClient)
				}
				err := r.Refresh(t.Context())
				if (err == nil) != c.ok || (err != nil && !errors.Is(err, ErrFetch)) {
					t.Fatalf("Refresh: %v", err)
				}
				if st, n := r.Status(), p.requests.Load(); st.Requests != n || n < 4 {
					t.Fatalf("Status().Requests %d, the provider saw %d", st.Requests, n)
				}
			})
		}
	}
}
