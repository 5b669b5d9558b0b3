package jwks

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

func TestNewOptions(t *testing.T) {
	for name, c := range map[string]struct {
		url  string
		opts Options
	}{
		"not a URL":           {"https://%zz", Options{}},
		"relative":            {"/jwks.json", Options{}},
		"no host":             {"https:///jwks.json", Options{}},
		"other scheme":        {"ftp://provider.test/jwks.json", Options{}},
		"http not allowed":    {"http://provider.test/jwks.json", Options{}},
		"negative timeout":    {"https://provider.test/", Options{Timeout: -1}},
		"negative size":       {"https://provider.test/", Options{MaxResponseSize: -1}},
		"negative cooldown":   {"https://provider.test/", Options{RefreshCooldown: -1}},
		"negative min":        {"https://provider.test/", Options{MinRefreshInterval: -1}},
		"min above max":       {"https://provider.test/", Options{MinRefreshInterval: 2 * time.Hour}},
		"min above given max": {"https://provider.test/", Options{MinRefreshInterval: time.Minute, MaxRefreshInterval: time.Second}},
	} {
		if r, err := New(c.url, c.opts); err == nil || !strings.HasPrefix(err.Error(), "jwks: ") {
			r.Close()
			t.Errorf("%s: New = %v", name, err)
		}
	}

	r, err := New("https://provider.test/jwks.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	want := Options{
		Timeout: DefaultTimeout, MaxResponseSize: DefaultMaxResponseSize,
		MinRefreshInterval: DefaultMinRefreshInterval, MaxRefreshInterval: DefaultMaxRefreshInterval,
		RefreshCooldown: DefaultRefreshCooldown, MaxStale: DefaultMaxStale,
		Limits: jose.Limits{MaxSetSize: DefaultMaxResponseSize}.WithDefaults(), // the body limit is the set's
	}
	if r.opts != want {
		t.Errorf("defaults %+v, want %+v", r.opts, want)
	}
	if r.URL() != "https://provider.test/jwks.json" || !r.ownClient || r.client.Timeout != DefaultTimeout {
		t.Errorf("URL %q, own client %v, timeout %v", r.URL(), r.ownClient, r.client.Timeout)
	}
	if r, _ := New("https://provider.test/", Options{MaxStale: -1}); r.opts.MaxStale != 0 {
		t.Errorf("negative MaxStale: %v", r.opts.MaxStale)
	}
}

// TestVerify fetches a set over TLS, verifies tokens with and without kid
// through a jws.Verifier, and checks the request and Status.
func TestVerify(t *testing.T) {
	k := newECKey(t, "k1")
	p := newProvider(t, false, serveSet(setJSON(t, k), "Cache-Control", "max-age=600"))
	c := newClock()
	r := newRemote(t, p, c, Options{})
	if st := r.Status(); st.Keys != 0 || !st.LastFetch.IsZero() || st.Requests != 0 || st.URL != r.URL() {
		t.Fatalf("status before the first fetch: %+v", st)
	}
	v := verifier(t, r)
	for range 3 {
		for _, noKid := range []bool{false, true} {
			if _, err := v.VerifyCompact(k.token(t, noKid)); err != nil {
				t.Fatalf("noKid %v: %v", noKid, err)
			}
		}
	}
	if n := p.requests.Load(); n != 1 {
		t.Fatalf("%d requests for a fresh set", n)
	}
	if got := p.lastHeader().Get("Accept"); got != accept {
		t.Errorf("Accept %q", got)
	}
	st := r.Status()
	if st.Keys != 1 || !st.LastFetch.Equal(c.Now()) || st.LastError != nil || st.Requests != 1 ||
		!st.FreshUntil.Equal(c.Now().Add(600*time.Second)) || !st.StaleUntil.Equal(st.FreshUntil.Add(DefaultMaxStale)) || st.Fetching {
		t.Fatalf("status %+v", st)
	}
	// A token of another key with the same kid fails as a bad signature,
	// without a fetch.
	other := newECKey(t, "k1")
	if _, err := v.VerifyCompact(other.token(t, false)); !errors.Is(err, jose.ErrVerificationFailed) {
		t.Fatalf("forged token: %v", err)
	}
	if n := p.requests.Load(); n != 1 {
		t.Fatalf("%d requests after a bad signature", n)
	}
}

