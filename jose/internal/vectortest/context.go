package vectortest

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Expiring returns a context whose deadline passes when expire is called,
// not at a time: a test that needs a key function to be waiting when the
// deadline passes calls expire once it is, so that a slow machine (the
// race detector, a shared CI runner) cannot let a timer fire before the
// call reaches the key function. Its Err is then
// context.DeadlineExceeded, as a deadline's.
func Expiring() (ctx context.Context, expire func()) {
	c := &expiring{Context: context.Background(), done: make(chan struct{})}
	return c, func() { c.once.Do(func() { close(c.done) }) }
}

type expiring struct {
	context.Context // Background: no values, no deadline of its own
	done            chan struct{}
	once            sync.Once
}

func (c *expiring) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *expiring) Done() <-chan struct{}       { return c.done }
func (c *expiring) Err() error {
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// Waiting returns parent with a channel closed the first time the Done
// method of the returned context is called: a test that needs a call to
// be waiting (a caller of a remote set's Get joining the fetch in
// progress, which selects on ctx.Done only once it has joined it) waits
// for that channel, rather than sleeping and hoping the goroutine ran.
//
// The channel means so only while the call's first use of Done is that
// wait: in names the function that must make it (as the end of
// [runtime.Frame.Function], e.g. [CacheWait]). A first call of Done from
// any other function (code that came to select on ctx.Done, or to derive
// a context from ctx, before it waits) fails the test, saying from where:
// the channel would then be closed before the call waits, and the test
// would race as a sleep does.
func Waiting(t testing.TB, parent context.Context, in string) (ctx context.Context, waiting <-chan struct{}) {
	c := &watched{Context: parent, t: t, in: in, waiting: make(chan struct{})}
	return c, c.waiting
}

// CacheWait is the function of package cachedfetch in which a caller of
// Cache.Get or Cache.Refresh (jwks.Remote's, oidc.Provider's) waits for
// the fetch it joined or started: the in of [Waiting] for them.
const CacheWait = "jose/internal/cachedfetch.(*Cache[...]).wait"

type watched struct {
	context.Context
	t       testing.TB
	in      string
	waiting chan struct{}
	once    sync.Once
}

func (c *watched) Done() <-chan struct{} {
	c.once.Do(func() {
		defer close(c.waiting)
		if fn := caller(); !strings.HasSuffix(fn, c.in) {
			c.t.Errorf("vectortest.Waiting: Done first called by %s, not %s: the call may not wait yet", fn, c.in)
		}
	})
	return c.Context.Done()
}

// caller returns the function that called [watched.Done] (it is on the
// stack of caller, below sync.Once's frames).
func caller() string {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	for inDone := false; ; {
		f, more := frames.Next()
		if inDone {
			return f.Function
		}
		inDone = strings.HasSuffix(f.Function, "/vectortest.(*watched).Done")
		if !more {
			return "(unknown)"
		}
	}
}

// Bound is how long [Eventually] and [Recv] wait before they fail the
// test: far beyond any stall of a shared, loaded machine (they return as
// soon as what they wait for happens), and far within go test's -timeout,
// so that a wait that would never end fails with a message saying what it
// waited for.
const Bound = 2 * time.Minute

// Eventually polls cond every millisecond until it returns true, and
// fails the test, saying it waited for what, if it has not within
// [Bound].
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(Bound); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", Bound, what)
		}
	}
}

// Recv receives from ch, and fails the test, saying it waited for what,
// if nothing came within [Bound].
func Recv[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	timer := time.NewTimer(Bound)
	defer timer.Stop()
	select {
	case v := <-ch:
		return v
	case <-timer.C:
		t.Fatalf("waited %v for %s", Bound, what)
		panic("unreachable")
	}
}

// InFunction waits until at least n goroutines have the function fn on
// their stacks (as [runtime.Stack] writes its name, e.g. [CacheWait]),
// and fails the test, saying it waited for what, if they have not within
// [Bound]: a test whose callers have no context to watch with [Waiting]
// (a remote set's KeyFunc) waits so for them to wait.
func InFunction(t testing.TB, what, fn string, n int) {
	t.Helper()
	frame := []byte(fn + "(")
	buf := make([]byte, 1<<20)
	Eventually(t, what, func() bool {
		for {
			m := runtime.Stack(buf, true)
			if m < len(buf) {
				return bytes.Count(buf[:m], frame) >= n
			}
			buf = make([]byte, 2*len(buf))
		}
	})
}

// GoroutinesAtMost waits until at most n goroutines run (those of
// connections end shortly after their sockets close), and fails the test
// with the stacks of all of them if more still do after [Bound].
func GoroutinesAtMost(t testing.TB, n int) {
	t.Helper()
	m := 0
	for deadline := time.Now().Add(Bound); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m = runtime.NumGoroutine(); m <= n {
			return
		}
	}
	buf := make([]byte, 1<<16)
	t.Fatalf("%d goroutines before, still %d %v after:\n%s", n, m, Bound, buf[:runtime.Stack(buf, true)])
}
