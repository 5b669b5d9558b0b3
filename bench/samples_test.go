package bench

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
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
	// Wall time 11% above CPU time: every iteration deviates by the retry
	// rule (retry_threshold 10), except in an A/B run, which has no retries.
	for _, tt := range []struct {
		name               string
		rounds, iterations int
		against            bool
		kept               []int
		rejects            int
		want               Samples
	}{
		{"one round of five", 1, 5, false, []int{0, 0, 0, 0, 0}, 2, Samples{Rounds: 1, RoundsKept: 1, Configured: 5, Kept: 5, Rejected: 2, Deviant: 5, CPUTime: true}},
		{"rounds of one, one dropped", 4, 1, false, []int{0, 1, 3}, 1, Samples{Rounds: 4, RoundsKept: 3, Configured: 4, Kept: 3, Rejected: 1, Deviant: 3, CPUTime: true}},
		{"rounds of two", 3, 2, false, []int{0, 0, 1, 2, 2}, 1, Samples{Rounds: 3, RoundsKept: 3, Configured: 6, Kept: 5, Rejected: 1, Deviant: 5, CPUTime: true}},
		{"A/B: three a visit", 2, 1, true, []int{0, 0, 0, 1, 1, 1}, 0, Samples{Rounds: 2, RoundsKept: 2, Configured: 6, Kept: 6}},
		// Stored before rounds: each iteration is a sample of its own.
		{"stored without rounds", 0, 4, false, []int{0, 0, 0}, 0, Samples{Rounds: 0, RoundsKept: 3, Configured: 0, Kept: 3, Deviant: 3, CPUTime: true}},
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
	// At the bounds, no warning: 8 of 10 kept is not less than 80%, and
	// 2 rejects of 10 measured are not more than 20%.
	run.Results = []Result{mk(8, 2)}
	c.WarnKeptBelow, c.WarnRejectsAbove = 80, 20
	if w := run.SampleWarnings(); len(w) != 0 {
		t.Errorf("at the bounds: %q", w)
	}
}

// A variant whose rejects reached retry_limit is judged by what it kept,
// not by its reject share: in a run of 20 rounds of one iteration and the
// default limit of 10, the limit alone is 10 of 30 measured (33%), which
// named nearly every variant of such a run; 9 rejects of 29, below the
// limit, still are a share above 20%.
func TestSampleWarningsShareBelowLimit(t *testing.T) {
	run := &Run{Config: DefaultConfig()}
	c := &run.Config.Runner
	c.Rounds, c.Iterations, c.RetryLimit, c.WarnKeptBelow, c.WarnRejectsAbove = 20, 1, 10, 0, 20
	mk := func(name string, rejects int) Result {
		r := Result{Variant: Variant{Benchmark: "B", Subject: "s", Params: []Param{{Name: "n", Value: name}}}, Rejects: rejects}
		for i := range 20 {
			r.Iterations = append(r.Iterations, Iteration{Round: i, Time: 100, CPU: 100})
		}
		return r
	}
	run.Results = []Result{mk("atlimit", 10), mk("below", 9), mk("few", 5)}
	w := run.SampleWarnings()
	if len(w) != 1 || !strings.HasPrefix(w[0], "1 of 3 variants rejected more than 20% of their iterations (runner.warn_rejects_above): B/s/n=below 9 rejected, 20 kept") {
		t.Errorf("warnings %q", w)
	}
	for _, tt := range []struct {
		rejects, limit int
		want           bool
	}{
		{10, 10, false}, {11, 10, false}, {9, 10, true}, {5, 10, false},
		{10, 0, true}, // no limit: the share alone
	} {
		s := Samples{Kept: 20, Rejected: tt.rejects}
		if got := s.ShareWarns(20, tt.limit); got != tt.want {
			t.Errorf("ShareWarns(20, %d) with %d rejects of %d: %v, want %v", tt.limit, tt.rejects, 20+tt.rejects, got, tt.want)
		}
	}
}

