package jwks

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
)

// hangingProvider returns a provider that serves body to each request only
// once release is closed (or the request ends), and a channel that
// receives a value, without ever blocking the server, as each request
// arrives.
func hangingProvider(t *testing.T, body []byte) (p *provider, entered chan struct{}, release chan struct{}) {
	entered, release = make(chan struct{}, 64), make(chan struct{})
	p = newProvider(t, false, serveSet(body))
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	return p, entered, release
}

func hang(entered, release chan struct{}, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		select {
		case entered <- struct{}{}:
		default:
		}
		select {
		case <-req.Context().Done():
			return
		case <-release:
		}
		w.Write(body)
	}
}

// TestCancelledCallersCannotResetCooldown: callers of Get whose context
// ends while the fetch they started is in progress (a request context
// that the token's sender cancels by hanging up) cannot make the Remote
// send more than one request per RefreshCooldown.
func TestCancelledCallersCannotResetCooldown(t *testing.T) {
	k := newECKey(t, "k1")
	body := setJSON(t, k)
	p, entered, release := hangingProvider(t, body)
	c := newClock()
	r := newRemote(t, p, c, Options{})
	if err := r.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	c.Add(DefaultRefreshCooldown)
	p.set(hang(entered, release, body))
	for i := range 5 {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { _, err := r.Get(ctx, "made-up"); done <- err }()
		if i == 0 {
			<-entered // the fetch is in progress
		} else {
			select { // a request, if this caller made one
			case <-entered:
			case <-time.After(100 * time.Millisecond):
			}
		}
		cancel()
		err := <-done
		if !errors.Is(err, context.Canceled) && !errors.Is(err, jose.ErrKeyNotFound) {
			t.Fatalf("caller %d: %v", i, err)
		}
	}
	close(release)
	if err := r.Refresh(t.Context()); err != nil { // waits for the fetch in progress, if any
		t.Fatal(err)
	}
	// The initial fetch, the one the first caller started, and the
	// Refresh (which ignores the cooldown, once the first ended).
	if n := p.requests.Load(); n > 3 {
		t.Fatalf("%d requests inside one cooldown, want at most 3", n)
	}
}

// TestCancelledStarterDoesNotCancelWaiters: the caller that started a fetch
// giving up ends neither the fetch nor the wait of the others: they get
// its result, from one request.
func TestCancelledStarterDoesNotCancelWaiters(t *testing.T) {
	k1, k2 := newECKey(t, "k1"), newECKey(t, "k2")
	p, entered, release := hangingProvider(t, setJSON(t, k1))
	c := newClock()
	r := newRemote(t, p, c, Options{})
	if err := r.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	c.Add(DefaultRefreshCooldown)
	p.set(hang(entered, release, setJSON(t, k1, k2)))
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan error, 1)
	go func() { _, err := r.Get(ctx, "k2"); started <- err }()
	<-entered
	const n = 50
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			_, err := r.KeyFunc(&jose.Header{KeyID: "k2"})
			errs <- err
		})
	}
	// The starter and the n callers wait for the fetch.
	vectortest.InFunction(t, "the KeyFunc calls to wait for the fetch", vectortest.CacheWait, n+1)
	cancel()
	if err := <-started; !errors.Is(err, context.Canceled) || !errors.Is(err, ErrFetch) {
		t.Fatalf("starter: %v", err)
	}
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("waiter: %v", err)
		}
	}
	if got := p.requests.Load(); got != 2 {
		t.Fatalf("%d requests, want 2 (the first fetch and the shared one)", got)
	}
}

