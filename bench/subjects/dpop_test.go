package subjects

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/jose/dpop"
	"github.com/josebench/josebench/jose/jwa"
)

// Every DPoP variant prepares and runs; a benchValidate op checks its pool
// of proofs round and round (each accepted again only once the store has
// evicted it), and the pre-timing checks fail, naming the check, against
// a verifier that accepts what it should refuse.
func TestDPoPVariants(t *testing.T) {
	vs, err := bench.Select(bench.DefaultConfig().Measure, []string{"DPoP"})
	if err != nil || len(vs) != 12 {
		t.Fatal(len(vs), err)
	}
	for i := range vs {
		v := &vs[i]
		op, err := Prepare(v)
		if err != nil {
			t.Fatalf("%s: %v", v.ID(), err)
		}
		n := 3
		if v.Subject == bench.SubjectValidate && v.Alg != string(jwa.PS256) {
			n = 2*dpopPool + 1 // past the pool twice: every proof checked three times
		}
		for range n {
			if err := op(); err != nil {
				t.Fatalf("%s: %v", v.ID(), err)
			}
		}
	}

	v := vs[0]
	v.Params = []bench.Param{{Name: "alg", Value: "ES256"}, {Name: "ath", Value: "maybe"}}
	if _, err := Prepare(&v); err == nil {
		t.Error("a DPoP variant with ath=maybe prepared")
	}
	v = vs[0]
	v.Subject = bench.SubjectRoundTrip
	if _, err := Prepare(&v); err == nil {
		t.Error("a DPoP variant of another subject prepared")
	}
}

// The pool works because the store evicts: with a store that holds the
// whole pool, the second pass is refused as replays. So the timed checks
// do go through the replay store.
func TestDPoPPoolNeedsEviction(t *testing.T) {
	k, err := ecKey("P-256", false)
	if err != nil {
		t.Fatal(err)
	}
	p, err := dpop.NewProver(jwa.ES256, k)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		capacity int
		replay   bool
	}{{dpopPool / 2, false}, {dpopPool, true}} {
		ver, err := dpop.NewVerifier(dpop.VerifierOptions{
			Algorithms: []jwa.SignatureAlgorithm{jwa.ES256},
			Replay:     dpop.NewMemoryStore(tt.capacity),
			Now:        func() time.Time { return jwtNow },
		})
		if err != nil {
			t.Fatal(err)
		}
		pool := make([]string, dpopPool)
		for i := range pool {
			if pool[i], err = p.Proof(dpopMethod, dpopURI, &dpop.ProofOptions{IssuedAt: jwtNow}); err != nil {
				t.Fatal(err)
			}
		}
		var replays int
		for i := range 2 * dpopPool {
			_, err := ver.Check(context.Background(), []string{pool[i%dpopPool]}, dpopMethod, dpopURI, "")
			switch {
			case errors.Is(err, dpop.ErrReplay):
				replays++
			case err != nil:
				t.Fatal(err)
			}
		}
		if want := map[bool]int{false: 0, true: dpopPool}[tt.replay]; replays != want {
			t.Errorf("capacity %d: %d replays, want %d", tt.capacity, replays, want)
		}
	}
}

// checkDPoP fails, naming the check, for a verifier that accepts replays
// (a store that remembers nothing) and one that checks no "ath".
func TestDPoPChecks(t *testing.T) {
	k, _ := ecKey("P-256", false)
	o, _ := ecKey("P-256", true)
	p, _ := dpop.NewProver(jwa.ES256, k)
	other, _ := dpop.NewProver(jwa.ES256, o)
	forgetful, err := dpop.NewVerifier(dpop.VerifierOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.ES256},
		Replay:     forget{},
		Now:        func() time.Time { return jwtNow },
	})
	if err != nil {
		t.Fatal(err)
	}
	opts := &dpop.ProofOptions{IssuedAt: jwtNow}
	var ce *CheckError
	if err := checkDPoP(forgetful, p, other, opts, ""); !errors.As(err, &ce) || ce.Check != CheckDPoPReplay {
		t.Errorf("forgetful store: %v", err)
	}
	good, err := dpop.NewVerifier(dpop.VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, Now: func() time.Time { return jwtNow }})
	if err != nil {
		t.Fatal(err)
	}
	if err := checkDPoP(good, p, other, opts, ""); err != nil {
		t.Errorf("good verifier: %v", err)
	}
	// The same access token as "another": not refused, so the check fails.
	opts.AccessToken = "tok"
	if err := checkDPoP(good, p, other, opts, "tok"); !errors.As(err, &ce) || ce.Check != CheckDPoPToken {
		t.Errorf("same token as the other: %v", err)
	}
	if err := checkDPoP(good, p, other, opts, "tok2"); err != nil {
		t.Errorf("good verifier with ath: %v", err)
	}
}

// forget is a ReplayStore that remembers nothing.
type forget struct{}

func (forget) Remember(context.Context, [32]byte, time.Time, time.Time) (bool, error) {
	return false, nil
}

// The DPoP ops are safe on several goroutines, as Runner.Parallel runs
// them: each check still gets a proof whose store entry was evicted, also
// when a goroutine is descheduled between taking a proof and checking it
// (16 goroutines on a loaded machine).
func TestDPoPParallel(t *testing.T) {
	m := bench.DefaultConfig().Measure
	vs, err := bench.Select(m, []string{"DPoPEdDSA"})
	if err != nil || len(vs) != 4 {
		t.Fatal(len(vs), err)
	}
	for i := range vs {
		runParallel(t, &vs[i], 16, dpopPool/4)
	}
}