// TestRotation: the provider replaces k1 by k2; a token of k2 fetches the
// set again at once (the first fetch was not for an unknown kid), which
// starts the cooldown: the provider then replaces k2 by k3, and inside the
// cooldown a token of k3 is refused without a request; after it, it
// fetches, and a token of k1 is then an unknown kid.
func TestRotation(t *testing.T) {
	k1, k2, k3 := newECKey(t, "k1"), newECKey(t, "k2"), newECKey(t, "k3")
	p := newProvider(t, false, serveSet(setJSON(t, k1), "Cache-Control", "max-age=3600"))
	c := newClock()
	r := newRemote(t, p, c, Options{})
	v := verifier(t, r)
	if _, err := v.VerifyCompact(k1.token(t, false)); err != nil {
		t.Fatal(err)
	}
	p.set(serveSet(setJSON(t, k2), "Cache-Control", "max-age=3600"))
	if _, err := v.VerifyCompact(k2.token(t, false)); err != nil {
		t.Fatalf("new key right after the first fetch: %v", err)
	}
	p.set(serveSet(setJSON(t, k3), "Cache-Control", "max-age=3600"))

	// Inside the cooldown of the fetch for k2: ErrKeyNotFound at once.
	c.Add(DefaultRefreshCooldown - time.Second)
	for range 100 {
		_, err := v.VerifyCompact(k3.token(t, false))
		if !errors.Is(err, jose.ErrKeyNotFound) || !strings.Contains(err.Error(), `"k3"`) {
			t.Fatalf("unknown kid in the cooldown: %v", err)
		}
	}
	if n := p.requests.Load(); n != 2 {
		t.Fatalf("%d requests inside the cooldown", n)
	}
	c.Add(time.Second)
	if _, err := v.VerifyCompact(k3.token(t, false)); err != nil {
		t.Fatalf("new key after the cooldown: %v", err)
	}
	if n := p.requests.Load(); n != 3 {
		t.Fatalf("%d requests, want 3", n)
	}
	// k1 is gone: its tokens fail, with or without kid, without fetching.
	if _, err := v.VerifyCompact(k1.token(t, false)); !errors.Is(err, jose.ErrKeyNotFound) {
		t.Fatalf("removed key: %v", err)
	}
	if _, err := v.VerifyCompact(k1.token(t, true)); !errors.Is(err, jose.ErrVerificationFailed) {
		t.Fatalf("removed key, no kid: %v", err)
	}
	// After the cooldown, an unknown kid fetches once more, then is
	// still unknown.
	c.Add(DefaultRefreshCooldown)
	if _, err := v.VerifyCompact(k1.token(t, false)); !errors.Is(err, jose.ErrKeyNotFound) {
		t.Fatalf("removed key after the cooldown: %v", err)
	}
	if n := p.requests.Load(); n != 4 {
		t.Fatalf("%d requests, want 4", n)
	}
	// Tokens without kid never fetch while the set is fresh.
	c.Add(DefaultRefreshCooldown)
	for range 10 {
		if _, err := v.VerifyCompact(k1.token(t, true)); !errors.Is(err, jose.ErrVerificationFailed) {
			t.Fatal(err)
		}
	}
	if n := p.requests.Load(); n != 4 {
		t.Fatalf("%d requests for tokens without kid", n)
	}
}

// TestKeyReuse: a key that stays across fetches keeps its *jose.JWK (so a
// Verifier keeps its prepared verifier), and an identical body keeps the
// *jose.Set.
func TestKeyReuse(t *testing.T) {
	k1, k2 := newECKey(t, "k1"), newECKey(t, "k2")
	p := newProvider(t, false, serveSet(setJSON(t, k1)))
	r := newRemote(t, p, newClock(), Options{})
	ctx := t.Context()
	if err := r.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	s1, _ := r.Get(ctx, "")
	if err := r.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if s, _ := r.Get(ctx, ""); s != s1 {
		t.Fatal("same body, new set")
	}
	p.set(serveSet(setJSON(t, k2, k1)))
	if err := r.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	s2, _ := r.Get(ctx, "")
	if s2 == s1 || len(s2.Keys) != 2 || s2.Keys[1] != s1.Keys[0] || s2.Keys[0].KeyID != "k2" {
		t.Fatalf("rotated set %v, first %v", s2.Keys, s1.Keys)
	}
}

