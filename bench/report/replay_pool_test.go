package report

import (
	"os"
	"slices"
	"testing"

	"github.com/josebench/josebench/bench"
)

// truncRun returns a copy of r with its first n rounds (the calibration
// workload's too), as a run stored with --rounds n.
func truncRun(r *bench.Run, n int) *bench.Run {
	first := func(its []bench.Iteration) []bench.Iteration {
		return slices.DeleteFunc(slices.Clone(its), func(it bench.Iteration) bool { return it.Round >= n })
	}
	c := *r
	c.Results = slices.Clone(r.Results)
	for i := range c.Results {
		c.Results[i].Iterations = first(c.Results[i].Iterations)
	}
	if r.Calibration != nil {
		cal := *r.Calibration
		cal.Iterations = first(cal.Iterations)
		c.Calibration = &cal
	}
	return &c
}

// TestReplayPooledRef replays --ref TAG against a pooled reference: each
// 4 consecutive stored runs of JOSEBENCH_REPLAY (as TestReplay), cut to 50
// rounds as if stored with --rounds 50, pooled (bench.PoolRuns) into a
// reference of 200 rounds, against every other run whole, with the
// paired median and with the 2nd percentiles. It logs how often
// --fail-slower 10 flags identical code, and HS256 verification 1.4
// times slower; it measures, and asserts nothing: skipped without the
// variable, never in CI.
func TestReplayPooledRef(t *testing.T) {
	dirs := os.Getenv("JOSEBENCH_REPLAY")
	if dirs == "" {
		t.Skip("JOSEBENCH_REPLAY names no stored runs")
	}
	runs := replayRuns(t, dirs)
	for _, e := range []estimator{{cut: outlierCutDefault}, defaultEstimator} {
		pairs, flagged, slowFlagged, nc := 0, 0, 0, 0
		for s := 0; s+4 <= len(runs); s += 4 {
			var short []*bench.Run
			for _, r := range runs[s : s+4] {
				short = append(short, truncRun(r, 50))
			}
			ref := bench.PoolRuns(short)
			for a, run := range runs {
				if a >= s && a < s+4 {
					continue
				}
				pairs++
				ds, _ := e.compare(run, ref, MetricTime, 0, 10)
				if len(Slower(ds, 10)) > 0 {
					flagged++
				}
				slow := slowed(run, "benchVerification", "HS256", 1.4)
				ds, _ = e.compare(slow, ref, MetricTime, 0, 10)
				for _, d := range Slower(ds, 10) {
					if d.ID == "HS256Bench/benchVerification/alg=HS256" {
						slowFlagged++
					}
				}
				for _, d := range ds {
					if d.ID == "HS256Bench/benchVerification/alg=HS256" && d.NotComparable != "" {
						nc++
					}
				}
			}
		}
		t.Logf("quantile %v (0: the paired median): a reference of 4 runs of 50 rounds pooled, against runs of 200: identical code flagged in %d of %d pairs, HS256 verification x1.4 flagged in %d, not comparable in %d", e.quantile, flagged, pairs, slowFlagged, nc)
	}
}
