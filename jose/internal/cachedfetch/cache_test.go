package cachedfetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/internal/testclock"
)

// errTest is the sentinel the test owner's errors wrap, errClosed its
// Closed.
var (
	errTest   = errors.New("test: fetch failed")
	errClosed = errors.New("test: closed")
)

// value is the test owner's parsed document.
type value struct{ body string }

// clock is the settable time source of these tests ([testclock.Clock]):
// its timers fire when Add moves the time past them.
type clock = testclock.Clock

func newClock() *clock { return testclock.New() }

// server is a document endpoint on a real loopback httptest server; its
// behaviour is the handler of the moment, and it counts requests.
type server struct {
	srv      *httptest.Server
	requests atomic.Int64
	mu       sync.Mutex
	handler  http.HandlerFunc
}

func newServer(t *testing.T, h http.HandlerFunc) *server {
	s := &server{handler: h}
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		s.mu.Lock()
		h := s.handler
		s.mu.Unlock()
		h(w, r)
	}))
	s.srv.Config.ErrorLog = log.New(io.Discard, "", 0) // aborted requests are expected
	s.srv.Start()
	t.Cleanup(s.srv.Close)
	return s
}

func (s *server) set(h http.HandlerFunc) {
	s.mu.Lock()
	s.handler = h
	s.mu.Unlock()
}

// serve returns a handler writing body with the header pairs hdr,
// answering 304 to an If-None-Match equal to its ETag.
func serve(body string, hdr ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(hdr); i += 2 {
			w.Header().Set(hdr[i], hdr[i+1])
		}
		if e := w.Header().Get("ETag"); e != "" && r.Header.Get("If-None-Match") == e {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		io.WriteString(w, body)
	}
}

func fail(w http.ResponseWriter, _ *http.Request) {
	http.Error(w, "down", http.StatusServiceUnavailable)
}

// owner is a test owner of a Cache: it counts the calls of Parse and
// records those of Adopt.
type owner struct {
	c      *Cache[value]
	clk    *clock
	parses atomic.Int64
	mu     sync.Mutex
	adopts []string // "prev>next" or "drop next"
}

// newOwner returns the owner of a Cache of srv on clk (nil: the real
// clock), with cfg's non-zero durations, closed when the test ends.
func newOwner(t *testing.T, srv *server, clk *clock, cfg Config[value]) *owner {
	t.Helper()
	o := &owner{clk: clk}
	def := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	def(&cfg.Timeout, 5*time.Second)
	def(&cfg.MinRefresh, time.Minute)
	def(&cfg.MaxRefresh, time.Hour)
	def(&cfg.Cooldown, 30*time.Second)
	def(&cfg.MaxStale, 6*time.Hour)
	cfg.Client = srv.srv.Client()
	cfg.Request.URL, cfg.Request.MaxSize, cfg.Request.AllowHTTP = srv.srv.URL+"/doc", 1<<10, true
	cfg.What, cfg.Closed = "the document", errClosed
	cfg.Errorf = func(format string, args ...any) error {
		return fmt.Errorf("test: GET: "+format+": %w", append(args, errTest)...)
	}
	cfg.Now, cfg.AfterFunc = time.Now, AfterFunc
	if clk != nil {
		cfg.Now, cfg.AfterFunc = clk.Now, clk.AfterFunc
	}
	cfg.Parse = func(body []byte, status string, prev *value) (value, error) {
		o.parses.Add(1)
		if strings.HasPrefix(string(body), "bad") {
			return value{}, fmt.Errorf("test: status %s: a bad document: %w", status, errTest)
		}
		return value{string(body)}, nil
	}
	cfg.Adopt = func(prev, next *value, closed bool) func() {
		o.mu.Lock()
		defer o.mu.Unlock()
		switch {
		case closed:
			o.adopts = append(o.adopts, "drop "+next.body)
		case prev == nil:
			o.adopts = append(o.adopts, ">"+next.body)
		default:
			o.adopts = append(o.adopts, prev.body+">"+next.body)
		}
		return nil
	}
	o.c = New(cfg)
	t.Cleanup(func() { o.c.Close(nil) })
	return o
}

// get is Get for any value, returning its body.
func (o *owner) get(ctx context.Context) (string, error) {
	s, err := o.c.Get(ctx, nil)
	if err != nil {
		return "", err
	}
	return s.Value.body, nil
}