// TestSingleFlight: 1,000 goroutines verify a token whose kid is not in the
// set while the provider is slow: exactly one request is made, shared by
// all; the token then verifies if the provider rotated to its key, and is
// ErrKeyNotFound for all of them if its kid is made up.
func TestSingleFlight(t *testing.T) {
	k1, k2, bogus := newECKey(t, "k1"), newECKey(t, "k2"), newECKey(t, "made-up")
	for _, c := range []struct {
		name string
		tok  []byte
		want error
	}{{"rotated", k2.token(t, false), nil}, {"made-up kid", bogus.token(t, false), jose.ErrKeyNotFound}} {
		t.Run(c.name, func(t *testing.T) {
			p := newProvider(t, false, serveSet(setJSON(t, k1)))
			clk := newClock()
			r := newRemote(t, p, clk, Options{})
			if err := r.Refresh(t.Context()); err != nil {
				t.Fatal(err)
			}
			release := make(chan struct{})
			entered := make(chan struct{}, 1)
			body := setJSON(t, k1, k2)
			p.set(func(w http.ResponseWriter, req *http.Request) {
				select { // never blocks the server
				case entered <- struct{}{}:
				default:
				}
				<-release
				w.Write(body)
			})
			clk.Add(DefaultRefreshCooldown)
			v := verifier(t, r)
			const n = 1000
			errs := make(chan error, n)
			var wg sync.WaitGroup
			for range n {
				wg.Go(func() {
					_, err := v.VerifyCompact(c.tok)
					errs <- err
				})
			}
			<-entered // the request has arrived
			// All n wait for it (one that came after the fetch would
			// find the new set, or the miss's cooldown, and not test
			// the sharing).
			vectortest.InFunction(t, "the verifications to wait for the fetch", vectortest.CacheWait, n)
			close(release)
			wg.Wait()
			close(errs)
			for err := range errs {
				if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
					t.Fatalf("%v, want %v", err, c.want)
				}
			}
			if got := p.requests.Load(); got != 2 {
				t.Fatalf("%d requests for %d goroutines, want 1 (after the first fetch)", got-1, n)
			}
		})
	}
}

// TestStaleIfError: 500s, garbage and hostile bodies keep the last good set
// until MaxStale past its lifetime, and are reported; a fetch is retried
// once per cooldown.
func TestStaleIfError(t *testing.T) {
	k := newECKey(t, "k1")
	good := setJSON(t, k)
	p := newProvider(t, false, serveSet(good, "Cache-Control", "max-age=600"))
	c := newClock()
	r := newRemote(t, p, c, Options{})
	v := verifier(t, r)
	tok := k.token(t, false)
	if _, err := v.VerifyCompact(tok); err != nil {
		t.Fatal(err)
	}
	secret, _ := (&jose.Set{Keys: []*jose.JWK{{Key: []byte("0123456789abcdef0123456789abcdef"), KeyID: "s"}}}).MarshalJSON()
	cases := []struct {
		name    string
		handler http.HandlerFunc
		want    []error
		text    string
	}{
		{"500", func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "down", http.StatusInternalServerError) }, nil, "status 500 Internal Server Error"},
		{"404", http.NotFound, nil, "status 404"},
		{"html", serveSet([]byte("<html>maintenance</html>")), []error{jose.ErrMalformed}, "status 200 OK"},
		{"not a set", serveSet([]byte(`{"keys":{}}`)), []error{jose.ErrMalformed}, "status 200 OK"},
		{"truncated", serveSet(good[:len(good)/2]), []error{jose.ErrMalformed}, "status 200 OK"},
		{"secret key", serveSet(secret), []error{jose.ErrInvalidKey}, "AllowSecretKeys"},
		{"304 to an unconditional request", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNotModified) }, nil, "status 304"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p.set(tc.handler)
			before := p.requests.Load()
			c.Add(600 * time.Second) // the set is stale: the next token fetches
			if _, err := v.VerifyCompact(tok); err != nil {
				t.Fatalf("stale set not used: %v", err)
			}
			r.fetches.Wait() // the fetch it started, without waiting for it
			if n := p.requests.Load() - before; n != 1 {
				t.Fatalf("%d requests", n)
			}
			st := r.Status()
			err := st.LastError
			if !errors.Is(err, ErrFetch) || !strings.Contains(err.Error(), r.URL()) || !strings.Contains(err.Error(), tc.text) {
				t.Fatalf("LastError %v", err)
			}
			for _, w := range tc.want {
				if !errors.Is(err, w) {
					t.Fatalf("LastError %v does not wrap %v", err, w)
				}
			}
			if st.Keys != 1 {
				t.Fatalf("status %+v", st)
			}
			// Within the cooldown the stale set is used without a
			// request.
			if _, err := v.VerifyCompact(tok); err != nil {
				t.Fatal(err)
			}
			if n := p.requests.Load() - before; n != 1 {
				t.Fatalf("%d requests inside the cooldown", n)
			}
			// The provider is back.
			p.set(serveSet(good, "Cache-Control", "max-age=600"))
			c.Add(DefaultRefreshCooldown)
			if err := r.Refresh(t.Context()); err != nil {
				t.Fatal(err)
			}
		})
	}

	// Beyond MaxStale, verification fails with the fetch error.
	p.set(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	c.Add(600*time.Second + DefaultMaxStale - time.Second)
	if _, err := v.VerifyCompact(tok); err != nil {
		t.Fatalf("just inside MaxStale: %v", err)
	}
	r.fetches.Wait()
	c.Add(time.Second)
	_, err := v.VerifyCompact(tok)
	if !errors.Is(err, ErrFetch) || !strings.Contains(err.Error(), "503") {
		t.Fatalf("beyond MaxStale: %v", err)
	}
	// And once more inside the cooldown: the same error, no request.
	before := p.requests.Load()
	if _, err := v.VerifyCompact(tok); !errors.Is(err, ErrFetch) || p.requests.Load() != before {
		t.Fatalf("beyond MaxStale, in the cooldown: %v, %d requests", err, p.requests.Load()-before)
	}
}