// With the shipped defaults (50 rounds of one iteration, retry_limit 10,
// warn_kept_below 80, warn_rejects_above 20) neither floor can be crossed:
// the limit keeps at least 40 of 50 and rejects at most 10 of 50 or 60. A
// variant that reached the limit is named when more than
// warn_rejects_above percent of the iterations it kept still deviate in
// their thread CPU time, not for one or a few: on a quiet 2-core VM whose
// speed moves in phases, nearly every variant of a full run keeps a few,
// and a warning naming 933 of 935 variants said nothing. One whose kept
// iterations deviate that much in wall time alone (descheduled: other
// work ran) is in a line of its own: the machine was busy.
func TestSampleWarningsRetryLimit(t *testing.T) {
	// mk returns a variant of 50 iterations (or dropped fewer) with
	// rejects rejects, slow of them 20% off the median (thread CPU time
	// too) and desched of them with wall time 15% above their CPU time,
	// which is the others'.
	mk := func(name string, kept, rejects, slow, desched int) Result {
		r := Result{Variant: Variant{Benchmark: "B", Subject: name}, Rejects: rejects}
		for i := range kept {
			it := Iteration{Round: i, Time: 1, CPU: 1}
			switch {
			case i < slow:
				it.Time, it.CPU = 1.2, 1.2
			case i < slow+desched:
				it.Time = 1.15
			}
			r.Iterations = append(r.Iterations, it)
		}
		return r
	}
	outlier := mk("outlier", 50, 10, 0, 0)
	outlier.Iterations[0].Time, outlier.Iterations[0].CPU = 20, 20
	const prefix = "reached runner.retry_limit (10 rejects) and kept more than "
	const busy = " of their iterations deviating by runner.retry_threshold but no more than that share in thread CPU time, the others in wall time alone, their thread CPU time steady (other work ran on their core: the machine was busy): "
	for _, tt := range []struct {
		name      string
		share     float64 // warn_rejects_above
		threshold float64 // retry_threshold
		results   []Result
		want      string // "": no warning
		busy      string // the busy-machine warning, "": none
	}{
		{"a few deviate", 20, 10, []Result{mk("few", 50, 10, 1, 1), mk("ten", 50, 10, 5, 5)}, "", ""},
		// B/many keeps 12 of 50 deviating (24%), 8 of them (16%) in CPU
		// time: the machine's, not the variant's.
		{"many deviate", 20, 10, []Result{mk("few", 50, 10, 1, 1), mk("many", 50, 10, 8, 4), mk("most", 40, 10, 15, 5), mk("more", 50, 10, 12, 4)},
			"2 of 4 variants " + prefix + "20% of their iterations still deviating by runner.retry_threshold in thread CPU time (runner.warn_rejects_above): B/most 15 of 40 kept deviate; B/more 12 of 50 kept deviate",
			"1 of 4 variants kept, at runner.retry_limit, more than 20%" + busy + "B/many 12 of 50 kept deviate, 4 in wall time alone"},
		{"by time alone", 20, 10, []Result{mk("slow", 50, 10, 11, 0)},
			"1 of 1 variants " + prefix + "20% of their iterations still deviating by runner.retry_threshold in thread CPU time (runner.warn_rejects_above): B/slow 11 of 50 kept deviate", ""},
		{"by wall over CPU alone", 20, 10, []Result{mk("waited", 50, 10, 0, 11), mk("ten", 50, 10, 0, 10)},
			"", "1 of 2 variants kept, at runner.retry_limit, more than 20%" + busy + "B/waited 11 of 50 kept deviate, 11 in wall time alone"},
		// Worst by the share deviating in wall time alone, what the line
		// is about: 11 of 50 before 4 of 50 (whose 12 deviating, 8 in
		// thread CPU time, are more in all).
		{"busy ordered by wall time alone", 20, 10, []Result{mk("many", 50, 10, 8, 4), mk("waited", 50, 10, 0, 11)},
			"", "2 of 2 variants kept, at runner.retry_limit, more than 20%" + busy + "B/waited 11 of 50 kept deviate, 11 in wall time alone; B/many 12 of 50 kept deviate, 4 in wall time alone"},
		// 12 of 50 is 24%: above 20, not above 30; 16 of 50 (32%) is.
		{"share 30", 30, 10, []Result{mk("many", 50, 10, 12, 0), mk("more", 50, 10, 16, 0)},
			"1 of 2 variants " + prefix + "30% of their iterations still deviating by runner.retry_threshold in thread CPU time (runner.warn_rejects_above): B/more 16 of 50 kept deviate", ""},
		{"share 5", 5, 10, []Result{mk("few", 50, 10, 1, 1), mk("four", 50, 10, 3, 1)},
			"1 of 2 variants " + prefix + "5% of their iterations still deviating by runner.retry_threshold in thread CPU time (runner.warn_rejects_above): B/four 3 of 50 kept deviate", ""},
		// Worst share first: 10 of 30 (33%) before 14 of 50 (28%).
		{"ordered by share", 20, 10, []Result{mk("count", 50, 10, 14, 0), mk("share", 30, 10, 10, 0)},
			"2 of 2 variants " + prefix + "20% of their iterations still deviating by runner.retry_threshold in thread CPU time (runner.warn_rejects_above): B/share 10 of 30 kept deviate; B/count 14 of 50 kept deviate", ""},
		// Worst by the share deviating in thread CPU time, the count
		// named: 15 of 50 before 12 of 50 (whose 22 deviating, 10 in
		// wall time alone, are more in all).
		{"ordered by CPU share", 20, 10, []Result{mk("wall", 50, 10, 12, 10), mk("cpu", 50, 10, 15, 0)},
			"2 of 2 variants " + prefix + "20% of their iterations still deviating by runner.retry_threshold in thread CPU time (runner.warn_rejects_above): B/cpu 15 of 50 kept deviate; B/wall 12 of 50 kept deviate", ""},
		// The median, not the mean: one iteration 20 times slower drags
		// the mean 38% above the others, which do not deviate.
		{"one outlier", 20, 10, []Result{outlier}, "", ""},
		{"below the limit", 20, 10, []Result{mk("many", 50, 9, 8, 4), mk("waited", 50, 9, 0, 20)}, "", ""},
		{"settled", 20, 10, []Result{mk("settled", 50, 10, 0, 0)}, "", ""},
		{"warn_rejects_above 0", 0, 10, []Result{mk("most", 40, 10, 15, 10), mk("waited", 50, 10, 0, 20)}, "", ""},
		{"retries off", 20, 0, []Result{mk("most", 40, 10, 15, 10), mk("waited", 50, 10, 0, 20)}, "", ""},
	} {
		run := &Run{Config: DefaultConfig(), Results: tt.results}
		run.Config.Runner.WarnRejectsAbove, run.Config.Runner.RetryThreshold = tt.share, tt.threshold
		var w, b []string // the retry_limit and busy warnings; the others have tests of their own
		for _, l := range run.SampleWarnings() {
			switch {
			case strings.Contains(l, "reached runner.retry_limit"):
				w = append(w, l)
			case strings.Contains(l, "the machine was busy"):
				b = append(b, l)
			}
		}
		switch {
		case tt.want == "" && len(w) != 0:
			t.Errorf("%s: warnings %q, want none", tt.name, w)
		case tt.want != "" && (len(w) != 1 || w[0] != tt.want):
			t.Errorf("%s: warnings %q\nwant %q", tt.name, w, tt.want)
		}
		switch {
		case tt.busy == "" && len(b) != 0:
			t.Errorf("%s: busy warnings %q, want none", tt.name, b)
		case tt.busy != "" && (len(b) != 1 || b[0] != tt.busy):
			t.Errorf("%s: busy warnings %q\nwant %q", tt.name, b, tt.busy)
		}
	}
	// retry_limit 0 re-runs nothing: no limit ended any retries, though
	// rejects (none) are not below it.
	run := &Run{Config: DefaultConfig(), Results: []Result{mk("most", 50, 0, 15, 10)}}
	run.Config.Runner.RetryLimit = 0
	if s := run.SamplesOf(&run.Results[0]); s.Deviant != 25 || s.AtLimit {
		t.Errorf("retry_limit 0: %+v, want 25 deviant, not at the limit", s)
	}
}

