package report

import (
	"math"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/bench/stats"
)

// DefaultAlpha is the significance level under which a difference between
// two runs is taken as real rather than noise, as benchstat's.
const DefaultAlpha = 0.05

// minUTestSamples is the fewest iterations on each side for which the
// Mann-Whitney U test is used; with fewer (a run of one iteration, as the
// PHP suite makes) no p-value can reach the usual levels, and the noise is
// judged from the relative standard deviations instead.
const minUTestSamples = 3

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

// samples returns the iteration values of r for m, or nil when r has
// none (CPU time not measured).
func (m Metric) samples(r *bench.Result) []float64 {
	if m != MetricCPU {
		return r.Times()
	}
	xs := make([]float64, len(r.Iterations))
	for i, it := range r.Iterations {
		if it.CPU <= 0 {
			return nil
		}
		xs[i] = it.CPU
	}
	return xs
}

// Delta is the change of one variant between a reference run and a run.
type Delta struct {
	ID      string  // the variant's identity (bench.Variant.ID)
	Found   bool    // the variant is in the reference run, and both have the metric
	NoData  bool    // the variant is in the reference run, but one side lacks the metric
	Cur     float64 // mean of the run, ns
	Ref     float64 // mean of the reference run, ns
	Percent float64 // (Cur - Ref) / Ref, in percent: positive is slower
	P       float64 // p-value of the U test, or -1 when the rstdev rule was used
	Noise   bool    // the change is within noise
}

// Compare returns, for each result of run in order, the change of metric m
// (MetricTime when "") from the result of the same variant in ref. A change
// is within noise when the two-sided Mann-Whitney U test of the iteration
// values gives p >= alpha (DefaultAlpha when 0), or, when either side has
// fewer than 3 iterations, when |Percent| is at most the sum of the two
// relative standard deviations.
func Compare(run, ref *bench.Run, m Metric, alpha float64) []Delta {
	if alpha == 0 {
		alpha = DefaultAlpha
	}
	byID := make(map[string]*bench.Result, len(ref.Results))
	for i := range ref.Results {
		r := &ref.Results[i]
		byID[r.ID()] = r
	}
	deltas := make([]Delta, len(run.Results))
	for i := range run.Results {
		r := &run.Results[i]
		d := Delta{ID: r.ID(), P: -1}
		deltas[i] = d
		rr, ok := byID[d.ID]
		if !ok {
			continue
		}
		xs, ys := m.samples(r), m.samples(rr)
		if len(xs) == 0 || len(ys) == 0 {
			deltas[i].NoData = true
			continue
		}
		cur, prev := stats.Summarize(xs), stats.Summarize(ys)
		d.Found, d.Cur, d.Ref = true, cur.Mean, prev.Mean
		d.Percent = stats.Deviation(prev.Mean, cur.Mean)
		if len(xs) >= minUTestSamples && len(ys) >= minUTestSamples {
			d.P = stats.MannWhitney(xs, ys)
			d.Noise = d.P >= alpha
		} else {
			d.Noise = math.Abs(d.Percent) <= cur.RStdev+prev.RStdev
		}
		deltas[i] = d
	}
	return deltas
}

// Slower returns the deltas that are significantly slower than their
// reference by more than pct percent.
func Slower(deltas []Delta, pct float64) []Delta {
	var out []Delta
	for _, d := range deltas {
		if d.Found && !d.Noise && d.Percent > pct {
			out = append(out, d)
		}
	}
	return out
}
