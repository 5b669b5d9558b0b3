package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/bench/stats"
)

// DefaultAlpha is the complement of the confidence of a comparison's
// interval: 0.05 for 95%, as benchstat's.
const DefaultAlpha = 0.05

// Metric is what a comparison compares.
type Metric string

// Metrics.
const (
	// MetricTime compares the wall time per revolution (phpbench's time).
	MetricTime Metric = "time"
	// MetricCPU compares the thread CPU time per revolution, which moves
	// much less than wall time when other work shares the machine.
	MetricCPU Metric = "cpu"
)

// samples returns the round values of r for m, the best of each round
// (see [bench.Result.RoundBests]), or nil when r has none (CPU time not
// measured).
func (m Metric) samples(r *bench.Result) []float64 {
	if m != MetricCPU {
		return r.RoundBests(func(it bench.Iteration) float64 { return it.Time })
	}
	for _, it := range r.Iterations {
		if it.CPU <= 0 {
			return nil
		}
	}
	return r.RoundBests(func(it bench.Iteration) float64 { return it.CPU })
}

// Delta is the change of one variant between a reference run and a run.
type Delta struct {
	ID       string         // the variant's identity (bench.Variant.ID)
	Found    bool           // the variant is in the reference run, and both have the metric
	NoData   bool           // the variant is in the reference run, but one side lacks the metric
	Cur      float64        // median of the run's round values (the best of each round), ns; with Quantile, that quantile
	Ref      float64        // median of the reference run's round values, ns; with Quantile, that quantile
	Pairs    int            // rounds paired (with Quantile, the rounds of the side with fewer)
	Ratio    float64        // median of the paired ratios run / reference (with Quantile, the ratio of the quantiles): above 1 is slower
	Interval stats.Interval // confidence interval of Ratio
	Percent  float64        // (Ratio - 1) in percent: positive is slower
	// Quantile, when not 0, says that Ratio is the ratio of that
	// quantile of the two sides' round values, not the median of paired
	// ratios, and Cur and Ref are those quantiles: between stored runs of
	// enough rounds (see [CompareFor]).
	Quantile float64
	// TooFew says that the pairs are too few (fewer than 6 for 95%) for
	// any interval to reach the confidence asked for: Interval is their
	// whole range, with its lower Confidence, and no change is claimed.
	TooFew bool
	Noise  bool // the interval includes 1, TooFew or NotComparable: no change shown

	// Between two stored runs (not the two builds of an A/B run), Ratio
	// and Interval are corrected for the machine's change (see
	// [CompareFor]): Raw and RawInterval are the ratio and interval
	// before the correction, Common the ratio divided out (taken without
	// this variant) and Drift the standard deviation (of the log ratio)
	// of the run-to-run drift of one variant, [Drift.Spread]. All four
	// are 0 in an A/B comparison.
	Raw         float64
	RawInterval stats.Interval
	Common      float64
	Drift       float64
	// NotComparable, when not empty, says why the two runs cannot be
	// compared: the machine moved more than can be corrected, or this
	// variant's interval is too wide to detect the change asked for
	// ("too noisy"). No change is claimed (Noise is true) and [Slower]
	// never counts the variant; "run --against" compares two builds in
	// the same rounds instead.
	NotComparable string
}

// Lo returns the interval's lower bound as a percent change.
func (d Delta) Lo() float64 { return (d.Interval.Lo - 1) * 100 }

// Hi returns the interval's upper bound as a percent change.
func (d Delta) Hi() float64 { return (d.Interval.Hi - 1) * 100 }