func (o *owner) adopted() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.adopts...)
}

// TestSingleFlight: concurrent callers with no value make one request
// and all get its value; concurrent callers with a stale value get it at
// once and start one fetch between them (run with -race).
func TestSingleFlight(t *testing.T) {
	release := make(chan struct{})
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		<-release
		serve("v1", "Cache-Control", "max-age=600")(w, r)
	})
	clk := newClock()
	o := newOwner(t, srv, clk, Config[value]{})
	const n = 16
	var wg sync.WaitGroup
	got := make(chan string, n)
	for range n {
		wg.Go(func() {
			body, err := o.get(t.Context())
			if err != nil {
				t.Error(err)
			}
			got <- body
		})
	}
	for !o.c.Status().Fetching {
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	close(got)
	for body := range got {
		if body != "v1" {
			t.Fatalf("got %q", body)
		}
	}
	if r, p := srv.requests.Load(), o.parses.Load(); r != 1 || p != 1 {
		t.Fatalf("%d requests, %d parses for %d concurrent callers", r, p, n)
	}

	// Stale: everyone gets v1 at once, one fetch starts.
	block := make(chan struct{})
	srv.set(func(w http.ResponseWriter, r *http.Request) {
		<-block
		serve("v2", "Cache-Control", "max-age=600")(w, r)
	})
	clk.Add(11 * time.Minute)
	for range n {
		wg.Go(func() {
			if body, err := o.get(t.Context()); err != nil || body != "v1" {
				t.Errorf("stale: %q, %v", body, err)
			}
		})
	}
	wg.Wait() // none waited for the fetch, which is still blocked
	close(block)
	o.c.Wait()
	if r := srv.requests.Load(); r != 2 {
		t.Fatalf("%d requests after the stale reads, want 2", r)
	}
	if body, _ := o.get(t.Context()); body != "v2" {
		t.Fatalf("after the background fetch: %q", body)
	}
	if a := o.adopted(); len(a) != 2 || a[0] != ">v1" || a[1] != "v1>v2" {
		t.Fatalf("adopted %q", a)
	}
}

// TestCooldown: after a failed fetch no call starts one for Cooldown,
// counted from the end of the failure; then one does.
func TestCooldown(t *testing.T) {
	const slow = 20 * time.Second
	clk := newClock()
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		clk.Add(slow) // the provider takes 20 s to fail
		fail(w, r)
	})
	o := newOwner(t, srv, clk, Config[value]{NoUsable: func(last error) error { return fmt.Errorf("test: none: %w", last) }})
	// With no value, the error is NoUsable's of the fetch's.
	_, err := o.get(t.Context())
	if !errors.Is(err, errTest) || err.Error() != "test: none: test: GET: status 503 Service Unavailable: test: fetch failed" {
		t.Fatalf("first fetch: %v", err)
	}
	if d := o.c.UntilNext(); d != 30*time.Second {
		t.Fatalf("Run waits %v after a failure, want the cooldown from its end", d)
	}
	// 35 s after the failed fetch started, 15 s after it ended.
	clk.Add(15 * time.Second)
	for range 5 {
		if _, err := o.get(t.Context()); !errors.Is(err, errTest) || !strings.HasPrefix(err.Error(), "test: none: ") {
			t.Fatalf("within the cooldown: %v", err)
		}
	}
	if n := srv.requests.Load(); n != 1 {
		t.Fatalf("%d requests within the cooldown of the failure's end, want 1", n)
	}
	// Refresh ignores the cooldown.
	if err := o.c.Refresh(t.Context()); !errors.Is(err, errTest) || srv.requests.Load() != 2 {
		t.Fatalf("Refresh: %v, %d requests", err, srv.requests.Load())
	}
	clk.Add(30*time.Second - time.Nanosecond)
	if _, err := o.get(t.Context()); err == nil || srv.requests.Load() != 2 {
		t.Fatalf("a nanosecond before the end of the cooldown: %v, %d requests", err, srv.requests.Load())
	}
	clk.Add(time.Nanosecond)
	srv.set(serve("v1"))
	if body, err := o.get(t.Context()); err != nil || body != "v1" || srv.requests.Load() != 3 {
		t.Fatalf("after the cooldown: %q, %v, %d requests", body, err, srv.requests.Load())
	}
	if st := o.c.Status(); st.Attempts != 3 || st.LastError != nil || !st.Current.Fresh.Equal(clk.Now().Add(time.Hour)) {
		t.Fatalf("status %+v", st)
	}
}