// Samples.Deviant counts by the runner's own rule: what a run that
// reached retry_limit kept still deviating is what the retries would have
// re-run next, and a variant the retries settled counts none.
func TestSamplesDeviantFollowsRunner(t *testing.T) {
	c := runnerConfig()
	c.Revs, c.Warmup, c.Iterations = 10, 0, 5
	for _, tt := range []struct {
		name    string
		limit   int
		slow    []int // the iterations measured (0: the first) taking 3µs/op, not 1µs
		rejects int
		want    []float64 // the times kept, ns/op
		deviant int
	}{
		// Iterations 1 and 3 deviate (200% off the median); their re-runs,
		// 5 and 6, are slow too and spend the limit: 2 of 5 kept deviate.
		{"at the limit", 2, []int{1, 3, 5, 6}, 2, []float64{1000, 3000, 1000, 3000, 1000}, 2},
		// One re-run settles; the other is slow again: 1 of 5.
		{"one left", 2, []int{1, 3, 5}, 2, []float64{1000, 3000, 1000, 1000, 1000}, 1},
		// The re-runs that spend the limit are fast: settled, not at it.
		{"settled at the limit", 2, []int{1, 3}, 2, []float64{1000, 1000, 1000, 1000, 1000}, 0},
		// Room for a second pass, whose re-runs are fast: settled.
		{"settled", 5, []int{1, 3, 5, 6}, 4, []float64{1000, 1000, 1000, 1000, 1000}, 0},
	} {
		c.RetryLimit = tt.limit
		f := &runnerFake{cost: func(n int) time.Duration {
			if slices.Contains(tt.slow, (n-1)/10) {
				return 3 * time.Microsecond
			}
			return time.Microsecond
		}}
		res, err := runResults(f.runner(c), context.Background(), runnerVariants(t))
		if err != nil {
			t.Fatal(err)
		}
		r := &res[0]
		if got := r.Times(); r.Rejects != tt.rejects || !slices.Equal(got, tt.want) {
			t.Fatalf("%s: %d rejects, times %v; want %d, %v", tt.name, r.Rejects, got, tt.rejects, tt.want)
		}
		run := &Run{Config: DefaultConfig(), Results: res}
		run.Config.Runner = c
		s := run.SamplesOf(r)
		if s.Deviant != tt.deviant || s.AtLimit != (tt.deviant > 0) {
			t.Errorf("%s: %+v, want Deviant %d", tt.name, s, tt.deviant)
		}
		// 2 of 5 (40%) is above warn_rejects_above 20, 1 of 5 (20%) is not.
		if got, want := s.LimitWarns(20), tt.deviant == 2; got != want {
			t.Errorf("%s: LimitWarns(20) %v, want %v", tt.name, got, want)
		}
	}
}

