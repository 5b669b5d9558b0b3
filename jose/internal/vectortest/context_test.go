package vectortest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestExpiring: the context is not done until expire is called, then done
// with the error of a deadline; a second expire is harmless.
func TestExpiring(t *testing.T) {
	ctx, expire := Expiring()
	if ctx.Err() != nil {
		t.Fatalf("before expire: %v", ctx.Err())
	}
	expire()
	expire()
	<-ctx.Done()
	if ctx.Err() != context.DeadlineExceeded {
		t.Fatalf("after expire: %v", ctx.Err())
	}
}

// TestWaiting: the channel is closed by the first call of Done, which is
// the parent's, and not before; the other methods are the parent's.
func TestWaiting(t *testing.T) {
	type key struct{}
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, 1))
	ctx, waiting := Waiting(t, parent, "/vectortest.TestWaiting")
	if ctx.Value(key{}) != 1 || ctx.Err() != nil {
		t.Fatal("not the parent's Value and Err")
	}
	select {
	case <-waiting:
		t.Fatal("waiting before Done was called")
	default:
	}
	if ctx.Done() != parent.Done() {
		t.Fatal("Done is not the parent's")
	}
	<-waiting
	cancel()
	if ctx.Err() != context.Canceled {
		t.Fatalf("after the parent's cancel: %v", ctx.Err())
	}
}

// errorsTB records the messages of Errorf instead of failing the test.
type errorsTB struct {
	testing.TB
	msgs []string
}

func (t *errorsTB) Errorf(format string, args ...any) {
	t.msgs = append(t.msgs, fmt.Sprintf(format, args...))
}

// TestWaitingElsewhere: a first call of Done from another function than
// the one named (here a context derived from ctx, which calls it at once)
// fails the test, saying from where, and still closes the channel; later
// calls are not checked.
func TestWaitingElsewhere(t *testing.T) {
	rec := &errorsTB{TB: t}
	ctx, waiting := Waiting(rec, context.Background(), CacheWait)
	_, cancel := context.WithCancel(ctx)
	defer cancel()
	<-waiting
	if len(rec.msgs) != 1 || !strings.Contains(rec.msgs[0], "Done first called by context.") || !strings.Contains(rec.msgs[0], CacheWait) {
		t.Fatalf("Done called from context.WithCancel: %q", rec.msgs)
	}
	ctx.Done()
	if len(rec.msgs) != 1 {
		t.Fatalf("a second call of Done: %q", rec.msgs)
	}
	rec = &errorsTB{TB: t}
	ctx, _ = Waiting(rec, context.Background(), CacheWait)
	func() { ctx.Done() }()
	if len(rec.msgs) != 1 || !strings.Contains(rec.msgs[0], "vectortest.TestWaitingElsewhere.func") {
		t.Fatalf("Done called from a closure: %q", rec.msgs)
	}
}

// TestEventuallyRecv: both return as soon as what they wait for is there.
func TestEventuallyRecv(t *testing.T) {
	n := 0
	Eventually(t, "the third poll", func() bool { n++; return n == 3 })
	ch := make(chan int, 1)
	ch <- 7
	if got := Recv(t, ch, "the value sent"); got != 7 {
		t.Fatalf("Recv: %d", got)
	}
}

// TestInFunction: it returns once the goroutines are in the function.
func TestInFunction(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	for range 3 {
		go blockedHere(release)
	}
	InFunction(t, "3 goroutines in blockedHere", "vectortest.blockedHere", 3)
}

func blockedHere(release chan struct{}) { <-release }