// TestRecover: a server failing, then recovering: the last good value is
// used while fetches fail, within MaxStale, at most one request per
// cooldown; after MaxStale, the error; then the new value.
func TestRecover(t *testing.T) {
	srv := newServer(t, serve("v1", "Cache-Control", "max-age=600"))
	clk := newClock()
	o := newOwner(t, srv, clk, Config[value]{MaxStale: time.Hour})
	if err := o.c.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	srv.set(fail)
	clk.Add(11 * time.Minute) // stale
	for i := range 6 {
		if body, err := o.get(t.Context()); err != nil || body != "v1" {
			t.Fatalf("stale while failing: %q, %v", body, err)
		}
		o.c.Wait()
		if want := int64(2 + i/3); srv.requests.Load() != want {
			t.Fatalf("call %d: %d requests, want %d", i, srv.requests.Load(), want)
		}
		clk.Add(10 * time.Second)
	}
	if st := o.c.Status(); !errors.Is(st.LastError, errTest) || st.Current.Value.body != "v1" {
		t.Fatalf("status %+v", st)
	}
	// Past MaxStale, past the cooldown: a fetch, and its error.
	clk.Add(time.Hour)
	if _, err := o.get(t.Context()); !errors.Is(err, errTest) || srv.requests.Load() != 4 {
		t.Fatalf("past MaxStale: %v, %d requests", err, srv.requests.Load())
	}
	// A bad document is a failure too, and keeps nothing.
	clk.Add(time.Minute)
	srv.set(serve("bad"))
	if _, err := o.get(t.Context()); err == nil || !strings.Contains(err.Error(), "status 200 OK: a bad document") {
		t.Fatalf("bad document: %v", err)
	}
	clk.Add(time.Minute)
	srv.set(serve("v2"))
	if body, err := o.get(t.Context()); err != nil || body != "v2" {
		t.Fatalf("recovered: %q, %v", body, err)
	}
	if st := o.c.Status(); st.LastError != nil || !st.LastFetch.Equal(clk.Now()) {
		t.Fatalf("status after recovery %+v", st)
	}
}

// TestRevalidate: a conditional request with the ETag; a 304 keeps the
// value (no parse) with the lifetime it states, or the last one; an
// identical body is not parsed again.
func TestRevalidate(t *testing.T) {
	var inm atomic.Value
	inm.Store("")
	srv := newServer(t, nil)
	srv.set(func(w http.ResponseWriter, r *http.Request) {
		inm.Store(r.Header.Get("If-None-Match"))
		serve("v1", "ETag", `"e1"`, "Cache-Control", "max-age=600")(w, r)
	})
	clk := newClock()
	o := newOwner(t, srv, clk, Config[value]{})
	first, err := o.c.Get(t.Context(), nil)
	if err != nil || inm.Load() != "" {
		t.Fatalf("first: %v, If-None-Match %q", err, inm.Load())
	}
	if err := o.c.Refresh(t.Context()); err != nil || inm.Load() != `"e1"` {
		t.Fatalf("revalidation: %v, If-None-Match %q", err, inm.Load())
	}
	s := o.c.Load()
	if s == first || s.Value != first.Value || o.parses.Load() != 1 || !s.Fresh.Equal(clk.Now().Add(10*time.Minute)) {
		t.Fatalf("after 304: %+v, %d parses", s, o.parses.Load())
	}
	// A 304 may send a new ETag (RFC 9111 §4.3.4): the next fetch sends it.
	srv.set(func(w http.ResponseWriter, r *http.Request) {
		inm.Store(r.Header.Get("If-None-Match"))
		w.Header().Set("ETag", `"e2"`)
		w.WriteHeader(http.StatusNotModified)
	})
	for i, want := range []string{`"e1"`, `"e2"`} {
		if err := o.c.Refresh(t.Context()); err != nil || inm.Load() != want {
			t.Fatalf("revalidation %d, the server sending ETag \"e2\" in its 304: %v, If-None-Match %q, want %s", i, err, inm.Load(), want)
		}
	}
	if o.parses.Load() != 1 {
		t.Fatalf("%d parses", o.parses.Load())
	}
	// A 304 stating no lifetime keeps the last one.
	srv.set(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotModified) })
	clk.Add(time.Minute)
	if err := o.c.Refresh(t.Context()); err != nil || !o.c.Load().Fresh.Equal(clk.Now().Add(10*time.Minute)) {
		t.Fatalf("304 without a lifetime: %v, fresh until %v", err, o.c.Load().Fresh)
	}
	// The same body again, no ETag: not parsed; no lifetime: MaxRefresh.
	srv.set(serve("v1"))
	if err := o.c.Refresh(t.Context()); err != nil || o.parses.Load() != 1 || !o.c.Load().Fresh.Equal(clk.Now().Add(time.Hour)) {
		t.Fatalf("identical body: %v, %d parses", err, o.parses.Load())
	}
	if a := o.adopted(); len(a) != 1 {
		t.Fatalf("adopted %q", a)
	}
	// Without validators a 304 is an error, and the value stays.
	srv.set(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotModified) })
	if err := o.c.Refresh(t.Context()); err == nil || !strings.Contains(err.Error(), "unconditional") || o.c.Load().Value.body != "v1" {
		t.Fatalf("304 to an unconditional request: %v", err)
	}
}

