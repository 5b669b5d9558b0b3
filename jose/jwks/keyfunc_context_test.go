package jwks

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// TestKeyFuncContext: a Verifier over Remote.KeyFuncContext verifies with
// the cached set, and a request whose deadline passes while the provider
// hangs returns by that deadline with an error wrapping
// context.DeadlineExceeded, without waiting for Timeout.
func TestKeyFuncContext(t *testing.T) {
	k := newECKey(t, "k")
	body := setJSON(t, k)
	p, entered, release := hangingProvider(t, body)
	c := newClock()
	r := newRemote(t, p, c, Options{Timeout: time.Minute})
	if err := r.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	v, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, KeyFuncContext: r.KeyFuncContext})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.VerifyCompactContext(t.Context(), k.token(t, false)); err != nil {
		t.Fatalf("cached key: %v", err)
	}

	// An unknown kid, past the cooldown, while the provider hangs. The
	// deadline passes once the provider has the request (a timer could
	// fire before the verification reaches the key function on a slow
	// machine: the verifier would not call it, and nothing would be
	// fetched).
	c.Add(DefaultRefreshCooldown)
	p.set(hang(entered, release, body))
	other := newECKey(t, "other").token(t, false)
	ctx, expire := vectortest.Expiring()
	errc := make(chan error, 1)
	go func() { _, err := v.VerifyCompactContext(ctx, other); errc <- err }()
	vectortest.Recv(t, entered, "the request for the unknown kid")
	expire()
	start := time.Now()
	err = vectortest.Recv(t, errc, "the verification to return after its deadline")
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrFetch) {
		t.Fatalf("hanging provider: %v", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("returned %v after the deadline", d)
	}
	if n := testing.AllocsPerRun(20, func() {
		if _, err := r.KeyFuncContext(context.Background(), &jose.Header{KeyID: "k"}); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Fatalf("cached KeyFuncContext: %v allocations, want 0", n)
	}
}
