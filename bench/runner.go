package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/josebench/josebench/bench/stats"
)

// Op is one revolution of a subject: one full creation or loading of a
// token. It returns an error if the operation failed.
type Op func() error

// Preparer makes the operation that a variant measures. It must run the
// operation once and check its result (the verified payload or decrypted
// plaintext equals the input) before returning it, so that a failing
// operation is an error rather than a number.
type Preparer func(v *Variant) (Op, error)

// Iteration is one timed sample: revs revolutions in a row.
type Iteration struct {
	Time   float64 `json:"time"`          // nanoseconds per revolution (wall clock)
	CPU    float64 `json:"cpu,omitempty"` // CPU time of the thread per revolution, ns (0: not measured)
	Bytes  int64   `json:"bytes"`         // bytes allocated per revolution
	Allocs int64   `json:"allocs"`        // heap allocations per revolution
}

// Result is the outcome of one variant.
type Result struct {
	Variant
	Revs       int           `json:"revs"`       // revolutions per iteration
	Iterations []Iteration   `json:"iterations"` // the accepted iterations
	Rejects    int           `json:"rejects"`    // iterations rejected and re-run
	Stats      stats.Summary `json:"stats"`      // of the iteration times, in ns per revolution
	CPU        float64       `json:"cpu"`        // mean thread CPU time per revolution, ns (0: not measured)
	Bytes      float64       `json:"bytes"`      // mean bytes allocated per revolution
	Allocs     float64       `json:"allocs"`     // mean allocations per revolution
}

// Times returns the iteration times in nanoseconds per revolution.
func (r *Result) Times() []float64 {
	ts := make([]float64, len(r.Iterations))
	for i, it := range r.Iterations {
		ts[i] = it.Time
	}
	return ts
}

// summarize fills Stats, Bytes and Allocs from the iterations.
func (r *Result) summarize() {
	r.Stats = stats.Summarize(r.Times())
	var b, a, c float64
	for _, it := range r.Iterations {
		b += float64(it.Bytes)
		a += float64(it.Allocs)
		c += it.CPU
	}
	if n := float64(len(r.Iterations)); n > 0 {
		r.Bytes, r.Allocs, r.CPU = b/n, a/n, c/n
	}
}

// Progress receives the runner's events, to show progress.
type Progress interface {
	// Start is called once with the number of variants.
	Start(total int)
	// Variant is called before variant i (0-based) runs.
	Variant(i int, v *Variant)
	// Done is called after variant i has run.
	Done(i int, r *Result)
	// Finish is called once at the end, also after a failure.
	Finish()
}

// Runner runs variants.
type Runner struct {
	Config   RunnerConfig
	Prepare  Preparer
	Progress Progress // nil: no progress

	// Now, MemStats and CPU are the clock, the allocation counters and the
	// thread CPU clock (ns, and whether available), replaceable in tests;
	// nil means time.Now, runtime.ReadMemStats and the OS thread's clock
	// (Linux only).
	Now      func() time.Time
	MemStats func(*runtime.MemStats)
	CPU      func() (int64, bool)
}

// maxRevs bounds calibrated revolutions.
const maxRevs = 1_000_000_000

// Run prepares and measures each variant in turn. It stops at the first
// variant that cannot be prepared or whose operation fails, returning the
// results so far and an error naming the variant. When ctx is done it stops
// between two iterations and returns the results of the variants completed
// with an error wrapping ctx.Err().
func (r *Runner) Run(ctx context.Context, variants []Variant) ([]Result, error) {
	if r.Progress != nil {
		r.Progress.Start(len(variants))
		defer r.Progress.Finish()
	}
	results := make([]Result, 0, len(variants))
	for i := range variants {
		v := &variants[i]
		if r.Progress != nil {
			r.Progress.Variant(i, v)
		}
		res, err := r.runVariant(ctx, v)
		if ctx.Err() != nil {
			return results, fmt.Errorf("bench: interrupted after %d of %d variants: %w", len(results), len(variants), ctx.Err())
		}
		if err != nil {
			return results, fmt.Errorf("bench: %s: %w", v.ID(), err)
		}
		results = append(results, *res)
		if r.Progress != nil {
			r.Progress.Done(i, &results[len(results)-1])
		}
	}
	return results, nil
}

func (r *Runner) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func (r *Runner) cpu() (int64, bool) {
	if r.CPU != nil {
		return r.CPU()
	}
	return threadCPU()
}

func (r *Runner) memStats(m *runtime.MemStats) {
	if r.MemStats != nil {
		r.MemStats(m)
		return
	}
	runtime.ReadMemStats(m)
}

