// Package cachedfetch is the cache of a document a provider publishes at
// a URL, written once for the packages that keep one: jose/jwks (a JWK
// Set, RFC 7517 §5) and jose/oidc (a metadata document, OpenID Connect
// Discovery 1.0 §4, RFC 8414 §3). A [Cache] fetches the document with
// [httpfetch.Get], parses it with its owner's function, and holds the
// result:
//
//   - for the response's freshness lifetime (RFC 9111 §4.2.1) within
//     [MinRefresh, MaxRefresh], then revalidated with If-None-Match and
//     If-Modified-Since (RFC 9111 §4.3.1); a 304 keeps the value, a body
//     identical to the last one (by SHA-256) is not parsed again;
//   - past its lifetime, still in use while it is fetched again, and,
//     when fetches fail, for MaxStale more (stale-if-error, RFC 5861 §4);
//   - one fetch at a time, for every caller (single flight), in a
//     goroutine of its own that ends with the fetch (within Timeout, or at
//     Close): a caller waits with its own context, and giving up ends
//     neither the fetch nor the others' wait;
//   - after a failed fetch, no caller starts another for Cooldown,
//     counted from the end of the failure (so that a provider that
//     answers slowly is not asked back to back); a caller whose need the
//     value does not meet (a kid not in a set) fetches again at once, then
//     at most once per Cooldown counted from the end of such a fetch.
//
// The value in use is read with one atomic load ([Cache.Load]) and a
// timer marks it expired, so that the fast path of the owner reads no
// clock. The Cache keeps no goroutine running; [Cache.Run], in a
// goroutine of the caller's, refreshes the value ahead of its expiry.
//
// Errors are the owner's: [Config.Errorf] makes each one (its package's
// prefix, the URL, its sentinel), and the texts of the Cache's own
// ("no complete answer within Options.Timeout ...", "waiting for the set:
// ...") name the owner's Options.
package cachedfetch

import (
	"context"
	"crypto/sha256"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/josebench/josebench/jose/internal/httpfetch"
)

// ErrMissing is returned by [Cache.Get], with the value in use, when that
// value does not meet the caller's need and no fetch may be made for it:
// the owner turns it into its own error (jwks: a kid not in the set).
var ErrMissing = errors.New("cachedfetch: not in the value in use")

// Config configures a [Cache]; every field but Adopt and NoUsable is
// required.
type Config[T any] struct {
	// Client makes the requests of Request; Request.Validators is set by
	// the Cache for each fetch.
	Client  *http.Client
	Request httpfetch.Request
	// Timeout bounds one fetch, from sending the request to the last
	// byte of the body.
	Timeout time.Duration
	// MinRefresh and MaxRefresh bound the freshness lifetime of a
	// response ([httpfetch.Clamp]), counted from when its headers
	// arrived; one that states none is used for MaxRefresh. A value is
	// fresh for MinRefresh at least from the end of its fetch, however
	// slow its body.
	MinRefresh, MaxRefresh time.Duration
	// Cooldown is how long after the end of a failed fetch no call of Get
	// starts one, and after the end of a fetch for a miss no other miss
	// does (see [Cache.Get]).
	Cooldown time.Duration
	// MaxStale is how long past its freshness lifetime the value is still
	// used while fetches fail (0: never).
	MaxStale time.Duration
	// What names the document in the Cache's errors: "the set", "the
	// document".
	What string
	// Errorf returns the owner's error of the text format, formatted as
	// [fmt.Errorf] does (it may wrap with %w).
	Errorf func(format string, args ...any) error
	// Closed is the error of every call after Close.
	Closed error
	// NoUsable returns the error of Get when there is no usable value and
	// the last fetch failed with last (nil: last itself).
	NoUsable func(last error) error
	// Now is the clock, AfterFunc [time.AfterFunc] returning the timer's
	// Stop: tests replace both.
	Now       func() time.Time
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	// Parse makes the value of a body of status 200 (status is the
	// status line, for errors), prev being the value in use (nil: none);
	// its error, made with Errorf, is the fetch's. It runs in the fetch's
	// goroutine, without the Cache's lock. A body identical to the one of
	// prev is not parsed: prev is kept.
	Parse func(body []byte, status string, prev *T) (T, error)
	// Adopt, if set, is called under the Cache's lock with each value
	// Parse made, as it replaces prev (nil: none) or, when the Cache was
	// closed meanwhile, is dropped (closed true); the function it returns,
	// if any, runs once the lock is released, before the waiters of the
	// fetch are woken. (oidc: close the jwks.Remote no longer used.)
	Adopt func(prev, next *T, closed bool) (after func())
}

