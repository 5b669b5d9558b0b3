package report

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/josebench/josebench/bench"
)

// poolTestRun returns a stored run of vs, rounds rounds of one iteration
// with 3% noise (and the calibration workload's 3 a round), tagged tag.
func poolTestRun(rng *rand.Rand, vs []bench.Variant, id, tag string, rounds int) *bench.Run {
	r := &bench.Run{ID: id, Tag: tag, Config: bench.DefaultConfig(), Env: bench.Environment{GoVersion: "go1.26.0", Commit: "abc"}}
	r.Config.Runner.Rounds = rounds
	for i, v := range vs {
		res := bench.Result{Variant: v, Revs: 100}
		for k := range rounds {
			res.Iterations = append(res.Iterations, bench.Iteration{Round: k, Time: 1000 * float64(i+1) * math.Exp(0.03*rng.NormFloat64())})
		}
		r.Results = append(r.Results, res)
	}
	r.Calibration = &bench.Result{Variant: bench.CalibrationVariant(), Revs: 170}
	for k := range rounds {
		for range 3 {
			r.Calibration.Iterations = append(r.Calibration.Iterations, bench.Iteration{Round: k, Time: 6000 * math.Exp(0.03*rng.NormFloat64())})
		}
	}
	return r
}

// A run of 200 rounds against a reference pooled from 4 stored runs of 50
// pairs all 200 rounds of each variant and of the calibration workload
// (stats.Ratios pairs round i with round i up to the shorter side: against
// one of the 50-round runs, 50), and the report names the runs pooled;
// with 200 rounds a side it does not warn about too few rounds, with 50 in
// the reference it does.
func TestComparePooledReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 2))
	vs := nineVariants(t)
	var refs []*bench.Run
	for k := range 4 {
		refs = append(refs, poolTestRun(rng, vs, fmt.Sprintf("01937a30-0000-7000-8000-%012d", k), "base", 50))
	}
	pooled := bench.PoolRuns(refs)
	if pooled.Pool == nil || len(pooled.Pool.Runs) != 4 || pooled.RoundsDone() != 200 {
		t.Fatalf("pool %+v, %d rounds", pooled.Pool, pooled.RoundsDone())
	}
	run := poolTestRun(rng, vs, reportRunID, "", 200)
	for _, tt := range []struct {
		ref   *bench.Run
		pairs int
		warn  bool
	}{{pooled, 200, false}, {refs[3], 50, true}} {
		ds, dr := CompareFor(run, tt.ref, MetricTime, 0, 10)
		for _, d := range ds {
			if !d.Found || d.Pairs != tt.pairs {
				t.Errorf("%s against %d rounds: found %v, %d pairs, want %d", d.ID, tt.ref.RoundsDone(), d.Found, d.Pairs, tt.pairs)
			}
		}
		if !dr.Calibrated || dr.Calibration.Pairs != tt.pairs {
			t.Errorf("calibration against %d rounds: %d pairs, want %d", tt.ref.RoundsDone(), dr.Calibration.Pairs, tt.pairs)
		}
		var b strings.Builder
		if err := Write(&b, run, "md", Options{Report: bench.ReportSimple, Ref: tt.ref}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if got := strings.Contains(out, "Warning: the comparison with run "); got != tt.warn {
			t.Errorf("against %d rounds: too few rounds warned %v, want %v:\n%s", tt.ref.RoundsDone(), got, tt.warn, out)
		}
		pooledNote := "Reference: 4 of the 4 runs tagged base pooled, their rounds concatenated: " + refs[0].ID
		if got := strings.Contains(out, pooledNote); got != (tt.ref == pooled) {
			t.Errorf("against %d rounds: pool note %v:\n%s", tt.ref.RoundsDone(), got, out)
		}
	}
}
