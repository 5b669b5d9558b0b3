package jwks

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"sync/atomic"
	"time"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/cachedfetch"
	"github.com/josebench/josebench/jose/internal/httpfetch"
)

// Default values of [Options]; each is documented, with its reason, at its
// field.
const (
	DefaultTimeout            = 10 * time.Second
	DefaultMaxResponseSize    = 2 << 20 // bytes
	DefaultMinRefreshInterval = 5 * time.Minute
	DefaultMaxRefreshInterval = time.Hour
	DefaultRefreshCooldown    = 30 * time.Second
	DefaultMaxStale           = 6 * time.Hour
)

// ErrFetch reports that the JWK Set could not be fetched: a transport
// error, an HTTP status other than 200 or 304, or a body that is too large,
// not a JWK Set, holds keys a published set must not hold, or holds no key
// usable here (see [Options.MaxStale]). The error
// returned wraps ErrFetch and, where there is one, the cause (a jose
// sentinel such as [jose.ErrLimitExceeded] or [jose.ErrMalformed], or the
// transport's error); its text names the URL and the HTTP status.
var ErrFetch = errors.New("jwks: fetch failed")

// ErrClosed is returned by every method of a [Remote] after [Remote.Close].
var ErrClosed = errors.New("jwks: remote set closed")

// Options configure a [Remote]. The zero value gives the defaults; a
// negative duration or size is refused by [New], except MaxStale.
type Options struct {
	// Client makes the requests. The default is a client of its own (its
	// own connection pool, closed by Close) with Timeout as its timeout,
	// which reads at most 1 MiB of response headers and follows at most
	// 10 redirects, none from https to http.
	// Whatever the client, a response whose final URL is http is refused
	// unless AllowHTTP is set. The Remote makes its requests with a copy
	// of Client whose Transport counts them, for [Status].Requests; Client
	// itself is not modified.
	Client *http.Client
	// AllowHTTP allows an http URL. A set fetched over plain HTTP can be
	// replaced by anyone on the path, so this is for tests on the loopback
	// and for sidecars on the same host, never for a provider.
	AllowHTTP bool
	// Timeout bounds one fetch, from sending the request to the last byte
	// of the body, whatever Client's own timeout (default
	// [DefaultTimeout], 10 s: a provider answers in milliseconds; a fetch
	// that hangs must not hold a verification much longer than a client
	// would wait for the service itself).
	Timeout time.Duration
	// MaxResponseSize bounds the body, in bytes (default
	// [DefaultMaxResponseSize], 2 MiB: a set of a thousand 4096-bit RSA
	// public keys, the most [jose.ParseSet] reads, is 0.8 MB). A longer body
	// is refused as soon as its Content-Length, or the byte past the
	// limit, is seen; memory stays bounded by the limit. The limit is on
	// the body as read, so on the decompressed body when the client
	// decompresses it (the default client asks for gzip).
	MaxResponseSize int64
	// Limits are the limits [jose.ParsePublicSetWithLimits] (or, with
	// AllowSecretKeys, [jose.ParseSetWithLimits]) applies to the body
	// (zero fields: the jose defaults, except MaxSetSize, which is
	// MaxResponseSize unless set).
	Limits jose.Limits

	// MinRefreshInterval and MaxRefreshInterval bound how long a fetched
	// set is used before it is fetched again, whatever its Cache-Control
	// max-age or Expires says (RFC 9111 §4.2.1): no-cache, no-store or
	// max-age=0 cannot make every verification fetch, and a max-age of a
	// year cannot keep a revoked key trusted for a year. A response
	// without either header is used for MaxRefreshInterval. Defaults:
	// [DefaultMinRefreshInterval], 5 min, and [DefaultMaxRefreshInterval],
	// 1 h (providers announce new keys well before they use them, and an
	// unknown kid refreshes at once anyway; an hour bounds how long a key
	// the provider removed is still accepted).
	MinRefreshInterval time.Duration
	MaxRefreshInterval time.Duration
	// RefreshCooldown bounds the fetches the traffic can cause, counted
	// from the end of a fetch (so that a provider answering slowly is not
	// asked back to back):
	//
	//   - a token whose kid is not in the set fetches the set again at
	//     once, unless a fetch for an unknown kid ended less than this long
	//     ago; inside that cooldown an unknown kid is [jose.ErrKeyNotFound]
	//     at once, so tokens with made-up kids cause at most one request
	//     per cooldown, whatever the traffic. Only those fetches start
	//     it: the first fetch, [Remote.Refresh], [Remote.Run] and the
	//     fetches at the end of a set's lifetime do not, so that a key a
	//     provider signs with as soon as it publishes it (as OpenID
	//     Connect Core 1.0 §10.1.1 allows) is fetched with its first
	//     token, even just after one of them;
	//   - after a failed fetch, of any kind, no verification starts one
	//     for this long (Refresh does).
	//
	// The fetches at the end of a set's lifetime are bounded by
	// MinRefreshInterval. Default [DefaultRefreshCooldown], 30 s: at most
	// two requests a minute for unknown kids, and a key rotated twice in
	// a row is picked up within half a minute of its first token.
	RefreshCooldown time.Duration
	// MaxStale is how long past the end of its freshness lifetime the last
	// good set is still used while fetches fail (stale-if-error, RFC 5861
	// §4): a provider outage does not stop verification at once. Default
	// [DefaultMaxStale], 6 h, longer than most provider outages, short
	// enough that a set nobody can refresh stops being trusted the same
	// day. Negative: a set is never used past its freshness lifetime.
	//
	// An answer of status 200 whose set holds no key usable here (no key
	// at all, only key types or curves this module does not support, only
	// entries that fail the checks of [jose.ParseKey]: see [jose.Set]) is
	// a failed fetch too: the set in use stays, until MaxStale, and
	// [Remote.Status] reports the error. The other libraries we know
	// replace their set with any set that parses; we do not, because such
	// a set verifies no token: a publishing mistake of the provider (an
	// empty set during a migration, keys in a form this module refuses)
	// would become an outage at once, with nothing in the fetch's status
	// to say why. The cost is that a provider emptying its set to revoke
	// every key is obeyed only after MaxStale; a set with one usable key
	// replaces the set in use at once. With no set held yet, such an
	// answer is also a failed fetch (every call then fails with it,
	// wrapping [ErrFetch], rather than each token with
	// [jose.ErrKeyNotFound]), retried as any other.
	MaxStale time.Duration
	// AllowSecretKeys allows a set holding symmetric ("oct") or private
	// keys; by default a set with any secret or private key is refused, as
	// a published set must not hold one (anyone who can read it could
	// sign), on its member names before any key is built
	// ([jose.ParsePublicSetWithLimits]), even an entry that is unusable.
	// Set it only for a key service reached over an authenticated
	// channel. A set mixing secret and public keys is always refused.
	AllowSecretKeys bool
}