// Snapshot is the value in use and how long it is used. It must not be
// modified.
type Snapshot[T any] struct {
	// expired is set by a timer at Fresh; it comes first, beside the
	// start of Value, both read by the fast path of the owner.
	expired atomic.Bool
	Value   T
	// Fetched is when the value was fetched or revalidated.
	Fetched time.Time
	// Fresh is when its freshness lifetime ends, Usable when it stops
	// being used while fetches fail (Fresh + MaxStale).
	Fresh, Usable time.Time
}

// Expired reports whether the freshness lifetime of s has ended, as its
// timer says (without reading the clock).
func (s *Snapshot[T]) Expired() bool { return s.expired.Load() }

// Cache is a document fetched and cached as the package doc says. It is
// safe for concurrent use; make it with [New], or [Cache.Init] for one
// inside its owner's struct (the fast path then follows one pointer
// less), and end it with [Cache.Close]. It must not be copied.
type Cache[T any] struct {
	cfg      Config[T]
	cur      atomic.Pointer[Snapshot[T]] // nil: no value yet, or closed
	ctx      context.Context             // cancelled by Close
	cancel   context.CancelFunc
	fetches  sync.WaitGroup // the goroutine of the fetch in progress
	runs     sync.WaitGroup // Run calls in progress
	released chan struct{}  // closed when Close has released everything

	mu          sync.Mutex
	flight      *flight // the fetch in progress, if any
	closed      bool
	attempts    int64
	lastAttempt time.Time // when the last fetch started
	lastEnd     time.Time // when the last fetch ended
	lastMissEnd time.Time // when the last fetch for a miss ended
	lastFetch   time.Time // when the value in use was fetched or revalidated
	lastErr     error
	validators  httpfetch.Validators // of the value in use
	lifetime    time.Duration
	bodySum     [32]byte    // SHA-256 of the body of the value in use
	stopTimer   func() bool // stops the expiry timer of the value in use
}

// flight is a fetch in progress; waiters block on done, then read err.
type flight struct {
	done    chan struct{}
	err     error
	forMiss bool // started for a miss: its end starts the cooldown of misses
}

// AfterFunc is [time.AfterFunc] returning the timer's Stop: the default
// of Config.AfterFunc.
func AfterFunc(d time.Duration, f func()) (stop func() bool) { return time.AfterFunc(d, f).Stop }

// New returns a Cache of cfg that has fetched nothing.
func New[T any](cfg Config[T]) *Cache[T] {
	c := new(Cache[T])
	c.Init(cfg)
	return c
}

// Init makes c, a zero Cache, a Cache of cfg that has fetched nothing. It
// must be called once, before any other method.
func (c *Cache[T]) Init(cfg Config[T]) {
	c.cfg, c.released = cfg, make(chan struct{})
	c.ctx, c.cancel = context.WithCancel(context.Background())
}

// Load returns the value in use (nil: none yet, or closed) without
// locking: the fast path of the owner, which uses it as it is when it is
// not [Snapshot.Expired] and meets its need, and calls [Cache.Get]
// otherwise.
func (c *Cache[T]) Load() *Snapshot[T] { return c.cur.Load() }

// Context returns the context Close cancels: the wait of a call that has
// no context of its own.
func (c *Cache[T]) Context() context.Context { return c.ctx }

// maxWaits is the most fetches one call of Get waits for: one it joined
// that was not for a miss (a first fetch, Refresh, Run, the end of a
// lifetime) and did not meet the need, then one for the miss.
const maxWaits = 2