// TestNoStale: with a negative MaxStale, a set is not used past its
// freshness lifetime.
func TestNoStale(t *testing.T) {
	k := newECKey(t, "k1")
	p := newProvider(t, false, serveSet(setJSON(t, k), "Cache-Control", "max-age=600"))
	c := newClock()
	r := newRemote(t, p, c, Options{MaxStale: -1})
	v := verifier(t, r)
	tok := k.token(t, false)
	if _, err := v.VerifyCompact(tok); err != nil {
		t.Fatal(err)
	}
	p.set(http.NotFound)
	c.Add(600 * time.Second)
	if _, err := v.VerifyCompact(tok); !errors.Is(err, ErrFetch) {
		t.Fatalf("expired set used: %v", err)
	}
}

// TestFirstFetchFails: without a set, the error is the fetch's, and a
// fetch is tried at most once per cooldown.
func TestFirstFetchFails(t *testing.T) {
	p := newProvider(t, false, func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "no", http.StatusBadGateway) })
	c := newClock()
	r := newRemote(t, p, c, Options{})
	v := verifier(t, r)
	tok := newECKey(t, "k").token(t, false)
	for range 5 {
		_, err := v.VerifyCompact(tok)
		if !errors.Is(err, ErrFetch) || errors.Is(err, jose.ErrKeyNotFound) || !strings.Contains(err.Error(), "502") {
			t.Fatalf("no set: %v", err)
		}
	}
	if n := p.requests.Load(); n != 1 {
		t.Fatalf("%d requests", n)
	}
	if err := r.Refresh(t.Context()); !errors.Is(err, ErrFetch) {
		t.Fatalf("Refresh: %v", err)
	}
}

// TestCachingHeaders: max-age and Expires set the lifetime within the
// bounds; ETag and Last-Modified are sent back and a 304 keeps the set and
// renews its lifetime.
func TestCachingHeaders(t *testing.T) {
	k := newECKey(t, "k1")
	body := setJSON(t, k)
	c := newClock()
	var cond struct {
		sync.Mutex
		inm, ims string
	}
	p := newProvider(t, false, func(w http.ResponseWriter, req *http.Request) {
		cond.Lock()
		cond.inm, cond.ims = req.Header.Get("If-None-Match"), req.Header.Get("If-Modified-Since")
		cond.Unlock()
		w.Header().Set("Cache-Control", "public, max-age=900")
		if req.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Last-Modified", "Tue, 01 Dec 2026 11:00:00 GMT")
		w.Write(body)
	})
	r := newRemote(t, p, c, Options{})
	v := verifier(t, r)
	tok := k.token(t, false)
	if _, err := v.VerifyCompact(tok); err != nil {
		t.Fatal(err)
	}
	set, _ := r.Get(t.Context(), "")
	if cond.inm != "" || cond.ims != "" {
		t.Fatalf("first request conditional: %q %q", cond.inm, cond.ims)
	}
	c.Add(899 * time.Second)
	if _, err := v.VerifyCompact(tok); err != nil || p.requests.Load() != 1 {
		t.Fatalf("fresh for max-age: %v, %d requests", err, p.requests.Load())
	}
	c.Add(time.Second)
	_, err := v.VerifyCompact(tok)
	r.fetches.Wait() // the fetch it started, without waiting for it
	if err != nil || p.requests.Load() != 2 {
		t.Fatalf("stale after max-age: %v, %d requests", err, p.requests.Load())
	}
	if cond.inm != `"v1"` || cond.ims != "Tue, 01 Dec 2026 11:00:00 GMT" {
		t.Fatalf("conditional headers %q %q", cond.inm, cond.ims)
	}
	st := r.Status()
	if s, _ := r.Get(t.Context(), ""); s != set || st.LastError != nil || !st.FreshUntil.Equal(c.Now().Add(900*time.Second)) {
		t.Fatalf("after 304: same set %v, status %+v", s == set, st)
	}
}

