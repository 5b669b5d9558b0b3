package oidc

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/httpfetch"
	"github.com/josebench/josebench/jose/jwks"
)

// DefaultMaxDocumentSize is the default of [Options].MaxDocumentSize.
const DefaultMaxDocumentSize = 64 << 10 // bytes

// ErrDiscovery reports that the metadata document could not be fetched or
// is not acceptable: a transport error, a status other than 200 or 304, a
// body too large or not a JSON object, an issuer other than the
// configured one ([ErrIssuerMismatch]), or a missing or non-https
// jwks_uri. The error returned wraps ErrDiscovery and the cause; its text
// names the document's URL.
var ErrDiscovery = errors.New("oidc: discovery failed")

// ErrIssuerMismatch reports a metadata document whose "issuer" is not
// exactly the configured issuer (OpenID Connect Discovery 1.0 §4.3, RFC
// 8414 §3.3): the document, and every key it points to, is refused. It is
// wrapped with [ErrDiscovery].
var ErrIssuerMismatch = errors.New("issuer mismatch")

// ErrClosed is returned by every method of a [Provider] after
// [Provider.Close].
var ErrClosed = errors.New("oidc: provider closed")

// Options configure a [Provider]. The zero value gives the defaults; a
// negative duration or size is refused, except MaxStale. The fetches of
// the metadata document are bounded as those of the JWK Set are by
// [jwks.Options], with the same defaults.
type Options struct {
	// Client makes the requests, for the document and (unless
	// Keys.Client is set) the JWK Set. The default is a client of its own
	// with Timeout, at most 1 MiB of response headers and 10 redirects,
	// none to plain http; its connections are closed by Close. Whatever
	// the client, a document whose final URL is http is refused unless
	// AllowHTTP is set.
	Client *http.Client
	// AllowHTTP allows an http issuer and jwks_uri (for the JWK Set too):
	// for tests on the loopback, never for a provider.
	AllowHTTP bool
	// Document is the well-known document read (default
	// [OpenIDConfiguration]).
	Document WellKnown
	// Timeout bounds one fetch of the document (default
	// [jwks.DefaultTimeout], 10 s).
	Timeout time.Duration
	// MaxDocumentSize bounds the document's body, in bytes (default
	// [DefaultMaxDocumentSize], 64 KiB: providers' documents are 1 to
	// 10 KB). A longer body is refused at its Content-Length, or at the
	// byte past the limit.
	MaxDocumentSize int64
	// MinRefreshInterval and MaxRefreshInterval bound how long a document
	// is used before it is fetched again, whatever its Cache-Control or
	// Expires says; one that says neither is used for MaxRefreshInterval
	// (defaults [jwks.DefaultMinRefreshInterval], 5 min, and
	// [jwks.DefaultMaxRefreshInterval], 1 h).
	MinRefreshInterval, MaxRefreshInterval time.Duration
	// RefreshCooldown is how long after a failed fetch the next one waits
	// (default [jwks.DefaultRefreshCooldown], 30 s): a provider that is
	// down is not asked at the rate of the traffic.
	RefreshCooldown time.Duration
	// MaxStale is how long past its freshness lifetime the last good
	// document is still used while fetches fail (default
	// [jwks.DefaultMaxStale], 6 h; negative: never past its lifetime).
	MaxStale time.Duration
	// Keys configure the [jwks.Remote] of the document's jwks_uri. Its
	// Client is Client when not set, and its AllowHTTP is AllowHTTP.
	Keys jwks.Options
}

func (o Options) withDefaults() (Options, error) {
	for _, f := range []struct {
		name string
		v    *time.Duration
		d    time.Duration
	}{
		{"Timeout", &o.Timeout, jwks.DefaultTimeout},
		{"MinRefreshInterval", &o.MinRefreshInterval, jwks.DefaultMinRefreshInterval},
		{"MaxRefreshInterval", &o.MaxRefreshInterval, jwks.DefaultMaxRefreshInterval},
		{"RefreshCooldown", &o.RefreshCooldown, jwks.DefaultRefreshCooldown},
	} {
		if *f.v < 0 {
			return o, fmt.Errorf("oidc: Options.%s is negative", f.name)
		}
		if *f.v == 0 {
			*f.v = f.d
		}
	}
	switch {
	case o.MaxStale < 0:
		o.MaxStale = 0
	case o.MaxStale == 0:
		o.MaxStale = jwks.DefaultMaxStale
	}
	switch {
	case o.MaxDocumentSize < 0:
		return o, errors.New("oidc: Options.MaxDocumentSize is negative")
	case o.MaxDocumentSize == 0:
		o.MaxDocumentSize = DefaultMaxDocumentSize
	}
	if o.MinRefreshInterval > o.MaxRefreshInterval {
		return o, fmt.Errorf("oidc: Options.MinRefreshInterval %v exceeds MaxRefreshInterval %v", o.MinRefreshInterval, o.MaxRefreshInterval)
	}
	return o, nil
}

