package jwks

import (
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
)

// TestCooldownFromFailureEnd: after a failed fetch, the cooldown counts
// from the end of the fetch, so that a provider failing slowly is not asked
// again at once (issue 18, finding 8b).
func TestCooldownFromFailureEnd(t *testing.T) {
	k := newECKey(t, "k1")
	p := newProvider(t, false, serveSet(setJSON(t, k), "Cache-Control", "max-age=600"))
	clk := newClock()
	r := newRemote(t, p, clk, Options{})
	v := verifier(t, r)
	tok := k.token(t, false)
	if err := r.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	const slow = 20 * time.Second
	p.set(func(w http.ResponseWriter, _ *http.Request) {
		clk.Add(slow) // the provider takes 20 s to fail
		http.Error(w, "overloaded", http.StatusServiceUnavailable)
	})
	clk.Add(600 * time.Second) // stale
	if err := r.Refresh(t.Context()); !errors.Is(err, ErrFetch) {
		t.Fatal(err)
	}
	if d := r.untilNext(); d != DefaultRefreshCooldown {
		t.Fatalf("Run waits %v after a failure, want the cooldown from its end", d)
	}
	// 35 s after the failed fetch started, 15 s after it ended: the
	// stale set is used, without a request.
	clk.Add(DefaultRefreshCooldown - slow + 5*time.Second)
	for range 10 {
		if _, err := v.VerifyCompact(tok); err != nil {
			t.Fatal(err)
		}
		if _, err := v.VerifyCompact(newECKey(t, "new").token(t, false)); !errors.Is(err, jose.ErrKeyNotFound) {
			t.Fatalf("unknown kid after a failure: %v", err)
		}
	}
	if n := p.requests.Load(); n != 2 {
		t.Fatalf("%d requests within the cooldown of the failed fetch's end, want 2", n)
	}
	// The cooldown from the end has passed: the next token fetches.
	clk.Add(DefaultRefreshCooldown - 5*time.Second)
	p.set(serveSet(setJSON(t, k), "Cache-Control", "max-age=600"))
	if _, err := v.VerifyCompact(tok); err != nil {
		t.Fatal(err)
	}
	r.fetches.Wait()
	if n := p.requests.Load(); n != 3 {
		t.Fatalf("%d requests after the cooldown, want 3", n)
	}
}