func TestFreshness(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	date := now.Add(-time.Minute).Format(http.TimeFormat)
	for _, c := range []struct {
		hdr      []string
		want     time.Duration
		explicit bool
	}{
		{nil, 0, false},
		{[]string{"Cache-Control", "max-age=600"}, 600 * time.Second, true},
		{[]string{"Cache-Control", `public, MAX-AGE="60", must-revalidate`}, time.Minute, true},
		{[]string{"Cache-Control", "max-age=600, max-age=60"}, time.Minute, true},
		{[]string{"Cache-Control", "max-age=600", "Age", "100"}, 500 * time.Second, true},
		{[]string{"Cache-Control", "max-age=600", "Age", "junk"}, 600 * time.Second, true},
		{[]string{"Cache-Control", "max-age=-1"}, 0, true},
		{[]string{"Cache-Control", "max-age=ten"}, 0, true},
		{[]string{"Cache-Control", "max-age="}, 0, true},
		{[]string{"Cache-Control", "max-age=99999999999999999999"}, (1 << 31) * time.Second, true},
		{[]string{"Cache-Control", "no-cache"}, 0, true},
		{[]string{"Cache-Control", "max-age=600, no-store"}, 0, true},
		{[]string{"Cache-Control", "s-maxage=600"}, 0, false},
		{[]string{"Expires", now.Add(time.Hour).Format(http.TimeFormat)}, time.Hour, true},
		{[]string{"Expires", now.Add(time.Hour).Format(http.TimeFormat), "Date", date}, time.Hour + time.Minute, true},
		{[]string{"Expires", "0"}, 0, true},
		// Expires - Date saturates at -292 years; less Age it must
		// not wrap around to a long lifetime.
		{[]string{"Expires", "Mon, 01 Jan 0001 00:00:00 GMT", "Date", "Fri, 31 Dec 9999 23:59:59 GMT", "Age", "99999999999"}, math.MinInt64, true},
		{[]string{"Expires", "Fri, 31 Dec 9999 23:59:59 GMT", "Date", "Mon, 01 Jan 0001 00:00:00 GMT", "Age", "1"}, math.MaxInt64 - time.Second, true},
		{[]string{"Expires", now.Add(time.Hour).Format(http.TimeFormat), "Cache-Control", "max-age=60"}, time.Minute, true},
	} {
		h := http.Header{}
		for i := 0; i < len(c.hdr); i += 2 {
			h.Set(c.hdr[i], c.hdr[i+1])
		}
		got, explicit := freshness(h, now)
		if got != c.want || explicit != c.explicit {
			t.Errorf("%v: %v %v, want %v %v", c.hdr, got, explicit, c.want, c.explicit)
		}
	}
	r := &Remote{opts: Options{MinRefreshInterval: time.Minute, MaxRefreshInterval: time.Hour}}
	for _, c := range []struct {
		in       time.Duration
		explicit bool
		want     time.Duration
	}{
		{0, true, time.Minute}, {-time.Hour, true, time.Minute}, {10 * time.Minute, true, 10 * time.Minute},
		{48 * time.Hour, true, time.Hour}, {0, false, time.Hour},
	} {
		if got := r.clamp(c.in, c.explicit); got != c.want {
			t.Errorf("clamp(%v, %v) = %v, want %v", c.in, c.explicit, got, c.want)
		}
	}
}

// TestMinRefreshInterval: a provider saying no-cache is still fetched at
// most once per MinRefreshInterval.
func TestMinRefreshInterval(t *testing.T) {
	k := newECKey(t, "k1")
	p := newProvider(t, false, serveSet(setJSON(t, k), "Cache-Control", "no-cache"))
	c := newClock()
	r := newRemote(t, p, c, Options{})
	v := verifier(t, r)
	tok := k.token(t, false)
	for i := range 20 {
		if _, err := v.VerifyCompact(tok); err != nil {
			t.Fatal(err)
		}
		c.Add(DefaultMinRefreshInterval / 10)
		if want := int64(1 + (i+1)/10); p.requests.Load() > want {
			t.Fatalf("%d requests after %d × MinRefreshInterval/10", p.requests.Load(), i+1)
		}
	}
}

