package report

import (
	"fmt"
	"math"

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
	Cur      float64        // median of the run's round values (the best of each round), ns
	Ref      float64        // median of the reference run's round values, ns
	Pairs    int            // rounds paired
	Ratio    float64        // median of the paired ratios run / reference: above 1 is slower
	Interval stats.Interval // confidence interval of Ratio
	Percent  float64        // (Ratio - 1) in percent: positive is slower
	// TooFew says that the pairs are too few (fewer than 6 for 95%) for
	// any interval to reach the confidence asked for: Interval is their
	// whole range, with its lower Confidence, and no change is claimed.
	TooFew bool
	Noise  bool // the interval includes 1, TooFew or NotComparable: no change shown

	// Between two stored runs (not the two builds of an A/B run), Ratio
	// and Interval are corrected for the machine's change (see
	// [Compare]): Raw and RawInterval are the ratio and interval before
	// the correction, Common the ratio divided out and Drift the standard
	// deviation (of the log ratio) of the run-to-run drift included in
	// Interval. All four are 0 in an A/B comparison.
	Raw         float64
	RawInterval stats.Interval
	Common      float64
	Drift       float64
	// NotComparable, when not empty, says why the two runs cannot be
	// compared: the machine moved more than can be corrected. No change
	// is claimed (Noise is true) and [Slower] never counts the variant;
	// "run --against" compares two builds in the same rounds instead.
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
	// Common is the ratio every variant is divided by: the median of the
	// variants' ratios when there are at least [minDriftVariants] of
	// them (FromVariants), else the calibration's ratio.
	Common       float64
	FromVariants bool
	Variants     int // the variants compared
	// Spread is the standard deviation of the log ratio that the
	// machine's drift leaves on a variant once Common is divided out:
	// estimated from the variants (the median absolute deviation of
	// their log ratios about Common) when FromVariants, else
	// [defaultDrift]; never below [minDrift]. Level is the standard
	// deviation of log Common itself.
	Spread, Level float64
	// NotComparable, when not empty, says why no variant is compared.
	NotComparable string
}

