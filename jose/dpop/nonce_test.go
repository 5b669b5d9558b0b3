package dpop

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestRotatingNonces checks rotation, the previous period's acceptance,
// the secret, and the syntax of RFC 9449 §8.1.
func TestRotatingNonces(t *testing.T) {
	ctx := context.Background()
	now := testNow
	clock := func() time.Time { return now }
	secret := []byte(strings.Repeat("s", 32))
	r, err := NewRotatingNonces(secret, time.Minute, clock)
	if err != nil {
		t.Fatal(err)
	}
	n1, _ := r.Nonce(ctx)
	if !validNonce(n1) || len(n1) != 32 {
		t.Errorf("nonce %q", n1)
	}
	valid := func(n string, want bool) {
		t.Helper()
		if ok, err := r.Valid(ctx, n); ok != want || err != nil {
			t.Errorf("Valid(%q) = %v, %v at %v; want %v", n, ok, err, now, want)
		}
	}
	valid(n1, true)
	twin, _ := NewRotatingNonces(secret, time.Minute, clock)
	if n, _ := twin.Nonce(ctx); n != n1 {
		t.Error("two sources of one secret disagree")
	}
	stranger, _ := NewRotatingNonces(nil, time.Minute, clock)
	if ok, _ := stranger.Valid(ctx, n1); ok {
		t.Error("another secret's nonce is valid")
	}
	now = now.Add(time.Minute)
	valid(n1, true) // the previous period
	n2, _ := r.Nonce(ctx)
	if n2 == n1 {
		t.Error("the nonce did not rotate")
	}
	now = now.Add(time.Minute)
	valid(n1, false)
	valid(n2, true)
	valid("", false)
	valid(strings.Repeat("A", 32), false)
	valid(strings.Repeat("!", 32), false)
	valid(n2[:31]+"x", false)
	for _, bad := range []struct {
		secret []byte
		period time.Duration
	}{{[]byte("short"), 0}, {secret, time.Millisecond}} {
		if _, err := NewRotatingNonces(bad.secret, bad.period, nil); err == nil {
			t.Errorf("NewRotatingNonces(%q, %v) accepted", bad.secret, bad.period)
		}
	}
	d, err := NewRotatingNonces(nil, 0, nil)
	if err != nil || d.period != DefaultNoncePeriod {
		t.Errorf("defaults: %v, %v", d, err)
	}
}
