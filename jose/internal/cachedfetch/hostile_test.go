package cachedfetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/internal/vectortest"
)

// TestCloseWhileWaiting: Close with callers waiting for a fetch that
// hangs (with their own contexts, with the Cache's, in Refresh) returns,
// every caller returns Closed, and no goroutine of the Cache is left.
func TestCloseWhileWaiting(t *testing.T) {
	before := runtime.NumGoroutine()
	func() {
		entered := make(chan struct{}, 1)
		srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
			select {
			case entered <- struct{}{}:
			default:
			}
			<-r.Context().Done()
		})
		defer srv.srv.Close()
		o := newOwner(t, srv, nil, Config[value]{Timeout: time.Hour})
		errs := make(chan error, 12)
		var waiting [12]<-chan struct{}
		var wg sync.WaitGroup
		for i := range 12 {
			// Each caller's context says when the caller waits for
			// the fetch (it selects on its Done).
			parent := context.Background()
			if i%3 == 1 {
				parent = o.c.Context()
			}
			ctx, w := vectortest.Waiting(t, parent, vectortest.CacheWait)
			waiting[i] = w
			wg.Go(func() {
				if i%3 == 2 {
					errs <- o.c.Refresh(ctx)
					return
				}
				_, err := o.c.Get(ctx, nil)
				errs <- err
			})
		}
		vectortest.Recv(t, entered, "the request of the fetch")
		for i, w := range waiting {
			vectortest.Recv(t, w, fmt.Sprintf("caller %d to wait for the fetch", i))
		}
		o.c.Close(nil)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != errClosed {
				t.Errorf("a caller waiting across Close: %v", err)
			}
		}
		if n := srv.requests.Load(); n != 1 {
			t.Errorf("%d requests for 12 callers", n)
		}
		srv.srv.Client().CloseIdleConnections()
	}()
	vectortest.GoroutinesAtMost(t, before)
}

// TestMissFlood: callers flooding a fresh value with needs it does not
// meet (made-up kids) cause one fetch, then at most one per Cooldown,
// whatever their number; a fetch failing in between adds none.
func TestMissFlood(t *testing.T) {
	srv := newServer(t, serve("v1", "Cache-Control", "max-age=3600"))
	clk := newClock()
	o := newOwner(t, srv, clk, Config[value]{})
	if err := o.c.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	miss := func(*value) bool { return false }
	flood := func() {
		var wg sync.WaitGroup
		for range 32 {
			wg.Go(func() {
				for range 20 {
					if s, err := o.c.Get(t.Context(), miss); err != ErrMissing || s == nil {
						t.Errorf("miss: %v", err)
						return
					}
				}
			})
		}
		wg.Wait()
	}
	for _, step := range []struct {
		advance time.Duration
		handler http.HandlerFunc // nil: unchanged
		want    int64
		what    string
	}{
		{0, nil, 2, "a flood of misses"},
		{29 * time.Second, nil, 2, "a second flood within the cooldown"},
		{time.Second, fail, 3, "a flood past the cooldown"},
		{29 * time.Second, nil, 3, "a flood within the cooldown of a failure"},
	} {
		clk.Add(step.advance)
		if step.handler != nil {
			srv.set(step.handler)
		}
		flood()
		if n := srv.requests.Load(); n != step.want {
			t.Fatalf("%d requests after %s, want %d", n, step.what, step.want)
		}
	}
}

// TestRefreshJoins: a Refresh during a fetch joins it (one request) and
// returns its result; so does a second one.
func TestRefreshJoins(t *testing.T) {
	release := make(chan struct{})
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		<-release
		fail(w, r)
	})
	o := newOwner(t, srv, nil, Config[value]{})
	errs := make(chan error, 3)
	go func() { errs <- o.c.Refresh(t.Context()) }()
	vectortest.Eventually(t, "the fetch to start", func() bool { return o.c.Status().Fetching })
	// The joining callers' contexts say when they wait for the fetch:
	// released before they joined it, a Refresh would fetch again.
	ctx1, waiting1 := vectortest.Waiting(t, t.Context(), vectortest.CacheWait)
	ctx2, waiting2 := vectortest.Waiting(t, t.Context(), vectortest.CacheWait)
	go func() { errs <- o.c.Refresh(ctx1) }()
	go func() { _, err := o.c.Get(ctx2, nil); errs <- err }()
	vectortest.Recv(t, waiting1, "the second Refresh to wait for the fetch")
	vectortest.Recv(t, waiting2, "Get to wait for the fetch")
	close(release)
	for range 3 {
		if err := vectortest.Recv(t, errs, "the callers of the fetch"); !errors.Is(err, errTest) {
			t.Fatalf("caller of the joined fetch: %v", err)
		}
	}
	if n := srv.requests.Load(); n != 1 {
		t.Fatalf("%d requests", n)
	}
}

// TestHostileFreshness: whatever the freshness headers say (huge,
// negative, overflowing, garbage, a Date far from the local clock), the
// lifetime is within [MinRefresh, MaxRefresh], counted from the end of
// the fetch.
func TestHostileFreshness(t *testing.T) {
	clk := newClock()
	now := clk.Now()
	httpDate := func(t time.Time) string { return t.Format(http.TimeFormat) }
	for _, c := range []struct {
		hdr  []string
		want time.Duration
	}{
		{[]string{"Cache-Control", "max-age=99999999999999999999999999"}, time.Hour},
		{[]string{"Cache-Control", "max-age=-600"}, time.Minute},
		{[]string{"Cache-Control", "max-age=600", "Age", "99999999999999999999"}, time.Minute},
		{[]string{"Cache-Control", "max-age=0x600"}, time.Minute},
		{[]string{"Expires", httpDate(now.Add(-24 * time.Hour))}, time.Minute},
		{[]string{"Expires", "Fri, 31 Dec 9999 23:59:59 GMT"}, time.Hour},
		{[]string{"Expires", "Mon, 01 Jan 0001 00:00:00 GMT", "Date", "Fri, 31 Dec 9999 23:59:59 GMT"}, time.Minute},
		{[]string{"Expires", "garbage"}, time.Minute},
		// A server clock a year behind: Expires - Date, not Expires - now.
		{[]string{"Date", httpDate(now.AddDate(-1, 0, 0)), "Expires", httpDate(now.AddDate(-1, 0, 0).Add(10 * time.Minute))}, 10 * time.Minute},
		{[]string{"Date", "garbage", "Expires", httpDate(now.Add(10 * time.Minute))}, 10 * time.Minute},
	} {
		srv := newServer(t, serve("v1", c.hdr...))
		o := newOwner(t, srv, clk, Config[value]{})
		if err := o.c.Refresh(t.Context()); err != nil {
			t.Fatalf("%q: %v", c.hdr, err)
		}
		s := o.c.Load()
		if got := s.Fresh.Sub(s.Fetched); got != c.want || !s.Usable.Equal(s.Fresh.Add(6*time.Hour)) {
			t.Errorf("%q: lifetime %v, want %v (usable until %v)", c.hdr, got, c.want, s.Usable)
		}
	}
}