// Drift is what the comparison of two stored runs knows of the change of
// the machine between them (see [Compare]).
type Drift struct {
	// Calibration is the change of the calibration workload; Calibrated
	// says both runs have it.
	Calibration Delta
	Calibrated  bool
	// Common is the ratio every variant is divided by: with at least
	// [minDriftVariants] variants (FromVariants), the geometric mean of
	// the ratios of the Kept variants that agree with their median, else
	// the calibration's ratio.
	Common       float64
	FromVariants bool
	Variants     int // the variants compared
	Kept         int // the variants Common is taken from (FromVariants)
	// Scatter is the robust standard deviation of the variants' log
	// ratios about their median (1.4826 times the median absolute
	// deviation), round-to-round noise and run-to-run drift together;
	// 0 unless FromVariants.
	Scatter float64
	// Spread is the standard deviation of the run-to-run drift of one
	// variant's log ratio beyond its round-to-round noise, once Common
	// is divided out: estimated from the Kept variants (their variance
	// about Common less the mean of their squared standard errors) when
	// FromVariants, else assumed ([defaultDrift]). Level is the standard
	// error of log Common. (Each variant's own interval takes them from
	// the other variants: see [CompareFor].)
	Spread, Level float64
	// Quantile is the factor of a variant's standard error that makes
	// its interval: when FromVariants, Student's t for Kept - 2 degrees
	// of freedom (a kept variant's drift is estimated from the other
	// Kept - 1), else the normal one.
	Quantile float64
	// Detect is the change, in percent, the comparison had to be able to
	// detect, and TooNoisy the variants whose interval was too wide for
	// it (see [CompareFor]).
	Detect   float64
	TooNoisy int
	// Shared, when not empty, says that the variants moved together
	// beyond Detect while the calibration workload (or, without one,
	// nothing) did not: that change, divided out, could be the code's,
	// so a variant within Detect of it is not comparable (SharedCount
	// of them), never "~"; a variant beyond it still is.
	Shared      string
	SharedCount int
	// NotComparable, when not empty, says why no variant is compared.
	NotComparable string
}

// Run-to-run drift of a comparison between stored runs.
const (
	// defaultDrift is the standard deviation of the log ratio of a
	// variant whose code did not change, once the calibration's change
	// is divided out, assumed with fewer than minDriftVariants variants:
	// measured on a shared 2-core machine (README.md, "Comparing with a
	// stored run"), 1.5% to 4% between runs a minute apart.
	defaultDrift     = 0.04
	minDriftVariants = 5 // fewest variants to take the common change from
	// outlierCutDefault is how many robust standard deviations (Scatter, at
	// least minScatter) a variant's log ratio may lie from the median
	// and still count in the common change: beyond it the variant
	// changed, or drifted on its own, and its ratio would bias the
	// common change and widen every interval.
	outlierCutDefault = 5
	minScatter        = 0.01
	// refQuantile is the quantile of the round values compared between
	// stored runs with enough rounds (see [CompareFor]).
	refQuantile = 0.02
	// maxDrift is the largest Scatter corrected: beyond it the variants
	// disagree so much among themselves that the runs are not compared.
	maxDrift = 0.10
	// maxCalibration is the largest change of the calibration workload
	// (as a log ratio, about 25%) corrected where it is the common
	// change, and maxCalibrationSpread the widest half interval of it
	// (about 10%).
	maxCalibration       = 0.22
	maxCalibrationSpread = 0.10
	// maxCommonGap is the largest difference (as a log ratio, about
	// 28%) between the variants' common change and the calibration
	// workload's: beyond it, a change of the code that most variants
	// share cannot be told from the machine's. Between identical builds
	// on a shared 2-core machine under load, 3 of 165 pairs of runs
	// were beyond it (the 95th percentile was 0.16).
	maxCommonGap = 0.25
)

// DefaultDetect is the change, in percent, that [Compare] requires a
// comparison between stored runs to be able to detect: the threshold of
// "run --fail-slower 10".
const DefaultDetect = 10.0

// Compare returns, for each result of run in order, the change of metric m
// (MetricTime when "") from the result of the same variant in ref, at
// confidence 1 - alpha (DefaultAlpha when 0). It is [CompareFor] with
// [DefaultDetect].
func Compare(run, ref *bench.Run, m Metric, alpha float64) []Delta {
	ds, _ := CompareFor(run, ref, m, alpha, DefaultDetect)
	return ds
}

// MachineDrift returns what the comparison of run with the stored run ref
// ([Compare]) knows of the machine's change between them.
func MachineDrift(run, ref *bench.Run, m Metric, alpha float64) Drift {
	_, d := CompareFor(run, ref, m, alpha, DefaultDetect)
	return d
}

