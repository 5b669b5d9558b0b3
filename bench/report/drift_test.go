package report

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/josebench/josebench/bench"
)

// driftRuns returns two stored runs (not A/B) of the nine variants of
// HS256, ES256 and EdDSA, 50 rounds of one iteration each, with 3%
// noise per round. The run's variant i is slower than the reference's by
// machine (the common change of the machine, also the calibration
// workload's change) times change[i] (the code's).
func driftRuns(t *testing.T, rng *rand.Rand, machine float64, change []float64) (run, ref *bench.Run) {
	t.Helper()
	var vs []bench.Variant
	for _, g := range []string{"HS256", "ES256", "EdDSA"} {
		sel, err := bench.Select(bench.DefaultConfig().Measure, []string{g})
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, sel...)
	}
	if len(vs) != 9 || len(change) != 9 {
		t.Fatalf("%d variants, %d changes", len(vs), len(change))
	}
	const rounds = 50
	mk := func(id string, scale func(i int) float64) *bench.Run {
		r := &bench.Run{ID: id, Config: bench.DefaultConfig()}
		for i, v := range vs {
			res := bench.Result{Variant: v, Revs: 100}
			base := 1000 * float64(i+1)
			for k := range rounds {
				res.Iterations = append(res.Iterations, bench.Iteration{Round: k, Time: base * scale(i) * (1 + 0.03*rng.NormFloat64())})
			}
			r.Results = append(r.Results, res)
		}
		r.Calibration = &bench.Result{Variant: bench.CalibrationVariant(), Revs: 170}
		for k := range rounds {
			for range 3 {
				r.Calibration.Iterations = append(r.Calibration.Iterations, bench.Iteration{Round: k, Time: 6000 * scale(-1) * (1 + 0.03*rng.NormFloat64())})
			}
		}
		return r
	}
	ref = mk(reportRefID, func(int) float64 { return 1 })
	run = mk(reportRunID, func(i int) float64 {
		if i < 0 {
			return machine
		}
		return machine * change[i]
	})
	return run, ref
}

// Between stored runs with at least 5 variants, the machine's common
// change is divided out: the machine 30% slower for all and one variant
// 40% slower beyond it: that variant alone is flagged.
func TestCompareDriftMinority(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	change := []float64{1, 1.4, 1, 1, 1, 1, 1, 1, 1}
	run, ref := driftRuns(t, rng, 1.3, change)
	ds := Compare(run, ref, MetricTime, 0)
	dr := MachineDrift(run, ref, MetricTime, 0)
	if !dr.FromVariants || dr.NotComparable != "" || math.Abs(dr.Common-1.3) > 0.03 {
		t.Fatalf("drift %+v", dr)
	}
	slow := Slower(ds, 10)
	if len(slow) != 1 || slow[0].ID != ds[1].ID || math.Abs(slow[0].Ratio-1.4) > 0.05 {
		t.Errorf("Slower(10) = %+v, want %s alone at +40%%", slow, ds[1].ID)
	}
	for i, d := range ds {
		if i != 1 && !d.Noise {
			t.Errorf("%s: unchanged, reported %+.1f%% [%+.1f%%, %+.1f%%]", d.ID, d.Percent, d.Lo(), d.Hi())
		}
	}
	// The report says what the median of the variants cannot see.
	tb, err := Build(run, Options{Ref: ref})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Join(tb.Notes, "\n"); !strings.Contains(n, "the geometric mean of the ratios of the variants compared") || !strings.Contains(n, "more than half the variants share is taken for the machine's") {
		t.Errorf("notes do not say what the correction hides:\n%s", n)
	}
}