// Without thread CPU time (other systems than Linux, runs stored before
// it was measured) the wall time is all there is: every deviating
// iteration counts as the variant's, none as the machine's.
func TestSamplesErraticWithoutCPU(t *testing.T) {
	r := Result{Variant: Variant{Benchmark: "B", Subject: "s"}, Rejects: 10}
	for i := range 50 {
		it := Iteration{Round: i, Time: 1}
		if i < 15 {
			it.Time = 1.5
		}
		r.Iterations = append(r.Iterations, it)
	}
	run := &Run{Config: DefaultConfig(), Results: []Result{r}}
	s := run.SamplesOf(&run.Results[0])
	if s.Deviant != 15 || s.Erratic != 15 || !s.LimitWarns(20) || s.BusyWarns(20) {
		t.Errorf("no CPU time: %+v, LimitWarns %v, BusyWarns %v; want 15 deviant, 15 erratic, named, not busy", s, s.LimitWarns(20), s.BusyWarns(20))
	}
	// The warning says so: the deviation it counts is the wall time's,
	// as before thread CPU time was measured.
	const without = "1 of 1 variants reached runner.retry_limit (10 rejects) and kept more than 20% of their iterations still deviating by runner.retry_threshold (runner.warn_rejects_above): B/s 15 of 50 kept deviate"
	if w := run.SampleWarnings(); len(w) != 1 || w[0] != without {
		t.Errorf("no CPU time: warnings %q\nwant %q", w, without)
	}
	// With it, the same wall times over a steady CPU time are the
	// machine's.
	for k := range run.Results[0].Iterations {
		run.Results[0].Iterations[k].CPU = 1
	}
	s = run.SamplesOf(&run.Results[0])
	if s.Deviant != 15 || s.Erratic != 0 || s.LimitWarns(20) || !s.BusyWarns(20) {
		t.Errorf("steady CPU time: %+v, LimitWarns %v, BusyWarns %v; want 15 deviant, 0 erratic, busy", s, s.LimitWarns(20), s.BusyWarns(20))
	}
}