// CompareFor returns, for each result of run in order, the change of
// metric m (MetricTime when "") from the result of the same variant in
// ref, at confidence 1 - alpha (DefaultAlpha when 0), and what the
// comparison knows of the machine's change between the runs. A change is
// within noise when its interval includes 1, or when the pairs are too
// few for the interval to reach 1 - alpha (as benchstat, which needs 6
// samples for 95%).
//
// The values of each round (the best of its iterations) are compared.
// For the two builds of an A/B run (ref = run.Against), measured back to
// back in every round, round i of run is paired with round i of ref, and
// the raw change is the median of the ratios with its distribution-free
// confidence interval (see [stats.MedianInterval]): the pairs cancel the
// drift of the machine, so the raw change is the change.
//
// Between a run and a stored one, measured minutes apart, rounds of the
// same number share nothing, and the machine's speed moves in phases that
// hit one variant more than another. Other work on the machine only ever
// adds time to a round, so the fastest rounds are those it disturbed
// least, and their level moves much less from run to run than the median
// does. So with at least 175 rounds on each side (enough for a 95%
// interval of the 2nd percentile, [stats.QuantileInterval];
// [bench.RunnerConfig]'s ref_rounds is 200), the raw change is the ratio
// of the 2nd percentiles of the two sides' round values. Its interval
// combines, in log, a standard error from each side's order-statistic
// interval, taken off the fastest round ([stats.QuantileIntervalInner])
// so that one round far faster than the others, a timer glitch, does not
// stretch it. Over 160 stored runs of identical code (9 variants, 200
// rounds, half under two busy loops; README.md), the median of paired
// ratios flagged a variant in 4.2% of the 25,440 ordered pairs and an
// HS256 verification 40% slower in 82.7%; the 2nd percentiles in 0.4% and
// 99.3% (99.2% with the standard error from the fastest round). A change
// that slows only some rounds (more garbage collection, a cache that
// misses now and then) shows less in the 2nd percentile than in the
// median; an A/B run measures it.
//
// With fewer rounds on either side the raw change is the paired median,
// as in an A/B run ([Delta.Quantile] says which), and so it is for every
// variant when any of them or the calibration workload has fewer: the
// medians move between runs by more than the 2nd percentiles, and mixed
// into the common change and the drift, they made the variants of one
// statistic look changed (TestCompareMixedRounds).
//
// The machine also moved in between, by as much as 40% on a shared
// machine. The log ratio of variant v is then taken as
// c + e_v + n_v: c the machine's change common to the run, e_v the
// run-to-run drift of that variant alone (standard deviation tau) and
// n_v its round-to-round noise, whose standard error s_v the raw
// interval gives (round-to-round noise only, counted once). With at least
// [minDriftVariants] variants, the variants kept are those within 5
// robust standard deviations of the median log ratio (a changed variant
// beyond that does not move c nor widen the others' intervals). For each
// variant v, c is the mean log ratio of the other kept variants, and
// tau² their variance about it less the mean of their squared standard
// errors (leave one out: v's own deviation then is independent of the
// estimates, as Student's t needs); v's change is its log ratio less c,
// with the variance tau² + s_v² + Var(c), and its interval takes Student's
// t for the other kept variants less one degrees of freedom. On synthetic
// runs of identical code with drift and noise (TestCompareCoverage) a 95%
// interval misses 0 for 4 to 6% of the variants with 50 rounds (the
// paired median), 3.7 to 6.7% with 200 (the 2nd percentiles, whose
// order-statistic intervals err wide where round noise dominates:
// TestCompareCoverageQuantile). With fewer variants, c
// is the calibration workload's ([bench.CalibrationVariant]) log ratio,
// tau is assumed ([defaultDrift]) and the calibration's standard error is
// added.
//
// A change that every variant shares is therefore not claimed, and one
// that more than half of them share is taken for the machine's: those
// variants come out unchanged and the others changed the other way.
// Compare builds with "run --against" for that. Where the machine moved
// more than can be corrected (the variants' scatter beyond 10%, or their
// common change more than about 28% from the calibration workload's;
// with fewer variants, no calibration or one that changed beyond 25% or
// too noisy) every variant is NotComparable. A variant whose interval is
// wider than detect percent (DefaultDetect when 0) either way, that is
// not slower by more than detect beyond its interval, and whose interval
// reaches above +detect, is NotComparable too ("too noisy"): the runs
// could not have shown a change of that size, and "~" would claim there
// was none; a wide interval wholly below +detect is reported as it is. And when the common change is
// further than detect percent from the calibration workload's (or from 0
// without one), it may be the code's, shared by every variant: dividing
// it out would call a regression of every variant "~", so only the
// variants beyond detect percent of it either way are compared, the
// others are NotComparable (see [Drift.Shared]).
func CompareFor(run, ref *bench.Run, m Metric, alpha, detect float64) ([]Delta, Drift) {
	return defaultEstimator.compare(run, ref, m, alpha, detect)
}

