package oidc

import (
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/internal/vectortest"
)

// TestCloseLeavesNoGoroutine: a Provider whose document named three
// jwks_uri in turn (a Remote retired, one closed by the adoption of the
// third), refreshed by Run (which ran each Remote's Run in turn), leaves
// no goroutine once closed (and the idle connections of its caller's
// client closed).
func TestCloseLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	func() {
		idp := newIDP(t, rsaKey(t, "rsa2048.pem", "k1"))
		defer idp.srv.Close()
		// Run fetches the document every few milliseconds.
		opts := Options{Client: idp.client(false), MinRefreshInterval: 5 * time.Millisecond, MaxRefreshInterval: 5 * time.Millisecond}
		p := newTestProvider(t, idp, nil, opts)
		done := make(chan error, 1)
		go func() { done <- p.Run(t.Context()) }()
		for i := range 3 {
			uri := idp.srv.URL + "/jwks?v=" + string(rune('a'+i))
			idp.setDoc(func(w http.ResponseWriter, r *http.Request) { w.Write(idp.document(uri)) })
			// Run picks it up, and runs its Remote's Run, which
			// fetches the set.
			vectortest.Eventually(t, "Run to fetch the set of "+uri, func() bool {
				st := p.Status()
				return st.Keys.URL == uri && st.Keys.Requests != 0
			})
		}
		p.Close()
		if err := <-done; err != ErrClosed {
			t.Fatalf("Run across Close: %v", err)
		}
		opts.Client.CloseIdleConnections()
	}()
	vectortest.GoroutinesAtMost(t, before)
}
