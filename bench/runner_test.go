package bench

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// runnerFake is a deterministic machine: a clock that advances only when
// the fake op runs, by cost(call), and allocation counters that grow by
// allocs per call.
type runnerFake struct {
	calls   int
	elapsed time.Duration
	cost    func(call int) time.Duration
	allocs  uint64
	fail    int // the call that fails (0: none)
}

func (f *runnerFake) op() error {
	f.calls++
	if f.fail != 0 && f.calls == f.fail {
		return errors.New("boom")
	}
	f.elapsed += f.cost(f.calls)
	return nil
}

func (f *runnerFake) runner(c RunnerConfig) *Runner {
	base := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	return &Runner{
		Config:  c,
		Prepare: func(*Variant) (Op, error) { return f.op, nil },
		now:     func() time.Time { return base.Add(f.elapsed) },
		memStats: func(m *runtime.MemStats) {
			m.Mallocs = uint64(f.calls) * f.allocs
			m.TotalAlloc = uint64(f.calls) * f.allocs * 16
		},
		cpu: func() (int64, bool) { return int64(f.elapsed * 19 / 20), true }, // 95% of the wall time
	}
}

// runnerConfig is the configuration the runner tests assume: one round of
// 5 iterations of 10ms with one warmup revolution each.
func runnerConfig() RunnerConfig {
	c := DefaultConfig().Runner
	c.Rounds = 1
	c.Iterations, c.Revs, c.Time, c.Warmup = 5, Auto, Duration(10*time.Millisecond), 1
	c.RetryThreshold, c.RetryLimit = 10, 5
	return c
}

func runnerVariants(t *testing.T) []Variant {
	vs, err := Select(DefaultConfig().Measure, []string{"HS256"})
	if err != nil {
		t.Fatal(err)
	}
	return vs[:1]
}

func TestRunnerAutoRevs(t *testing.T) {
	f := &runnerFake{cost: func(int) time.Duration { return time.Microsecond }, allocs: 3}
	c := runnerConfig()
	res, err := runResults(f.runner(c), context.Background(), runnerVariants(t))
	if err != nil {
		t.Fatal(err)
	}
	r := res[0]
	if r.Revs != 10000 {
		t.Errorf("revs %d, want 10000 (10ms / 1µs)", r.Revs)
	}
	if len(r.Iterations) != 5 || r.Rejects != 0 {
		t.Errorf("%d iterations, %d rejects", len(r.Iterations), r.Rejects)
	}
	for _, it := range r.Iterations {
		if it.Time != 1000 || it.CPU != 950 || it.Allocs != 3 || it.Bytes != 48 {
			t.Errorf("iteration %+v, want 1000ns, 950ns CPU, 3 allocs, 48 B", it)
		}
	}
	if r.Stats.Mean != 1000 || r.Stats.Mode != 1000 || r.Stats.Stdev != 0 || r.CPU != 950 || r.Allocs != 3 || r.Bytes != 48 {
		t.Errorf("stats %+v cpu %v allocs %v bytes %v", r.Stats, r.CPU, r.Allocs, r.Bytes)
	}
}

// An operation slower than the target time runs once per iteration.
func TestRunnerSlowOp(t *testing.T) {
	f := &runnerFake{cost: func(int) time.Duration { return 50 * time.Millisecond }}
	res, err := runResults(f.runner(runnerConfig()), context.Background(), runnerVariants(t))
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Revs != 1 || res[0].Stats.Mean != 50e6 {
		t.Errorf("revs %d mean %v", res[0].Revs, res[0].Stats.Mean)
	}
	// calibration 1 (no check run: one revolution exceeds the target) + 5
	// iterations of (1 warmup + 1 rev)
	if f.calls != 11 {
		t.Errorf("%d calls", f.calls)
	}
}

