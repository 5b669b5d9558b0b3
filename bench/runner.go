package bench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
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
	Round  int     `json:"round"`         // the round it was measured in, from 0
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
	// Median and Interval are the median of the round times (see
	// [Result.RoundTimes]) and its confidence interval
	// ([stats.MedianInterval]): the spread from round to round, which the
	// iterations of one round alone do not show.
	Median   float64        `json:"median"`
	Interval stats.Interval `json:"interval"`
	Parallel *Throughput    `json:"parallel,omitempty"` // with Runner.Parallel goroutines, else nil
	CPU      float64        `json:"cpu"`                // mean thread CPU time per revolution, ns (0: not measured)
	Bytes    float64        `json:"bytes"`              // mean bytes allocated per revolution
	Allocs   float64        `json:"allocs"`             // mean allocations per revolution
}

// Times returns the iteration times in nanoseconds per revolution.
func (r *Result) Times() []float64 {
	ts := make([]float64, len(r.Iterations))
	for i, it := range r.Iterations {
		ts[i] = it.Time
	}
	return ts
}

// RoundTimes returns the mean time per revolution of each round, in
// round order: the samples that a comparison pairs. Iterations of a run
// stored without rounds (all in round 0) count as a round each.
func (r *Result) RoundTimes() []float64 {
	return r.RoundMeans(func(it Iteration) float64 { return it.Time })
}

// RoundMeans returns the mean of f over the iterations of each round, in
// round order (see [Result.RoundTimes]).
func (r *Result) RoundMeans(f func(Iteration) float64) []float64 {
	return r.perRound(f, false)
}

// RoundBests returns the smallest value of f over the iterations of each
// round, in round order. Noise on a shared machine only ever slows an
// iteration down, so the best of a round is its least disturbed sample.
func (r *Result) RoundBests(f func(Iteration) float64) []float64 {
	return r.perRound(f, true)
}

func (r *Result) perRound(f func(Iteration) float64, best bool) []float64 {
	last := -1
	for _, it := range r.Iterations {
		last = max(last, it.Round)
	}
	if last == 0 {
		out := make([]float64, len(r.Iterations))
		for i, it := range r.Iterations {
			out[i] = f(it)
		}
		return out
	}
	sum := make([]float64, last+1)
	cnt := make([]int, last+1)
	for _, it := range r.Iterations {
		x := f(it)
		switch {
		case !best:
			sum[it.Round] += x
		case cnt[it.Round] == 0 || x < sum[it.Round]:
			sum[it.Round] = x
		}
		cnt[it.Round]++
	}
	out := make([]float64, 0, len(sum))
	for i := range sum {
		switch {
		case cnt[i] == 0:
		case best:
			out = append(out, sum[i])
		default:
			out = append(out, sum[i]/float64(cnt[i]))
		}
	}
	return out
}

// keepRounds drops the iterations of rounds n and later.
func (r *Result) keepRounds(n int) {
	r.Iterations = slices.DeleteFunc(r.Iterations, func(it Iteration) bool { return it.Round >= n })
	if r.Parallel != nil && len(r.Parallel.OpsPerSec) > n {
		r.Parallel.OpsPerSec = r.Parallel.OpsPerSec[:n]
	}
}

