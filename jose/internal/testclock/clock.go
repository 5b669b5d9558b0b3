// Package testclock is the settable clock of the tests of the packages
// that cache a fetched document (jose/internal/cachedfetch, jose/jwks):
// Now and AfterFunc replace [time.Now] and [time.AfterFunc], and a timer
// fires when Add moves the time to or past it. Only tests import it.
package testclock

import (
	"sync"
	"time"
)

// Start is the time of a new Clock.
var Start = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// Clock is a settable time source with timers. It is safe for concurrent
// use.
type Clock struct {
	mu     sync.Mutex
	t      time.Time
	timers map[*timer]bool
}

type timer struct {
	at time.Time
	f  func()
}

// New returns a Clock at [Start] with no timer.
func New() *Clock { return &Clock{t: Start, timers: map[*timer]bool{}} }

// Now returns the time of c.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// AfterFunc arranges for f to run when Add moves c to d from now or past
// it, and returns the timer's Stop, as [time.Timer.Stop] reports whether
// it stopped the timer.
func (c *Clock) AfterFunc(d time.Duration, f func()) (stop func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ft := &timer{c.t.Add(d), f}
	c.timers[ft] = true
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		ok := c.timers[ft]
		delete(c.timers, ft)
		return ok
	}
}

// Add moves c by d and runs the functions of the timers then due, in the
// caller's goroutine, without c's lock.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	var due []func()
	for ft := range c.timers {
		if !ft.at.After(c.t) {
			due = append(due, ft.f)
			delete(c.timers, ft)
		}
	}
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}