// withDefaults returns o with its zero fields set to the defaults, or an
// error for a negative or inconsistent value.
func (o Options) withDefaults() (Options, error) {
	def := func(name string, v *time.Duration, d time.Duration) error {
		if *v < 0 {
			return fmt.Errorf("jwks: Options.%s is negative", name)
		}
		if *v == 0 {
			*v = d
		}
		return nil
	}
	for _, f := range []struct {
		name string
		v    *time.Duration
		d    time.Duration
	}{
		{"Timeout", &o.Timeout, DefaultTimeout},
		{"MinRefreshInterval", &o.MinRefreshInterval, DefaultMinRefreshInterval},
		{"MaxRefreshInterval", &o.MaxRefreshInterval, DefaultMaxRefreshInterval},
		{"RefreshCooldown", &o.RefreshCooldown, DefaultRefreshCooldown},
	} {
		if err := def(f.name, f.v, f.d); err != nil {
			return o, err
		}
	}
	switch {
	case o.MaxStale < 0:
		o.MaxStale = 0
	case o.MaxStale == 0:
		o.MaxStale = DefaultMaxStale
	}
	if o.MaxResponseSize < 0 {
		return o, errors.New("jwks: Options.MaxResponseSize is negative")
	}
	if o.MaxResponseSize == 0 {
		o.MaxResponseSize = DefaultMaxResponseSize
	}
	if o.MinRefreshInterval > o.MaxRefreshInterval {
		return o, fmt.Errorf("jwks: Options.MinRefreshInterval %v exceeds MaxRefreshInterval %v", o.MinRefreshInterval, o.MaxRefreshInterval)
	}
	if o.Limits.MaxSetSize <= 0 {
		// The body limit is the set's: a body read whole is never
		// refused again for its size.
		o.Limits.MaxSetSize = int(min(o.MaxResponseSize, math.MaxInt))
	}
	o.Limits = o.Limits.WithDefaults()
	return o, nil
}

