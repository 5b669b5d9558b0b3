package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/josebench/josebench/bench/stats"
)

// The order of each round is a permutation drawn from the seed and the
// round: the same seed gives the same orders, rounds differ.
func TestRoundOrder(t *testing.T) {
	const n = 50
	a, b := RoundOrder(42, 3, n), RoundOrder(42, 3, n)
	if !slices.Equal(a, b) {
		t.Errorf("seed 42 round 3: %v then %v", a, b)
	}
	sorted := slices.Clone(a)
	slices.Sort(sorted)
	for i, x := range sorted {
		if x != i {
			t.Fatalf("not a permutation: %v", a)
		}
	}
	if slices.Equal(a, RoundOrder(42, 4, n)) || slices.Equal(a, RoundOrder(43, 3, n)) {
		t.Error("another round or seed gives the same order")
	}
}

// A run visits the variants in the orders its seed gives, and a second run
// with the stored seed repeats them.
func TestRunnerShuffleRecorded(t *testing.T) {
	vs, _ := Select(DefaultConfig().Measure, []string{"hmac"})
	c := runnerConfig()
	c.Revs, c.Iterations, c.Rounds, c.Warmup, c.RetryThreshold = 1, 1, 4, 0, 0
	visits := func(seed uint64) []string {
		var log []string
		r := &Runner{Config: c, Seed: seed, Prepare: func(v *Variant) (Op, error) {
			id := v.ID()
			prepared := false
			return func() error {
				if prepared {
					log = append(log, id)
				}
				return nil
			}, func() error { prepared = true; return nil }()
		}}
		if _, err := r.Run(context.Background(), vs); err != nil {
			t.Fatal(err)
		}
		return log
	}
	got := visits(7)
	var want []string
	for round := range 4 {
		for _, i := range RoundOrder(7, round, len(vs)) {
			want = append(want, vs[i].ID())
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("visits %v\nwant   %v", got, want)
	}
	if again := visits(7); !slices.Equal(again, got) {
		t.Error("the same seed visits in another order")
	}
	if other := visits(8); slices.Equal(other, got) {
		t.Error("another seed visits in the same order")
	}
	// The stored run keeps the seed and each iteration's round.
	run := &Run{Format: RunFormat, ID: "01937a3c-5e40-7000-8000-000000000001", Seed: 7,
		Results: []Result{{Variant: vs[0], Revs: 1, Iterations: []Iteration{{Round: 0, Time: 1}, {Round: 1, Time: 2}}}}}
	data, err := json.Marshal(run)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeRun(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.Seed != 7 || back.Results[0].Iterations[1].Round != 1 {
		t.Errorf("stored seed %d, rounds %+v", back.Seed, back.Results[0].Iterations)
	}
}

// The problem rounds solve: the machine slows down steadily during a run.
// Run variant after variant, a round trip measured late looks slower than
// the sum of its parts measured early... or, in the other order, faster.
// In shuffled rounds every variant sees the whole drift, so a round trip
// costs the sum of its parts, and the interval shows the drift.
func TestRunnerRoundsSpreadDrift(t *testing.T) {
	vs, _ := Select(DefaultConfig().Measure, []string{"HS256"}) // sign, verify, round trip
	base := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	cost := map[string]time.Duration{SubjectSignature: 1000, SubjectVerification: 1000, SubjectRoundTrip: 2000}
	measure := func(rounds, iterations int) []Result {
		var elapsed time.Duration
		calls := 0
		c := runnerConfig()
		c.Revs, c.Rounds, c.Iterations, c.Warmup, c.RetryThreshold = 100, rounds, iterations, 0, 0
		r := &Runner{Config: c, Seed: 1,
			now:      func() time.Time { return base.Add(elapsed) },
			memStats: runnerFakeMem,
			cpu:      func() (int64, bool) { return 0, false },
			Prepare: func(v *Variant) (Op, error) {
				d := cost[v.Subject]
				return func() error {
					calls++
					// The machine gets 1% slower every 1,000 calls.
					elapsed += time.Duration(float64(d) * (1 + float64(calls)/100000))
					return nil
				}, nil
			}}
		out, err := r.Run(context.Background(), vs)
		if err != nil {
			t.Fatal(err)
		}
		return out.Results
	}
	ratio := func(res []Result) float64 {
		return res[2].Stats.Mean / (res[0].Stats.Mean + res[1].Stats.Mean)
	}
	// Back to back: the round trip looks more than 2% off.
	if q := ratio(measure(1, 20)); q > 0.98 && q < 1.02 {
		t.Fatalf("the fake drift is too small to test: back to back, round trip / (sign + verify) = %.3f", q)
	}
	res := measure(20, 1)
	if q := ratio(res); q < 0.99 || q > 1.01 {
		t.Errorf("in 20 rounds, round trip / (sign + verify) = %.3f, want 1 ± 1%%", q)
	}
	for _, r := range res {
		if r.Interval.Lo >= r.Median || r.Interval.Hi <= r.Median || r.Interval.Confidence < stats.DefaultConfidence {
			t.Errorf("%s: median %v interval %+v: the drift does not show", r.ID(), r.Median, r.Interval)
		}
	}
}

func runnerFakeMem(*runtime.MemStats) {}

// The worker answers the hello with its environment, then measures on
// request; bad requests and unknown variants are errors.
func TestServe(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Measure.Groups = []string{"HS256"}
	vs, _ := Select(cfg.Measure, cfg.Measure.Groups)
	var calls atomic.Int64
	prepare := func(v *Variant) (Op, error) {
		if v.Subject == SubjectRoundTrip {
			return func() error { calls.Add(1); return errors.New("broken") }, nil
		}
		return func() error { calls.Add(1); return nil }, nil
	}
	hello := func(ids ...string) string {
		b, _ := json.Marshal(workerHello{Protocol: WorkerProtocol, Runner: cfg.Runner, Measure: cfg.Measure, Variants: ids})
		return string(b) + "\n"
	}
	var out bytes.Buffer
	in := hello(vs[0].ID(), vs[1].ID()) + `{"variant":1,"revs":5,"iterations":2}` + "\n"
	if err := Serve(strings.NewReader(in), &out, prepare); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&out)
	var r1, r2 workerReply
	if err := dec.Decode(&r1); err != nil || r1.Env == nil || r1.Env.GoVersion == "" {
		t.Fatalf("hello reply %+v, %v", r1, err)
	}
	if err := dec.Decode(&r2); err != nil || len(r2.Iterations) != 2 || r2.Iterations[0].Time <= 0 {
		t.Fatalf("measure reply %+v, %v", r2, err)
	}
	if n := calls.Load(); n != 10 {
		t.Errorf("%d calls, want 2 iterations of 5 revs", n)
	}
	for _, tt := range []struct{ in, err string }{
		{`{"protocol":"josebench-worker/0"}` + "\n", "protocol"},
		{hello("HS256Bench/benchSignature/alg=HS999"), "this build has no variant HS256Bench/benchSignature/alg=HS999"},
		{hello(vs[0].ID()) + `{"variant":1,"revs":5,"iterations":1}` + "\n", "bad request"},
		{hello(vs[0].ID()) + `{"variant":0,"revs":0,"iterations":1}` + "\n", "bad request"},
		{hello(vs[2].ID()) + `{"variant":0,"revs":1,"iterations":1}` + "\n", "broken"},
		{hello(vs[0].ID()) + "{", "reading a request"},
	} {
		var out bytes.Buffer
		err := Serve(strings.NewReader(tt.in), &out, prepare)
		if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(out.String(), `"error"`) {
			t.Errorf("%q: %v, reply %q; want an error containing %q", tt.in, err, out.String(), tt.err)
		}
	}
}

// With Parallel, every round also measures the operations per second of
// that many goroutines sharing the one operation.
func TestRunnerParallel(t *testing.T) {
	c := runnerConfig()
	c.Revs, c.Rounds, c.Iterations, c.RetryThreshold, c.Warmup = 200, 3, 1, 0, 0
	var calls, inFlight, most atomic.Int64
	r := &Runner{Config: c, Parallel: 4, Prepare: func(*Variant) (Op, error) {
		return func() error {
			calls.Add(1)
			n := inFlight.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(10 * time.Microsecond)
			inFlight.Add(-1)
			return nil
		}, nil
	}}
	out, err := r.Run(context.Background(), runnerVariants(t))
	if err != nil {
		t.Fatal(err)
	}
	p := out.Results[0].Parallel
	if p == nil || p.Goroutines != 4 || len(p.OpsPerSec) != 3 || p.Median <= 0 {
		t.Fatalf("throughput %+v", p)
	}
	// 3 rounds × (200 + 4 × 50)
	if n := calls.Load(); n != 3*400 {
		t.Errorf("%d calls, want %d", n, 3*400)
	}
	if most.Load() < 2 {
		t.Errorf("at most %d operations at once with 4 goroutines", most.Load())
	}
	// A failing operation in a goroutine fails the variant.
	r.Prepare = func(*Variant) (Op, error) {
		var n atomic.Int64
		return func() error {
			if n.Add(1) > 300 {
				return fmt.Errorf("tired")
			}
			return nil
		}, nil
	}
	if _, err := r.Run(context.Background(), runnerVariants(t)); err == nil || !strings.Contains(err.Error(), "with 4 goroutines: tired") {
		t.Errorf("failing parallel op: %v", err)
	}
}

// An iteration during which the thread was descheduled (its wall time at
// least retry_threshold % above its CPU time) is rejected and re-run, even
// when its wall time is near the median.
func TestRunnerRetryDescheduled(t *testing.T) {
	base := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var wall, cpu time.Duration
	calls := 0
	c := runnerConfig()
	c.Revs, c.Rounds, c.Iterations, c.Warmup, c.RetryThreshold, c.RetryLimit = 10, 5, 1, 0, 10, 3
	r := &Runner{Config: c,
		now:      func() time.Time { return base.Add(wall) },
		memStats: runnerFakeMem,
		cpu:      func() (int64, bool) { return int64(cpu), true },
		Prepare: func(*Variant) (Op, error) {
			return func() error {
				calls++
				wall += time.Microsecond
				switch {
				case calls > 20 && calls <= 30: // the third iteration: 15% of it waiting
					cpu += 850 * time.Nanosecond
				case calls > 30 && calls <= 40: // the fourth: 5%, kept
					cpu += 950 * time.Nanosecond
				default:
					cpu += time.Microsecond
				}
				return nil
			}, nil
		}}
	res, err := runResults(r, context.Background(), runnerVariants(t))
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Rejects != 1 || len(res[0].Iterations) != 5 {
		t.Errorf("%d rejects, %d iterations; want the descheduled iteration re-run once", res[0].Rejects, len(res[0].Iterations))
	}
	for _, it := range res[0].Iterations {
		if it.CPU < 0.95*it.Time-1e-9 {
			t.Errorf("iteration %+v kept", it)
		}
	}
}

// Iterations still descheduled once the retries are spent are dropped,
// the most disturbed first, at most half of them.
func TestDropDescheduled(t *testing.T) {
	mk := func(cpus ...float64) *Result {
		r := &Result{}
		for i, c := range cpus {
			r.Iterations = append(r.Iterations, Iteration{Round: i, Time: 1000, CPU: c})
		}
		return r
	}
	rounds := func(r *Result) (out []int) {
		for _, it := range r.Iterations {
			out = append(out, it.Round)
		}
		return out
	}
	r := mk(990, 800, 990, 850, 990)
	dropDescheduled(r, 10, 100)
	if got := rounds(r); !slices.Equal(got, []int{0, 2, 4}) || r.Rejects != 2 {
		t.Errorf("two of five descheduled: rounds %v left, %d rejects", got, r.Rejects)
	}
	// Four of five descheduled: the two most disturbed go.
	r = mk(850, 500, 990, 800, 600)
	dropDescheduled(r, 10, 100)
	if got := rounds(r); !slices.Equal(got, []int{0, 2, 3}) || r.Rejects != 2 {
		t.Errorf("four of five descheduled: rounds %v left, %d rejects; want 0, 2, 3", got, r.Rejects)
	}
	r = mk(990, 0) // CPU not measured for the second
	dropDescheduled(r, 10, 100)
	if len(r.Iterations) != 2 || r.Rejects != 0 {
		t.Error("an iteration without CPU time dropped")
	}
	// What is left of the retry limit bounds the drops.
	r = mk(850, 500, 990, 800, 600)
	dropDescheduled(r, 10, 1)
	if got := rounds(r); !slices.Equal(got, []int{0, 2, 3, 4}) || r.Rejects != 1 {
		t.Errorf("room for one drop: rounds %v left, %d rejects; want 0, 2, 3, 4", got, r.Rejects)
	}
	r = mk(850, 500, 990, 800, 600)
	dropDescheduled(r, 10, 0)
	if len(r.Iterations) != 5 || r.Rejects != 0 {
		t.Errorf("no room: %d iterations, %d rejects", len(r.Iterations), r.Rejects)
	}
}

// retry_limit is the most rejects of a variant, re-run and dropped
// together: on a machine where every iteration waits half its time, a
// variant of 10 rounds has exactly retry_limit rejects and keeps its 10
// rounds (before, drops came on top: with 3, 3 re-runs and 5 drops).
func TestRunnerRetryLimit(t *testing.T) {
	for _, limit := range []int{0, 3, 6, 20} {
		base := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
		var wall, cpu time.Duration
		c := runnerConfig()
		c.Revs, c.Rounds, c.Iterations, c.Warmup, c.RetryThreshold, c.RetryLimit = 10, 10, 1, 0, 10, limit
		r := &Runner{Config: c,
			now:      func() time.Time { return base.Add(wall) },
			memStats: runnerFakeMem,
			cpu:      func() (int64, bool) { return int64(cpu), true },
			Prepare: func(*Variant) (Op, error) {
				return func() error {
					wall += time.Microsecond
					cpu += 500 * time.Nanosecond
					return nil
				}, nil
			}}
		res, err := runResults(r, context.Background(), runnerVariants(t))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range res {
			// Each re-run is still descheduled, so the re-runs use the
			// whole limit and leave no room for drops.
			if v.Rejects != limit {
				t.Errorf("retry_limit %d: %s has %d rejects", limit, v.ID(), v.Rejects)
			}
			if kept := len(v.Iterations); kept != 10 {
				t.Errorf("retry_limit %d: %d iterations kept", limit, kept)
			}
		}
	}
}

// killedMeasurer is the other build of an A/B run killed by the interrupt
// (run --against starts its workers with the run's context): from the
// call where ctx ends, it fails as a dead worker does.
type killedMeasurer struct {
	calls, at int
	cancel    context.CancelFunc
}

func (m *killedMeasurer) Measure(i, revs, iterations int) ([]Iteration, error) {
	m.calls++
	if m.calls >= m.at {
		m.cancel()
		return nil, errors.New("bench: the other build: EOF")
	}
	return make([]Iteration, iterations), nil
}

// An interrupt that also ends the other build of an A/B run keeps the
// rounds completed, as it does without --against, instead of reporting
// the dead worker as a failure.
func TestRunnerAgainstInterrupted(t *testing.T) {
	vs, _ := Select(DefaultConfig().Measure, []string{"HS256"})
	c := runnerConfig()
	c.Revs, c.Iterations, c.Rounds, c.Warmup, c.RetryThreshold = 1, 1, 4, 0, 0
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Each visit asks the other build abIterations times: two rounds of
	// three variants, then the first visit of the third round dies.
	other := &killedMeasurer{at: 2*len(vs)*abIterations + 2, cancel: cancel}
	r := &Runner{Config: c, Seed: 1, Against: other, Prepare: func(*Variant) (Op, error) { return func() error { return nil }, nil }}
	out, err := r.Run(ctx, vs)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted after 2 of 4 rounds") {
		t.Fatalf("err = %v, want an interruption after 2 rounds", err)
	}
	if out == nil || len(out.Results) != len(vs) || len(out.Against) != len(vs) {
		t.Fatalf("outcome %+v", out)
	}
	for i := range out.Results {
		if n, m := len(out.Results[i].RoundTimes()), len(out.Against[i].RoundTimes()); n != 2 || m != 2 {
			t.Errorf("%s: %d and %d rounds kept, want 2", out.Results[i].ID(), n, m)
		}
	}
}

