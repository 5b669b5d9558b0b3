package report

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/josebench/josebench/bench"
)

// coverageRuns returns two stored runs of nine variants, 50 rounds of one
// iteration each, as a shared machine makes them: each run has its own
// machine level (0.8 to 1.3, the calibration workload's too, with 2% of
// its own), each variant its own run-to-run drift (tau, standard
// deviation of the log) and round-to-round noise (2% to 8%, one round in
// ten preempted by 20 to 50%). The run's variant i is slower by change[i]
// beyond that.
func coverageRuns(rng *rand.Rand, vs []bench.Variant, tau float64, change []float64) (run, ref *bench.Run) {
	return coverageRunsOf(rng, 50, vs, tau, change)
}

// coverageRunsOf is coverageRuns with the rounds given.
func coverageRunsOf(rng *rand.Rand, rounds int, vs []bench.Variant, tau float64, change []float64) (run, ref *bench.Run) {
	return phaseRuns(rng, rounds, vs, tau, change, 0)
}

// phaseRuns is coverageRunsOf where, in each run, each variant with
// probability phases is also caught in a phase of the machine: 30 to 70%
// of its rounds, in a row, 15 to 50% slower, as other work on a shared
// machine slows one algorithm family for a while and not the others.
func phaseRuns(rng *rand.Rand, rounds int, vs []bench.Variant, tau float64, change []float64, phases float64) (run, ref *bench.Run) {
	noise := make([]float64, len(vs))
	for i := range noise {
		noise[i] = 0.02 + 0.06*rng.Float64()
	}
	mk := func(id string, change []float64) *bench.Run {
		machine := 0.8 + 0.5*rng.Float64()
		r := &bench.Run{ID: id, Config: bench.DefaultConfig()}
		for i, v := range vs {
			res := bench.Result{Variant: v, Revs: 100}
			level := 1000 * float64(i+1) * machine * math.Exp(tau/math.Sqrt2*rng.NormFloat64()) * change[i]
			from, to, slow := 0, 0, 1.0
			if phases > 0 && rng.Float64() < phases {
				n := int(float64(rounds) * (0.3 + 0.4*rng.Float64()))
				from = rng.IntN(rounds - n + 1)
				to, slow = from+n, 1.15+0.35*rng.Float64()
			}
			for k := range rounds {
				x := level * math.Exp(noise[i]*rng.NormFloat64())
				if rng.IntN(10) == 0 {
					x *= 1.2 + 0.3*rng.Float64()
				}
				if k >= from && k < to {
					x *= slow
				}
				res.Iterations = append(res.Iterations, bench.Iteration{Round: k, Time: x})
			}
			r.Results = append(r.Results, res)
		}
		r.Calibration = &bench.Result{Variant: bench.CalibrationVariant(), Revs: 170}
		cal := 6000 * machine * math.Exp(0.02*rng.NormFloat64())
		for k := range rounds {
			for range 3 {
				r.Calibration.Iterations = append(r.Calibration.Iterations, bench.Iteration{Round: k, Time: cal * math.Exp(0.03*rng.NormFloat64())})
			}
		}
		return r
	}
	same := make([]float64, len(vs))
	for i := range same {
		same[i] = 1
	}
	return mk(reportRunID, change), mk(reportRefID, same)
}

func nineVariants(t *testing.T) []bench.Variant {
	t.Helper()
	var vs []bench.Variant
	for _, g := range []string{"HS256", "ES256", "EdDSA"} {
		sel, err := bench.Select(bench.DefaultConfig().Measure, []string{g})
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, sel...)
	}
	if len(vs) != 9 {
		t.Fatalf("%d variants", len(vs))
	}
	return vs
}

