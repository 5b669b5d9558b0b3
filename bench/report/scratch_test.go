package report

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestScratch(t *testing.T) {
	vs9 := nineVariants(t)
	for _, n := range []int{5, 6, 9} {
		for _, tau := range []float64{0.01, 0.03, 0.08} {
			vs := vs9[:n]
			same := make([]float64, n)
			for i := range same {
				same[i] = 1
			}
			rng := rand.New(rand.NewPCG(7, uint64(n)))
			miss, total, whole, flagged := 0, 0, 0, 0
			for range 1000 {
				run, ref := coverageRuns(rng, vs, tau, same)
				ds, dr := CompareFor(run, ref, MetricTime, 0, 1e6)
				if dr.NotComparable != "" {
					whole++
					continue
				}
				for _, d := range ds {
					total++
					if !d.Interval.Contains(1) {
						miss++
					}
				}
				ds, _ = CompareFor(run, ref, MetricTime, 0, 10)
				if len(Slower(ds, 10)) > 0 {
					flagged++
				}
			}
			t.Logf("n %d tau %.2f: miss %.1f%% (%d), whole NC %d, pairs flagged %d", n, tau, 100*float64(miss)/float64(total), total, whole, flagged)
		}
	}
	// one huge outlier
	rng := rand.New(rand.NewPCG(9, 9))
	ch := []float64{1, 1, 1, 1, 1, 1, 1, 1, 10}
	bad := 0
	for range 200 {
		run, ref := coverageRuns(rng, vs9, 0.01, ch)
		ds, dr := CompareFor(run, ref, MetricTime, 0, 10)
		s := Slower(ds, 10)
		if dr.NotComparable != "" || len(s) != 1 || s[0].ID != ds[8].ID {
			bad++
		}
	}
	t.Logf("x10 outlier: %d of 200 not alone flagged", bad)
	// identical runs
	run, _ := coverageRuns(rng, vs9, 0.01, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1})
	ds, dr := CompareFor(run, run, MetricTime, 0, 10)
	for _, d := range ds {
		if !d.Noise || math.IsNaN(d.Ratio) || d.NotComparable != "" || d.Ratio != 1 {
			t.Errorf("self: %+v", d)
		}
	}
	t.Logf("self: %+v", dr)
}