// compare is [CompareFor] with the estimator e.
func (e estimator) compare(run, ref *bench.Run, m Metric, alpha, detect float64) ([]Delta, Drift) {
	if alpha <= 0 || alpha >= 1 {
		alpha = DefaultAlpha
	}
	if detect <= 0 {
		detect = DefaultDetect
	}
	byID := make(map[string]*bench.Result, len(ref.Results))
	for i := range ref.Results {
		r := &ref.Results[i]
		byID[r.ID()] = r
	}
	deltas := make([]Delta, len(run.Results))
	var found []int // indexes of deltas Found
	var logs []float64
	compare := compareResults
	if run.Against != ref {
		compare = e.compareRuns
	}
	for i := range run.Results {
		r := &run.Results[i]
		deltas[i] = Delta{ID: r.ID()}
		if rr, ok := byID[r.ID()]; ok {
			deltas[i] = compare(r, rr, m, alpha)
			if deltas[i].Found {
				found = append(found, i)
				logs = append(logs, math.Log(deltas[i].Ratio))
			}
		}
	}
	if run.Against == ref {
		return deltas, Drift{}
	}
	drift := Drift{Variants: len(logs), Detect: detect}
	if run.Calibration != nil && ref.Calibration != nil && run.Calibration.ID() == ref.Calibration.ID() {
		drift.Calibrated = true
		drift.Calibration = e.compareRuns(run.Calibration, ref.Calibration, m, alpha)
	}
	if e.quantile > 0 && mixedQuantiles(deltas, drift) {
		// Some variants (or the calibration workload) have too few rounds
		// for the quantile, the others enough: the two statistics move
		// differently between runs (the medians by more), and mixed in
		// the common change and the drift they would call the variants
		// of the one changed. Every one is compared by the paired median
		// (TestCompareMixedRounds).
		e.quantile = 0
		return e.compare(run, ref, m, alpha, detect)
	}
	z := math.Sqrt2 * math.Erfinv(1-alpha)
	se := make([]float64, len(found)) // the standard errors of the raw log ratios
	for j, i := range found {
		se[j] = stdErr(deltas[i].Interval)
	}
	var common float64 // log
	// variance returns the variance of the corrected log ratio of
	// found[j], and the quantile its interval takes.
	var variance func(j int) (float64, float64)
	// shift returns the common log change divided out of found[j].
	shift := func(int) float64 { return common }
	limit := math.Log1p(detect / 100)

	if len(logs) >= minDriftVariants {
		drift.FromVariants = true
		med := stats.Median(logs)
		dev := make([]float64, len(logs))
		for j, l := range logs {
			dev[j] = math.Abs(l - med)
		}
		// The median absolute deviation, scaled to a standard deviation
		// for normal errors.
		drift.Scatter = 1.4826 * stats.Median(dev)
		cut := e.cut * max(drift.Scatter, minScatter)
		kept := make([]bool, len(logs))
		var sum float64
		for j, l := range logs {
			if kept[j] = dev[j] <= cut; kept[j] {
				drift.Kept++
				sum += l
			}
		}
		k := float64(drift.Kept)
		common = sum / k
		var ss, s2 float64
		for j, l := range logs {
			if kept[j] {
				ss += (l - common) * (l - common)
				s2 += sq(se[j])
			}
		}
		v := 0.0 // the variance of one kept variant's log ratio, on average
		if drift.Kept > 1 {
			v = ss / (k - 1)
		}
		tau2 := max(v-s2/k, 0)
		drift.Spread = math.Sqrt(tau2)
		drift.Level = math.Sqrt(v / k)
		if drift.Kept > 2 {
			drift.Quantile = stats.StudentQuantile(1-alpha/2, drift.Kept-2)
		}
		// The change of a variant is its log ratio less the common one
		// taken without it (leave one out): then the two are
		// independent, and the variant's deviation over the standard
		// error estimated from the others follows Student's t (the
		// deviation over one estimated with it would not: bounded,
		// it makes the interval far too wide).
		variance = func(j int) (float64, float64) {
			var n, sum, ss, s2 float64
			for i, l := range logs {
				if kept[i] && i != j {
					n++
					sum += l
				}
			}
			if n < 2 { // cannot happen: at least half the variants are kept
				return 1, z // ±e^1.96: too noisy, and finite for JSON
			}
			cj := sum / n
			for i, l := range logs {
				if kept[i] && i != j {
					ss += (l - cj) * (l - cj)
					s2 += sq(se[i])
				}
			}
			vj := ss / (n - 1)
			vd := max(vj-s2/n, 0) + sq(se[j]) + vj/n
			// Student's t for the n - 1 degrees of freedom of vj. (A
			// Welch-Satterthwaite count, taking the standard errors
			// as known, would give more to a variant noisier than the
			// others; but a standard error from 50 rounds' order
			// statistics is itself uncertain, and with it the
			// intervals covered less than they claim on synthetic
			// runs.)
			return vd, stats.StudentQuantile(1-alpha/2, int(n)-1)
		}
		shift = func(j int) float64 {
			var n, sum float64
			for i, l := range logs {
				if kept[i] && i != j {
					n++
					sum += l
				}
			}
			return sum / n
		}
		c := drift.Calibration
		switch {
		case drift.Scatter > maxDrift:
			drift.NotComparable = fmt.Sprintf("the variants moved apart by %.1f%% (standard deviation) between the runs", drift.Scatter*100)
		case drift.Calibrated && c.Found && !c.TooFew && c.Ratio > 0 && math.Abs(common-math.Log(c.Ratio)) > maxCommonGap:
			// More than half the variants changed together, and the
			// machine, by the calibration, did not: dividing their
			// change out would call them unchanged and the others
			// changed the other way.
			drift.NotComparable = fmt.Sprintf("the variants moved together by %+.1f%% but the calibration workload by %+.1f%%: a change most variants share cannot be told from the machine's", (math.Exp(common)-1)*100, c.Percent)
		case drift.Calibrated && c.Found && !c.TooFew && c.Ratio > 0:
			if math.Abs(common-math.Log(c.Ratio)) > limit {
				drift.Shared = fmt.Sprintf("the variants moved together by %+.1f%% but the calibration workload by %+.1f%%: a change they share, beyond the %g%% to detect, cannot be told from the machine's", (math.Exp(common)-1)*100, c.Percent, detect)
			}
		case math.Abs(common) > limit:
			drift.Shared = fmt.Sprintf("the variants moved together by %+.1f%%, beyond the %g%% to detect, and no calibration workload tells the machine's change from one they share", (math.Exp(common)-1)*100, detect)
		}
	} else {
		c := drift.Calibration
		switch {
		case run.Calibration == nil:
			drift.NotComparable = "no calibration workload in run " + orID(run.ID, "the run")
		case ref.Calibration == nil:
			drift.NotComparable = "no calibration workload in run " + orID(ref.ID, "the reference")
		case !drift.Calibrated:
			drift.NotComparable = "the runs measured different calibration workloads (" + run.Calibration.ID() + ", " + ref.Calibration.ID() + ")"
		case !c.Found:
			drift.NotComparable = "the calibration workload lacks the metric"
		case c.TooFew:
			drift.NotComparable = fmt.Sprintf("the calibration workload has too few rounds (%d)", c.Pairs)
		case math.Abs(math.Log(c.Ratio)) > maxCalibration:
			drift.NotComparable = fmt.Sprintf("the machine changed: the calibration workload takes %+.1f%%", c.Percent)
		case math.Log(c.Interval.Hi/c.Interval.Lo)/2 > maxCalibrationSpread:
			drift.NotComparable = fmt.Sprintf("the calibration workload varied too much (%+.1f%% to %+.1f%%)", c.Lo(), c.Hi())
		default:
			common = math.Log(c.Ratio)
			drift.Spread = defaultDrift
			drift.Level = stdErr(c.Interval)
			drift.Quantile = z
			// The calibration is measured apart from the variants:
			// its noise, the assumed drift and the variant's own add.
			variance = func(j int) (float64, float64) {
				return sq(se[j]) + sq(drift.Spread) + sq(drift.Level), z
			}
		}
	}
	drift.Common = math.Exp(common)
	if drift.NotComparable != "" {
		for _, i := range found {
			deltas[i].NotComparable, deltas[i].Noise = drift.NotComparable, true
		}
		return deltas, drift
	}
	for j, i := range found {
		d := &deltas[i]
		d.Raw, d.RawInterval, d.Common, d.Drift = d.Ratio, d.Interval, drift.Common, drift.Spread
		cj := shift(j)
		d.Common = math.Exp(cj)
		l := math.Log(d.Ratio) - cj
		vd, q := variance(j)
		h := q * math.Sqrt(vd)
		d.Ratio = math.Exp(l)
		d.Interval.Lo, d.Interval.Hi = math.Exp(l-h), math.Exp(l+h)
		d.Percent = (d.Ratio - 1) * 100
		d.Noise = d.TooFew || d.Interval.Contains(1)
		if drift.Shared != "" && (d.TooFew || math.Abs(l)-h <= limit) {
			// Only a change beyond the one to detect stands out from
			// a shared change that may be the code's.
			d.NotComparable, d.Noise = drift.Shared, true
			drift.SharedCount++
			continue
		}
		// Too noisy: wide, not flagged, and its upper bound beyond the
		// change to detect, so a regression of that size is not ruled
		// out. A wide interval wholly below +detect (a clear speedup)
		// rules it out and is reported as it is.
		if !d.TooFew && h > limit && l-h <= limit && l+h > limit {
			d.NotComparable = fmt.Sprintf("too noisy: its interval, ±%.1f%%, is wider than the %g%% to detect", (math.Exp(h)-1)*100, detect)
			d.Noise = true
			drift.TooNoisy++
		}
	}
	return deltas, drift
}