// An interrupt during the retries, after the last round, is an
// interruption like one in the rounds: Run keeps every round measured
// (the retried iterations done so far included) and returns an error
// wrapping ctx.Err() that says so, instead of finishing as complete.
func TestRunnerRetryInterrupted(t *testing.T) {
	base := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var wall, cpu time.Duration
	calls := 0
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := runnerConfig()
	c.Revs, c.Rounds, c.Iterations, c.Warmup, c.RetryThreshold, c.RetryLimit = 10, 5, 1, 0, 10, 3
	r := &Runner{Config: c,
		now:      func() time.Time { return base.Add(wall) },
		memStats: runnerFakeMem,
		cpu:      func() (int64, bool) { return int64(cpu), true },
		Prepare: func(*Variant) (Op, error) {
			return func() error {
				calls++
				wall += time.Microsecond
				switch {
				case calls > 20 && calls <= 30: // the third round: descheduled, so retried
					cpu += 500 * time.Nanosecond
				default:
					cpu += time.Microsecond
				}
				if calls == 5*10+1 { // the first revolution of the first retry
					cancel()
				}
				return nil
			}, nil
		}}
	out, err := r.Run(ctx, runnerVariants(t))
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted during the retries, after 5 of 5 rounds") {
		t.Fatalf("err = %v, want an interruption in the retries", err)
	}
	if out == nil || len(out.Results) != 1 || len(out.Results[0].RoundTimes()) != 5 || out.Calibration == nil {
		t.Fatalf("outcome %+v, want the 5 rounds kept", out)
	}
	if calls != 6*10 {
		t.Errorf("%d revolutions: the retries went on after the interrupt", calls)
	}
}