// TestExpiryInsideCooldown: a set whose lifetime (MinRefreshInterval) is
// shorter than RefreshCooldown is fetched again when it ends; only failed
// fetches and unknown kids wait for the cooldown.
func TestExpiryInsideCooldown(t *testing.T) {
	k := newECKey(t, "k1")
	p := newProvider(t, false, serveSet(setJSON(t, k), "Cache-Control", "no-store"))
	c := newClock()
	r := newRemote(t, p, c, Options{MinRefreshInterval: 10 * time.Second, MaxStale: -1})
	v := verifier(t, r)
	tok := k.token(t, false)
	for i := range 3 {
		if _, err := v.VerifyCompact(tok); err != nil {
			t.Fatalf("after %d lifetimes: %v", i, err)
		}
		if n := p.requests.Load(); n != int64(i+1) {
			t.Fatalf("%d requests after %d lifetimes", n, i)
		}
		c.Add(10 * time.Second)
	}
	// A failed fetch: the next waits for the cooldown.
	p.set(http.NotFound)
	if _, err := v.VerifyCompact(tok); !errors.Is(err, ErrFetch) {
		t.Fatal(err)
	}
	c.Add(10 * time.Second)
	if _, err := v.VerifyCompact(tok); !errors.Is(err, ErrFetch) || p.requests.Load() != 4 {
		t.Fatalf("inside the cooldown after a failure: %v, %d requests", err, p.requests.Load())
	}
	c.Add(DefaultRefreshCooldown)
	p.set(serveSet(setJSON(t, k)))
	if _, err := v.VerifyCompact(tok); err != nil || p.requests.Load() != 5 {
		t.Fatalf("after the cooldown: %v, %d requests", err, p.requests.Load())
	}
}

// TestTimeout: a provider that never answers holds a verification for
// Timeout, then the error wraps ErrFetch and is a timeout.
func TestTimeout(t *testing.T) {
	stop := make(chan struct{})
	p := newProvider(t, false, func(w http.ResponseWriter, req *http.Request) {
		select {
		case <-req.Context().Done():
		case <-stop:
		}
	})
	defer close(stop)
	for _, custom := range []bool{false, true} {
		opts := Options{Timeout: 50 * time.Millisecond}
		if custom {
			opts.Client = &http.Client{Transport: p.srv.Client().Transport} // no timeout of its own: Timeout applies
		}
		r := newRemote(t, p, nil, opts)
		_, err := r.Get(context.Background(), "")
		if !errors.Is(err, ErrFetch) || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "Options.Timeout 50ms") {
			t.Fatalf("custom client %v: %v", custom, err)
		}
	}
}

// TestContext: a caller's context ends its own wait, never the fetch: the
// fetch goes on for the others (one request), its result counts, and a
// caller whose context has ended starts no fetch.
func TestContext(t *testing.T) {
	k := newECKey(t, "k")
	body := setJSON(t, k)
	release := make(chan struct{})
	entered := make(chan struct{}, 4)
	p := newProvider(t, false, func(w http.ResponseWriter, req *http.Request) {
		select { // never blocks the server
		case entered <- struct{}{}:
		default:
		}
		select {
		case <-req.Context().Done():
			return
		case <-release:
		}
		w.Write(body)
	})
	c := newClock()
	r := newRemote(t, p, c, Options{})

	// A Refresh whose context is cancelled while the provider is slow.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- r.Refresh(ctx) }()
	<-entered
	// A second caller waits for that fetch, with its own context.
	ctx2, cancel2 := context.WithCancel(context.Background())
	done2 := make(chan error)
	go func() { _, err := r.Get(ctx2, "k"); done2 <- err }()
	cancel2()
	if err := <-done2; !errors.Is(err, context.Canceled) || !errors.Is(err, ErrFetch) {
		t.Fatalf("waiter: %v", err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) || !errors.Is(err, ErrFetch) {
		t.Fatalf("Refresh: %v", err)
	}
	// The fetch goes on, and its attempt counts for the cooldown.
	if st := r.Status(); !st.Fetching || !st.LastAttempt.Equal(c.Now()) || st.Requests != 1 {
		t.Fatalf("status after the callers gave up: %+v", st)
	}
	// Callers that did not give up get its result, from the one request.
	// Their contexts say when they wait for the fetch: released before
	// they joined it, the Refresh would fetch again.
	got := make(chan error, 2)
	getCtx, getWaiting := vectortest.Waiting(t, context.Background(), vectortest.CacheWait)
	refreshCtx, refreshWaiting := vectortest.Waiting(t, context.Background(), vectortest.CacheWait)
	go func() { _, err := r.Get(getCtx, "k"); got <- err }()
	go func() { got <- r.Refresh(refreshCtx) }()
	vectortest.Recv(t, getWaiting, "Get to wait for the fetch")
	vectortest.Recv(t, refreshWaiting, "Refresh to wait for the fetch")
	close(release)
	for range 2 {
		if err := vectortest.Recv(t, got, "the waiters of the fetch"); err != nil {
			t.Fatalf("waiter of the fetch: %v", err)
		}
	}
	if n := p.requests.Load(); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}

	// A caller whose context has ended starts no fetch, even for an
	// unknown kid after the cooldown, or with Refresh.
	c.Add(DefaultRefreshCooldown)
	ctx3, cancel3 := context.WithCancel(context.Background())
	cancel3()
	if _, err := r.Get(ctx3, "unknown"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Get with a cancelled context: %v", err)
	}
	if err := r.Refresh(ctx3); !errors.Is(err, context.Canceled) {
		t.Fatalf("Refresh with a cancelled context: %v", err)
	}
	if st := r.Status(); st.Requests != 1 || st.Fetching {
		t.Fatalf("status after cancelled callers: %+v", st)
	}
}