// stdErr returns the standard error of the log of the (raw) ratio or
// quantile whose interval is iv: the half width of the log interval over
// the normal quantile of the interval's confidence (the sign-test
// interval of a median is about that many standard errors either side of
// it).
func stdErr(iv stats.Interval) float64 {
	if iv.Lo <= 0 || iv.Hi <= 0 || iv.Confidence <= 0 || iv.Confidence >= 1 {
		return 0
	}
	return math.Log(iv.Hi/iv.Lo) / 2 / (math.Sqrt2 * math.Erfinv(iv.Confidence))
}

func sq(x float64) float64 { return x * x }

func orID(id, or string) string {
	if id == "" {
		return or
	}
	return id
}

// CompareCalibration compares the calibration workloads of run and ref
// by the paired median of their rounds, as [Compare] compares the
// variants of an A/B run (not the 2nd percentiles it compares between
// stored runs); ok is false when either run lacks it.
func CompareCalibration(run, ref *bench.Run, alpha float64) (d Delta, ok bool) {
	if run.Calibration == nil || ref.Calibration == nil {
		return Delta{}, false
	}
	d = compareResults(run.Calibration, ref.Calibration, MetricTime, alpha)
	return d, d.Found
}

func compareResults(r, ref *bench.Result, m Metric, alpha float64) Delta {
	return compareSamples(r.ID(), m.samples(r), m.samples(ref), alpha)
}