// TestCloseWhileWaiting: KeyFunc calls waiting for a fetch when Close is
// called return ErrClosed (not the cancellation Close uses), and a second
// Close returns only once the first has released everything.
func TestCloseWhileWaiting(t *testing.T) {
	k := newECKey(t, "k1")
	body := setJSON(t, k)
	p, entered, release := hangingProvider(t, body)
	p.set(hang(entered, release, body))
	r := newRemote(t, p, newClock(), Options{})
	const n = 20
	errs := make(chan error, n)
	for range n {
		go func() { _, err := r.KeyFunc(&jose.Header{KeyID: "k1"}); errs <- err }()
	}
	<-entered
	vectortest.InFunction(t, "the KeyFunc calls to wait for the fetch", vectortest.CacheWait, n)
	closed := make(chan struct{})
	go func() { r.Close(); close(closed) }()
	for range n {
		if err := <-errs; !errors.Is(err, ErrClosed) {
			t.Fatalf("KeyFunc waiting during Close: %v", err)
		}
	}
	<-closed
}

// gatedTransport holds each request until gate is closed, whatever the
// request's context (a transport that is slow to notice a cancellation),
// then sends it on the loopback.
type gatedTransport struct {
	gate    chan struct{}
	entered chan struct{}
	next    http.RoundTripper
}

func (g *gatedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	select {
	case g.entered <- struct{}{}:
	default:
	}
	<-g.gate
	return g.next.RoundTrip(req)
}

// TestCloseTwice: a second Close, concurrent with the first, returns only
// when the first has released everything (the fetch has ended).
func TestCloseTwice(t *testing.T) {
	p := newProvider(t, false, serveSet(setJSON(t, newECKey(t, "k1"))))
	g := &gatedTransport{make(chan struct{}), make(chan struct{}, 1), p.srv.Client().Transport}
	r := newRemote(t, p, nil, Options{Client: &http.Client{Transport: g}})
	go r.Refresh(context.Background())
	<-g.entered
	first := make(chan struct{})
	go func() { r.Close(); close(first) }()
	for {
		if _, err := r.KeyFunc(nil); errors.Is(err, ErrClosed) {
			break
		}
		runtime.Gosched()
	}
	second := make(chan struct{})
	go func() { r.Close(); close(second) }()
	select {
	case <-second:
		t.Fatal("second Close returned while the fetch is in progress")
	case <-first:
		t.Fatal("Close returned while the fetch is in progress")
	case <-time.After(50 * time.Millisecond):
	}
	close(g.gate)
	<-first
	<-second
}

// TestStaleWhileRevalidate: when the set's lifetime has ended, no
// verification waits for the fetch it starts while the set is usable: a
// hanging provider costs none of them Timeout.
func TestStaleWhileRevalidate(t *testing.T) {
	k := newECKey(t, "k1")
	body := setJSON(t, k)
	p, entered, release := hangingProvider(t, body)
	c := newClock()
	// The fetch hangs for an hour: a verification that waited for it
	// would not return within vectortest.Bound.
	r := newRemote(t, p, c, Options{Timeout: time.Hour})
	v := verifier(t, r)
	tok := k.token(t, false)
	if err := r.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	p.set(hang(entered, release, body))
	c.Add(DefaultMaxRefreshInterval) // stale, usable
	done := make(chan error, 1)
	go func() { _, err := v.VerifyCompact(tok); done <- err }()
	if err := vectortest.Recv(t, done, "the verification that found the set stale (does it wait for the fetch?)"); err != nil {
		t.Fatal(err)
	}
	vectortest.Recv(t, entered, "the request of the fetch") // the request is sent: it counts in Status
	if st := r.Status(); !st.Fetching || st.Requests != 2 {
		t.Fatalf("status %+v", st)
	}
	close(release)
	r.fetches.Wait()
	if st := r.Status(); st.Fetching || st.LastError != nil || !st.FreshUntil.After(c.Now()) {
		t.Fatalf("status after the fetch %+v", st)
	}
	// A caller that is gone gets the usable set and starts nothing.
	c.Add(DefaultMaxRefreshInterval)
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	if set, err := r.Get(gone, ""); err != nil || set == nil || r.Status().Requests != 2 {
		t.Fatalf("stale set for a cancelled Get: %v, %+v", err, r.Status())
	}
}