// Provider is an OpenID provider (or OAuth 2.0 authorization server)
// known by its issuer URL: its metadata document, fetched from the
// well-known URL of the issuer (OpenID Connect Discovery 1.0 §4, RFC 8414
// §3), and the JWK Set of the document's jwks_uri, a [jwks.Remote]. It is
// safe for concurrent use.
//
// The document is cached as the JWK Set is: for its Cache-Control max-age
// or Expires within [MinRefreshInterval, MaxRefreshInterval], revalidated
// with If-None-Match and If-Modified-Since, fetched again (without
// waiting for it) by the first call after its lifetime, and kept while
// fetches fail for at most MaxStale, with at most one fetch per
// RefreshCooldown after a failure. A fetch runs in a goroutine of its own
// that ends with it (within Timeout, or at Close); the callers wait for it
// with their own context. A document whose issuer is not exactly the
// configured one, or whose jwks_uri is not https, is refused and the last
// good one kept. When a new document names another jwks_uri, a new
// Remote is made for it and the calls that follow use it; the Remote
// before is closed when the jwks_uri changes again, or at Close.
//
// A Provider keeps no goroutine running (unless [Provider.Run], called in
// a goroutine of the caller's, refreshes the document and the set ahead of
// verifications), and logs nothing: [Provider.Status] reports the last
// fetch of the document and the Remote's [jwks.Remote.Status].
type Provider struct {
	issuer    string
	docURL    string
	opts      Options
	client    *http.Client
	ownClient bool
	now       func() time.Time
	afterFunc func(d time.Duration, f func()) (stop func() bool)

	cur atomic.Pointer[state]

	ctx      context.Context // cancelled by Close
	cancel   context.CancelFunc
	fetches  sync.WaitGroup
	runs     sync.WaitGroup // Run calls in progress
	released chan struct{}

	mu          sync.Mutex
	flight      *flight
	closed      bool
	lastAttempt time.Time
	lastFetch   time.Time
	lastErr     error
	requests    int64
	validators  httpfetch.Validators
	lifetime    time.Duration
	bodySum     [32]byte
	stopTimer   func() bool
	retired     *jwks.Remote // the Remote of the jwks_uri before the current one
}

// state is the document in use, its Remote, and how long it is used.
type state struct {
	meta    *Metadata
	keys    *jwks.Remote
	fresh   time.Time
	usable  time.Time
	expired atomic.Bool // set by a timer at fresh
}

type flight struct {
	done chan struct{}
	err  error
}

// NewProvider returns the Provider of issuer without fetching anything:
// the first call that needs the metadata fetches it, or call
// [Provider.Refresh] (or use [Discover]) to fetch it at start-up. issuer
// is the issuer identifier, exactly as the provider writes it in its
// document and its tokens' "iss": an https URL without query or fragment.
// The Provider must be closed with [Provider.Close].
func NewProvider(issuer string, opts Options) (*Provider, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	docURL, err := wellKnownURL(issuer, o.Document, o.AllowHTTP)
	if err != nil {
		return nil, err
	}
	p := &Provider{issuer: issuer, docURL: docURL, opts: o, client: o.Client, now: time.Now, afterFunc: afterFunc}
	if p.client == nil {
		p.client, p.ownClient = httpfetch.NewClient(o.Timeout, o.AllowHTTP), true
	}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	p.released = make(chan struct{})
	return p, nil
}

func afterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// Discover is [NewProvider] followed by [Provider.Refresh]: it returns a
// Provider whose metadata has been fetched and checked, or the error of
// the fetch (the Provider is then closed). ctx bounds the wait.
func Discover(ctx context.Context, issuer string, opts Options) (*Provider, error) {
	p, err := NewProvider(issuer, opts)
	if err != nil {
		return nil, err
	}
	if err := p.Refresh(ctx); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// Issuer returns the configured issuer.
func (p *Provider) Issuer() string { return p.issuer }

// DocumentURL returns the URL of the metadata document.
func (p *Provider) DocumentURL() string { return p.docURL }

// Metadata returns the metadata document in use, fetching it if there is
// none that is usable (ctx bounds the wait; the error then wraps
// ErrDiscovery and ctx's error). The *Metadata must not be modified.
func (p *Provider) Metadata(ctx context.Context) (*Metadata, error) {
	s, err := p.current(ctx)
	if err != nil {
		return nil, err
	}
	return s.meta, nil
}

// Keys returns the [jwks.Remote] of the jwks_uri of the document in use,
// fetching the document as Metadata does. The Remote belongs to the
// Provider: do not close it.
func (p *Provider) Keys(ctx context.Context) (*jwks.Remote, error) {
	s, err := p.current(ctx)
	if err != nil {
		return nil, err
	}
	return s.keys, nil
}

// KeyFuncContext returns the provider's JWK Set for a token whose header
// is h, for jws.VerifyOptions KeyFuncContext: [jwks.Remote.KeyFuncContext]
// of the document's jwks_uri (so a jwt.Validator over it verifies access
// tokens the provider issued, as package bearer does). With the document
// and the set cached it reads no clock and allocates nothing; ctx bounds
// any wait for a fetch.
func (p *Provider) KeyFuncContext(ctx context.Context, h *jose.Header) (any, error) {
	s, err := p.current(ctx)
	if err != nil {
		return nil, err
	}
	return s.keys.KeyFuncContext(ctx, h)
}

// current returns the state in use, fetching the document as Metadata
// says.
func (p *Provider) current(ctx context.Context) (*state, error) {
	if s := p.cur.Load(); s != nil && !s.expired.Load() {
		return s, nil
	}
	for waited := false; ; {
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return nil, ErrClosed
		}
		now := p.now()
		s := p.cur.Load()
		fresh := s != nil && now.Before(s.fresh)
		usable := s != nil && now.Before(s.usable)
		cooling := !p.lastAttempt.IsZero() && now.Sub(p.lastAttempt) < p.opts.RefreshCooldown
		canStart := !waited && p.flight == nil && (!cooling || s != nil && !fresh && p.lastErr == nil)
		switch {
		case fresh:
			p.mu.Unlock()
			return s, nil
		case usable:
			if canStart && ctx.Err() == nil {
				p.start(now)
			}
			p.mu.Unlock()
			return s, nil
		case !canStart && p.flight == nil, waited:
			err := p.lastErr
			p.mu.Unlock()
			if err == nil {
				err = p.errorf("the document expired")
			}
			return nil, err
		case ctx.Err() != nil:
			p.mu.Unlock()
			return nil, p.waitError(ctx)
		}
		f := p.flight
		if canStart {
			f = p.start(now)
		}
		p.mu.Unlock()
		if err := p.wait(ctx, f); err != nil {
			return nil, err
		}
		waited = true
	}
}

func (p *Provider) wait(ctx context.Context, f *flight) error {
	select {
	case <-f.done:
		return nil
	case <-ctx.Done():
		return p.waitError(ctx)
	}
}

func (p *Provider) waitError(ctx context.Context) error {
	if p.ctx.Err() != nil {
		return ErrClosed
	}
	return p.errorf("waiting for the document: %w", context.Cause(ctx))
}

// discoveryError wraps ErrDiscovery and its cause.
type discoveryError struct{ err error }

func (e discoveryError) Error() string   { return e.err.Error() }
func (e discoveryError) Unwrap() []error { return []error{ErrDiscovery, e.err} }

// errorf returns an error wrapping ErrDiscovery of the text "oidc: GET
// <document URL>: " and format.
func (p *Provider) errorf(format string, args ...any) error {
	return discoveryError{fmt.Errorf("oidc: GET %s: "+format, append([]any{p.docURL}, args...)...)}
}

// start starts a fetch of the document. p.mu is held, p is not closed.
func (p *Provider) start(now time.Time) *flight {
	f := &flight{done: make(chan struct{})}
	p.flight, p.lastAttempt = f, now
	p.requests++
	p.fetches.Add(1)
	go p.run(f)
	return f
}