// Get returns the value in use for a caller whose need the value meets
// when has (nil: any value) returns true, fetching as needed:
//
//   - a fresh value that meets the need is returned at once;
//   - a value past its freshness lifetime, usable (within MaxStale), that
//     meets the need is returned at once, and a fetch starts unless one
//     is in progress or a fetch failed less than Cooldown ago (nobody
//     waits for it);
//   - a usable value that does not meet the need (a miss) is fetched
//     again, once for all the callers meanwhile, unless a fetch failed
//     less than Cooldown ago, or, while the value is fresh, a fetch for a
//     miss ended less than Cooldown ago; if the value still misses, Get
//     returns it with [ErrMissing];
//   - with no usable value, Get fetches it, or waits for the fetch in
//     progress, and returns NoUsable's error if there is still none.
//
// ctx bounds the wait (the error then wraps ctx's cause; Closed if Close
// ended it); a call whose ctx has ended starts no fetch.
func (c *Cache[T]) Get(ctx context.Context, has func(*T) bool) (*Snapshot[T], error) {
	for waits := 0; ; {
		c.mu.Lock()
		if c.closed {
			c.mu.Unlock()
			return nil, c.cfg.Closed
		}
		now := c.cfg.Now()
		s := c.cur.Load()
		fresh := s != nil && now.Before(s.Fresh)
		usable := s != nil && now.Before(s.Usable)
		meets := s != nil && (has == nil || has(&s.Value))
		forMiss := usable && !meets
		// The other fetches (no usable value, the end of a lifetime)
		// are bounded by MinRefresh.
		canStart := waits < maxWaits && c.flight == nil && !c.failing(now) &&
			!(fresh && forMiss && c.within(c.lastMissEnd, now))
		switch {
		case fresh && meets:
			c.mu.Unlock()
			return s, nil
		case usable && meets:
			// Stale but usable: used while it is fetched again (by
			// this call, or another), or after a fetch just tried.
			if canStart && ctx.Err() == nil {
				c.start(now, false)
			}
			c.mu.Unlock()
			return s, nil
		case !canStart && (c.flight == nil || waits == maxWaits):
			err := c.unavailable(usable)
			c.mu.Unlock()
			if usable {
				return s, err
			}
			return nil, err
		case ctx.Err() != nil: // gone: neither start nor join a fetch
			c.mu.Unlock()
			return nil, c.waitError(ctx)
		}
		f := c.flight
		if f == nil {
			f = c.start(now, forMiss)
		}
		c.mu.Unlock()
		if err := c.wait(ctx, f); err != nil {
			return nil, err
		}
		waits++
		if f.forMiss || f.err != nil {
			// The fetch for a miss, or a failure: what it left is
			// the answer.
			waits = maxWaits
		}
	}
}

// unavailable is the error of Get when it cannot return a value that
// meets the need: ErrMissing for a usable value, else the last fetch's
// error. c.mu is held.
func (c *Cache[T]) unavailable(usable bool) error {
	switch {
	case usable:
		return ErrMissing
	case c.lastErr != nil && c.cfg.NoUsable != nil:
		return c.cfg.NoUsable(c.lastErr)
	case c.lastErr != nil:
		return c.lastErr
	}
	// The last fetch succeeded and its value is beyond MaxStale: the
	// clock jumped while a fetch was in progress; the next call fetches.
	return c.cfg.Errorf("%s expired", c.cfg.What)
}

// wait waits for the fetch f to end, or ctx to be done. Whatever the
// context of the call that started it, a fetch ends only with Timeout or
// Close.
func (c *Cache[T]) wait(ctx context.Context, f *flight) error {
	select {
	case <-f.done:
		return nil
	case <-ctx.Done():
		return c.waitError(ctx)
	}
}

// waitError is the error of a call whose context ended before the fetch:
// Closed if Close ended it (a call may wait with [Cache.Context]).
func (c *Cache[T]) waitError(ctx context.Context) error {
	if c.ctx.Err() != nil {
		return c.cfg.Closed
	}
	return c.cfg.Errorf("waiting for %s: %w", c.cfg.What, context.Cause(ctx))
}

// within reports whether t, the end of a fetch, is less than Cooldown
// before now (false for the zero time).
func (c *Cache[T]) within(t, now time.Time) bool {
	return !t.IsZero() && now.Sub(t) < c.cfg.Cooldown
}