func (r *Runner) runVariant(ctx context.Context, v *Variant) (*Result, error) {
	if r.Prepare == nil {
		return nil, errors.New("no preparer")
	}
	op, err := r.Prepare(v)
	if err != nil {
		return nil, err
	}
	runtime.GC()
	// The iterations run on one OS thread, whose CPU time they read: on a
	// machine shared with other work it moves much less than wall time.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c := r.Config
	res := &Result{Variant: *v, Revs: int(c.Revs)}
	if c.Revs == Auto {
		if res.Revs, err = r.calibrate(op, time.Duration(c.Time)); err != nil {
			return nil, err
		}
	}
	res.Iterations = make([]Iteration, c.Iterations)
	for i := range res.Iterations {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if res.Iterations[i], err = r.iteration(op, res.Revs); err != nil {
			return nil, err
		}
	}
	// phpbench's retry_threshold: re-run the iterations that deviate by at
	// least the threshold, until none does or the limit of rejects is
	// reached. The deviation is from the median, not the mean as in
	// phpbench: one outlier drags the mean so far that every iteration
	// would deviate from it and be re-run.
	for c.RetryThreshold > 0 && res.Rejects < c.RetryLimit && len(res.Iterations) > 1 {
		median := stats.Median(res.Times())
		retried := false
		for i := range res.Iterations {
			if res.Rejects >= c.RetryLimit || ctx.Err() != nil {
				break
			}
			if math.Abs(stats.Deviation(median, res.Iterations[i].Time)) < c.RetryThreshold {
				continue
			}
			if res.Iterations[i], err = r.iteration(op, res.Revs); err != nil {
				return nil, err
			}
			res.Rejects++
			retried = true
		}
		if !retried {
			break
		}
	}
	res.summarize()
	return res, nil
}

// calibrate returns the revolutions that take about target. It times
// growing runs until one lasts at least a quarter of target, estimates the
// revolutions from the fastest time per revolution seen (noise only ever
// slows a run down), then checks the estimate with a run of that many
// revolutions, up to three times: one slow first run (a page fault, a
// preemption) would otherwise leave a variant with far too few revolutions.
func (r *Runner) calibrate(op Op, target time.Duration) (int, error) {
	best := math.Inf(1) // fastest ns per revolution
	timeRevs := func(n int) (time.Duration, error) {
		start := r.now()
		for range n {
			if err := op(); err != nil {
				return 0, err
			}
		}
		d := r.now().Sub(start)
		if d > 0 {
			best = min(best, float64(d)/float64(n))
		}
		return d, nil
	}
	estimate := func() int {
		if math.IsInf(best, 1) {
			return maxRevs
		}
		return min(max(int(math.Round(float64(target)/best)), 1), maxRevs)
	}
	n := 1
	for {
		d, err := timeRevs(n)
		if err != nil {
			return 0, err
		}
		if d >= target/4 || n >= maxRevs {
			break
		}
		next := 100 * n
		if d > 0 {
			next = int(float64(n) * float64(target/4) * 1.2 / float64(d))
		}
		n = min(max(next, n+1), 100*n, maxRevs)
	}
	revs := estimate()
	for range 3 {
		if revs == 1 && best >= float64(target) {
			break // a revolution lasts longer than an iteration
		}
		if _, err := timeRevs(revs); err != nil {
			return 0, err
		}
		next := estimate()
		if next <= revs+revs/4 {
			return next, nil
		}
		revs = next
	}
	return revs, nil
}

// iteration runs the warmup revolutions, then times revs revolutions and
// counts their allocations.
func (r *Runner) iteration(op Op, revs int) (Iteration, error) {
	for range r.Config.Warmup {
		if err := op(); err != nil {
			return Iteration{}, err
		}
	}
	var m0, m1 runtime.MemStats
	r.memStats(&m0)
	cpu0, cpuOK := r.cpu()
	start := r.now()
	for range revs {
		if err := op(); err != nil {
			return Iteration{}, err
		}
	}
	d := r.now().Sub(start)
	cpu1, _ := r.cpu()
	r.memStats(&m1)
	it := Iteration{
		Time:   float64(d.Nanoseconds()) / float64(revs),
		Bytes:  int64(m1.TotalAlloc-m0.TotalAlloc) / int64(revs),
		Allocs: int64(m1.Mallocs-m0.Mallocs) / int64(revs),
	}
	if cpuOK {
		it.CPU = float64(cpu1-cpu0) / float64(revs)
	}
	return it, nil
}