// compareSamples is [compareResults] of the round values xs and ys of
// the variant id.
func compareSamples(id string, xs, ys []float64, alpha float64) Delta {
	if alpha <= 0 || alpha >= 1 {
		alpha = DefaultAlpha
	}
	d := Delta{ID: id}
	ratios := stats.Ratios(xs, ys)
	if len(xs) == 0 || len(ys) == 0 || len(ratios) == 0 {
		d.NoData = true
		return d
	}
	d.Found, d.Pairs = true, len(ratios)
	d.Cur, d.Ref = stats.Median(xs), stats.Median(ys)
	d.Ratio, d.Interval = stats.MedianInterval(ratios, 1-alpha)
	d.Percent = (d.Ratio - 1) * 100
	d.TooFew = d.Interval.Confidence < 1-alpha
	d.Noise = d.TooFew || d.Interval.Contains(1)
	return d
}

// An estimator is how stored runs are compared: the levers TestReplay
// measures on stored runs, fixed at defaultEstimator for every report.
type estimator struct {
	// shift makes compareRuns take the Hodges-Lehmann shift rather than
	// the paired ratios (JOSEBENCH_REPLAY_SHIFT=1). Off: on the 40 stored
	// runs of README.md it raised HS256 verification x1.4 flagged from
	// 51.0 to 59.7%, but also the pairs of identical runs flagged from 5.3
	// to 7.4% (beyond the 1 in 20 of the target): narrower round noise,
	// the same heavy-tailed drift of a variant alone in one run (+23 to
	// +35% in 3 of 40 runs).
	shift bool
	// cut is how many robust standard deviations leave a variant out of
	// the common change (JOSEBENCH_REPLAY_CUT): 3.5 or 3 raised HS256
	// verification x1.4 flagged from 51.0 to 52.3 or 52.6% and the
	// intervals excluding 0 from 5.9 to 6.4 or 6.6%, too little to keep.
	cut float64
	// quantile, when above 0, makes compareRuns compare that quantile of
	// the round values on each side (JOSEBENCH_REPLAY_QUANTILE).
	quantile float64
}

