package jwe_test

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
	"github.com/josebench/josebench/jose/jwe"
)

// ctxTokens are A128KW tokens in every form the Context methods take: a
// compact one, a flattened one and a general one of two recipients, all
// for the key kek.
type ctxTokens struct {
	kek                    []byte
	compact, flat, general []byte
}

func newCtxTokens(t *testing.T) ctxTokens {
	t.Helper()
	tk := ctxTokens{kek: bytes.Repeat([]byte{1}, 16)}
	e, err := jwe.NewEncrypter(jwa.A128KW, jwa.A128GCM, tk.kek, nil)
	if err != nil {
		t.Fatal(err)
	}
	must := func(b []byte, err error) []byte {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	pt := []byte("plaintext")
	tk.compact = must(e.Compact(pt))
	tk.flat = must(e.Flattened(pt, nil))
	r := jwe.Recipient{Algorithm: jwa.A128KW, Key: tk.kek}
	tk.general = must(jwe.EncryptGeneral(jwa.A128GCM, pt, nil, nil, r, r))
	return tk
}

// ctxCalls runs every Context method of d on the tokens under ctx and
// returns each one's error, by name.
func ctxCalls(ctx context.Context, d *jwe.Decrypter, tk ctxTokens) map[string]error {
	errs := map[string]error{}
	_, errs["DecryptCompactContext"] = d.DecryptCompactContext(ctx, tk.compact)
	var m jwe.Message
	errs["DecryptCompactIntoContext"] = d.DecryptCompactIntoContext(ctx, &m, tk.compact)
	_, errs["DecryptJSONContext flattened"] = d.DecryptJSONContext(ctx, tk.flat)
	_, errs["DecryptJSONContext general"] = d.DecryptJSONContext(ctx, tk.general)
	return errs
}

func ctxDecrypter(t *testing.T, opts jwe.DecryptOptions) *jwe.Decrypter {
	t.Helper()
	opts.KeyAlgorithms = []jwa.KeyAlgorithm{jwa.A128KW}
	opts.ContentEncryptions = []jwa.ContentEncryption{jwa.A128GCM}
	d, err := jwe.NewDecrypter(opts)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

type ctxKey struct{}

// TestContextPassed: every Context method hands its ctx to KeyFuncContext,
// and the token then decrypts as with KeyFunc; the methods without a
// context pass context.Background().
func TestContextPassed(t *testing.T) {
	tk := newCtxTokens(t)
	var got []context.Context
	d := ctxDecrypter(t, jwe.DecryptOptions{
		KeyFuncContext: func(ctx context.Context, h *jose.Header) (any, error) {
			got = append(got, ctx)
			return tk.kek, nil
		},
	})
	ctx := context.WithValue(context.Background(), ctxKey{}, "request")
	for name, err := range ctxCalls(ctx, d, tk) {
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := d.DecryptCompact(tk.compact); err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 {
		t.Fatalf("KeyFuncContext called %d times, want 5", len(got))
	}
	for i, c := range got[:4] {
		if c.Value(ctxKey{}) != "request" {
			t.Errorf("call %d got another context", i)
		}
	}
	if got[4] != context.Background() {
		t.Errorf("DecryptCompact passed %v, not context.Background()", got[4])
	}
}

// TestContextDone: with a done context no key function is called, by any
// Context method, and the error wraps ctx.Err().
func TestContextDone(t *testing.T) {
	tk := newCtxTokens(t)
	called := 0
	plain := func(h *jose.Header) (any, error) { called++; return tk.kek, nil }
	withCtx := func(ctx context.Context, h *jose.Header) (any, error) { called++; return tk.kek, nil }
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel2()
	for _, c := range []struct {
		name string
		opts jwe.DecryptOptions
	}{
		{"KeyFunc", jwe.DecryptOptions{KeyFunc: plain}},
		{"KeyFuncContext", jwe.DecryptOptions{KeyFuncContext: withCtx}},
	} {
		d := ctxDecrypter(t, c.opts)
		for _, ctx := range []context.Context{canceled, expired} {
			for name, err := range ctxCalls(ctx, d, tk) {
				if !errors.Is(err, ctx.Err()) {
					t.Errorf("%s, %s, %v: %v, want it to wrap %v", c.name, name, ctx.Err(), err, ctx.Err())
				}
				if err != nil && !strings.HasPrefix(err.Error(), "jwe: ") {
					t.Errorf("%s: error %q does not name the package", name, err)
				}
			}
		}
	}
	if called != 0 {
		t.Errorf("a key function was called %d times with a done context", called)
	}
}

// TestContextLocalKeys: with Key or Keys nothing waits, so ctx is not
// consulted: a done context does not refuse a token that decrypts.
func TestContextLocalKeys(t *testing.T) {
	tk := newCtxTokens(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	set := &jose.Set{Keys: []*jose.JWK{{Key: tk.kek}}}
	for _, opts := range []jwe.DecryptOptions{{Key: tk.kek}, {Keys: set}} {
		d := ctxDecrypter(t, opts)
		for name, err := range ctxCalls(ctx, d, tk) {
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}

// TestContextBlockingKeyFunc: a KeyFuncContext that waits until its
// context is done ends the call when the deadline passes or the context is
// cancelled, and the error wraps ctx.Err() even when the key function
// returns an error of its own; the next recipient's key is not looked up.
func TestContextBlockingKeyFunc(t *testing.T) {
	tk := newCtxTokens(t)
	errHang := errors.New("KMS did not answer")
	entered := make(chan struct{}, 8)
	d := ctxDecrypter(t, jwe.DecryptOptions{
		KeyFuncContext: func(ctx context.Context, h *jose.Header) (any, error) {
			entered <- struct{}{}
			<-ctx.Done()
			return nil, errHang
		},
	})
	wait := func(t *testing.T, done chan error, want error) {
		t.Helper()
		select {
		case err := <-done:
			if !errors.Is(err, want) || !errors.Is(err, errHang) {
				t.Fatalf("%v, want it to wrap %v and the key function's error", err, want)
			}
		case <-time.After(time.Minute):
			t.Fatal("the call did not return once its context was done")
		}
	}
	t.Run("deadline", func(t *testing.T) {
		// The deadline passes once the key function waits (a timer could
		// fire before the call reaches it on a slow machine).
		ctx, expire := vectortest.Expiring()
		done := make(chan error, 1)
		go func() { _, err := d.DecryptCompactContext(ctx, tk.compact); done <- err }()
		<-entered
		expire()
		wait(t, done, context.DeadlineExceeded)
	})
	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { _, err := d.DecryptJSONContext(ctx, tk.general); done <- err }()
		<-entered
		cancel()
		wait(t, done, context.Canceled)
		if n := len(entered); n != 0 {
			t.Errorf("KeyFuncContext entered %d more times after cancel", n)
		}
	})
}

// TestContextOptions: KeyFunc and KeyFuncContext are two key sources; only
// one may be set.
func TestContextOptions(t *testing.T) {
	_, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.A128KW},
		ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM},
		KeyFunc:            func(*jose.Header) (any, error) { return nil, nil },
		KeyFuncContext:     func(context.Context, *jose.Header) (any, error) { return nil, nil },
	})
	if err == nil || !strings.Contains(err.Error(), "KeyFuncContext") {
		t.Fatalf("KeyFunc and KeyFuncContext: %v", err)
	}
	d := ctxDecrypter(t, jwe.DecryptOptions{
		KeyFuncContext: func(context.Context, *jose.Header) (any, error) { return nil, nil },
	})
	_, err = d.DecryptCompactContext(context.Background(), newCtxTokens(t).compact)
	if !errors.Is(err, jose.ErrKeyNotFound) || err.Error() != "jwe: KeyFuncContext returned no key: no matching key" {
		t.Fatalf("no key: %v", err)
	}
}

