package vectortest

import (
	"context"
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
	ctx, waiting := Waiting(parent)
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
	ctx.Done()
	<-waiting
	cancel()
	if ctx.Err() != context.Canceled {
		t.Fatalf("after the parent's cancel: %v", ctx.Err())
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
