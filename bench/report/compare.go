package report

import (
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
	Noise  bool // the interval includes 1, or TooFew: no change shown
}

// Lo returns the interval's lower bound as a percent change.
func (d Delta) Lo() float64 { return (d.Interval.Lo - 1) * 100 }

// Hi returns the interval's upper bound as a percent change.
func (d Delta) Hi() float64 { return (d.Interval.Hi - 1) * 100 }

// Compare returns, for each result of run in order, the change of metric m
// (MetricTime when "") from the result of the same variant in ref. The
// values of each round (the best of its iterations) are paired, round i
// of run with round i of ref, and the change is the median of the ratios
// with its distribution-free confidence interval at 1 - alpha
// (DefaultAlpha when 0; see [stats.MedianInterval]). For the two builds
// of an A/B run (ref = run.Against) a pair was measured back to back, so
// the ratio cancels the drift of the machine; between a run and a stored
// one it does not, and the calibration workload says how far the machine
// moved (see [CompareCalibration]). A change is within noise when the
// interval includes 1, or when the pairs are too few for the interval to
// reach 1 - alpha (as benchstat, which needs 6 samples for 95%).
func Compare(run, ref *bench.Run, m Metric, alpha float64) []Delta {
	byID := make(map[string]*bench.Result, len(ref.Results))
	for i := range ref.Results {
		r := &ref.Results[i]
		byID[r.ID()] = r
	}
	deltas := make([]Delta, len(run.Results))
	for i := range run.Results {
		r := &run.Results[i]
		deltas[i] = Delta{ID: r.ID()}
		if rr, ok := byID[r.ID()]; ok {
			deltas[i] = compareResults(r, rr, m, alpha)
		}
	}
	return deltas
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
		if d.Found && !d.Noise && d.Interval.Lo > 1+pct/100 {
			out = append(out, d)
		}
	}
	return out
}