// Run-to-run drift of a comparison between stored runs, as the standard
// deviation of the log ratio of a variant whose code did not change,
// once the common change is divided out. Measured on a shared 2-core
// machine (README.md, "Comparing with a stored run"): 1.5% to 4% between
// runs a minute apart, more under load.
const (
	minDrift         = 0.015 // the least drift assumed
	defaultDrift     = 0.04  // assumed with fewer than minDriftVariants variants
	minDriftVariants = 5     // fewest variants to take the common change from
	// maxDrift is the largest drift corrected: beyond it the variants
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

// Compare returns, for each result of run in order, the change of metric m
// (MetricTime when "") from the result of the same variant in ref, at
// confidence 1 - alpha (DefaultAlpha when 0). A change is within noise
// when its interval includes 1, or when the pairs are too few for the
// interval to reach 1 - alpha (as benchstat, which needs 6 samples for
// 95%).
//
// The values of each round (the best of its iterations) are paired,
// round i of run with round i of ref, and the raw change is the median of
// the ratios with its distribution-free confidence interval (see
// [stats.MedianInterval]). For the two builds of an A/B run (ref =
// run.Against) the pairs were measured back to back, so the ratio cancels
// the drift of the machine, and the raw change is the change.
//
// Between a run and a stored one, measured minutes apart, the machine
// moved in between, by as much as 40% on a shared machine, and the
// pairs do not show it: the change of each variant is then its raw ratio
// divided by the common change, the median of the raw ratios of the
// variants compared (with at least [minDriftVariants]; with fewer, the
// ratio of the calibration workload, [bench.CalibrationVariant]); its
// interval is the raw one widened, in quadrature on the log scale, by z
// times the run-to-run drift that the common change does not explain,
// estimated from the variants themselves (the median absolute deviation
// of their log ratios about the common one, which a minority of changed
// variants hardly moves), and by the uncertainty of the common change.
// A change that every variant shares is therefore not claimed, and one
// that more than half of them share is taken for the machine's: those
// variants come out unchanged and the others changed the other way.
// Compare builds with "run --against" for that. Where the machine moved
// more than can be corrected (the variants' drift beyond 10%, or their
// common change more than about 28% from the calibration workload's;
// with fewer variants, no calibration or one that changed beyond 25% or
// too noisy) every variant is NotComparable.
func Compare(run, ref *bench.Run, m Metric, alpha float64) []Delta {
	ds, _ := compare(run, ref, m, alpha)
	return ds
}

// MachineDrift returns what the comparison of run with the stored run ref
// ([Compare]) knows of the machine's change between them.
func MachineDrift(run, ref *bench.Run, m Metric, alpha float64) Drift {
	_, d := compare(run, ref, m, alpha)
	return d
}

func compare(run, ref *bench.Run, m Metric, alpha float64) ([]Delta, Drift) {
	if alpha <= 0 || alpha >= 1 {
		alpha = DefaultAlpha
	}
	byID := make(map[string]*bench.Result, len(ref.Results))
	for i := range ref.Results {
		r := &ref.Results[i]
		byID[r.ID()] = r
	}
	deltas := make([]Delta, len(run.Results))
	var logs []float64
	for i := range run.Results {
		r := &run.Results[i]
		deltas[i] = Delta{ID: r.ID()}
		if rr, ok := byID[r.ID()]; ok {
			deltas[i] = compareResults(r, rr, m, alpha)
			if deltas[i].Found {
				logs = append(logs, math.Log(deltas[i].Ratio))
			}
		}
	}
	if run.Against == ref {
		return deltas, Drift{}
	}
	drift := Drift{Variants: len(logs)}
	if run.Calibration != nil && ref.Calibration != nil && run.Calibration.ID() == ref.Calibration.ID() {
		drift.Calibrated = true
		drift.Calibration = compareResults(run.Calibration, ref.Calibration, m, alpha)
	}
	z := math.Sqrt2 * math.Erfinv(1-alpha)
	var common float64 // log
	if len(logs) >= minDriftVariants {
		common = stats.Median(logs)
		dev := make([]float64, len(logs))
		for i, l := range logs {
			dev[i] = math.Abs(l - common)
		}
		// The median absolute deviation, scaled to a standard deviation
		// for normal errors; the median of n has about 1.2533 times the
		// standard error of the mean.
		drift.Spread = max(1.4826*stats.Median(dev), minDrift)
		drift.Level = 1.2533 * drift.Spread / math.Sqrt(float64(len(logs)))
		drift.FromVariants = true
		c := drift.Calibration
		switch {
		case drift.Spread > maxDrift:
			drift.NotComparable = fmt.Sprintf("the variants moved apart by %.1f%% (standard deviation) between the runs", drift.Spread*100)
		case drift.Calibrated && c.Found && !c.TooFew && c.Ratio > 0 && math.Abs(common-math.Log(c.Ratio)) > maxCommonGap:
			// More than half the variants changed together, and the
			// machine, by the calibration, did not: dividing their
			// change out would call them unchanged and the others
			// changed the other way.
			drift.NotComparable = fmt.Sprintf("the variants moved together by %+.1f%% but the calibration workload by %+.1f%%: a change most variants share cannot be told from the machine's", (math.Exp(common)-1)*100, c.Percent)
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
			drift.Level = math.Log(c.Interval.Hi/c.Interval.Lo) / 2 / z
		}
	}
	drift.Common = math.Exp(common)
	if drift.NotComparable != "" {
		for i := range deltas {
			if deltas[i].Found {
				deltas[i].NotComparable, deltas[i].Noise = drift.NotComparable, true
			}
		}
		return deltas, drift
	}
	w := z * math.Hypot(drift.Spread, drift.Level)
	for i := range deltas {
		d := &deltas[i]
		if !d.Found {
			continue
		}
		d.Raw, d.RawInterval, d.Common, d.Drift = d.Ratio, d.Interval, drift.Common, drift.Spread
		l := math.Log(d.Ratio)
		lo, hi := l-math.Log(d.Interval.Lo), math.Log(d.Interval.Hi)-l
		l -= common
		d.Ratio = math.Exp(l)
		d.Interval.Lo = math.Exp(l - math.Hypot(lo, w))
		d.Interval.Hi = math.Exp(l + math.Hypot(hi, w))
		d.Percent = (d.Ratio - 1) * 100
		d.Noise = d.TooFew || d.Interval.Contains(1)
	}
	return deltas, drift
}

func orID(id, or string) string {
	if id == "" {
		return or
	}
	return id
}

// CompareCalibration compares the calibration workloads of run and ref,
// as [Compare] compares variants; ok is false when either run lacks it.
func CompareCalibration(run, ref *bench.Run, alpha float64) (d Delta, ok bool) {
	if run.Calibration == nil || ref.Calibration == nil {
		return Delta{}, false
	}
	d = compareResults(run.Calibration, ref.Calibration, MetricTime, alpha)
	return d, d.Found
}

func compareResults(r, ref *bench.Result, m Metric, alpha float64) Delta {
	if alpha <= 0 || alpha >= 1 {
		alpha = DefaultAlpha
	}
	d := Delta{ID: r.ID()}
	xs, ys := m.samples(r), m.samples(ref)
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