// run fetches the document, bounded by Timeout and aborted by Close, and
// publishes the result.
func (p *Provider) run(f *flight) {
	defer p.fetches.Done()
	ctx, cancel := context.WithTimeout(p.ctx, p.opts.Timeout)
	defer cancel()
	p.mu.Lock()
	v, prev, prevSum := p.validators, p.cur.Load(), p.bodySum
	p.mu.Unlock()
	if prev == nil {
		v = httpfetch.Validators{}
	}
	res, err := httpfetch.Get(ctx, p.client, httpfetch.Request{
		URL: p.docURL, Accept: "application/json", MaxSize: p.opts.MaxDocumentSize,
		AllowHTTP: p.opts.AllowHTTP, Validators: v,
	}, p.now())
	switch {
	case err != nil && ctx.Err() != nil:
		err = p.errorf("no complete answer within Options.Timeout %v: %w", p.opts.Timeout, ctx.Err())
	case err != nil:
		err = p.errorf("%w", err)
	}
	var meta *Metadata
	var sum [32]byte
	if err == nil && res.Body != nil {
		sum = sha256.Sum256(res.Body)
		if prev != nil && sum == prevSum {
			meta = prev.meta
		} else if meta, err = parseMetadata(res.Body, p.issuer, p.opts.AllowHTTP); err != nil {
			err = p.errorf("status %s: %w", res.Status, err)
		}
	}
	var keys *jwks.Remote
	if err == nil && meta != nil && (prev == nil || prev.meta.JWKSURI != meta.JWKSURI) {
		ko := p.opts.Keys
		if ko.Client == nil {
			ko.Client = p.client
		}
		ko.AllowHTTP = p.opts.AllowHTTP
		if keys, err = jwks.New(meta.JWKSURI, ko); err != nil {
			err = p.errorf("jwks_uri: %w", untrusted.Error(err))
		}
	}

	defer close(f.done)      // last: the waiters see everything below done
	var toClose *jwks.Remote // closed once p.mu is released
	defer func() {
		if toClose != nil {
			toClose.Close()
		}
	}()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.flight, f.err = nil, err
	if p.closed {
		f.err, toClose = ErrClosed, keys
		return
	}
	p.lastErr = err
	if err != nil {
		return
	}
	now := p.now()
	p.lastFetch = now
	lifetime := httpfetch.Clamp(res.Lifetime, res.Explicit, p.opts.MinRefreshInterval, p.opts.MaxRefreshInterval)
	ns := &state{meta: meta}
	if meta == nil { // 304 Not Modified
		ns.meta, ns.keys = prev.meta, prev.keys
		p.validators = p.validators.Update(res.Validators)
		if !res.Explicit {
			lifetime = p.lifetime
		}
	} else {
		p.validators, p.bodySum = res.Validators, sum
		ns.keys = keys
		if keys == nil {
			ns.keys = prev.keys
		} else if prev != nil {
			toClose, p.retired = p.retired, prev.keys
		}
	}
	p.lifetime = lifetime
	ns.fresh = now.Add(lifetime)
	ns.usable = ns.fresh.Add(p.opts.MaxStale)
	if p.stopTimer != nil {
		p.stopTimer()
	}
	p.stopTimer = p.afterFunc(lifetime, func() { ns.expired.Store(true) })
	p.cur.Store(ns)
}

// Refresh fetches the document now, whatever its freshness and the
// cooldown (or waits for the fetch in progress), and returns the fetch's
// error; the document in use is kept when it fails. ctx bounds the wait,
// not the fetch. It does not fetch the JWK Set: Refresh it through
// [Provider.Keys] to fail at start-up when it cannot be fetched.
func (p *Provider) Refresh(ctx context.Context) error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return ErrClosed
	}
	if ctx.Err() != nil {
		p.mu.Unlock()
		return p.waitError(ctx)
	}
	f := p.flight
	if f == nil {
		f = p.start(p.now())
	}
	p.mu.Unlock()
	if err := p.wait(ctx, f); err != nil {
		return err
	}
	return f.err
}