// failing reports whether the last fetch failed less than Cooldown before
// now, counted from its end. c.mu is held.
func (c *Cache[T]) failing(now time.Time) bool {
	return c.lastErr != nil && c.within(c.lastEnd, now)
}

// start starts a fetch in a goroutine of its own, which ends with the
// fetch; forMiss marks a fetch for a miss. c.mu is held and c is not
// closed.
func (c *Cache[T]) start(now time.Time, forMiss bool) *flight {
	f := &flight{done: make(chan struct{}), forMiss: forMiss}
	c.flight, c.lastAttempt = f, now
	c.attempts++
	c.fetches.Add(1)
	go c.run(f)
	return f
}

// run performs the fetch f, bounded by Timeout and aborted by Close, and
// publishes its result.
func (c *Cache[T]) run(f *flight) {
	defer c.fetches.Done()
	ctx, cancel := context.WithTimeout(c.ctx, c.cfg.Timeout)
	defer cancel()
	c.mu.Lock()
	req, prev, prevSum := c.cfg.Request, c.cur.Load(), c.bodySum
	req.Validators = c.validators
	c.mu.Unlock()
	var prevValue *T
	if prev != nil {
		prevValue = &prev.Value
	} else {
		req.Validators = httpfetch.Validators{} // nothing to revalidate
	}
	res, err := httpfetch.Get(ctx, c.cfg.Client, req, c.cfg.Now)
	// Past Timeout (or Close) when Get returned: no complete answer in
	// time. Read now, not after Parse, which the deadline does not bound:
	// a body that arrived whole in time keeps its own error.
	late := ctx.Err()
	var value T
	var sum [32]byte
	parsed := false
	switch {
	case err != nil:
		err = c.cfg.Errorf("%w", err)
	case res.Body == nil: // 304 Not Modified: the value in use
		value = prev.Value
	default:
		sum = sha256.Sum256(res.Body)
		if prev != nil && sum == prevSum {
			value = prev.Value
		} else {
			value, err = c.cfg.Parse(res.Body, res.Status, prevValue)
			parsed = err == nil
		}
	}
	if err != nil && late != nil {
		// Whatever the transport saw last (an error, or the empty
		// answer of a server that gave up with the client, which
		// does not parse), the cause is the deadline (or Close,
		// below).
		err = c.cfg.Errorf("no complete answer within Options.Timeout %v: %w", c.cfg.Timeout, late)
	}

	var after func()
	defer close(f.done) // last: the waiters see everything below done
	defer func() {
		if after != nil {
			after()
		}
	}()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flight, f.err = nil, err
	if c.closed {
		f.err = c.cfg.Closed
		if parsed && c.cfg.Adopt != nil {
			after = c.cfg.Adopt(prevValue, &value, true)
		}
		return
	}
	now := c.cfg.Now()
	c.lastErr, c.lastEnd = err, now
	if f.forMiss {
		c.lastMissEnd = now
	}
	if err != nil {
		return
	}
	c.lastFetch = now
	lifetime := httpfetch.Clamp(res.Lifetime, res.Explicit, c.cfg.MinRefresh, c.cfg.MaxRefresh)
	if res.Body == nil {
		c.validators = c.validators.Update(res.Validators)
		if !res.Explicit {
			lifetime = c.lifetime
		}
	} else {
		c.validators, c.bodySum = res.Validators, sum
	}
	c.lifetime = lifetime
	// The lifetime is counted from when the headers arrived, not from
	// the end of the body (RFC 9111 §4.2.3); but a value is used for
	// MinRefresh at least once it is here: a body slower than its
	// lifetime is not stale on arrival (with MaxStale 0, unusable: each
	// Get would fetch twice and fail).
	fresh := res.Received.Add(lifetime)
	if floor := now.Add(c.cfg.MinRefresh); fresh.Before(floor) {
		fresh = floor
	}
	ns := &Snapshot[T]{Value: value, Fetched: now, Fresh: fresh, Usable: fresh.Add(c.cfg.MaxStale)}
	if parsed && c.cfg.Adopt != nil {
		after = c.cfg.Adopt(prevValue, &ns.Value, false)
	}
	if c.stopTimer != nil {
		c.stopTimer()
	}
	c.stopTimer = c.cfg.AfterFunc(fresh.Sub(now), func() { ns.expired.Store(true) })
	c.cur.Store(ns)
}