// Remote is a JWK Set (RFC 7517 §5) published at a URL, such as an OpenID
// provider's jwks_uri: fetched over HTTP, cached as its response headers
// allow within the bounds of [Options], fetched again when a token names a
// key it does not hold (rotation), and kept while fetches fail, for a while.
// It is safe for concurrent use.
//
// A Remote keeps no goroutine running: each fetch runs in a goroutine of
// its own, which ends with the fetch (within Timeout, or at Close, which
// waits for it), and the end of a set's freshness is a runtime timer,
// stopped by Close, whose function only marks the set expired. The calls
// waiting for a fetch wait with their own context: one giving up ends
// neither the fetch nor the others' wait, nor the cooldown it started.
// Without [Remote.Run], the set is fetched by the calls that need it: the
// first one, the first one after the set's freshness lifetime ends (which,
// like the others, keeps using the set meanwhile, while it is usable), and
// those with an unknown kid; with
// Run, the set is fetched again shortly before its lifetime ends, so that
// verifications do not wait for it.
//
// The set is used through [Remote.KeyFunc], as the KeyFunc of
// [jws.VerifyOptions] or [jwe.DecryptOptions]: a token whose key is in the
// cached set costs what a local *jose.Set costs. Keys never come from a
// token (its jku, x5u or jwk): the application chooses the URL.
//
// [jws.VerifyOptions]: https://pkg.go.dev/github.com/josebench/josebench/jose/jws#VerifyOptions
// [jwe.DecryptOptions]: https://pkg.go.dev/github.com/josebench/josebench/jose/jwe#DecryptOptions
type Remote struct {
	url       string
	shownURL  string // url.Redacted: in errors and Status
	opts      Options
	client    *http.Client
	ownClient bool
	now       func() time.Time // time.Now; tests replace it
	// afterFunc is time.AfterFunc, returning the timer's Stop; tests
	// replace it along with now.
	afterFunc func(d time.Duration, f func()) (stop func() bool)

	requests atomic.Int64 // HTTP requests, counted by the client's transport
	// fetches fetches and caches the set: the state machine the package
	// doc describes, shared with package oidc.
	fetches cachedfetch.Cache[keySet]
}

// keySet is the set in use, as the cache holds it.
type keySet struct {
	set      *jose.Set
	unusable []string // Status.Unusable
}

// New returns a Remote for the JWK Set at rawURL, without fetching it:
// call [Remote.Refresh] to fetch it before the first token (to fail at
// start-up when the provider cannot be reached), or let the first
// verification fetch it. rawURL must be an absolute https URL, or http with
// [Options.AllowHTTP]. The Remote must be closed with [Remote.Close].
func New(rawURL string, opts Options) (*Remote, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("jwks: URL: %w", untrusted.Error(err))
	}
	if u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, fmt.Errorf("jwks: URL %s is not an absolute http(s) URL", untrusted.Quote(u.Redacted()))
	}
	if u.Scheme == "http" && !o.AllowHTTP {
		return nil, fmt.Errorf("jwks: URL %s is http: https is required unless Options.AllowHTTP is set", untrusted.Quote(u.Redacted()))
	}
	r := &Remote{url: u.String(), shownURL: u.Redacted(), opts: o, client: o.Client, now: time.Now, afterFunc: cachedfetch.AfterFunc}
	if r.client == nil {
		r.client, r.ownClient = newClient(o), true
	}
	c := *r.client // the caller's client is left as it is
	c.Transport = countingTransport{c.Transport, &r.requests}
	r.client = &c
	r.fetches.Init(cachedfetch.Config[keySet]{
		Client: r.client,
		Request: httpfetch.Request{
			URL: r.url, Accept: accept, MaxSize: o.MaxResponseSize, AllowHTTP: o.AllowHTTP,
		},
		Timeout:    o.Timeout,
		MinRefresh: o.MinRefreshInterval, MaxRefresh: o.MaxRefreshInterval,
		Cooldown: o.RefreshCooldown, MaxStale: o.MaxStale,
		What: "the set", Errorf: r.fetchErrorf, Closed: ErrClosed,
		NoUsable:  func(last error) error { return fmt.Errorf("jwks: no usable set: %w", last) },
		Now:       func() time.Time { return r.now() },
		AfterFunc: func(d time.Duration, f func()) func() bool { return r.afterFunc(d, f) },
		Parse:     r.parse,
	})
	return r, nil
}

// newClient returns the default client: its own transport (so that Close
// can close its connections), with Timeout ([httpfetch.NewClient]).
func newClient(o Options) *http.Client { return httpfetch.NewClient(o.Timeout, o.AllowHTTP) }

// countingTransport counts the requests of a client, redirects included,
// for Status.Requests.
type countingTransport struct {
	base http.RoundTripper // nil: http.DefaultTransport
	n    *atomic.Int64
}

// RoundTrip counts req and sends it with the transport counted.
func (t countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.n.Add(1)
	if t.base == nil {
		return http.DefaultTransport.RoundTrip(req)
	}
	return t.base.RoundTrip(req)
}