// The interval of a comparison between stored runs has the coverage it
// claims: over 1000 pairs of runs of identical code, with the machine's
// drift common to the run, each variant's own drift and round-to-round
// noise with preemptions, a 95% interval excludes 0 for about 5% of the
// variants (not 1%: too wide, it would cost detection; not 10%: too
// narrow, it would call noise a change); and a variant 40% slower among
// nine is detected, and flagged by --fail-slower 10, nearly always.
func TestCompareCoverage(t *testing.T) {
	vs := nineVariants(t)
	same := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1}
	slow := []float64{1, 1, 1, 1.4, 1, 1, 1, 1, 1}
	for _, tau := range []float64{0.01, 0.03} {
		rng := rand.New(rand.NewPCG(21, uint64(tau*1000)))
		const trials = 1000
		miss, total, nc, alarms := 0, 0, 0, 0
		for range trials {
			run, ref := coverageRuns(rng, vs, tau, same)
			// The interval itself (no change too small to detect):
			ds, _ := CompareFor(run, ref, MetricTime, 0, 1e6)
			for _, d := range ds {
				total++
				if !d.Interval.Contains(1) {
					miss++
				}
			}
			// --fail-slower 10: the same intervals, those too wide to
			// show 10% not comparable.
			ds, _ = CompareFor(run, ref, MetricTime, 0, 10)
			for _, d := range ds {
				if d.NotComparable != "" {
					nc++
				}
			}
			alarms += len(Slower(ds, 10))
		}
		rate := float64(miss) / float64(total)
		t.Logf("tau %.0f%%, identical code: %d of %d intervals exclude 0 (%.1f%%), %d not comparable, %d flagged", tau*100, miss, total, rate*100, nc, alarms)
		if rate < 0.035 || rate > 0.07 {
			t.Errorf("tau %.0f%%, identical code: %.1f%% of intervals exclude 0, want about 5%%", tau*100, rate*100)
		}
		// With 1% drift the intervals are narrow enough to show 10%;
		// with 3% and the noisiest variants (8% a round) they are not,
		// and those are not comparable (TestCompareTooNoisy).
		if tau < 0.02 && nc > total/100 || alarms > 2 {
			t.Errorf("tau %.0f%%, identical code: %d not comparable, %d flagged by --fail-slower 10", tau*100, nc, alarms)
		}
		detected, flagged := 0, 0
		for range trials {
			run, ref := coverageRuns(rng, vs, tau, slow)
			ds := Compare(run, ref, MetricTime, 0)
			if d := ds[3]; !d.Noise && d.Interval.Lo > 1 {
				detected++
			}
			if s := Slower(ds, 10); len(s) == 1 && s[0].ID == ds[3].ID {
				flagged++
			}
		}
		t.Logf("tau %.0f%%, one variant 40%% slower: detected %d, flagged alone %d of %d", tau*100, detected, flagged, trials)
		if detected < trials*99/100 || flagged < trials*97/100 {
			t.Errorf("tau %.0f%%, one variant 40%% slower: detected %d, flagged alone %d of %d", tau*100, detected, flagged, trials)
		}
	}
}

// A change of the code that every variant shares (a slower encoder under
// all of them) looks like the machine's, but the calibration workload,
// measured in the same rounds, does not show it: beyond the change to
// detect, the variants within it of the common change are not comparable
// rather than "~" (before, every variant of a build 20% slower in all nine
// came out "~"), while one slower still beyond it is flagged; within the
// change to detect, the common change is divided out as before.
func TestCompareSharedChange(t *testing.T) {
	vs := nineVariants(t)
	all := func(f float64) []float64 {
		c := make([]float64, len(vs))
		for i := range c {
			c[i] = f
		}
		return c
	}
	rng := rand.New(rand.NewPCG(31, 32))
	const trials = 200
	silent, shared, flagged := 0, 0, 0
	for range trials {
		change := all(1.2)
		change[3] = 1.2 * 1.4
		run, ref := coverageRuns(rng, vs, 0.01, change)
		ds, dr := CompareFor(run, ref, MetricTime, 0, 10)
		if dr.Shared != "" && dr.NotComparable == "" {
			shared++
		}
		for i, d := range ds {
			if i != 3 && d.Found && d.NotComparable == "" && d.Noise {
				silent++
			}
		}
		if s := Slower(ds, 10); len(s) == 1 && s[0].ID == ds[3].ID {
			flagged++
		}
	}
	if shared < trials*99/100 || silent > trials*len(vs)/100 || flagged < trials*97/100 {
		t.Errorf("every variant +20%%, one +68%%: shared change in %d of %d pairs, %d variants ~, the +68%% flagged alone in %d", shared, trials, silent, flagged)
	}
	shared = 0
	for range trials {
		run, ref := coverageRuns(rng, vs, 0.01, all(1.03))
		if _, dr := CompareFor(run, ref, MetricTime, 0, 10); dr.NotComparable != "" || dr.Shared != "" {
			shared++
		}
	}
	if shared > trials/20 {
		t.Errorf("every variant +3%%: %d of %d pairs not comparable", shared, trials)
	}
}

