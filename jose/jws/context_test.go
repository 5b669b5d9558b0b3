package jws_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// ctxTokens are an HS256 token in every form the Context methods take,
// keyed "k".
type ctxTokens struct {
	key                     []byte
	compact, detached, flat []byte
	general                 []byte
	payload                 []byte
}

func newCtxTokens(t *testing.T) ctxTokens {
	t.Helper()
	key := bytes.Repeat([]byte{0x5a}, 32)
	s, err := jws.NewSigner(jwa.HS256, key, &jws.SignerOptions{KeyID: "k"})
	if err != nil {
		t.Fatal(err)
	}
	tk := ctxTokens{key: key, payload: []byte("payload")}
	must := func(b []byte, err error) []byte {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tk.compact = must(s.Compact(tk.payload))
	tk.detached = must(s.CompactDetached(tk.payload))
	tk.flat = must(s.Flattened(tk.payload, nil))
	tk.general = must(jws.SignGeneral(tk.payload, s, s))
	return tk
}

// ctxCalls runs every Context method of v on the tokens under ctx and
// returns each one's error, by name.
func ctxCalls(ctx context.Context, v *jws.Verifier, tk ctxTokens) map[string]error {
	errs := map[string]error{}
	_, errs["VerifyCompactContext"] = v.VerifyCompactContext(ctx, tk.compact)
	var m jws.Message
	errs["VerifyCompactIntoContext"] = v.VerifyCompactIntoContext(ctx, &m, tk.compact)
	_, errs["VerifyDetachedContext"] = v.VerifyDetachedContext(ctx, tk.detached, tk.payload)
	_, errs["VerifyJSONContext"] = v.VerifyJSONContext(ctx, tk.flat)
	_, _, errs["VerifyEachContext"] = v.VerifyEachContext(ctx, tk.general)
	return errs
}

type ctxKey struct{}

// TestContextPassed: every Context method hands its ctx to KeyFuncContext,
// and the token then verifies as with KeyFunc.
func TestContextPassed(t *testing.T) {
	tk := newCtxTokens(t)
	calls := 0
	v := rtVerifier(t, jws.VerifyOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.HS256},
		KeyFuncContext: func(ctx context.Context, h *jose.Header) (any, error) {
			calls++
			if ctx.Value(ctxKey{}) != "request" {
				t.Errorf("KeyFuncContext got another context")
			}
			return tk.key, nil
		},
	})
	ctx := context.WithValue(context.Background(), ctxKey{}, "request")
	for name, err := range ctxCalls(ctx, v, tk) {
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if calls != 6 { // one per signature
		t.Errorf("KeyFuncContext called %d times, want 6", calls)
	}
	// The methods without a context pass context.Background().
	v = rtVerifier(t, jws.VerifyOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.HS256},
		KeyFuncContext: func(ctx context.Context, h *jose.Header) (any, error) {
			if ctx != context.Background() {
				t.Errorf("VerifyCompact passed %v, not context.Background()", ctx)
			}
			return tk.key, nil
		},
	})
	if _, err := v.VerifyCompact(tk.compact); err != nil {
		t.Fatal(err)
	}
}

// TestContextDone: with a done context no key function is called, by any
// Context method, and the error wraps ctx.Err().
func TestContextDone(t *testing.T) {
	tk := newCtxTokens(t)
	called := 0
	plain := func(h *jose.Header) (any, error) { called++; return tk.key, nil }
	withCtx := func(ctx context.Context, h *jose.Header) (any, error) { called++; return tk.key, nil }
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel2()
	for _, c := range []struct {
		name string
		opts jws.VerifyOptions
	}{
		{"KeyFunc", jws.VerifyOptions{KeyFunc: plain}},
		{"KeyFuncContext", jws.VerifyOptions{KeyFuncContext: withCtx}},
	} {
		c.opts.Algorithms = []jwa.SignatureAlgorithm{jwa.HS256}
		v := rtVerifier(t, c.opts)
		for _, ctx := range []context.Context{canceled, expired} {
			for name, err := range ctxCalls(ctx, v, tk) {
				if !errors.Is(err, ctx.Err()) {
					t.Errorf("%s, %s, %v: %v, want it to wrap %v", c.name, name, ctx.Err(), err, ctx.Err())
				}
				if err != nil && !strings.HasPrefix(err.Error(), "jws: ") {
					t.Errorf("%s: error %q does not name the package", name, err)
				}
			}
		}
	}
	if called != 0 {
		t.Errorf("a key function was called %d times with a done context", called)
	}
	// VerifyEach reports each signature's error, all wrapping ctx.Err().
	v := rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, KeyFuncContext: withCtx})
	res, pl, err := v.VerifyEachContext(canceled, tk.general)
	if !errors.Is(err, context.Canceled) || pl != nil || len(res) != 2 {
		t.Fatalf("VerifyEachContext: %v, %q, %d results", err, pl, len(res))
	}
	for _, r := range res {
		if !errors.Is(r.Err, context.Canceled) {
			t.Errorf("signature %d: %v", r.Index, r.Err)
		}
	}
}