// Run refreshes the document and the JWK Set, so that verifications do
// not wait for a fetch: the document at once, then a tenth of its
// freshness lifetime (at most Timeout) before it ends, and RefreshCooldown
// after a failed fetch; the set by [jwks.Remote.Run] of the jwks_uri in
// use (stopped and started again when the jwks_uri changes). It returns
// when ctx is done (ctx.Err()) or the Provider is closed ([ErrClosed]),
// once the Remote's Run has returned; Close waits for it. Run blocks: run
// it in a goroutine of the caller's, go p.Run(ctx).
func (p *Provider) Run(ctx context.Context) error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return ErrClosed
	}
	p.runs.Add(1)
	p.mu.Unlock()
	defer p.runs.Done()
	var keys *jwks.Remote
	stopKeys, keysDone := context.CancelFunc(func() {}), chan struct{}(nil)
	stop := func() {
		stopKeys()
		if keysDone != nil {
			<-keysDone
		}
	}
	defer stop()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-p.ctx.Done():
			return ErrClosed
		case <-timer.C:
		}
		_ = p.Refresh(ctx) // recorded in Status
		if s := p.cur.Load(); s != nil && s.keys != keys {
			stop()
			keys = s.keys
			kctx, cancel := context.WithCancel(ctx)
			stopKeys = cancel
			keysDone = make(chan struct{})
			go func(r *jwks.Remote, done chan struct{}) {
				defer close(done)
				_ = r.Run(kctx) // ends with kctx, or when r is closed
			}(keys, keysDone)
		}
		timer.Reset(p.untilNext())
	}
}

// untilNext returns how long Run waits before its next fetch.
func (p *Provider) untilNext() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	next := p.lastAttempt.Add(p.opts.RefreshCooldown) // after a failure
	if s := p.cur.Load(); s != nil && p.lastErr == nil {
		next = s.fresh.Add(-min(p.lifetime/10, p.opts.Timeout))
	}
	return max(next.Sub(now), 0)
}

// Close aborts the fetch in progress and waits for it, makes Run return
// and waits for it, closes the
// Remotes of the JWK Set and the idle connections of the default client,
// and drops the document: every later call returns [ErrClosed]. It is
// idempotent and returns nil.
func (p *Provider) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		<-p.released
		return nil
	}
	p.closed = true
	s := p.cur.Swap(nil)
	if p.stopTimer != nil {
		p.stopTimer()
	}
	retired := p.retired
	p.mu.Unlock()
	p.cancel()
	p.fetches.Wait()
	p.runs.Wait()
	for _, r := range []*jwks.Remote{retired, stateKeys(s)} {
		if r != nil {
			r.Close()
		}
	}
	if p.ownClient {
		p.client.CloseIdleConnections()
	}
	close(p.released)
	return nil
}

func stateKeys(s *state) *jwks.Remote {
	if s == nil {
		return nil
	}
	return s.keys
}

// Status describes the state of a [Provider], for monitoring.
type Status struct {
	// Issuer and DocumentURL are [Provider.Issuer] and
	// [Provider.DocumentURL].
	Issuer, DocumentURL string
	// LastFetch is when the document in use was last fetched or
	// revalidated, LastAttempt when the last fetch started (zero: never).
	LastFetch, LastAttempt time.Time
	// LastError is the error of the last fetch of the document, nil if it
	// succeeded or none was made; it wraps [ErrDiscovery].
	LastError error
	// FreshUntil and StaleUntil are when the document in use stops being
	// fresh and usable (zero: none).
	FreshUntil, StaleUntil time.Time
	// Requests is the number of requests made for the document.
	Requests int64
	// Keys is the Status of the JWK Set in use (zero: none yet).
	Keys jwks.Status
}

// Status returns the state of p; it does not fetch.
func (p *Provider) Status() Status {
	p.mu.Lock()
	st := Status{
		Issuer: p.issuer, DocumentURL: p.docURL,
		LastFetch: p.lastFetch, LastAttempt: p.lastAttempt, LastError: p.lastErr, Requests: p.requests,
	}
	s := p.cur.Load()
	p.mu.Unlock()
	if s != nil {
		st.FreshUntil, st.StaleUntil = s.fresh, s.usable
		st.Keys = s.keys.Status()
	}
	return st
}

// supports reports whether the document in use allows alg for ID tokens:
// it lists it in id_token_signing_alg_values_supported, or lists nothing
// (RFC 8414 documents need not have the member).
func (m *Metadata) supports(alg string) bool {
	return len(m.IDTokenSigningAlgValuesSupported) == 0 || slices.Contains(m.IDTokenSigningAlgValuesSupported, alg)
}