// With 5 or 6 variants (the fewest the common change is taken from), the
// interval still has about its coverage: Student's t for 3 or 4 degrees
// of freedom widens it for the drift estimated from 4 or 5 others.
func TestCompareCoverageFewVariants(t *testing.T) {
	vs9 := nineVariants(t)
	for _, n := range []int{5, 6} {
		vs := vs9[:n]
		same := make([]float64, n)
		for i := range same {
			same[i] = 1
		}
		rng := rand.New(rand.NewPCG(7, uint64(n)))
		miss, total := 0, 0
		for range 400 {
			run, ref := coverageRuns(rng, vs, 0.03, same)
			ds, dr := CompareFor(run, ref, MetricTime, 0, 1e6)
			if !dr.FromVariants || dr.NotComparable != "" {
				t.Fatalf("%d variants: %+v", n, dr)
			}
			for _, d := range ds {
				total++
				if !d.Interval.Contains(1) {
					miss++
				}
			}
		}
		if rate := float64(miss) / float64(total); rate < 0.03 || rate > 0.08 {
			t.Errorf("%d variants: %.1f%% of intervals exclude 0", n, rate*100)
		}
	}
}

// One variant ten times slower is left out of the common change: it
// alone is flagged, the others' intervals are exactly those of the runs
// without it; and a
// run compared with itself comes out unchanged, finite, every variant ~.
func TestCompareHugeOutlierAndSelf(t *testing.T) {
	vs := nineVariants(t)
	rng := rand.New(rand.NewPCG(9, 9))
	all := 0
	for range 100 {
		run, ref := coverageRuns(rng, vs, 0.01, []float64{1, 1, 1, 1, 1, 1, 1, 1, 10})
		ds, dr := CompareFor(run, ref, MetricTime, 0, 10)
		if s := Slower(ds, 10); dr.NotComparable != "" || dr.Kept > 8 || len(s) != 1 || s[0].ID != ds[8].ID {
			t.Fatalf("x10: kept %d, %q, Slower %+v", dr.Kept, dr.NotComparable, s)
		}
		if dr.Kept < 8 { // another left out too (5% off with 1% drift)
			continue
		}
		all++
		// The others' intervals are those of the runs without it.
		run.Results, ref.Results = run.Results[:8], ref.Results[:8]
		without, _ := CompareFor(run, ref, MetricTime, 0, 10)
		for i, d := range ds[:8] {
			if w := without[i]; d.Interval != w.Interval || d.NotComparable != w.NotComparable {
				t.Fatalf("x10: %s: %+v, without it %+v", d.ID, d, w)
			}
		}
	}
	if all < 80 {
		t.Errorf("x10: the other eight all kept in %d of 100", all)
	}
	run, _ := coverageRuns(rng, vs, 0.01, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1})
	ds, dr := CompareFor(run, run, MetricTime, 0, 10)
	if dr.NotComparable != "" || dr.Shared != "" || dr.Common != 1 {
		t.Errorf("self: %+v", dr)
	}
	for _, d := range ds {
		if !d.Noise || d.NotComparable != "" || d.Ratio != 1 || d.Interval.Lo != 1 || d.Interval.Hi != 1 {
			t.Errorf("self: %+v", d)
		}
	}
}