// summarize fills the statistics from the iterations.
func (r *Result) summarize() {
	r.Stats = stats.Summarize(r.Times())
	r.Median, r.Interval = stats.MedianInterval(r.RoundTimes(), stats.DefaultConfidence)
	if r.Parallel != nil {
		r.Parallel.Median, r.Parallel.Interval = stats.MedianInterval(r.Parallel.OpsPerSec, stats.DefaultConfidence)
	}
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

// Throughput is a variant measured with several goroutines at once that
// share its one operation, once per round.
type Throughput struct {
	Goroutines int            `json:"goroutines"`
	OpsPerSec  []float64      `json:"ops_per_sec"` // operations per second of all goroutines together, one per round
	Median     float64        `json:"median"`      // of OpsPerSec
	Interval   stats.Interval `json:"interval"`    // of the median
}

// Progress receives the runner's events, to show progress.
type Progress interface {
	// Start is called once with the number of steps: one per variant
	// prepared, and one per variant in each round.
	Start(total int)
	// Variant is called before step i (0-based) works on variant v.
	Variant(i int, v *Variant)
	// Done is called once per variant, when its last round (step i) is
	// measured.
	Done(i int, r *Result)
	// Finish is called once at the end, also after a failure.
	Finish()
}

// Measurer measures, in another process, the same variants as a Runner:
// [Remote] drives another josebench binary. Variants are named by their
// index in the list the Runner runs.
type Measurer interface {
	// Measure runs iterations iterations of revs revolutions of variant i.
	Measure(i, revs, iterations int) ([]Iteration, error)
}

// Runner runs variants in rounds: it prepares every variant and
// calibrates its revolutions, then visits every variant in each of
// Config.Rounds rounds, in an order shuffled per round from Seed (see
// [RoundOrder]), for Config.Iterations iterations a visit. Slow drift of a
// shared machine then spreads over every variant instead of landing
// between them, and the interval of each variant covers it.
type Runner struct {
	Config   RunnerConfig
	Prepare  Preparer
	Progress Progress // nil: no progress
	Seed     uint64   // the seed of the round orders

	// Parallel, when above 1, also measures each variant in every round
	// with that many goroutines sharing its one operation (one Signer,
	// Verifier, Encrypter or Decrypter), as a server does.
	Parallel int

	// Against, when not nil, measures each variant again right after (or,
	// in odd rounds, right before) this process does, with the same
	// revolutions: the other side of an A/B comparison. Retries are off
	// then, so that the rounds pair up.
	Against Measurer
	// Self, when not nil, measures this build's side in a worker process
	// too (the same binary, see [Remote]), so that the two sides of an A/B
	// comparison run alike: same process layout, heap and scheduling. The
	// Runner then only prepares, calibrates and orders.
	Self Measurer

	// now, memStats and cpu are the clock, the allocation counters and
	// the thread CPU clock (ns, and whether available), replaced in
	// tests; nil means time.Now, runtime.ReadMemStats and the OS thread's
	// clock (Linux only).
	now      func() time.Time
	memStats func(*runtime.MemStats)
	cpu      func() (int64, bool)
}

// Outcome is what a Runner measured.
type Outcome struct {
	Results     []Result // one per variant measured, in the order given
	Against     []Result // the same variants measured by Runner.Against, or nil
	Calibration *Result  // the calibration workload (see [CalibrationVariant]), measured in every round
}

// abIterations is the fewest iterations of a visit in an A/B run, each of
// a third of the revolutions, the two builds' alternating (ABABAB or
// BABABA): a comparison takes the best of each round on each side
// ([Result.RoundBests]), which a preemption hitting one iteration does not
// move.
const abIterations = 3

// maxRevs bounds calibrated revolutions.
const maxRevs = 1_000_000_000

// RoundOrder returns the order in which round visits n variants: a
// permutation of 0..n-1 drawn from a PCG generator seeded with (seed,
// round), so that a stored run's seed reproduces its orders.
func RoundOrder(seed uint64, round, n int) []int {
	return rand.New(rand.NewPCG(seed, uint64(round))).Perm(n)
}

// NewSeed returns a random seed for [RoundOrder].
func NewSeed() uint64 { return rand.Uint64() }

// Run prepares every variant, then measures them in rounds. It stops at
// the first variant that cannot be prepared or whose operation fails,
// returning an error naming the variant. When ctx is done it stops between
// two iterations and returns what was measured in the rounds completed by
// every variant (none before the first round ends), with an error
// wrapping ctx.Err().
func (r *Runner) Run(ctx context.Context, variants []Variant) (*Outcome, error) {
	if r.Prepare == nil {
		return nil, errors.New("bench: no preparer")
	}
	c := r.Config
	rounds := max(c.Rounds, 1)
	n := len(variants)
	if r.Progress != nil {
		r.Progress.Start(n * (rounds + 1))
		defer r.Progress.Finish()
	}
	// The iterations run on one OS thread, whose CPU time they read: on a
	// machine shared with other work it moves much less than wall time.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	ops := make([]Op, n)
	out := &Outcome{Results: make([]Result, n)}
	if r.Against != nil {
		out.Against = make([]Result, n)
	}
	for i := range variants {
		v := &variants[i]
		if r.Progress != nil {
			r.Progress.Variant(i, v)
		}
		op, revs, err := r.prepare(v)
		if err != nil {
			return nil, fmt.Errorf("bench: %s: %w", v.ID(), err)
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("bench: interrupted before the first round: %w", ctx.Err())
		}
		ops[i] = op
		if r.Against != nil {
			// abIterations shorter iterations a visit, alternating.
			revs = max(revs/abIterations, 1)
		}
		out.Results[i] = Result{Variant: *v, Revs: revs}
		if r.Against != nil {
			out.Against[i] = Result{Variant: *v, Revs: revs}
		}
		if r.Parallel > 1 {
			out.Results[i].Parallel = &Throughput{Goroutines: r.Parallel}
		}
	}
	cal := &Result{Variant: CalibrationVariant(), Revs: calibrationRevs}
	runtime.GC()

	done := 0 // rounds completed by every variant
	phase := ""
	interrupted := func() (*Outcome, error) {
		for i := range out.Results {
			out.Results[i].keepRounds(done)
			if out.Against != nil {
				out.Against[i].keepRounds(done)
			}
		}
		cal.keepRounds(done)
		if done == 0 {
			out = &Outcome{}
		} else {
			out.summarize(cal)
		}
		return out, fmt.Errorf("bench: interrupted%s after %d of %d rounds: %w", phase, done, rounds, ctx.Err())
	}
	step := n
	for round := range rounds {
		if err := r.visitCalibration(cal, round); err != nil {
			return nil, err
		}
		for j, i := range RoundOrder(r.Seed, round, n) {
			if ctx.Err() != nil {
				return interrupted()
			}
			res := &out.Results[i]
			if r.Progress != nil {
				r.Progress.Variant(step, &variants[i])
			}
			var other *Result
			if out.Against != nil {
				other = &out.Against[i]
			}
			// Alternate which build goes first, so that neither is
			// always the one measured on warm caches.
			first := (round+j)%2 == 0
			if err := r.visit(ops[i], res, other, i, round, first); err != nil {
				if ctx.Err() != nil {
					// The interrupt also ended a worker (the other
					// build, or this one's) in the middle of the visit.
					return interrupted()
				}
				return nil, fmt.Errorf("bench: %s: %w", res.ID(), err)
			}
			if round == rounds-1 && r.Progress != nil {
				res.summarize()
				r.Progress.Done(step, res)
			}
			step++
		}
		done++
	}
	if r.Against == nil {
		if err := r.retry(ctx, ops, out.Results, rounds); err != nil {
			if ctx.Err() != nil {
				phase = " during the retries,"
				return interrupted()
			}
			return nil, err
		}
	}
	out.summarize(cal)
	return out, nil
}

func (o *Outcome) summarize(cal *Result) {
	for i := range o.Results {
		o.Results[i].summarize()
	}
	for i := range o.Against {
		o.Against[i].summarize()
	}
	cal.summarize()
	o.Calibration = cal
}

// prepare makes the operation of v and calibrates its revolutions.
func (r *Runner) prepare(v *Variant) (Op, int, error) {
	op, err := r.Prepare(v)
	if err != nil {
		return nil, 0, err
	}
	revs := int(r.Config.Revs)
	if r.Config.Revs == Auto {
		if revs, err = r.calibrate(op, time.Duration(r.Config.Time)); err != nil {
			return nil, 0, err
		}
	}
	return op, revs, nil
}

// visit measures one variant in one round: the iterations of this
// process, those of the other build (first says which goes first) and the
// throughput with Parallel goroutines.
func (r *Runner) visit(op Op, res, other *Result, i, round int, first bool) error {
	local := func() error {
		var it Iteration
		if r.Self != nil {
			its, err := r.Self.Measure(i, res.Revs, 1)
			if err != nil {
				return err
			}
			it = its[0]
		} else {
			var err error
			if it, err = r.iteration(op, res.Revs); err != nil {
				return err
			}
		}
		it.Round = round
		res.Iterations = append(res.Iterations, it)
		return nil
	}
	remote := func() error {
		its, err := r.Against.Measure(i, res.Revs, 1)
		if err != nil {
			return fmt.Errorf("the other build: %w", err)
		}
		its[0].Round = round
		other.Iterations = append(other.Iterations, its[0])
		return nil
	}
	// With another build, the iterations of the two alternate (ABAB, or
	// BABA), so that each pair is measured as close in time as possible.
	steps := []func() error{local}
	if other != nil {
		steps = []func() error{local, remote}
		if !first {
			steps = []func() error{remote, local}
		}
	}
	n := r.Config.Iterations
	if other != nil {
		n = max(n, abIterations)
	}
	for range n {
		for _, f := range steps {
			if err := f(); err != nil {
				return err
			}
		}
	}
	if res.Parallel != nil {
		ops, err := r.parallel(op, res.Revs, res.Parallel.Goroutines)
		if err != nil {
			return fmt.Errorf("with %d goroutines: %w", res.Parallel.Goroutines, err)
		}
		res.Parallel.OpsPerSec = append(res.Parallel.OpsPerSec, ops)
	}
	return nil
}

// deviant reports whether iteration it is to be re-run: its time deviates
// from the median by at least threshold percent (phpbench's rule), or,
// where the thread CPU time is measured, its wall time exceeds that CPU
// time by at least threshold percent: the thread was descheduled while
// other work ran, so the wall time is partly someone else's.
func deviant(it Iteration, median, threshold float64) bool {
	if math.Abs(stats.Deviation(median, it.Time)) >= threshold {
		return true
	}
	return it.CPU > 0 && stats.Deviation(it.CPU, it.Time) >= threshold
}

// retry applies phpbench's retry_threshold once every round is done:
// deviant iterations (see [deviant]) are re-run, in passes over the
// variants in shuffled order, until none deviates or each variant has
// reached the limit of rejects; then the iterations still descheduled are
// dropped within what is left of the limit (see [dropDescheduled]). As a
// descheduled iteration also deviates, one still there after the passes
// means its variant reached the limit, so a run made by this runner drops
// nothing: the limit, which counts re-runs and drops together, is spent on
// re-runs, and runner.warn_kept_below fires only for a run made by
// another runner (an interrupted run keeps every iteration of the rounds
// it completed, and [Run.SamplesOf] counts only those).
// The deviation is from the median, not the mean as in phpbench: one
// outlier drags the mean so far that every iteration would deviate from it
// and be re-run. A re-run iteration keeps the round it replaces. When ctx
// is done it stops after the current iteration and returns ctx.Err().
func (r *Runner) retry(ctx context.Context, ops []Op, results []Result, rounds int) error {
	c := r.Config
	if c.RetryThreshold <= 0 {
		return nil
	}
	for pass := range c.RetryLimit {
		retried := false
		for _, i := range RoundOrder(r.Seed, rounds+pass, len(results)) {
			res := &results[i]
			if len(res.Iterations) < 2 {
				continue
			}
			median := stats.Median(res.Times())
			for k := range res.Iterations {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				if res.Rejects >= c.RetryLimit {
					break
				}
				if !deviant(res.Iterations[k], median, c.RetryThreshold) {
					continue
				}
				it, err := r.iteration(ops[i], res.Revs)
				if err != nil {
					return fmt.Errorf("bench: %s: %w", res.ID(), err)
				}
				it.Round = res.Iterations[k].Round
				res.Iterations[k] = it
				res.Rejects++
				retried = true
			}
		}
		if !retried {
			break
		}
	}
	for i := range results {
		dropDescheduled(&results[i], c.RetryThreshold, c.RetryLimit-results[i].Rejects)
	}
	return nil
}

// dropDescheduled rejects, without re-running them, the iterations of res
// still descheduled after the retries (wall time at least threshold %
// above the thread CPU time): their time is partly other work's, not a
// measurement of the variant. It drops at most half the iterations, the
// most disturbed ones (by wall over CPU time): on a machine so busy that
// more were disturbed, the least disturbed half is what it can measure;
// and at most room, what is left of the variant's retry limit.
func dropDescheduled(res *Result, threshold float64, room int) {
	waited := func(it Iteration) float64 {
		if it.CPU <= 0 {
			return 0
		}
		return stats.Deviation(it.CPU, it.Time)
	}
	var idx []int
	for i, it := range res.Iterations {
		if waited(it) >= threshold {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 || room <= 0 {
		return
	}
	// The most disturbed first; drop no more than half.
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(waited(res.Iterations[b]), waited(res.Iterations[a])) })
	idx = idx[:max(min(len(idx), len(res.Iterations)/2, room), 0)]
	drop := make(map[int]bool, len(idx))
	for _, i := range idx {
		drop[i] = true
	}
	kept := res.Iterations[:0]
	for i, it := range res.Iterations {
		if !drop[i] {
			kept = append(kept, it)
		}
	}
	res.Iterations = kept
	res.Rejects += len(idx)
}

func (r *Runner) clock() time.Time {
	if r.now != nil {
		return r.now()
	}
	return time.Now()
}

func (r *Runner) threadCPU() (int64, bool) {
	if r.cpu != nil {
		return r.cpu()
	}
	return threadCPU()
}

func (r *Runner) readMemStats(m *runtime.MemStats) {
	if r.memStats != nil {
		r.memStats(m)
		return
	}
	runtime.ReadMemStats(m)
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
		start := r.clock()
		for range n {
			if err := op(); err != nil {
				return 0, err
			}
		}
		d := r.clock().Sub(start)
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
	r.readMemStats(&m0)
	cpu0, cpuOK := r.threadCPU()
	start := r.clock()
	for range revs {
		if err := op(); err != nil {
			return Iteration{}, err
		}
	}
	d := r.clock().Sub(start)
	cpu1, _ := r.threadCPU()
	r.readMemStats(&m1)
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

// parallel runs revs revolutions of op spread over n goroutines started
// together and returns the operations per second of them all.
func (r *Runner) parallel(op Op, revs, n int) (float64, error) {
	per := max(revs/n, 1)
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	gate := make(chan struct{})
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			for range per {
				if err := op(); err != nil {
					once.Do(func() { first = err })
					return
				}
			}
		}()
	}
	start := r.clock()
	close(gate)
	wg.Wait()
	d := r.clock().Sub(start)
	if first != nil {
		return 0, first
	}
	if d <= 0 {
		return 0, nil
	}
	return float64(per*n) / d.Seconds(), nil
}