// TestContextLocalKeys: with Key or Keys nothing waits, so ctx is not
// consulted: a done context does not refuse a token that verifies.
func TestContextLocalKeys(t *testing.T) {
	tk := newCtxTokens(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	set := &jose.Set{Keys: []*jose.JWK{{Key: tk.key, KeyID: "k"}}}
	for _, opts := range []jws.VerifyOptions{{Key: tk.key}, {Keys: set}} {
		opts.Algorithms = []jwa.SignatureAlgorithm{jwa.HS256}
		v := rtVerifier(t, opts)
		for name, err := range ctxCalls(ctx, v, tk) {
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}

// TestContextBlockingKeyFunc: a KeyFuncContext that waits until its
// context is done (a remote set whose provider hangs) ends the call when
// the context's deadline passes or it is cancelled, and the error wraps
// ctx.Err() even when the key function returns an error of its own.
func TestContextBlockingKeyFunc(t *testing.T) {
	tk := newCtxTokens(t)
	errHang := errors.New("provider did not answer")
	for _, c := range []struct {
		name   string
		result func(ctx context.Context) error // what the key function returns once ctx is done
		// The error at the deadline: ctx's error once, said after the
		// key function's when that does not wrap it.
		text string
	}{
		{"returns ctx.Err()", func(ctx context.Context) error { return ctx.Err() }, "jws: KeyFuncContext: context deadline exceeded"},
		{"returns its own error", func(context.Context) error { return errHang }, "jws: KeyFuncContext: provider did not answer: context deadline exceeded"},
	} {
		entered := make(chan struct{}, 8)
		v := rtVerifier(t, jws.VerifyOptions{
			Algorithms: []jwa.SignatureAlgorithm{jwa.HS256},
			KeyFuncContext: func(ctx context.Context, h *jose.Header) (any, error) {
				entered <- struct{}{}
				<-ctx.Done()
				return nil, c.result(ctx)
			},
		})
		t.Run(c.name+", deadline", func(t *testing.T) {
			// The deadline passes once the key function waits (a timer
			// could fire before the call reaches it on a slow machine).
			ctx, expire := vectortest.Expiring()
			done := make(chan error, 1)
			go func() { _, err := v.VerifyCompactContext(ctx, tk.compact); done <- err }()
			<-entered
			expire()
			select {
			case err := <-done:
				if !errors.Is(err, context.DeadlineExceeded) || err.Error() != c.text {
					t.Fatalf("%v, want %q, wrapping context.DeadlineExceeded", err, c.text)
				}
			case <-time.After(time.Minute):
				t.Fatal("VerifyCompactContext did not return after its deadline")
			}
		})
		t.Run(c.name+", cancel", func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { _, _, err := v.VerifyEachContext(ctx, tk.general); done <- err }()
			<-entered // waiting in the key function
			cancel()
			select {
			case err := <-done:
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("%v, want it to wrap context.Canceled", err)
				}
			case <-time.After(time.Minute):
				t.Fatal("VerifyEachContext did not return once cancelled")
			}
			// The second signature was not looked up: the context was done.
			if n := len(entered); n != 0 {
				t.Errorf("KeyFuncContext entered %d more times after cancel", n)
			}
		})
	}
}

// TestContextOptions: KeyFunc and KeyFuncContext are two key sources; only
// one may be set.
func TestContextOptions(t *testing.T) {
	_, err := jws.NewVerifier(jws.VerifyOptions{
		Algorithms:     []jwa.SignatureAlgorithm{jwa.HS256},
		KeyFunc:        func(*jose.Header) (any, error) { return nil, nil },
		KeyFuncContext: func(context.Context, *jose.Header) (any, error) { return nil, nil },
	})
	if err == nil || !strings.Contains(err.Error(), "KeyFuncContext") {
		t.Fatalf("KeyFunc and KeyFuncContext: %v", err)
	}
	// A KeyFuncContext returning no key is ErrKeyNotFound, named.
	v := rtVerifier(t, jws.VerifyOptions{
		Algorithms:     []jwa.SignatureAlgorithm{jwa.HS256},
		KeyFuncContext: func(context.Context, *jose.Header) (any, error) { return (*jose.Set)(nil), nil },
	})
	_, err = v.VerifyCompactContext(context.Background(), newCtxTokens(t).compact)
	if !errors.Is(err, jose.ErrKeyNotFound) || err.Error() != "jws: KeyFuncContext returned no key: no matching key" {
		t.Fatalf("nil set: %v", err)
	}
}

// TestContextAllocs: with a local key the Context methods allocate what
// the plain ones do (none, for HS256 into a reused Message).
func TestContextAllocs(t *testing.T) {
	if vectortest.RaceEnabled {
		t.Skip("allocation counts need the race detector off")
	}
	tk := newCtxTokens(t)
	set := &jose.Set{Keys: []*jose.JWK{{Key: tk.key, KeyID: "k"}}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, c := range []struct {
		name string
		opts jws.VerifyOptions
	}{
		{"Key", jws.VerifyOptions{Key: tk.key}},
		{"Keys", jws.VerifyOptions{Keys: set}},
		{"KeyFuncContext of a set", jws.VerifyOptions{KeyFuncContext: func(context.Context, *jose.Header) (any, error) { return set, nil }}},
	} {
		c.opts.Algorithms = []jwa.SignatureAlgorithm{jwa.HS256}
		v := rtVerifier(t, c.opts)
		var m jws.Message
		plain := testing.AllocsPerRun(100, func() {
			if err := v.VerifyCompactInto(&m, tk.compact); err != nil {
				t.Fatal(err)
			}
		})
		withCtx := testing.AllocsPerRun(100, func() {
			if err := v.VerifyCompactIntoContext(ctx, &m, tk.compact); err != nil {
				t.Fatal(err)
			}
		})
		if withCtx != plain {
			t.Errorf("%s: VerifyCompactIntoContext %v allocations, VerifyCompactInto %v", c.name, withCtx, plain)
		}
		if c.name == "Key" && plain != 0 {
			t.Errorf("Key: VerifyCompactInto %v allocations, want 0", plain)
		}
		t.Logf("%s: %v allocations", c.name, withCtx)
	}
}

// TestContextDoneAfterFailure (review finding): a context done while a
// later signature waits on the key source makes VerifyEachContext's error
// wrap ctx.Err() even when an earlier signature failed for another reason,
// so a caller tells a request that ended from a token that is bad.
func TestContextDoneAfterFailure(t *testing.T) {
	tk := newCtxTokens(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	v := rtVerifier(t, jws.VerifyOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.HS256},
		KeyFuncContext: func(ctx context.Context, h *jose.Header) (any, error) {
			calls++
			if calls == 1 {
				cancel()                                // the request ends while the first signature is checked
				return bytes.Repeat([]byte{1}, 32), nil // a key that does not verify
			}
			return tk.key, nil
		},
	})
	res, _, err := v.VerifyEachContext(ctx, tk.general)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, jose.ErrVerificationFailed) {
		t.Errorf("VerifyEachContext: %v, want it to wrap context.Canceled and the first signature's error", err)
	}
	if len(res) != 2 || !errors.Is(res[0].Err, jose.ErrVerificationFailed) || !errors.Is(res[1].Err, context.Canceled) || calls != 1 {
		t.Errorf("results %+v, %d calls", res, calls)
	}
	// With local keys the context is not consulted: a bad token's error
	// does not wrap it.
	vk := rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: bytes.Repeat([]byte{1}, 32)})
	if _, _, err := vk.VerifyEachContext(ctx, tk.general); errors.Is(err, context.Canceled) || !errors.Is(err, jose.ErrVerificationFailed) {
		t.Errorf("Key: %v", err)
	}
}