// With 200 rounds a side (runner.ref_rounds), a comparison between stored
// runs compares the 2nd percentiles of the rounds: on the model of
// TestCompareCoverage, its 95% interval excludes 0 for 2 to 7% of the
// variants of identical code (about 3.7% with 1% drift, where the
// order-statistic intervals of round noise dominate and err wide; about
// 6.7% with 3%), flags none, and flags a variant 40% slower alone nearly
// always. With 174 rounds the 2nd percentile's interval cannot reach
// 95% (it covers 94.6%) and the paired median is compared instead.
func TestCompareCoverageQuantile(t *testing.T) {
	vs := nineVariants(t)
	same := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1}
	slow := []float64{1, 1, 1, 1.4, 1, 1, 1, 1, 1}
	for _, tt := range []struct {
		rounds int
		want   float64
	}{{174, 0}, {175, refQuantile}} {
		run, ref := coverageRunsOf(rand.New(rand.NewPCG(1, 2)), tt.rounds, vs, 0.01, same)
		for _, d := range Compare(run, ref, MetricTime, 0) {
			if d.Quantile != tt.want {
				t.Fatalf("%d rounds: %s compared quantile %v, want %v", tt.rounds, d.ID, d.Quantile, tt.want)
			}
		}
	}
	for _, tau := range []float64{0.01, 0.03} {
		rng := rand.New(rand.NewPCG(22, uint64(tau*1000)))
		const trials = 300
		miss, total, alarms, flagged := 0, 0, 0, 0
		for range trials {
			run, ref := coverageRunsOf(rng, 200, vs, tau, same)
			ds, _ := CompareFor(run, ref, MetricTime, 0, 1e6)
			for _, d := range ds {
				total++
				if !d.Interval.Contains(1) {
					miss++
				}
			}
			alarms += len(Slower(Compare(run, ref, MetricTime, 0), 10))
			run, ref = coverageRunsOf(rng, 200, vs, tau, slow)
			ds = Compare(run, ref, MetricTime, 0)
			if s := Slower(ds, 10); len(s) == 1 && s[0].ID == ds[3].ID {
				flagged++
			}
		}
		rate := float64(miss) / float64(total)
		t.Logf("tau %.0f%%, 200 rounds: %d of %d intervals exclude 0 (%.1f%%), %d flagged; 40%% slower flagged alone in %d of %d", tau*100, miss, total, rate*100, alarms, flagged, trials)
		if rate < 0.02 || rate > 0.07 || alarms > 1 || flagged < trials*99/100 {
			t.Errorf("tau %.0f%%, 200 rounds: %.1f%% of intervals exclude 0, %d flagged; 40%% slower flagged alone in %d of %d", tau*100, rate*100, alarms, flagged, trials)
		}
	}
}