// TestContextAllocs: with a local key the Context methods allocate what
// the plain ones do (none, for dir into a reused Message).
func TestContextAllocs(t *testing.T) {
	if vectortest.RaceEnabled {
		t.Skip("allocation counts need the race detector off")
	}
	cek := bytes.Repeat([]byte{3}, 16)
	e, err := jwe.NewEncrypter(jwa.Direct, jwa.A128GCM, cek, nil)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := e.Compact([]byte("plaintext"))
	if err != nil {
		t.Fatal(err)
	}
	set := &jose.Set{Keys: []*jose.JWK{{Key: cek}}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, c := range []struct {
		name string
		opts jwe.DecryptOptions
	}{
		{"Key", jwe.DecryptOptions{Key: cek}},
		{"Keys", jwe.DecryptOptions{Keys: set}},
		{"KeyFuncContext of a set", jwe.DecryptOptions{KeyFuncContext: func(context.Context, *jose.Header) (any, error) { return set, nil }}},
	} {
		c.opts.KeyAlgorithms = []jwa.KeyAlgorithm{jwa.Direct}
		c.opts.ContentEncryptions = []jwa.ContentEncryption{jwa.A128GCM}
		d, err := jwe.NewDecrypter(c.opts)
		if err != nil {
			t.Fatal(err)
		}
		var m jwe.Message
		plain := testing.AllocsPerRun(100, func() {
			if err := d.DecryptCompactInto(&m, tok); err != nil {
				t.Fatal(err)
			}
		})
		withCtx := testing.AllocsPerRun(100, func() {
			if err := d.DecryptCompactIntoContext(ctx, &m, tok); err != nil {
				t.Fatal(err)
			}
		})
		if withCtx != plain {
			t.Errorf("%s: DecryptCompactIntoContext %v allocations, DecryptCompactInto %v", c.name, withCtx, plain)
		}
		if c.name == "Key" && plain != 0 {
			t.Errorf("Key: DecryptCompactInto %v allocations, want 0", plain)
		}
		t.Logf("%s: %v allocations", c.name, withCtx)
	}
}
