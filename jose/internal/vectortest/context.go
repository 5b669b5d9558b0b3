package vectortest

import (
	"context"
	"sync"
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