// What the 2nd percentile is for: in phases of a shared machine, where
// one variant of a run has 30 to 70% of its rounds 15 to 50% slower (a
// fifth of the variants of each run), the median of paired ratios calls
// identical code slower in about a quarter of the pairs of runs and
// misses a 40% slowdown in about a third; the 2nd percentiles, of rounds
// the phase left alone, flag neither.
func TestComparePhases(t *testing.T) {
	vs := nineVariants(t)
	same := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1}
	slow := []float64{1, 1, 1, 1.4, 1, 1, 1, 1, 1}
	const trials = 300
	for _, tt := range []struct {
		name            string
		e               estimator
		alarms, flagged func(int) bool
	}{
		{"median of paired ratios", estimator{cut: outlierCutDefault},
			func(n int) bool { return n >= trials/10 }, func(n int) bool { return n <= trials*9/10 }},
		{"2nd percentiles", defaultEstimator,
			func(n int) bool { return n <= 1 }, func(n int) bool { return n >= trials*99/100 }},
	} {
		rng := rand.New(rand.NewPCG(5, 6))
		alarms, flagged := 0, 0
		for range trials {
			run, ref := phaseRuns(rng, 200, vs, 0.01, same, 0.2)
			if ds, _ := tt.e.compare(run, ref, MetricTime, 0, 10); len(Slower(ds, 10)) > 0 {
				alarms++
			}
			run, ref = phaseRuns(rng, 200, vs, 0.01, slow, 0.2)
			ds, _ := tt.e.compare(run, ref, MetricTime, 0, 10)
			if s := Slower(ds, 10); len(s) == 1 && s[0].ID == ds[3].ID {
				flagged++
			}
		}
		t.Logf("%s: identical code flagged in %d of %d pairs, 40%% slower flagged alone in %d", tt.name, alarms, trials, flagged)
		if !tt.alarms(alarms) || !tt.flagged(flagged) {
			t.Errorf("%s: identical code flagged in %d of %d pairs, 40%% slower flagged alone in %d", tt.name, alarms, trials, flagged)
		}
	}
}

// The note of a comparison between stored runs says which statistic each
// variant's change is of.
func TestComparedOf(t *testing.T) {
	q, m := Delta{Found: true, Quantile: 0.02}, Delta{Found: true}
	for _, tt := range []struct {
		ds   []Delta
		want string
	}{
		{[]Delta{m, {}}, "the median of the ratios of the rounds paired in order (the best iteration of each; sign-test interval)"},
		{[]Delta{q, q, {}}, "the ratio of the 2nd percentiles of the rounds (the best iteration of each; order-statistic intervals)"},
	} {
		if got := comparedOf(tt.ds); got != tt.want {
			t.Errorf("comparedOf: %q, want %q", got, tt.want)
		}
	}
	for x, want := range map[float64]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 21: "21st", 2.5: "2.5th"} {
		if got := ordinal(x); got != want {
			t.Errorf("ordinal(%v) = %q, want %q", x, got, want)
		}
	}
	// A real comparison of 200 rounds a side notes the 2nd percentiles.
	run, ref := coverageRunsOf(rand.New(rand.NewPCG(7, 8)), 200, nineVariants(t), 0.01, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1})
	ds, _ := CompareFor(run, ref, MetricTime, 0, 10)
	if got := comparedOf(ds); got != "the ratio of the 2nd percentiles of the rounds (the best iteration of each; order-statistic intervals)" {
		t.Errorf("200 rounds: %q", got)
	}
}

// One round of a variant far faster than its others (a timer glitch)
// moves its 2nd percentile by one rank, and must not move its interval
// much more: on the model of TestCompareCoverageQuantile, with the 17th
// round of the run's fourth variant at 0.7, 0.5 or 0.1 times its time,
// a 25% regression of that variant is still flagged alone by
// --fail-slower 10 nearly always (with the fastest round as the bound of
// the standard error it was not comparable, too noisy, in 230, 298 and
// 300 of 300 pairs, so --fail-slower passed), and identical code is
// flagged in none.
func TestCompareQuantilesFastRound(t *testing.T) {
	vs := nineVariants(t)
	same := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1}
	slow := []float64{1, 1, 1, 1.25, 1, 1, 1, 1, 1}
	const trials = 300
	for _, g := range []float64{0.7, 0.5, 0.1} {
		rng := rand.New(rand.NewPCG(5, 6))
		alarms, flagged := 0, 0
		for range trials {
			run, ref := coverageRunsOf(rng, 200, vs, 0.01, same)
			run.Results[3].Iterations[17].Time *= g
			alarms += len(Slower(Compare(run, ref, MetricTime, 0), 10))
			run, ref = coverageRunsOf(rng, 200, vs, 0.01, slow)
			run.Results[3].Iterations[17].Time *= g
			ds := Compare(run, ref, MetricTime, 0)
			if ds[3].Quantile != refQuantile {
				t.Fatalf("%+v", ds[3])
			}
			if s := Slower(ds, 10); len(s) == 1 && s[0].ID == ds[3].ID {
				flagged++
			}
		}
		t.Logf("one round x%v: identical code flagged %d, 25%% slower flagged alone in %d of %d", g, alarms, flagged, trials)
		if alarms > 1 || flagged < trials*95/100 {
			t.Errorf("one round x%v: identical code flagged %d, 25%% slower flagged alone in %d of %d", g, alarms, flagged, trials)
		}
	}
}