// A deviant iteration is rejected and re-run (phpbench's retry_threshold),
// and rejects are bounded by retry_limit.
func TestRunnerRetry(t *testing.T) {
	c := runnerConfig()
	c.Revs, c.Warmup, c.Iterations = 10, 0, 4
	// Calls 21-30 (the third iteration) are ten times slower.
	f := &runnerFake{cost: func(n int) time.Duration {
		if n > 20 && n <= 30 {
			return 10 * time.Microsecond
		}
		return time.Microsecond
	}}
	res, err := runResults(f.runner(c), context.Background(), runnerVariants(t))
	if err != nil {
		t.Fatal(err)
	}
	r := res[0]
	if r.Rejects != 1 {
		t.Errorf("%d rejects, want 1", r.Rejects)
	}
	for _, it := range r.Iterations {
		if it.Time != 1000 {
			t.Errorf("iteration time %v after retry", it.Time)
		}
	}

	// Always deviant: every other iteration is slow; the limit stops it.
	c.RetryLimit = 3
	f = &runnerFake{cost: func(n int) time.Duration {
		if (n-1)/10%2 == 1 {
			return 3 * time.Microsecond
		}
		return time.Microsecond
	}}
	res, err = runResults(f.runner(c), context.Background(), runnerVariants(t))
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Rejects != 3 {
		t.Errorf("%d rejects, want the limit 3", res[0].Rejects)
	}

	// retry_threshold 0 disables retries.
	c.RetryThreshold = 0
	f.calls, f.elapsed = 0, 0
	res, err = runResults(f.runner(c), context.Background(), runnerVariants(t))
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Rejects != 0 || res[0].Stats.Best != 1000 || res[0].Stats.Worst != 3000 {
		t.Errorf("without retries: %d rejects, %+v", res[0].Rejects, res[0].Stats)
	}

	// The threshold is inclusive: an iteration exactly 10% above the
	// median is rejected, one 9.9% above is kept.
	for _, tt := range []struct {
		slow    time.Duration
		rejects int
	}{{1100, 1}, {1099, 0}} {
		c.RetryThreshold, c.RetryLimit = 10, 3
		f := &runnerFake{cost: func(n int) time.Duration {
			if n > 20 && n <= 30 {
				return tt.slow
			}
			return time.Microsecond
		}}
		res, err := runResults(f.runner(c), context.Background(), runnerVariants(t))
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Rejects != tt.rejects {
			t.Errorf("one iteration at %v/op against 1µs/op, threshold 10%%: %d rejects, want %d", tt.slow, res[0].Rejects, tt.rejects)
		}
	}
}

func TestRunnerErrors(t *testing.T) {
	c := runnerConfig()
	c.Revs = 5
	f := &runnerFake{cost: func(int) time.Duration { return time.Microsecond }, fail: 8}
	res, err := runResults(f.runner(c), context.Background(), runnerVariants(t))
	if err == nil || !strings.Contains(err.Error(), "bench: HS256Bench/benchSignature/alg=HS256: boom") || len(res) != 0 {
		t.Errorf("failing op: %v, %d results", err, len(res))
	}
	r := f.runner(c)
	r.Prepare = func(*Variant) (Op, error) { return nil, errors.New("no key") }
	if _, err := runResults(r, context.Background(), runnerVariants(t)); err == nil || !strings.HasSuffix(err.Error(), ": no key") {
		t.Errorf("failing prepare: %v", err)
	}
	r.Prepare = nil
	if _, err := runResults(r, context.Background(), runnerVariants(t)); err == nil {
		t.Error("nil Prepare accepted")
	}
}

// runnerEvents records Progress calls.
type runnerEvents struct{ log []string }

func (e *runnerEvents) Start(n int)               { e.log = append(e.log, fmt.Sprint("start ", n)) }
func (e *runnerEvents) Variant(i int, v *Variant) { e.log = append(e.log, "variant "+v.Subject) }
func (e *runnerEvents) Done(i int, r *Result)     { e.log = append(e.log, "done") }
func (e *runnerEvents) Finish()                   { e.log = append(e.log, "finish") }

func TestRunnerProgress(t *testing.T) {
	vs, _ := Select(DefaultConfig().Measure, []string{"HS256"})
	c := runnerConfig()
	c.Revs, c.Iterations, c.Rounds = 1, 1, 2
	f := &runnerFake{cost: func(int) time.Duration { return time.Microsecond }}
	r := f.runner(c)
	ev := &runnerEvents{}
	r.Progress = ev
	if _, err := runResults(r, context.Background(), vs[:2]); err != nil {
		t.Fatal(err)
	}
	// Preparation in order, then two rounds in their shuffled orders;
	// done once per variant, in its last round.
	want := []string{"start 6", "variant benchSignature", "variant benchVerification"}
	for round := range 2 {
		for _, i := range RoundOrder(r.Seed, round, 2) {
			want = append(want, "variant "+vs[i].Subject)
			if round == 1 {
				want = append(want, "done")
			}
		}
	}
	want = append(want, "finish")
	if got, w := strings.Join(ev.log, ","), strings.Join(want, ","); got != w {
		t.Errorf("events %s\nwant   %s", got, w)
	}
}