// TestSlowServer: a stale value is used without waiting for a fetch
// that hangs; a fetch is bounded by Timeout, and its error says so.
func TestSlowServer(t *testing.T) {
	srv := newServer(t, serve("v1", "Cache-Control", "max-age=600"))
	clk := newClock()
	o := newOwner(t, srv, clk, Config[value]{})
	if err := o.c.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	srv.set(func(w http.ResponseWriter, r *http.Request) {
		<-release
		serve("v2", "Cache-Control", "max-age=600")(w, r)
	})
	clk.Add(11 * time.Minute)
	for range 3 { // returns while the server hangs (waiting would never end)
		if body, err := o.get(t.Context()); err != nil || body != "v1" {
			t.Fatalf("stale during a slow fetch: %q, %v", body, err)
		}
	}
	if !o.c.Status().Fetching {
		t.Fatal("no fetch in progress")
	}
	close(release)
	o.c.Wait()
	if body, _ := o.get(t.Context()); body != "v2" || srv.requests.Load() != 2 {
		t.Fatalf("after the slow fetch: %q, %d requests", body, srv.requests.Load())
	}

	hang := newServer(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	q := newOwner(t, hang, nil, Config[value]{Timeout: 50 * time.Millisecond})
	err := q.c.Refresh(t.Context())
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, errTest) || !strings.Contains(err.Error(), "no complete answer within Options.Timeout 50ms") {
		t.Fatalf("hanging server: %v", err)
	}
}

// TestContextCancel: a caller whose context ends stops waiting, with an
// error wrapping its cause; the fetch goes on and its value is used; a
// caller whose context has ended starts no fetch.
func TestContextCancel(t *testing.T) {
	release := make(chan struct{})
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		<-release
		serve("v1", "Cache-Control", "max-age=600")(w, r)
	})
	o := newOwner(t, srv, nil, Config[value]{})
	dead, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := o.get(dead); !errors.Is(err, context.Canceled) || !errors.Is(err, errTest) || o.c.Status().Attempts != 0 {
		t.Fatalf("ended context: %v, %d attempts", err, o.c.Status().Attempts)
	}
	if err := o.c.Refresh(dead); !errors.Is(err, context.Canceled) || o.c.Status().Attempts != 0 {
		t.Fatalf("Refresh with an ended context: %v", err)
	}
	cause := errors.New("client went away")
	ctx, cancelCause := context.WithCancelCause(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := o.get(ctx)
		done <- err
	}()
	for !o.c.Status().Fetching {
		time.Sleep(time.Millisecond)
	}
	cancelCause(cause)
	err := <-done
	if !errors.Is(err, cause) || !strings.Contains(err.Error(), "waiting for the document") {
		t.Fatalf("cancelled wait: %v", err)
	}
	close(release)
	o.c.Wait()
	if body, err := o.get(t.Context()); err != nil || body != "v1" || srv.requests.Load() != 1 {
		t.Fatalf("after the fetch the caller left: %q, %v, %d requests", body, err, srv.requests.Load())
	}
}