// An iteration whose thread CPU time deviates by exactly retry_threshold
// counts as erratic, as one whose time deviates by exactly it is re-run
// ([deviant]): the same threshold, the same bound.
func TestSamplesErraticThreshold(t *testing.T) {
	r := Result{Variant: Variant{Benchmark: "B", Subject: "s"}, Rejects: 10}
	for i := range 50 {
		it := Iteration{Round: i, Time: 1, CPU: 1}
		if i < 15 {
			it.Time, it.CPU = 1.25, 1.25 // 25% off both medians, exactly
		}
		r.Iterations = append(r.Iterations, it)
	}
	run := &Run{Config: DefaultConfig(), Results: []Result{r}}
	run.Config.Runner.RetryThreshold = 25
	if s := run.SamplesOf(&run.Results[0]); s.Deviant != 15 || s.Erratic != 15 {
		t.Errorf("%+v, want 15 deviant, 15 erratic", s)
	}
}

// A variant with the thread CPU time missing in some iterations only
// (measured by another runner, or a clock that read 0) counts as one
// without it: every deviating iteration is its own.
func TestSamplesErraticSomeCPU(t *testing.T) {
	r := Result{Variant: Variant{Benchmark: "B", Subject: "s"}, Rejects: 10}
	for i := range 50 {
		it := Iteration{Round: i, Time: 1, CPU: 1}
		switch {
		case i < 15:
			it.Time = 1.5 // wall time alone
		case i == 49:
			it.CPU = 0
		}
		r.Iterations = append(r.Iterations, it)
	}
	run := &Run{Config: DefaultConfig(), Results: []Result{r}}
	if s := run.SamplesOf(&run.Results[0]); s.Deviant != 15 || s.Erratic != 15 || !s.LimitWarns(20) || s.BusyWarns(20) {
		t.Errorf("%+v, want 15 deviant, 15 erratic, named, not busy", s)
	}
	// Named with one whose every iteration has it: the warning says
	// which deviation it counts.
	r2 := Result{Variant: Variant{Benchmark: "B", Subject: "cpu"}, Rejects: 10}
	for i := range 50 {
		it := Iteration{Round: i, Time: 1, CPU: 1}
		if i < 15 {
			it.Time, it.CPU = 1.5, 1.5
		}
		r2.Iterations = append(r2.Iterations, it)
	}
	run.Results = append(run.Results, r2)
	const want = "2 of 2 variants reached runner.retry_limit (10 rejects) and kept more than 20% of their iterations still deviating by runner.retry_threshold in thread CPU time, or in wall time where it was not measured (runner.warn_rejects_above): B/s 15 of 50 kept deviate; B/cpu 15 of 50 kept deviate"
	if w := run.SampleWarnings(); len(w) != 1 || w[0] != want {
		t.Errorf("warnings %q\nwant %q", w, want)
	}
}