// A change of the code that most variants share, the machine unchanged
// (the calibration workload says so): six of nine variants 40% slower
// (an HMAC change hits verification and round trip of HS256, HS384 and
// HS512: --group hmac). The median of the variants is theirs, so
// dividing it out would report the six as unchanged and the three
// unchanged ones 29% faster: a regression --fail-slower misses and an
// improvement that did not happen. The comparison must not claim that:
// either the six are slower, or the runs are not comparable.
func TestCompareDriftMajority(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	change := []float64{1, 1.4, 1.4, 1, 1.4, 1.4, 1, 1.4, 1.4}
	run, ref := driftRuns(t, rng, 1, change)
	ds := Compare(run, ref, MetricTime, 0)
	dr := MachineDrift(run, ref, MetricTime, 0)
	if dr.NotComparable != "" {
		if !strings.Contains(dr.NotComparable, "calibration") {
			t.Errorf("not comparable for another reason: %s", dr.NotComparable)
		}
		for _, d := range ds {
			if d.NotComparable == "" || !d.Noise {
				t.Errorf("%s: not comparable run, but delta %+v", d.ID, d)
			}
		}
		return
	}
	for i, d := range ds {
		switch {
		case change[i] == 1 && !d.Noise:
			t.Errorf("%s: unchanged code on an unchanged machine, reported %+.1f%% [%+.1f%%, %+.1f%%] (common %+.1f%%)", d.ID, d.Percent, d.Lo(), d.Hi(), (dr.Common-1)*100)
		case change[i] != 1 && len(Slower([]Delta{d}, 10)) == 0:
			t.Errorf("%s: 40%% slower, not flagged: %+.1f%% [%+.1f%%, %+.1f%%] (common %+.1f%%)", d.ID, d.Percent, d.Lo(), d.Hi(), (dr.Common-1)*100)
		}
	}
}

// Identical code, the machine moved: over many pairs of stored runs,
// few intervals exclude 0 and --fail-slower 10 never fires.
func TestCompareDriftIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	same := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1}
	excl, total := 0, 0
	for trial := range 100 {
		machine := 0.8 + 0.5*rng.Float64()
		run, ref := driftRuns(t, rng, machine, same)
		// Each variant drifts on its own too, by 2% (standard deviation).
		for i := range run.Results {
			f := 1 + 0.02*rng.NormFloat64()
			for k := range run.Results[i].Iterations {
				run.Results[i].Iterations[k].Time *= f
			}
		}
		ds := Compare(run, ref, MetricTime, 0)
		for _, d := range ds {
			total++
			if !d.Noise {
				excl++
			}
		}
		if s := Slower(ds, 10); len(s) > 0 {
			t.Errorf("trial %d (machine %.2f): identical code flagged: %+v", trial, machine, s)
		}
	}
	if excl > total*7/100 {
		t.Errorf("identical code: %d of %d intervals exclude 0, want at most 7%%", excl, total)
	}
}

// A stored run with times of 0 (a clock that did not advance, or an
// edited file) compares without NaN or infinite values: the JSON report
// cannot encode them, and a NaN interval was claimed as a change.
func TestCompareZeroTimes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, side := range []string{"run", "ref"} {
		for _, n := range []int{1, 9} { // one variant, or all of them
			run, ref := driftRuns(t, rng, 1, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1})
			r := run
			if side == "ref" {
				r = ref
			}
			for i := range n {
				for k := range r.Results[i].Iterations {
					r.Results[i].Iterations[k].Time = 0
				}
			}
			for _, d := range Compare(run, ref, MetricTime, 0) {
				for _, x := range []float64{d.Ratio, d.Interval.Lo, d.Interval.Hi, d.Percent} {
					if math.IsNaN(x) || math.IsInf(x, 0) {
						t.Errorf("%s, %d zero: %s: %+v", side, n, d.ID, d)
						break
					}
				}
			}
			if s := Slower(Compare(run, ref, MetricTime, 0), 10); len(s) != 0 {
				t.Errorf("%s, %d zero: Slower %+v", side, n, s)
			}
			var b strings.Builder
			if err := Write(&b, run, "json", Options{Ref: ref}); err != nil {
				t.Errorf("%s, %d zero: json: %v", side, n, err)
			}
		}
	}
}