// Refresh fetches the document now, whatever its freshness and the
// cooldown (or waits for the fetch in progress), and returns the fetch's
// error; the value in use is kept when it fails. ctx bounds the wait, not
// the fetch.
func (c *Cache[T]) Refresh(ctx context.Context) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return c.cfg.Closed
	}
	if ctx.Err() != nil {
		c.mu.Unlock()
		return c.waitError(ctx)
	}
	f := c.flight
	if f == nil {
		f = c.start(c.cfg.Now(), false)
	}
	c.mu.Unlock()
	if err := c.wait(ctx, f); err != nil {
		return err
	}
	return f.err
}

// Run refreshes the document at once, then a tenth of its freshness
// lifetime (at most Timeout) before it ends, and Cooldown after the end
// of a failed fetch, calling each (if not nil) in its goroutine after
// every refresh. It returns when ctx is done (ctx.Err()) or c is closed
// (Closed), after calling exit (if not nil); Close waits for it.
func (c *Cache[T]) Run(ctx context.Context, each, exit func()) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return c.cfg.Closed
	}
	c.runs.Add(1)
	c.mu.Unlock()
	defer c.runs.Done()
	if exit != nil {
		defer exit()
	}
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-c.ctx.Done():
			return c.cfg.Closed
		case <-timer.C:
		}
		_ = c.Refresh(ctx) // recorded in Status
		if each != nil {
			each()
		}
		timer.Reset(c.UntilNext())
	}
}

// UntilNext returns how long Run waits before its next fetch.
func (c *Cache[T]) UntilNext() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.cfg.Now()
	next := c.lastEnd.Add(c.cfg.Cooldown) // after a failure, from its end
	if s := c.cur.Load(); s != nil && c.lastErr == nil {
		// Ahead of the end of the lifetime, by the time a fetch may
		// take, at most a tenth of the lifetime.
		next = s.Fresh.Add(-min(c.lifetime/10, c.cfg.Timeout))
	}
	return max(next.Sub(now), 0)
}

// Wait waits until the fetch in progress, if any, has ended and its
// result is in use (for tests). It waits on a [sync.WaitGroup]: a call
// that may start a fetch from none must not race with it, or Wait may
// panic ("WaitGroup is reused before previous Wait has returned").
func (c *Cache[T]) Wait() { c.fetches.Wait() }

// Close aborts the fetch in progress, makes Run return and waits for
// both, drops the value and calls release (if not nil) with the one it
// dropped (nil: none); every later call returns Closed. Close is
// idempotent: a second call returns when the first has.
func (c *Cache[T]) Close(release func(last *Snapshot[T])) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		<-c.released // a concurrent Close may still be waiting
		return
	}
	c.closed = true
	s := c.cur.Swap(nil)
	if c.stopTimer != nil {
		c.stopTimer()
	}
	c.mu.Unlock()
	c.cancel()
	c.fetches.Wait()
	c.runs.Wait()
	if release != nil {
		release(s)
	}
	close(c.released)
}

// Status is the state of a Cache, for monitoring.
type Status[T any] struct {
	// Current is the value in use (nil: none).
	Current *Snapshot[T]
	// LastFetch is when the value in use was fetched or revalidated,
	// LastAttempt when the last fetch started (zero: never).
	LastFetch, LastAttempt time.Time
	// LastError is the error of the last fetch (nil: it succeeded, or
	// none was made).
	LastError error
	// Attempts is the number of fetches started.
	Attempts int64
	// Fetching reports whether a fetch is in progress.
	Fetching bool
}

// Status returns the state of c, read under its lock; it does not fetch.
func (c *Cache[T]) Status() Status[T] {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Status[T]{
		Current:   c.cur.Load(),
		LastFetch: c.lastFetch, LastAttempt: c.lastAttempt, LastError: c.lastErr,
		Attempts: c.attempts, Fetching: c.flight != nil,
	}
}
