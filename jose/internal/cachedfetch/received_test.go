package cachedfetch

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// TestLifetimeFromReceipt: the freshness lifetime of a response is
// counted from when its headers arrived (httpfetch.Get reads the clock
// then; RFC 9111 §4.2.3 response_time), not from the end of a slow body:
// a provider trickling its body for two minutes does not have its
// max-age, or its Expires, extended by two minutes.
func TestLifetimeFromReceipt(t *testing.T) {
	clk := newClock()
	for _, expires := range []bool{false, true} {
		received := clk.Now()
		headersRead := make(chan struct{})
		srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Date"] = nil // net/http adds none
			if expires {
				w.Header().Set("Expires", received.Add(10*time.Minute).Format(http.TimeFormat))
			} else {
				w.Header().Set("Cache-Control", "max-age=600")
			}
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			<-headersRead // the client has read the clock for them
			clk.Add(2 * time.Minute)
			w.Write([]byte("v1"))
		})
		o := newOwner(t, srv, clk, Config[value]{})
		var calls atomic.Int64
		o.c.cfg.Now = func() time.Time {
			// Refresh reads the clock as it starts the fetch,
			// httpfetch.Get as the headers arrive. The time is read
			// before the handler is let go: once it is, it may move
			// the clock before this goroutine runs again.
			now := clk.Now()
			if calls.Add(1) == 2 {
				close(headersRead)
			}
			return now
		}
		if err := o.c.Refresh(t.Context()); err != nil {
			t.Fatal(err)
		}
		if s := o.c.Load(); !s.Fresh.Equal(received.Add(10*time.Minute)) || !s.Fetched.Equal(received.Add(2*time.Minute)) {
			t.Errorf("Expires %v: fetched %v, fresh until %v, want %v", expires, s.Fetched, s.Fresh, received.Add(10*time.Minute))
		}
		// The expiry timer, which the owner's fast path reads, fires
		// at Fresh too, not a lifetime after the end of the body.
		s := o.c.Load()
		clk.Add(8*time.Minute - time.Nanosecond)
		if s.Expired() {
			t.Errorf("Expires %v: expired before %v", expires, s.Fresh)
		}
		clk.Add(time.Nanosecond)
		if !s.Expired() {
			t.Errorf("Expires %v: not expired at %v", expires, s.Fresh)
		}
		o.c.Close(nil)
	}
}

// TestSlowBodyMinRefresh: a body that takes longer than its freshness
// lifetime to arrive (max-age=0, clamped to MinRefresh, and a body of
// two minutes) is still used for MinRefresh from its arrival: counted
// from the headers alone it was stale on arrival, so that with MaxStale
// 0 every Get fetched twice and failed with "the document expired"
// although each fetch succeeded.
func TestSlowBodyMinRefresh(t *testing.T) {
	clk := newClock()
	var gate atomic.Pointer[chan struct{}]
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		ch := make(chan struct{})
		gate.Store(&ch)
		w.Header().Set("Cache-Control", "max-age=0")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-ch // the client has read the clock for the headers
		clk.Add(2 * time.Minute)
		w.Write([]byte("v1"))
	})
	o := newOwner(t, srv, clk, Config[value]{MinRefresh: time.Minute})
	o.c.cfg.MaxStale = 0
	o.c.cfg.Now = func() time.Time {
		// Read before the handler, let go, moves the clock.
		now := clk.Now()
		if ch := gate.Swap(nil); ch != nil { // httpfetch.Get, as the headers arrive
			close(*ch)
		}
		return now
	}
	for range 2 {
		got, err := o.get(t.Context())
		if err != nil || got != "v1" || srv.requests.Load() != 1 {
			t.Fatalf("Get: %q, %v, %d requests", got, err, srv.requests.Load())
		}
	}
	if s := o.c.Load(); !s.Fresh.Equal(s.Fetched.Add(time.Minute)) {
		t.Fatalf("fetched %v, fresh until %v, want MinRefresh later", s.Fetched, s.Fresh)
	}
}