// A reference stored before the calibration workload (or with another
// one): with at least 5 variants the median of the variants still
// corrects a common change within the change to detect (10%); beyond it,
// with no calibration to tell the machine's change from one of the code
// every variant shares, the runs are not comparable (dividing it out
// would call a regression of every variant "~"); with fewer than 5
// variants the runs are not comparable; a variant missing from one run
// is new and does not count among the variants.
func TestCompareDriftOldReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	run, ref := driftRuns(t, rng, 1.06, []float64{1, 1, 1, 1, 1, 1, 1, 1.5, 1})
	ref.Calibration = nil
	dr := MachineDrift(run, ref, MetricTime, 0)
	if !dr.FromVariants || dr.Calibrated || dr.NotComparable != "" || dr.Variants != 9 || math.Abs(dr.Common-1.06) > 0.03 {
		t.Errorf("9 variants, no calibration in the reference: %+v", dr)
	}
	if s := Slower(Compare(run, ref, MetricTime, 0), 10); len(s) != 1 || s[0].ID != run.Results[7].ID() {
		t.Errorf("Slower = %+v", s)
	}
	// Another calibration workload: the same as none.
	run2, ref2 := driftRuns(t, rng, 1.06, []float64{1, 1, 1, 1, 1, 1, 1, 1.5, 1})
	ref2.Calibration.Params = []bench.Param{{Name: "mix", Value: "intloop"}}
	if dr := MachineDrift(run2, ref2, MetricTime, 0); dr.Calibrated || dr.NotComparable != "" {
		t.Errorf("another calibration workload: %+v", dr)
	}
	// +20% common to every variant, no calibration: only the variant
	// +50% beyond it is compared (and flagged), the others not.
	run3, ref3 := driftRuns(t, rng, 1.2, []float64{1, 1, 1, 1, 1, 1, 1, 1.5, 1})
	ref3.Calibration = nil
	ds3, dr3 := CompareFor(run3, ref3, MetricTime, 0, 10)
	if dr3.NotComparable != "" || !strings.Contains(dr3.Shared, "no calibration workload tells") || dr3.SharedCount != 8 {
		t.Errorf("+20%% common, no calibration: %+v", dr3)
	}
	if s := Slower(ds3, 10); len(s) != 1 || s[0].ID != run3.Results[7].ID() {
		t.Errorf("+20%% common, no calibration: Slower = %+v", s)
	}
	for i, d := range ds3 {
		if i != 7 && d.NotComparable != dr3.Shared {
			t.Errorf("+20%% common, no calibration: %d %s: %+v", i, d.ID, d)
		}
	}
	// Four variants in common (the reference lacks five): not enough
	// for the median, and no calibration.
	ref.Results = ref.Results[:4]
	ds := Compare(run, ref, MetricTime, 0)
	dr = MachineDrift(run, ref, MetricTime, 0)
	if dr.FromVariants || dr.Variants != 4 || !strings.Contains(dr.NotComparable, "no calibration workload in run "+reportRefID) {
		t.Errorf("4 variants in common, no calibration: %+v", dr)
	}
	for i, d := range ds {
		if i < 4 && (d.NotComparable == "" || !d.Noise) || i >= 4 && (d.Found || d.NotComparable != "") {
			t.Errorf("%d %s: %+v", i, d.ID, d)
		}
	}
}