// defaultEstimator is the estimator of [CompareFor].
var defaultEstimator = estimator{cut: outlierCutDefault, quantile: refQuantile}

// compareRuns compares r with the result ref of the same variant in
// another run, measured apart. Their rounds are two independent samples,
// not pairs: with e.quantile, the change of that quantile where both
// sides have the rounds for it ([estimator.compareQuantiles]); otherwise,
// with e.shift, the Hodges-Lehmann shift of the logs of the round values
// with its Mann-Whitney interval (see [stats.ShiftInterval]); without
// either, or with too few rounds, the paired ratios of [compareResults].
func (e estimator) compareRuns(r, ref *bench.Result, m Metric, alpha float64) Delta {
	if alpha <= 0 || alpha >= 1 {
		alpha = DefaultAlpha
	}
	xs, ys := m.samples(r), m.samples(ref)
	d := compareSamples(r.ID(), xs, ys, alpha)
	if d.Found && e.quantile > 0 {
		return e.compareQuantiles(d, xs, ys, alpha)
	}
	if !d.Found || !e.shift {
		return d
	}
	xs, ys = logsOf(xs), logsOf(ys)
	shift, iv, ok := stats.ShiftInterval(xs, ys, 1-alpha)
	if !ok {
		return d
	}
	d.Pairs = min(len(xs), len(ys))
	d.Ratio = math.Exp(shift)
	d.Interval = stats.Interval{Lo: math.Exp(iv.Lo), Hi: math.Exp(iv.Hi), Confidence: iv.Confidence}
	d.Percent = (d.Ratio - 1) * 100
	d.TooFew = false
	d.Noise = d.Interval.Contains(1)
	return d
}