// TestClose: Close aborts the fetch in progress and Run, later calls fail
// with ErrClosed, and no goroutine is left.
func TestClose(t *testing.T) {
	before := runtime.NumGoroutine()
	func() {
		k := newECKey(t, "k1")
		body := setJSON(t, k)
		block := make(chan struct{})
		entered := make(chan struct{}, 1)
		p := newProvider(t, true, serveSet(body))
		defer p.srv.Close()
		r, err := New(p.srv.URL, Options{AllowHTTP: true})
		if err != nil {
			t.Fatal(err)
		}
		c := newClock()
		r.now, r.afterFunc = c.Now, c.AfterFunc
		if err := r.Refresh(t.Context()); err != nil {
			t.Fatal(err)
		}
		c.Add(DefaultRefreshCooldown) // so that Get's unknown kid fetches, or joins Run's fetch
		p.set(func(w http.ResponseWriter, req *http.Request) {
			select { // never blocks the server
			case entered <- struct{}{}:
			default:
			}
			select {
			case <-req.Context().Done():
			case <-block:
			}
		})
		defer close(block)
		runDone := make(chan error)
		go func() { runDone <- r.Run(context.Background()) }()
		verr := make(chan error)
		go func() { _, err := r.Get(context.Background(), "new"); verr <- err }()
		<-entered // Run's first fetch (or Get's) is in progress
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		if err := <-runDone; !errors.Is(err, ErrClosed) {
			t.Fatalf("Run: %v", err)
		}
		if err := <-verr; !errors.Is(err, ErrClosed) {
			t.Fatalf("Get during Close: %v", err)
		}
		if _, err := r.KeyFunc(&jose.Header{}); !errors.Is(err, ErrClosed) {
			t.Fatalf("KeyFunc after Close: %v", err)
		}
		if err := r.Refresh(context.Background()); !errors.Is(err, ErrClosed) {
			t.Fatalf("Refresh after Close: %v", err)
		}
		if err := r.Run(context.Background()); !errors.Is(err, ErrClosed) {
			t.Fatalf("Run after Close: %v", err)
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
	}()
	vectortest.GoroutinesAtMost(t, before)
}

// TestRun: Run fetches at once, then whenever the set's lifetime ends,
// until its context is cancelled.
func TestRun(t *testing.T) {
	k := newECKey(t, "k1")
	p := newProvider(t, true, serveSet(setJSON(t, k), "Cache-Control", "max-age=0"))
	r := newRemote(t, p, nil, Options{MinRefreshInterval: time.Millisecond, RefreshCooldown: time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- r.Run(ctx) }()
	vectortest.Eventually(t, "Run to make 3 requests", func() bool { return p.requests.Load() >= 3 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v", err)
	}
	if n := p.requests.Load(); n < 3 {
		t.Fatalf("%d requests", n)
	}
	// A fetch the cancellation ended is not an error of the provider's.
	if st := r.Status(); st.Keys != 1 || st.LastError != nil {
		t.Fatalf("status %+v", st)
	}
}

// TestHTTPS: plain http needs AllowHTTP, also when a redirect leads there.
func TestHTTPS(t *testing.T) {
	k := newECKey(t, "k1")
	plain := newProvider(t, true, serveSet(setJSON(t, k)))
	tls := newProvider(t, false, func(w http.ResponseWriter, req *http.Request) {
		http.Redirect(w, req, plain.srv.URL+"/jwks.json", http.StatusFound)
	})
	r := newRemote(t, tls, nil, Options{})
	err := r.Refresh(t.Context())
	if !errors.Is(err, ErrFetch) || !strings.Contains(err.Error(), "https is required") {
		t.Fatalf("redirect to http: %v", err)
	}
	// The default client refuses the redirect itself.
	c := newClient(Options{})
	req, _ := http.NewRequest(http.MethodGet, "http://provider.test/", nil)
	if err := c.CheckRedirect(req, nil); err == nil {
		t.Fatal("default client follows a redirect to http")
	}
	if err := newClient(Options{AllowHTTP: true}).CheckRedirect(req, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.CheckRedirect(req, make([]*http.Request, 10)); err == nil {
		t.Fatal("11th redirect followed")
	}
}

// TestSecretKeys: a set of secret keys needs AllowSecretKeys; a mixed set
// is always refused. With AllowSecretKeys, a remote set of keys serves a
// jwe.Decrypter.
func TestSecretKeys(t *testing.T) {
	kek := []byte("0123456789abcdef")
	secret, _ := (&jose.Set{Keys: []*jose.JWK{{Key: kek, KeyID: "kw"}}}).MarshalJSON()
	p := newProvider(t, false, serveSet(secret))
	if err := newRemote(t, p, nil, Options{}).Refresh(t.Context()); !errors.Is(err, jose.ErrInvalidKey) {
		t.Fatalf("secret keys by default: %v", err)
	}
	r := newRemote(t, p, nil, Options{AllowSecretKeys: true})
	d, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms: []jwa.KeyAlgorithm{jwa.A128KW}, ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM},
		KeyFunc: r.KeyFunc,
	})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := jwe.NewEncrypter(jwa.A128KW, jwa.A128GCM, kek, &jwe.EncrypterOptions{KeyID: "kw"})
	tok, _ := e.Compact([]byte("secret message"))
	if m, err := d.DecryptCompact(tok); err != nil || string(m.Plaintext) != "secret message" {
		t.Fatalf("jwe over a remote set: %v", err)
	}
	mixed := append(secret[:len(secret)-2:len(secret)-2], fmt.Sprintf(",%s]}", strings.TrimSuffix(strings.TrimPrefix(string(setJSON(t, newECKey(t, "ec"))), `{"keys":[`), "]}"))...)
	p.set(serveSet(mixed))
	if err := r.Refresh(t.Context()); !errors.Is(err, jose.ErrInvalidKey) || !strings.Contains(err.Error(), "mixes") {
		t.Fatalf("mixed set: %v", err)
	}
}

// TestRunSchedule: Run fetches a tenth of the lifetime (at most Timeout)
// before the set expires, and RefreshCooldown after a failure.
func TestRunSchedule(t *testing.T) {
	k := newECKey(t, "k1")
	p := newProvider(t, false, serveSet(setJSON(t, k), "Cache-Control", "max-age=600"))
	c := newClock()
	r := newRemote(t, p, c, Options{})
	if d := r.untilNext(); d != 0 {
		t.Fatalf("before the first fetch: %v", d)
	}
	if err := r.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if d := r.untilNext(); d != 600*time.Second-DefaultTimeout {
		t.Fatalf("after a fetch: %v", d)
	}
	p.set(serveSet(setJSON(t, k), "Cache-Control", "max-age=30"))
	r2 := newRemote(t, p, c, Options{MinRefreshInterval: time.Second})
	if err := r2.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if d := r2.untilNext(); d != 27*time.Second {
		t.Fatalf("after a fetch of a short lifetime: %v", d)
	}
	p.set(http.NotFound)
	c.Add(time.Minute)
	if err := r.Refresh(t.Context()); !errors.Is(err, ErrFetch) {
		t.Fatal(err)
	}
	if d := r.untilNext(); d != DefaultRefreshCooldown {
		t.Fatalf("after a failure: %v", d)
	}
}

// TestNewErrorText: New quotes and cuts the URL it refuses, without its
// password, as every other error of the package does.
func TestNewErrorText(t *testing.T) {
	long := strings.Repeat("a", 10000)
	for _, u := range []string{"ftp://user:secret@provider.test/" + long, "http://user:secret@provider.test/" + long, "https://provider.test/%zz" + long} {
		_, err := New(u, Options{})
		if err == nil || len(err.Error()) > 1<<10 || strings.Contains(err.Error(), "secret") {
			t.Errorf("error of %d bytes: %.200v", len(err.Error()), err)
		}
	}
}
