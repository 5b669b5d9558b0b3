package oidc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/cachedfetch"
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
	// RefreshCooldown is how long after a failed fetch (from its end,
	// so that a provider answering slowly is not asked back to back) the
	// next one waits, but for Refresh (default
	// [jwks.DefaultRefreshCooldown], 30 s): a provider that is down is
	// not asked at the rate of the traffic.
	RefreshCooldown time.Duration
	// MaxStale is how long past its freshness lifetime the last good
	// document is still used while fetches fail (default
	// [jwks.DefaultMaxStale], 6 h; negative: never past its lifetime).
	MaxStale time.Duration
	// Keys configure the [jwks.Remote] of the document's jwks_uri. Its
	// Client is Client when not set, and its AllowHTTP is AllowHTTP.
	Keys jwks.Options
}

// withDefaults returns o with its zero fields set to the defaults, or an
// error for a negative or inconsistent value.
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
// fetches fail for at most MaxStale, with no fetch for RefreshCooldown
// after the end of a failed one (but for Refresh). A fetch runs in a
// goroutine of its own that ends with it (within Timeout, or at Close);
// the callers wait for it with their own context. A document whose issuer is not exactly the
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
	now       func() time.Time // time.Now; tests replace it
	// afterFunc is time.AfterFunc, returning the timer's Stop; tests
	// replace it along with now.
	afterFunc func(d time.Duration, f func()) (stop func() bool)

	// fetches fetches and caches the document: the state machine
	// jwks.Remote uses for the JWK Set.
	fetches cachedfetch.Cache[document]
	// retired is the Remote of the jwks_uri before the current one,
	// written under the cache's lock (by adopt) and read by Close once
	// no fetch is left.
	retired *jwks.Remote
}

// document is the document in use and the Remote of its jwks_uri.
type document struct {
	meta *Metadata
	keys *jwks.Remote
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
	p := &Provider{issuer: issuer, docURL: docURL, opts: o, client: o.Client, now: time.Now, afterFunc: cachedfetch.AfterFunc}
	if p.client == nil {
		p.client, p.ownClient = httpfetch.NewClient(o.Timeout, o.AllowHTTP), true
	}
	p.fetches.Init(cachedfetch.Config[document]{
		Client: p.client,
		Request: httpfetch.Request{
			URL: docURL, Accept: "application/json", MaxSize: o.MaxDocumentSize, AllowHTTP: o.AllowHTTP,
		},
		Timeout:    o.Timeout,
		MinRefresh: o.MinRefreshInterval, MaxRefresh: o.MaxRefreshInterval,
		Cooldown: o.RefreshCooldown, MaxStale: o.MaxStale,
		What: "the document", Errorf: p.errorf, Closed: ErrClosed,
		Now:       func() time.Time { return p.now() },
		AfterFunc: func(d time.Duration, f func()) func() bool { return p.afterFunc(d, f) },
		Parse:     p.parse,
		Adopt:     p.adopt,
	})
	return p, nil
}

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
	return s.Value.meta, nil
}

// Keys returns the [jwks.Remote] of the jwks_uri of the document in use,
// fetching the document as Metadata does. The Remote belongs to the
// Provider: do not close it.
func (p *Provider) Keys(ctx context.Context) (*jwks.Remote, error) {
	s, err := p.current(ctx)
	if err != nil {
		return nil, err
	}
	return s.Value.keys, nil
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
	return s.Value.keys.KeyFuncContext(ctx, h)
}

// current returns the document in use, fetching it as Metadata says.
func (p *Provider) current(ctx context.Context) (*cachedfetch.Snapshot[document], error) {
	if s := p.fetches.Load(); s != nil && !s.Expired() {
		return s, nil
	}
	return p.fetches.Get(ctx, nil)
}

// discoveryError wraps ErrDiscovery and its cause.
type discoveryError struct{ err error }

// Error returns the text of the cause.
func (e discoveryError) Error() string { return e.err.Error() }

// Unwrap returns ErrDiscovery and the cause, for errors.Is and errors.As.
func (e discoveryError) Unwrap() []error { return []error{ErrDiscovery, e.err} }

// errorf returns an error wrapping ErrDiscovery of the text "oidc: GET
// <document URL>: " and format.
func (p *Provider) errorf(format string, args ...any) error {
	return discoveryError{fmt.Errorf("oidc: GET %s: "+format, append([]any{p.docURL}, args...)...)}
}