// compareQuantiles on rounds of known order statistics: the ratio of the
// 2nd percentiles, Cur and Ref those percentiles, and an interval whose
// log half width is the normal quantile times the root sum of squares of
// the two standard errors, each the log half width of the ranks
// [x(2), x(9)] of 200 rounds over the normal quantile of their coverage.
func TestCompareQuantilesExact(t *testing.T) {
	res := func(scale float64, n int) *bench.Result {
		r := &bench.Result{Variant: bench.CalibrationVariant(), Revs: 1}
		for k := range n {
			// rounds in shuffled order: the comparison sorts them
			r.Iterations = append(r.Iterations, bench.Iteration{Round: k, Time: scale * float64(1000+(k*77)%n)})
		}
		return r
	}
	run, ref := res(3, 200), res(2, 200)
	d := defaultEstimator.compareRuns(run, ref, MetricTime, 0)
	// Over 1000..1199: the 2nd percentile 1000 + 0.02·199 = 1003.98.
	qx, qy := 3*1003.98, 2*1003.98
	// P(2 <= B < 9), B binomial(200, 0.02).
	pmf := func(k int) float64 {
		lc, _ := math.Lgamma(201)
		a, _ := math.Lgamma(float64(k + 1))
		b, _ := math.Lgamma(float64(201 - k))
		return math.Exp(lc - a - b + float64(k)*math.Log(0.02) + float64(200-k)*math.Log(0.98))
	}
	cover := 0.0
	for k := 2; k < 9; k++ {
		cover += pmf(k)
	}
	se := math.Log(1008.0/1001) / 2 / (math.Sqrt2 * math.Erfinv(cover)) // the same on both sides
	h := 1.959963984540054 * math.Sqrt(2*se*se)
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Abs(b) }
	if !d.Found || d.Quantile != refQuantile || !near(d.Cur, qx) || !near(d.Ref, qy) || d.Pairs != 200 ||
		!near(d.Ratio, 1.5) || !near(d.Percent, 50) || d.TooFew || d.Noise ||
		!near(d.Interval.Lo, 1.5*math.Exp(-h)) || !near(d.Interval.Hi, 1.5*math.Exp(h)) || d.Interval.Confidence != 0.95 {
		t.Errorf("200 rounds: %+v, want ratio 1.5 in [%v, %v]", d, 1.5*math.Exp(-h), 1.5*math.Exp(h))
	}
	// The sides' rounds need not be as many: Pairs is the fewer.
	if d := defaultEstimator.compareRuns(res(3, 300), ref, MetricTime, 0); d.Quantile != refQuantile || d.Pairs != 200 {
		t.Errorf("300 and 200 rounds: %+v", d)
	}
}