// CloseIdleConnections closes the idle connections of the transport
// counted, as [http.Client.CloseIdleConnections] does.
func (t countingTransport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// URL returns the URL the set is fetched from, with its password, if any,
// replaced by "xxxxx" ([url.URL.Redacted]), as in every error and Status.
func (r *Remote) URL() string { return r.shownURL }

// KeyFunc returns the set for a token whose checked header is h, for
// [jws.VerifyOptions] and [jwe.DecryptOptions] KeyFunc (which select the
// key from it by h's kid and alg, as from their Keys):
//
//   - h has a kid that is in the cached set, or no kid, and the set is
//     fresh: the cached set, at once, without locking or allocating.
//   - h has a kid that is not in the set: the set is fetched again, once for
//     all the goroutines asking meanwhile, unless a fetch for an unknown
//     kid, or a failed fetch, ended less than RefreshCooldown ago (a call
//     that joined another fetch, such as Run's, and still misses its kid
//     may then start one); if the kid is still missing the error wraps
//     [jose.ErrKeyNotFound].
//   - h has no kid: the set is never fetched for it beyond the cases
//     below; the Verifier tries the keys that fit the token's alg, at most
//     its MaxKeyCandidates.
//   - the set is past its freshness lifetime: the first call starts a
//     fetch and, like the others, keeps using the set without waiting for
//     it, and if the fetch fails, for at most MaxStale.
//   - there is no usable set (never fetched, or stale beyond MaxStale):
//     the call fetches it, or waits for the fetch in progress, and fails
//     with the fetch's error (wrapping [ErrFetch]) if there is still none.
//
// Fetches are bounded by Timeout and aborted by Close.
//
// [jws.VerifyOptions]: https://pkg.go.dev/github.com/josebench/josebench/jose/jws#VerifyOptions
// [jwe.DecryptOptions]: https://pkg.go.dev/github.com/josebench/josebench/jose/jwe#DecryptOptions
func (r *Remote) KeyFunc(h *jose.Header) (any, error) {
	kid := ""
	if h != nil {
		kid = h.KeyID
	}
	if s := r.fetches.Load(); s != nil && !s.Expired() && hasKeyID(s.Value.set, kid) {
		return s.Value.set, nil
	}
	set, err := r.get(r.fetches.Context(), kid)
	if err != nil {
		return nil, err
	}
	return set, nil
}

// KeyFuncContext is [Remote.KeyFunc] for [jws.VerifyOptions] and
// [jwe.DecryptOptions] KeyFuncContext: the same set, but a wait for a
// fetch ends when ctx does (a request's deadline, a client hanging up), as
// with [Remote.Get], and the verifier's error then wraps ctx's error. The
// fetch itself goes on for the other callers and counts for the cooldown.
// With the cached set it costs what KeyFunc costs and allocates nothing.
//
// [jws.VerifyOptions]: https://pkg.go.dev/github.com/josebench/josebench/jose/jws#VerifyOptions
// [jwe.DecryptOptions]: https://pkg.go.dev/github.com/josebench/josebench/jose/jwe#DecryptOptions
func (r *Remote) KeyFuncContext(ctx context.Context, h *jose.Header) (any, error) {
	kid := ""
	if h != nil {
		kid = h.KeyID
	}
	set, err := r.Get(ctx, kid)
	if err != nil {
		return nil, err
	}
	return set, nil
}

// Get returns the set as KeyFunc does for a header whose kid is kid ("":
// none); ctx bounds its wait for a fetch (the error then wraps ErrFetch
// and ctx's error), not the fetch, which goes on for the other callers
// and counts for the cooldown. A Get whose ctx has ended starts no fetch.
// The set is the Remote's own, the one every KeyFunc call returns: it must
// not be modified (see [jose.Set]); make changes on a copy,
// &jose.Set{Keys: slices.Clone(set.Keys)}.
func (r *Remote) Get(ctx context.Context, kid string) (*jose.Set, error) {
	if s := r.fetches.Load(); s != nil && !s.Expired() && hasKeyID(s.Value.set, kid) {
		return s.Value.set, nil
	}
	return r.get(ctx, kid)
}

// hasKeyID reports whether set has an entry (usable or not) of kid, or
// kid is "", at the same cost whatever the size of the set (by the index
// of [jose.Set]).
func hasKeyID(set *jose.Set, kid string) bool {
	return kid == "" || set.HasKeyID(kid)
}

// get is the slow path of KeyFunc and Get: [cachedfetch.Cache.Get], for
// which a kid not in the set is a miss.
func (r *Remote) get(ctx context.Context, kid string) (*jose.Set, error) {
	s, err := r.fetches.Get(ctx, func(k *keySet) bool { return hasKeyID(k.set, kid) })
	if err == cachedfetch.ErrMissing {
		return nil, fmt.Errorf("jwks: no key with kid %s in the set from %s (fetched %s): %w",
			untrusted.Quote(kid), r.shownURL, s.Fetched.UTC().Format(time.RFC3339), jose.ErrKeyNotFound)
	}
	if err != nil {
		return nil, err
	}
	return s.Value.set, nil
}

// Refresh fetches the set now, whatever its freshness and the cooldown (or
// waits for the fetch in progress), and returns the fetch's error; the set
// in use is kept when the fetch fails. ctx bounds the wait: when it ends
// first, Refresh returns an error wrapping ErrFetch and ctx's error, and
// the fetch goes on for the calls waiting for it (bounded by Timeout,
// aborted by Close); its result counts as any other's. Call Refresh once
// after New to fetch the set before the first token.
func (r *Remote) Refresh(ctx context.Context) error { return r.fetches.Refresh(ctx) }

// Run refreshes the set, so that verifications do not wait for a fetch:
// at once, then a tenth of the set's freshness
// lifetime (at most Timeout) before it ends, and RefreshCooldown after a
// failed fetch. It returns when ctx is done (ctx.Err()) or the Remote is
// closed ([ErrClosed]), closing the idle connections of the default
// client (a fetch in progress goes on for its other callers, within
// Timeout); Close waits for it to return. Run blocks: run it in a
// goroutine of the caller's, go r.Run(ctx).
func (r *Remote) Run(ctx context.Context) error {
	var exit func()
	if r.ownClient {
		exit = r.client.CloseIdleConnections
	}
	return r.fetches.Run(ctx, nil, exit)
}

// Close aborts the fetch in progress, makes Run return and waits for both,
// closes the idle connections of the default client, and drops the set:
// every later call returns [ErrClosed]. Close is idempotent (a second call
// returns when the first has), and returns nil.
// To close a Remote when a context ends: context.AfterFunc(ctx, func() {
// r.Close() }).
func (r *Remote) Close() error {
	r.fetches.Close(func(*cachedfetch.Snapshot[keySet]) {
		if r.ownClient {
			r.client.CloseIdleConnections()
		}
	})
	return nil
}

// Status describes the state of a [Remote], for monitoring.
type Status struct {
	// URL is [Remote.URL], without its password.
	URL string
	// Keys is the number of entries of the set in use (0: none), usable
	// or not (see [jose.Set]).
	Keys int
	// Unusable describes the entries of the set in use that no token can
	// select (see [jose.Set]), in set order, one line each: its index, its
	// kid and why it is unusable ([jose.JWK.Err]), as in
	// `entry 2, kid "2024-01": jose: jwk: member "x": ...`; the kid is
	// quoted and cut to 64 bytes, the reason to 256 bytes. At most
	// 16 entries are listed, then a line "and N more unusable entries".
	// A token whose kid names such an entry fails with an error saying
	// so, wrapping [jose.ErrKeyNotFound], without a fetch.
	Unusable []string
	// LastFetch is when the set in use was last fetched or revalidated
	// (zero: never).
	LastFetch time.Time
	// LastAttempt is when the last fetch started (zero: never).
	LastAttempt time.Time
	// LastError is the error of the last fetch, nil if it succeeded or
	// none was made; it wraps [ErrFetch].
	LastError error
	// FreshUntil is when the set in use stops being fresh, StaleUntil
	// when it stops being used if it cannot be fetched (zero: no set).
	FreshUntil, StaleUntil time.Time
	// Requests is the number of HTTP requests sent or attempted, each
	// redirect one (counted by the client's transport): a fetch that
	// follows a redirect loop of 10 counts 10.
	Requests int64
	// Fetching reports whether a fetch is in progress.
	Fetching bool
}

// Status returns the state of r. It reads r under its lock and does not
// fetch.
func (r *Remote) Status() Status {
	cs := r.fetches.Status()
	st := Status{
		URL:         r.shownURL,
		LastFetch:   cs.LastFetch,
		LastAttempt: cs.LastAttempt,
		LastError:   cs.LastError,
		Requests:    r.requests.Load(),
		Fetching:    cs.Fetching,
	}
	if s := cs.Current; s != nil {
		st.Keys, st.FreshUntil, st.StaleUntil = len(s.Value.set.Keys), s.Fresh, s.Usable
		st.Unusable = slices.Clone(s.Value.unusable)
	}
	return st
}