// A cancelled context stops the run between iterations, keeping the
// rounds that every variant completed.
func TestRunnerInterrupt(t *testing.T) {
	vs, _ := Select(DefaultConfig().Measure, []string{"HS256"})
	c := runnerConfig()
	c.Revs, c.Rounds = 10, 3
	// A round is 3 variants × 5 iterations × (1 warmup + 10 revs) = 165
	// calls: call 200 is in the second round.
	ctx, cancel := context.WithCancel(context.Background())
	f := &runnerFake{cost: func(n int) time.Duration {
		if n == 200 {
			cancel()
		}
		return time.Microsecond
	}}
	out, err := f.runner(c).Run(ctx, vs)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "bench: interrupted after 1 of 3 rounds") {
		t.Errorf("error %v", err)
	}
	if len(out.Results) != 3 {
		t.Fatalf("%d results", len(out.Results))
	}
	for _, r := range out.Results {
		if len(r.Iterations) != 5 || r.Stats.N != 5 {
			t.Errorf("%s: %d iterations kept, want the 5 of round 0", r.ID(), len(r.Iterations))
		}
		for _, it := range r.Iterations {
			if it.Round != 0 {
				t.Errorf("%s: an iteration of round %d kept", r.ID(), it.Round)
			}
		}
	}
	if out.Calibration == nil || len(out.Calibration.Iterations) != calibrationIterations {
		t.Errorf("calibration %+v", out.Calibration)
	}

	// Interrupted in the first round: nothing to keep.
	ctx, cancel = context.WithCancel(context.Background())
	f = &runnerFake{cost: func(n int) time.Duration {
		if n == 50 {
			cancel()
		}
		return time.Microsecond
	}}
	out, err = f.runner(c).Run(ctx, vs)
	if !errors.Is(err, context.Canceled) || len(out.Results) != 0 {
		t.Errorf("interrupted in round 0: %v, %d results", err, len(out.Results))
	}
}

// On Linux the thread CPU time is measured for real: a busy loop uses CPU.
func TestRunnerThreadCPU(t *testing.T) {
	if _, ok := threadCPU(); !ok {
		t.Skip("no thread CPU clock here")
	}
	c := runnerConfig()
	c.Revs, c.Iterations, c.RetryThreshold = 1, 2, 0
	sink := 0
	r := &Runner{Config: c, Prepare: func(*Variant) (Op, error) {
		return func() error {
			for start := time.Now(); time.Since(start) < 2*time.Millisecond; {
				sink++
			}
			return nil
		}, nil
	}}
	res, err := runResults(r, context.Background(), runnerVariants(t))
	if err != nil {
		t.Fatal(err)
	}
	if cpu := res[0].CPU; cpu <= 0 || cpu > 1.5*res[0].Stats.Mean {
		t.Errorf("CPU %v ns for a wall time of %v ns", cpu, res[0].Stats.Mean)
	}
}

// A slow first revolution (cold caches, a preemption) does not leave the
// variant with too few revolutions: the estimate is checked.
func TestRunnerCalibrationRecovers(t *testing.T) {
	f := &runnerFake{cost: func(n int) time.Duration {
		if n == 1 {
			return 5 * time.Millisecond // more than a quarter of the target
		}
		return time.Microsecond
	}}
	res, err := runResults(f.runner(runnerConfig()), context.Background(), runnerVariants(t))
	if err != nil {
		t.Fatal(err)
	}
	if r := res[0].Revs; r != 10000 {
		t.Errorf("revs %d, want 10000 (10ms / 1µs)", r)
	}
}

// runResults runs r and returns the results of the variants.
func runResults(r *Runner, ctx context.Context, vs []Variant) ([]Result, error) {
	out, err := r.Run(ctx, vs)
	if out == nil {
		return nil, err
	}
	return out.Results, err
}