// compareQuantiles returns d, the paired comparison of the round values
// xs of a run with those ys of a stored one, as the change of their
// e.quantile quantile when the interval of that quantile reaches 1 - alpha
// (0 < alpha < 1) on both sides (at 95%, for the 2nd percentile, 175
// rounds or more), and unchanged otherwise.
func (e estimator) compareQuantiles(d Delta, xs, ys []float64, alpha float64) Delta {
	p := e.quantile
	qx, ix, okx := stats.QuantileInterval(xs, p, 1-alpha)
	qy, iy, oky := stats.QuantileInterval(ys, p, 1-alpha)
	if !okx || !oky || qx <= 0 || qy <= 0 || ix.Lo <= 0 || iy.Lo <= 0 ||
		ix.Confidence < 1-alpha || iy.Confidence < 1-alpha {
		return d // too few rounds for the quantile's interval: the paired median
	}
	// The standard errors from the intervals off the extreme rounds: the
	// 2nd percentile's lower bound is the fastest round below 277 rounds,
	// and one round far faster than the others (a timer glitch) would
	// stretch it, and the standard error, all the way down to it, while
	// the quantile moves by one rank (TestCompareQuantilesFastRound).
	_, ix, _ = stats.QuantileIntervalInner(xs, p, 1-alpha)
	_, iy, _ = stats.QuantileIntervalInner(ys, p, 1-alpha)
	z := math.Sqrt2 * math.Erfinv(1-alpha)
	s := math.Sqrt(sq(stdErr(ix)) + sq(stdErr(iy)))
	l := math.Log(qx / qy)
	d.Cur, d.Ref, d.Quantile = qx, qy, p
	d.Pairs = min(len(xs), len(ys))
	d.Ratio = qx / qy
	d.Interval = stats.Interval{Lo: math.Exp(l - z*s), Hi: math.Exp(l + z*s), Confidence: 1 - alpha}
	d.Percent = (d.Ratio - 1) * 100
	d.TooFew = false
	d.Noise = d.Interval.Contains(1)
	return d
}

// mixedQuantiles reports whether some of the variants found, and the
// calibration workload of dr, were compared by a quantile of the rounds and
// others by the paired median.
func mixedQuantiles(deltas []Delta, dr Drift) bool {
	q, med := false, false
	see := func(d Delta) {
		if d.Found {
			q, med = q || d.Quantile > 0, med || d.Quantile == 0
		}
	}
	for _, d := range deltas {
		see(d)
	}
	if dr.Calibrated {
		see(dr.Calibration)
	}
	return q && med
}

// logsOf returns the logarithms of the positive, finite values of xs.
func logsOf(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if x > 0 && !math.IsInf(x, 1) {
			out = append(out, math.Log(x))
		}
	}
	return out
}

// ShortRounds returns a warning, one line without a final period, when
// the comparison of run with the stored run ref (not the other build of
// an A/B run, whose rounds are paired back to back) has fewer than need
// rounds on either side (run.Config.Runner.CompareRounds() when need is
// 0), and "" otherwise. Between runs made minutes apart, the machine's
// speed moves in phases that hit algorithm families
// differently: with 50 rounds a side a 40% slower HS256 verification was
// flagged by --fail-slower 10 in 47% of pairs of stored runs, with 200 in
// 19 of 20 (see [bench.RunnerConfig.RefRounds]), and on a loaded machine
// in 15 and 17 of 20 (README.md).
func ShortRounds(run, ref *bench.Run, need int) string {
	if run == nil || ref == nil || run.Against == ref {
		return ""
	}
	if need <= 0 {
		need = run.Config.Runner.CompareRounds()
	}
	have, refHave := run.RoundsDone(), ref.RoundsDone()
	if have >= need && refHave >= need {
		return ""
	}
	var do []string
	if have < need {
		do = append(do, fmt.Sprintf("run with --rounds %d", need))
	}
	if refHave < need {
		do = append(do, fmt.Sprintf("store the reference again with --rounds %d, or store more runs under its tag for --ref to pool", need))
	}
	return fmt.Sprintf("the comparison with run %s has %d rounds in the run and %d in the reference, fewer than the %d asked for (runner.ref_rounds, or runner.rounds when it is 0): between runs made minutes apart, fewer rounds leave variants not comparable and a 10%% change unseen; %s",
		ref.ID, have, refHave, need, strings.Join(do, " and "))
}

// Slower returns the deltas that are slower than their reference by more
// than pct percent beyond noise: the whole interval lies above 1 + pct/100
// (and reaches its confidence: see [Delta.TooFew]).
func Slower(deltas []Delta, pct float64) []Delta {
	var out []Delta
	for _, d := range deltas {
		if d.Found && !d.Noise && d.NotComparable == "" && d.Interval.Lo > 1+pct/100 {
			out = append(out, d)
		}
	}
	return out
}