// A variant whose own rounds vary so much that its interval is wider than
// the change to detect is not comparable ("too noisy"), never "~": its
// comparison could not have shown a change of that size. One slower by
// far more than its noise is still flagged; with a larger change to
// detect, the noisy variant compares again; the report's cell and note
// say it.
func TestCompareTooNoisy(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	noisy := func(r *bench.Run, i int, sd float64) {
		for k := range r.Results[i].Iterations {
			r.Results[i].Iterations[k].Time *= math.Exp(sd * rng.NormFloat64())
		}
	}
	run, ref := driftRuns(t, rng, 1.2, []float64{1, 1, 1, 1, 1, 1, 1, 1, 2.5})
	noisy(run, 2, 0.5)
	noisy(ref, 2, 0.5)
	noisy(run, 8, 0.5)
	noisy(ref, 8, 0.5)
	ds, dr := CompareFor(run, ref, MetricTime, 0, 10)
	if dr.NotComparable != "" || dr.TooNoisy != 1 || dr.Detect != 10 {
		t.Fatalf("drift %+v", dr)
	}
	for i, d := range ds {
		half := math.Log(d.Interval.Hi/d.Interval.Lo) / 2
		switch i {
		case 2:
			if !strings.HasPrefix(d.NotComparable, "too noisy: its interval, ±") || !d.Noise || half <= math.Log(1.1) {
				t.Errorf("noisy unchanged variant: %+v (half width %.3f)", d, half)
			}
		case 8:
			if d.NotComparable != "" || d.Noise || d.Interval.Lo < 1.5 {
				t.Errorf("noisy variant 150%% slower: %+v", d)
			}
		default:
			if d.NotComparable != "" || !d.Noise || half > math.Log(1.1) {
				t.Errorf("%s: quiet unchanged variant: %+v", d.ID, d)
			}
		}
	}
	if s := Slower(ds, 10); len(s) != 1 || s[0].ID != ds[8].ID {
		t.Errorf("Slower(10) = %+v, want %s alone", s, ds[8].ID)
	}
	if ds, dr := CompareFor(run, ref, MetricTime, 0, 100); dr.TooNoisy != 0 || ds[2].NotComparable != "" || !ds[2].Noise {
		t.Errorf("detect 100%%: %+v, %+v", dr, ds[2])
	}
	// Compare and the reports detect DefaultDetect, 10%, unless told.
	if d := Compare(run, ref, MetricTime, 0)[2]; d.NotComparable == "" {
		t.Errorf("Compare: %+v", d)
	}
	for _, tt := range []struct {
		detect float64
		cell   string
		note   bool
	}{{0, "not comparable", true}, {10, "not comparable", true}, {100, "~", false}} {
		tb, err := Build(run, Options{Ref: ref, Detect: tt.detect})
		if err != nil {
			t.Fatal(err)
		}
		col := slices.Index(tb.Columns, "diff")
		if got := tb.Rows[2][col].Format(bench.Microseconds); !strings.HasPrefix(got, tt.cell) {
			t.Errorf("detect %g: diff cell %q, want %q", tt.detect, got, tt.cell)
		}
		notes := strings.Join(tb.Notes, "\n")
		if has := strings.Contains(notes, "1 of 9 variants not comparable, too noisy"); has != tt.note {
			t.Errorf("detect %g: too noisy note %v:\n%s", tt.detect, has, notes)
		}
	}
	// With fewer than 5 variants (the calibration's change divided out),
	// the same rule.
	run.Results, ref.Results = run.Results[:3], ref.Results[:3]
	ds, dr = CompareFor(run, ref, MetricTime, 0, 10)
	if dr.FromVariants || dr.NotComparable != "" || dr.TooNoisy != 1 || ds[2].NotComparable == "" || ds[0].NotComparable != "" {
		t.Errorf("3 variants: %+v\n%+v", dr, ds)
	}
}

// TestCompareNoisySpeedup: a wide interval wholly below +detect rules
// out the regression to detect, so a noisy but clear speedup is reported
// as one, not as "too noisy"; a noisy unchanged variant still is.
func TestCompareNoisySpeedup(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	noisy := func(r *bench.Run, i int, sd float64) {
		for k := range r.Results[i].Iterations {
			r.Results[i].Iterations[k].Time *= math.Exp(sd * rng.NormFloat64())
		}
	}
	run, ref := driftRuns(t, rng, 1.2, []float64{1, 1, 1, 1, 1, 1, 1, 1, 0.3})
	for _, i := range []int{2, 8} {
		noisy(run, i, 0.5)
		noisy(ref, i, 0.5)
	}
	ds, dr := CompareFor(run, ref, MetricTime, 0, 10)
	if dr.NotComparable != "" || dr.TooNoisy != 1 {
		t.Fatalf("drift %+v", dr)
	}
	if d := ds[8]; d.NotComparable != "" || d.Noise || d.Interval.Hi >= 1 || math.Log(d.Interval.Hi/d.Interval.Lo)/2 <= math.Log(1.1) {
		t.Errorf("noisy variant 70%% faster: %+v", d)
	}
	if d := ds[2]; !strings.HasPrefix(d.NotComparable, "too noisy") {
		t.Errorf("noisy unchanged variant: %+v", d)
	}
}