// parse is the Parse of the Provider's cache: the document of a body of
// status 200, prev being the one in use (nil: none), with a new
// [jwks.Remote] when its jwks_uri is not prev's (prev's Remote
// otherwise).
func (p *Provider) parse(body []byte, status string, prev *document) (document, error) {
	meta, err := parseMetadata(body, p.issuer, p.opts.AllowHTTP)
	if err != nil {
		return document{}, p.errorf("status %s: %w", status, err)
	}
	if prev != nil && prev.meta.JWKSURI == meta.JWKSURI {
		return document{meta, prev.keys}, nil
	}
	ko := p.opts.Keys
	if ko.Client == nil {
		ko.Client = p.client
	}
	ko.AllowHTTP = p.opts.AllowHTTP
	keys, err := jwks.New(meta.JWKSURI, ko)
	if err != nil {
		return document{}, p.errorf("jwks_uri: %w", untrusted.Error(err))
	}
	return document{meta, keys}, nil
}

// adopt is the Adopt of the Provider's cache: next, a document parse
// made, replaces prev, or is dropped (closed). A Remote parse made is
// closed if dropped; else the Remote of prev is retired, and the one
// retired before it closed.
func (p *Provider) adopt(prev, next *document, closed bool) func() {
	if prev != nil && next.keys == prev.keys {
		return nil
	}
	toClose := next.keys
	if !closed {
		toClose = nil
		if prev != nil {
			toClose, p.retired = p.retired, prev.keys
		}
	}
	if toClose == nil {
		return nil
	}
	return func() { toClose.Close() }
}

// Refresh fetches the document now, whatever its freshness and the
// cooldown (or waits for the fetch in progress), and returns the fetch's
// error; the document in use is kept when it fails. ctx bounds the wait,
// not the fetch. It does not fetch the JWK Set: Refresh it through
// [Provider.Keys] to fail at start-up when it cannot be fetched.
func (p *Provider) Refresh(ctx context.Context) error { return p.fetches.Refresh(ctx) }

// Run refreshes the document and the JWK Set, so that verifications do
// not wait for a fetch: the document at once, then a tenth of its
// freshness lifetime (at most Timeout) before it ends, and RefreshCooldown
// after a failed fetch; the set by [jwks.Remote.Run] of the jwks_uri in
// use (stopped and started again when the jwks_uri changes). It returns
// when ctx is done (ctx.Err()) or the Provider is closed ([ErrClosed]),
// once the Remote's Run has returned; Close waits for it. Run blocks: run
// it in a goroutine of the caller's, go p.Run(ctx).
func (p *Provider) Run(ctx context.Context) error {
	var keys *jwks.Remote
	stopKeys, keysDone := context.CancelFunc(func() {}), chan struct{}(nil)
	stop := func() {
		stopKeys()
		if keysDone != nil {
			<-keysDone
		}
	}
	each := func() {
		s := p.fetches.Load()
		if s == nil || s.Value.keys == keys {
			return
		}
		stop()
		keys = s.Value.keys
		kctx, cancel := context.WithCancel(ctx)
		stopKeys = cancel
		keysDone = make(chan struct{})
		go func(r *jwks.Remote, done chan struct{}) {
			defer close(done)
			_ = r.Run(kctx) // ends with kctx, or when r is closed
		}(keys, keysDone)
	}
	return p.fetches.Run(ctx, each, stop)
}

// Close aborts the fetch in progress and waits for it, makes Run return
// and waits for it, closes the
// Remotes of the JWK Set and the idle connections of the default client,
// and drops the document: every later call returns [ErrClosed]. It is
// idempotent and returns nil.
func (p *Provider) Close() error {
	p.fetches.Close(func(s *cachedfetch.Snapshot[document]) {
		if p.retired != nil {
			p.retired.Close()
		}
		if s != nil {
			s.Value.keys.Close()
		}
		if p.ownClient {
			p.client.CloseIdleConnections()
		}
	})
	return nil
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
	cs := p.fetches.Status()
	st := Status{
		Issuer: p.issuer, DocumentURL: p.docURL,
		LastFetch: cs.LastFetch, LastAttempt: cs.LastAttempt, LastError: cs.LastError, Requests: cs.Attempts,
	}
	if s := cs.Current; s != nil {
		st.FreshUntil, st.StaleUntil = s.Fresh, s.Usable
		st.Keys = s.Value.keys.Status()
	}
	return st
}

// supports reports whether the document in use allows alg for ID tokens:
// it lists it in id_token_signing_alg_values_supported, or lists nothing
// (RFC 8414 documents need not have the member).
func (m *Metadata) supports(alg string) bool {
	return len(m.IDTokenSigningAlgValuesSupported) == 0 || slices.Contains(m.IDTokenSigningAlgValuesSupported, alg)
}
