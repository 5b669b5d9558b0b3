package jwt

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
	"github.com/josebench/josebench/jose/jws"
)

type ctxKey struct{}

// nestedCtx is a nested JWT (HS256 inside A128KW) and a Validator whose
// Verifier and Decrypter take their keys from KeyFuncContext functions,
// which report the contexts they get on seen.
type nestedCtx struct {
	tok  []byte
	v    *Validator
	seen chan string // "jws" or "jwe", with the context's value
	wait bool        // the Verifier's key function waits until ctx is done
}

func newNestedCtx(t *testing.T, verifierWaits bool) *nestedCtx {
	t.Helper()
	kek := bytes.Repeat([]byte{1}, 16)
	n := &nestedCtx{seen: make(chan string, 8), wait: verifierWaits}
	e, err := NewNestedEncrypter(mustSigner(t, jwa.HS256, hsKey, nil), jwa.A128KW, jwa.A128GCM, kek, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n.tok, err = e.Encrypt(typicalClaims()); err != nil {
		t.Fatal(err)
	}
	report := func(pkg string, ctx context.Context) {
		s, _ := ctx.Value(ctxKey{}).(string)
		n.seen <- pkg + " " + s
	}
	ver, err := jws.NewVerifier(jws.VerifyOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.HS256},
		KeyFuncContext: func(ctx context.Context, h *jose.Header) (any, error) {
			report("jws", ctx)
			if n.wait {
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return hsKey, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	dec, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.A128KW},
		ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM},
		KeyFuncContext: func(ctx context.Context, h *jose.Header) (any, error) {
			report("jwe", ctx)
			return kek, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	n.v = mustValidator(t, ValidatorOptions{Verifier: ver, Decrypter: dec, Audiences: []string{"https://api.example"}})
	return n
}

// TestValidateContextNested: ValidateContext and ValidateIntoContext hand
// their ctx to the Decrypter and to the Verifier of the nested JWS.
func TestValidateContextNested(t *testing.T) {
	n := newNestedCtx(t, false)
	ctx := context.WithValue(context.Background(), ctxKey{}, "request")
	if _, err := n.v.ValidateContext(ctx, n.tok, nil); err != nil {
		t.Fatal(err)
	}
	var tok Token
	if err := n.v.ValidateIntoContext(ctx, &tok, n.tok, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"jwe request", "jws request", "jwe request", "jws request"} {
		if got := <-n.seen; got != want {
			t.Errorf("key function saw %q, want %q", got, want)
		}
	}
	// Validate passes context.Background().
	if _, err := n.v.Validate(n.tok, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"jwe ", "jws "} {
		if got := <-n.seen; got != want {
			t.Errorf("Validate: key function saw %q, want %q", got, want)
		}
	}
}

// TestValidateContextDone: a done context ends validation before the first
// key function is called, with an error wrapping ctx.Err().
func TestValidateContextDone(t *testing.T) {
	n := newNestedCtx(t, false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := n.v.ValidateContext(ctx, n.tok, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("ValidateContext: %v", err)
	}
	var tok Token
	if err := n.v.ValidateIntoContext(ctx, &tok, n.tok, nil); !errors.Is(err, context.Canceled) || tok.Header != nil {
		t.Fatalf("ValidateIntoContext: %v", err)
	}
	if len(n.seen) != 0 {
		t.Fatalf("%d key functions called with a done context", len(n.seen))
	}
}

// TestValidateContextBlocking: the Verifier's key function of a nested JWT
// waits until ctx is done (a remote set whose provider hangs); Validate
// returns at the deadline with an error wrapping it, not a claims error.
func TestValidateContextBlocking(t *testing.T) {
	n := newNestedCtx(t, true)
	// The deadline passes once the Verifier's key function waits (a timer
	// could fire before the call reaches it on a slow machine).
	ctx, expire := vectortest.Expiring()
	done := make(chan error, 1)
	go func() { _, err := n.v.ValidateContext(ctx, n.tok, nil); done <- err }()
	if got := []string{<-n.seen, <-n.seen}; got[0] != "jwe " || got[1] != "jws " {
		t.Fatalf("key functions called: %q", got)
	}
	expire()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrInvalidClaims) {
			t.Fatalf("%v, want it to wrap context.DeadlineExceeded", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("ValidateContext did not return after its deadline")
	}
}

// TestValidateContextAllocs: with local keys ValidateIntoContext allocates
// what ValidateInto does.
func TestValidateContextAllocs(t *testing.T) {
	if vectortest.RaceEnabled {
		t.Skip("allocation counts need the race detector off")
	}
	v := hsValidator(t, ValidatorOptions{Issuers: []string{"https://issuer.example"}})
	tok := mustSign(t, mustSigner(t, jwa.HS256, hsKey, nil), typicalClaims())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var tk Token
	plain := testing.AllocsPerRun(100, func() {
		if err := v.ValidateInto(&tk, tok, nil); err != nil {
			t.Fatal(err)
		}
	})
	withCtx := testing.AllocsPerRun(100, func() {
		if err := v.ValidateIntoContext(ctx, &tk, tok, nil); err != nil {
			t.Fatal(err)
		}
	})
	if withCtx != plain || plain > 1 {
		t.Fatalf("ValidateIntoContext %v allocations, ValidateInto %v (want at most 1, the claims' strings)", withCtx, plain)
	}
	t.Logf("%v allocations", withCtx)
}