// A comparison where one variant has too few rounds for the 2nd
// percentile (170 of 200: --rounds 180 and rounds dropped) and the others
// enough compares every variant by the paired median: in a run whose
// rounds were slowed by 30% in 7 of 10 (other work on the machine,
// calibration workload too), the medians moved by 30% and the 2nd
// percentiles did not, and mixed, the variant compared by its median was
// flagged 30% slower (in 50 of 50 pairs of runs). With every variant at
// 200 rounds, the 2nd percentiles, and nothing flagged.
func TestCompareMixedRounds(t *testing.T) {
	vs := nineVariants(t)
	same := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1}
	load := func(r *bench.Result) {
		for k := range r.Iterations {
			if r.Iterations[k].Round%10 >= 3 {
				r.Iterations[k].Time *= 1.3
			}
		}
	}
	rng := rand.New(rand.NewPCG(11, 12))
	const trials = 50
	flagged := 0
	for range trials {
		run, ref := coverageRunsOf(rng, 200, vs, 0.01, same)
		for i := range run.Results {
			load(&run.Results[i])
		}
		load(run.Calibration)
		ds, dr := CompareFor(run, ref, MetricTime, 0, 10)
		for _, d := range ds {
			if d.Quantile != refQuantile {
				t.Fatalf("200 rounds: %s compared quantile %v", d.ID, d.Quantile)
			}
		}
		if s := Slower(ds, 10); len(s) > 0 || dr.NotComparable != "" {
			t.Fatalf("200 rounds: flagged %+v, %q", s, dr.NotComparable)
		}
		r := &run.Results[3]
		r.Iterations = slices.DeleteFunc(r.Iterations, func(it bench.Iteration) bool { return it.Round >= 170 })
		ds, dr = CompareFor(run, ref, MetricTime, 0, 10)
		for _, d := range ds {
			if d.Quantile != 0 {
				t.Fatalf("one variant of 170 rounds: %s compared quantile %v, want the paired median", d.ID, d.Quantile)
			}
		}
		if dr.Calibration.Quantile != 0 {
			t.Fatalf("one variant of 170 rounds: the calibration compared quantile %v", dr.Calibration.Quantile)
		}
		for _, d := range Slower(ds, 10) {
			if d.ID == ds[3].ID {
				flagged++
			}
		}
	}
	if flagged > 1 {
		t.Errorf("one variant of 170 rounds, the others 200: it was flagged in %d of %d pairs", flagged, trials)
	}
	// The calibration workload of 170 rounds (measured with the
	// variants' common change, and in their place with fewer than 5):
	// the paired median too.
	run, ref := coverageRunsOf(rng, 200, vs, 0.01, same)
	c := run.Calibration
	c.Iterations = slices.DeleteFunc(c.Iterations, func(it bench.Iteration) bool { return it.Round >= 170 })
	ds, dr := CompareFor(run, ref, MetricTime, 0, 10)
	if !dr.Calibrated || dr.Calibration.Quantile != 0 || ds[0].Quantile != 0 {
		t.Errorf("calibration of 170 rounds: it compared quantile %v, the first variant %v; want the paired median", dr.Calibration.Quantile, ds[0].Quantile)
	}
}

// A variant the reference lacks, or whose rounds one side lacks (NoData),
// is not compared and does not count for the all-or-nothing rule of
// TestCompareMixedRounds: the others, of 200 rounds, still compare their
// 2nd percentiles (a rule that counted it as compared by the paired median
// would have made every variant fall back whenever a variant was added).
func TestCompareMixedRoundsMissing(t *testing.T) {
	run, ref := coverageRunsOf(rand.New(rand.NewPCG(13, 14)), 200, nineVariants(t), 0.01, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1})
	ref.Results = ref.Results[:8]   // the reference lacks the last variant
	run.Results[5].Iterations = nil // the run lacks the rounds of the sixth
	ds, dr := CompareFor(run, ref, MetricTime, 0, 10)
	for i, d := range ds {
		switch {
		case i == 8 && (d.Found || d.NoData), i == 5 && (d.Found || !d.NoData):
			t.Errorf("%d: %+v, want not found", i, d)
		case i != 8 && i != 5 && (!d.Found || d.Quantile != refQuantile):
			t.Errorf("%d: %+v, want the 2nd percentiles", i, d)
		}
	}
	if !dr.Calibrated || dr.Calibration.Quantile != refQuantile || dr.Variants != 7 {
		t.Errorf("drift %+v, want the calibration's 2nd percentiles and 7 variants", dr)
	}
}