// TestNewKidAfterScheduledFetch: fetches that no unknown kid caused (the
// first, Refresh, Run, the end of a lifetime) do not start the cooldown: a
// token of a key published just after one is fetched at once; an
// unknown-kid fetch starts it, and a Refresh meanwhile neither ends nor
// restarts it (issue 18, findings 8b and 8g; OpenID Connect Core 1.0
// §10.1.1 lets a provider sign with a new key at once).
func TestNewKidAfterScheduledFetch(t *testing.T) {
	k1, k2, k3 := newECKey(t, "k1"), newECKey(t, "k2"), newECKey(t, "k3")
	p := newProvider(t, false, serveSet(setJSON(t, k1), "Cache-Control", "max-age=600"))
	clk := newClock()
	r := newRemote(t, p, clk, Options{})
	v := verifier(t, r)
	for _, fetch := range []string{"first", "Refresh", "expiry"} {
		switch fetch {
		case "first":
			if _, err := v.VerifyCompact(k1.token(t, false)); err != nil {
				t.Fatal(err)
			}
		case "Refresh":
			if err := r.Refresh(t.Context()); err != nil {
				t.Fatal(err)
			}
		case "expiry":
			clk.Add(600 * time.Second)
			if _, err := v.VerifyCompact(k1.token(t, false)); err != nil {
				t.Fatal(err)
			}
			r.fetches.Wait()
		}
		before := p.requests.Load()
		// The provider starts signing with k2 right after that fetch.
		p.set(serveSet(setJSON(t, k1, k2), "Cache-Control", "max-age=600"))
		if _, err := v.VerifyCompact(k2.token(t, false)); err != nil {
			t.Fatalf("new kid right after the %s fetch: %v", fetch, err)
		}
		if n := p.requests.Load() - before; n != 1 {
			t.Fatalf("%d requests for the new kid after the %s fetch", n, fetch)
		}
		// That fetch was for an unknown kid: the cooldown starts.
		p.set(serveSet(setJSON(t, k1, k2, k3), "Cache-Control", "max-age=600"))
		clk.Add(DefaultRefreshCooldown / 2)
		if err := r.Refresh(t.Context()); err != nil { // does not restart the cooldown
			t.Fatal(err)
		}
		if _, err := v.VerifyCompact(k3.token(t, false)); err != nil { // in the set Refresh fetched
			t.Fatal(err)
		}
		if _, err := v.VerifyCompact(newECKey(t, "made-up").token(t, false)); !errors.Is(err, jose.ErrKeyNotFound) {
			t.Fatalf("made-up kid in the cooldown: %v", err)
		}
		if n := p.requests.Load() - before; n != 2 {
			t.Fatalf("%d requests, want 2 (new kid, Refresh)", n)
		}
		clk.Add(DefaultRefreshCooldown / 2) // the cooldown of the new kid's fetch ends
		if _, err := v.VerifyCompact(newECKey(t, "made-up").token(t, false)); !errors.Is(err, jose.ErrKeyNotFound) {
			t.Fatalf("made-up kid after the cooldown: %v", err)
		}
		if n := p.requests.Load() - before; n != 3 {
			t.Fatalf("%d requests, want 3 (new kid, Refresh, made-up kid)", n)
		}
		p.set(serveSet(setJSON(t, k1), "Cache-Control", "max-age=600"))
		clk.Add(DefaultRefreshCooldown)
		if err := r.Refresh(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMadeUpKidsBounded: tokens with a new made-up kid every second for
// ten minutes, with scheduled fetches among them, cost at most one request
// per cooldown beyond the scheduled ones.
func TestMadeUpKidsBounded(t *testing.T) {
	k := newECKey(t, "k1")
	p := newProvider(t, false, serveSet(setJSON(t, k), "Cache-Control", "max-age=60"))
	clk := newClock()
	r := newRemote(t, p, clk, Options{MinRefreshInterval: time.Minute})
	v := verifier(t, r)
	if err := r.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	const seconds = 600
	for i := range seconds {
		tok := newECKey(t, "made-up-"+strconv.Itoa(i)).token(t, false)
		if _, err := v.VerifyCompact(tok); !errors.Is(err, jose.ErrKeyNotFound) {
			t.Fatal(err)
		}
		if i%60 == 30 {
			if err := r.Refresh(t.Context()); err != nil { // as Run would
				t.Fatal(err)
			}
		}
		r.fetches.Wait()
		clk.Add(time.Second)
	}
	kid := p.requests.Load() - 1 - seconds/60
	if max := int64(seconds/DefaultRefreshCooldown.Seconds() + 1); kid > max {
		t.Fatalf("%d requests for made-up kids in %d s, want at most %d", kid, seconds, max)
	}
}

// TestNewKidJoinsScheduledFetch: a token of a new kid arriving while a
// Refresh (as Run makes) is in progress waits for it and, the kid not being
// in the answer the provider had already sent, fetches for the kid at once.
func TestNewKidJoinsScheduledFetch(t *testing.T) {
	k1, k2 := newECKey(t, "k1"), newECKey(t, "k2")
	p, entered, release := hangingProvider(t, nil)
	p.set(hang(entered, release, setJSON(t, k1)))
	r := newRemote(t, p, newClock(), Options{})
	refreshed := make(chan error)
	go func() { refreshed <- r.Refresh(t.Context()) }()
	<-entered // the Refresh's request is in progress
	got := make(chan error)
	// Its context says when it waits for the fetch (released before it
	// joined it, the Get would only miss after the fetch, and not test
	// the join).
	ctx, waiting := vectortest.Waiting(t, t.Context(), vectortest.CacheWait)
	go func() {
		s, err := r.Get(ctx, "k2")
		if err == nil && !hasKeyID(s, "k2") {
			err = errors.New("set without k2")
		}
		got <- err
	}()
	vectortest.Recv(t, waiting, "Get to join the fetch")
	p.set(serveSet(setJSON(t, k1, k2)))
	close(release)
	if err := <-refreshed; err != nil {
		t.Fatal(err)
	}
	if err := <-got; err != nil {
		t.Fatalf("new kid after a scheduled fetch it joined: %v", err)
	}
	if n := p.requests.Load(); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}
}
