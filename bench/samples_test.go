package bench

import (
	"strings"
	"testing"
)

// SamplesOf counts rounds as rounds: with one round of five iterations
// a variant kept 1 of 1 rounds, not 5 (the iterations of one round are
// not rounds; only a run stored without rounds counts each as one).
func TestSamplesOf(t *testing.T) {
	its := func(rounds ...int) []Iteration {
		out := make([]Iteration, len(rounds))
		for i, r := range rounds {
			out[i] = Iteration{Round: r, Time: 100, CPU: 90}
		}
		return out
	}
	for _, tt := range []struct {
		name               string
		rounds, iterations int
		against            bool
		kept               []int
		rejects            int
		want               Samples
	}{
		{"one round of five", 1, 5, false, []int{0, 0, 0, 0, 0}, 2, Samples{Rounds: 1, RoundsKept: 1, Configured: 5, Kept: 5, Rejected: 2}},
		{"rounds of one, one dropped", 4, 1, false, []int{0, 1, 3}, 1, Samples{Rounds: 4, RoundsKept: 3, Configured: 4, Kept: 3, Rejected: 1}},
		{"rounds of two", 3, 2, false, []int{0, 0, 1, 2, 2}, 1, Samples{Rounds: 3, RoundsKept: 3, Configured: 6, Kept: 5, Rejected: 1}},
		{"A/B: three a visit", 2, 1, true, []int{0, 0, 0, 1, 1, 1}, 0, Samples{Rounds: 2, RoundsKept: 2, Configured: 6, Kept: 6}},
		// Stored before rounds: each iteration is a sample of its own.
		{"stored without rounds", 0, 4, false, []int{0, 0, 0}, 0, Samples{Rounds: 0, RoundsKept: 3, Configured: 0, Kept: 3}},
	} {
		run := &Run{Config: DefaultConfig()}
		run.Config.Runner.Rounds, run.Config.Runner.Iterations = tt.rounds, tt.iterations
		if tt.against {
			run.Against = &Run{}
		}
		r := &Result{Iterations: its(tt.kept...), Rejects: tt.rejects}
		if got := run.SamplesOf(r); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// The warnings name the variants below warn_kept_below and above
// warn_rejects_above, each off at 0.
func TestSampleWarnings(t *testing.T) {
	run := &Run{Config: DefaultConfig()}
	run.Config.Runner.Rounds, run.Config.Runner.Iterations = 10, 1
	mk := func(kept, rejects int) Result {
		r := Result{Variant: Variant{Benchmark: "B", Subject: "s", Params: []Param{{Name: "n", Value: strings.Repeat("x", kept)}}}, Rejects: rejects}
		for i := range kept {
			r.Iterations = append(r.Iterations, Iteration{Round: i, Time: 1})
		}
		return r
	}
	run.Results = []Result{mk(10, 0), mk(7, 3), mk(10, 4)}
	c := &run.Config.Runner
	c.WarnKeptBelow, c.WarnRejectsAbove = 80, 20
	w := run.SampleWarnings()
	if len(w) != 2 || !strings.HasPrefix(w[0], "1 of 3 variants kept less than 80% of their samples (runner.warn_kept_below): B/s/n=xxxxxxx 7 of 10 iterations (7 of 10 rounds)") ||
		!strings.HasPrefix(w[1], "2 of 3 variants rejected more than 20% of their iterations (runner.warn_rejects_above): B/s/n=xxxxxxxxxx 4 rejected, 10 kept; B/s/n=xxxxxxx 3 rejected, 7 kept") {
		t.Errorf("warnings %q", w)
	}
	c.WarnKeptBelow, c.WarnRejectsAbove = 0, 0
	if w := run.SampleWarnings(); len(w) != 0 {
		t.Errorf("warnings off: %q", w)
	}
	// 4 rejects of 14 measured is 28.6%: not above 30.
	c.WarnRejectsAbove = 30
	if w := run.SampleWarnings(); len(w) != 0 {
		t.Errorf("warn_rejects_above 30: %q", w)
	}
}

// With the shipped defaults (50 rounds of one iteration, retry_limit 10,
// warn_kept_below 80, warn_rejects_above 20) neither floor can be crossed:
// the limit keeps at least 40 of 50 and rejects at most 10 of 50 or 60. A
// variant that reached the limit kept iterations that still deviated,
// which is what the warnings are for: it is named.
func TestSampleWarningsRetryLimit(t *testing.T) {
	run := &Run{Config: DefaultConfig()}
	mk := func(name string, kept, rejects int) Result {
		r := Result{Variant: Variant{Benchmark: "B", Subject: name}, Rejects: rejects}
		for i := range kept {
			r.Iterations = append(r.Iterations, Iteration{Round: i, Time: 1})
		}
		return r
	}
	// At the limit, an iteration 20% off the median, one whose wall time
	// is 15% above its CPU time; and one whose last re-runs left none
	// deviating: the limit did not end its retries, nothing to warn of.
	run.Results = []Result{mk("clean", 50, 2), mk("rerun", 50, 10), mk("dropped", 40, 10), mk("settled", 50, 10)}
	run.Results[1].Iterations[7].Time = 1.2
	for i := range run.Results[2].Iterations {
		run.Results[2].Iterations[i].CPU = 1
	}
	run.Results[2].Iterations[3].CPU = 1 / 1.15
	w := run.SampleWarnings()
	if len(w) != 1 || w[0] != "2 of 4 variants reached runner.retry_limit (10 rejects), so iterations that still deviated were kept: B/rerun; B/dropped" {
		t.Errorf("warnings %q", w)
	}
	if s := run.SamplesOf(&run.Results[3]); s.AtLimit {
		t.Errorf("settled: %+v", s)
	}
	// Off with warn_rejects_above, and when retries are.
	run.Config.Runner.WarnRejectsAbove = 0
	if w := run.SampleWarnings(); len(w) != 0 {
		t.Errorf("warn_rejects_above 0: %q", w)
	}
	run.Config.Runner.WarnRejectsAbove, run.Config.Runner.RetryThreshold = 20, 0
	if w := run.SampleWarnings(); len(w) != 0 {
		t.Errorf("retry_threshold 0: %q", w)
	}
}