// TestMiss: a value that does not meet the need is fetched again at once,
// even just after a fetch no miss caused, then at most once per cooldown
// counted from the end of the fetch for a miss; ErrMissing comes with the
// value.
func TestMiss(t *testing.T) {
	srv := newServer(t, serve("v1", "Cache-Control", "max-age=600"))
	clk := newClock()
	o := newOwner(t, srv, clk, Config[value]{})
	want := func(body string) func(*value) bool { return func(v *value) bool { return v.body == body } }
	if _, err := o.c.Get(t.Context(), want("v1")); err != nil {
		t.Fatal(err)
	}
	if err := o.c.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	s, err := o.c.Get(t.Context(), want("v2"))
	if err != ErrMissing || s == nil || s.Value.body != "v1" || srv.requests.Load() != 3 {
		t.Fatalf("miss: %v, %v, %d requests", s, err, srv.requests.Load())
	}
	clk.Add(30*time.Second - time.Nanosecond)
	if _, err := o.c.Get(t.Context(), want("v2")); err != ErrMissing || srv.requests.Load() != 3 {
		t.Fatalf("miss within the cooldown: %v, %d requests", err, srv.requests.Load())
	}
	clk.Add(time.Nanosecond)
	srv.set(serve("v2", "Cache-Control", "max-age=600"))
	if s, err := o.c.Get(t.Context(), want("v2")); err != nil || s.Value.body != "v2" || srv.requests.Load() != 4 {
		t.Fatalf("miss after the cooldown: %v, %d requests", err, srv.requests.Load())
	}
}

// TestRunClose: Run fetches at once and waits until shortly before the
// end of the lifetime; it returns at the end of its context or at Close,
// after exit; Close aborts a fetch in progress and drops what it parsed.
func TestRunClose(t *testing.T) {
	srv := newServer(t, serve("v1", "Cache-Control", "max-age=600"))
	clk := newClock()
	o := newOwner(t, srv, clk, Config[value]{})
	ctx, cancel := context.WithCancel(t.Context())
	var each, exit atomic.Int64
	done := make(chan error, 1)
	go func() { done <- o.c.Run(ctx, func() { each.Add(1) }, func() { exit.Add(1) }) }()
	for each.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	if d := o.c.UntilNext(); d != 10*time.Minute-5*time.Second { // a tenth of the lifetime, at most Timeout
		t.Fatalf("next fetch in %v", d)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) || exit.Load() != 1 {
		t.Fatalf("Run: %v, exit called %d times", err, exit.Load())
	}

	// Close with a fetch in progress: the fetch is aborted; a value
	// parsed as Close came is dropped.
	entered := make(chan struct{})
	srv.set(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-r.Context().Done()
	})
	go func() { done <- o.c.Run(t.Context(), nil, nil) }()
	<-entered
	var released *Snapshot[value]
	o.c.Close(func(s *Snapshot[value]) { released = s })
	if err := <-done; err != errClosed {
		t.Fatalf("Run across Close: %v", err)
	}
	if released == nil || released.Value.body != "v1" || o.c.Load() != nil {
		t.Fatalf("released %+v", released)
	}
	if _, err := o.get(t.Context()); err != errClosed {
		t.Fatalf("Get after Close: %v", err)
	}
	if err := o.c.Refresh(t.Context()); err != errClosed {
		t.Fatalf("Refresh after Close: %v", err)
	}
	if err := o.c.Run(t.Context(), nil, nil); err != errClosed {
		t.Fatalf("Run after Close: %v", err)
	}
	o.c.Close(nil) // idempotent
}

// TestAdoptClosed: a value parsed while Close waits for its fetch is
// given to Adopt as dropped, and never used.
func TestAdoptClosed(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	srv := newServer(t, serve("v1"))
	o := newOwner(t, srv, nil, Config[value]{})
	o.c.cfg.Parse = func(body []byte, _ string, _ *value) (value, error) {
		close(entered)
		<-release
		return value{string(body)}, nil
	}
	go o.c.Refresh(t.Context())
	<-entered
	closed := make(chan struct{})
	go func() {
		o.c.Close(nil)
		close(closed)
	}()
	for o.c.Context().Err() == nil {
		time.Sleep(time.Millisecond)
	}
	close(release)
	<-closed
	if a := o.adopted(); len(a) != 1 || a[0] != "drop v1" {
		t.Fatalf("adopted %q", a)
	}
}
