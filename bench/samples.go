package bench

import (
	"fmt"
	"slices"
	"strings"

	"github.com/josebench/josebench/bench/stats"
)

// Samples counts what a variant kept of the samples its run configured
// and what it rejected.
type Samples struct {
	Rounds     int // rounds configured (runner.rounds, or those completed when interrupted)
	RoundsKept int // rounds with at least one iteration kept (each iteration of a run stored without rounds)
	Configured int // iterations configured: Rounds × runner.iterations
	Kept       int // iterations kept
	Rejected   int // iterations rejected, re-run or dropped ([Result].Rejects)
	// AtLimit says that the rejects reached runner.retry_limit (with
	// retries on) and that iterations kept still deviate by the rule of
	// runner.retry_threshold (from the median of those kept, or wall time
	// above thread CPU time): the limit, not the measurement, ended the
	// retries.
	AtLimit bool
}

// KeptShare returns the kept iterations in percent of those configured
// (100 when none was).
func (s Samples) KeptShare() float64 {
	if s.Configured == 0 {
		return 100
	}
	return 100 * float64(s.Kept) / float64(s.Configured)
}

// RejectShare returns the rejected iterations in percent of all the
// variant measured, kept and rejected.
func (s Samples) RejectShare() float64 {
	if n := s.Kept + s.Rejected; n > 0 {
		return 100 * float64(s.Rejected) / float64(n)
	}
	return 0
}

// SamplesOf returns the sample counts of result r of run.
func (run *Run) SamplesOf(r *Result) Samples {
	rounds := run.Config.Runner.Rounds
	if run.Incomplete {
		rounds = min(rounds, run.RoundsDone())
	}
	per := max(run.Config.Runner.Iterations, 1)
	if run.Against != nil {
		per = max(per, abIterations)
	}
	kept := len(r.RoundTimes()) // a run stored without rounds: each iteration
	if run.Config.Runner.Rounds > 0 {
		// The rounds with an iteration kept; a run of one round has
		// every iteration in round 0, which RoundTimes takes for a run
		// stored without rounds.
		seen := make(map[int]bool)
		for _, it := range r.Iterations {
			seen[it.Round] = true
		}
		kept = len(seen)
	}
	c := run.Config.Runner
	atLimit := run.Against == nil && c.RetryThreshold > 0 && c.RetryLimit > 0 && r.Rejects >= c.RetryLimit && stillDeviant(r, c.RetryThreshold)
	return Samples{Rounds: rounds, RoundsKept: kept, Configured: rounds * per, Kept: len(r.Iterations), Rejected: r.Rejects, AtLimit: atLimit}
}

// stillDeviant reports whether an iteration of r deviates by the retry
// rule ([deviant]) from the median of r's iterations.
func stillDeviant(r *Result, threshold float64) bool {
	if len(r.Iterations) == 0 {
		return false
	}
	median := stats.Median(r.Times())
	for _, it := range r.Iterations {
		if deviant(it, median, threshold) {
			return true
		}
	}
	return false
}

// RoundsDone returns the rounds that the results of run hold: one more
// than the highest round of any iteration.
func (run *Run) RoundsDone() int {
	n := 0
	for i := range run.Results {
		for _, it := range run.Results[i].Iterations {
			n = max(n, it.Round+1)
		}
	}
	return n
}

// SampleWarnings returns the warnings about sample loss of run, one line
// each: the variants that kept less than runner.warn_kept_below percent
// of the iterations configured, and those whose rejects are more than
// runner.warn_rejects_above percent of what they measured, each with the
// count and the worst variants (at most three named); and, with
// warn_rejects_above on, those whose rejects reached runner.retry_limit,
// while iterations they kept still deviate ([Samples.AtLimit]; with the shipped
// defaults, 50 rounds and a limit of 10, neither share can be crossed
// otherwise). None when both are off or no variant crosses them.
func (run *Run) SampleWarnings() []string {
	c := run.Config.Runner
	var out []string
	type loss struct {
		id string
		s  Samples
	}
	var few, rejected, limited []loss
	for i := range run.Results {
		r := &run.Results[i]
		s := run.SamplesOf(r)
		if c.WarnKeptBelow > 0 && s.KeptShare() < c.WarnKeptBelow {
			few = append(few, loss{r.ID(), s})
		}
		if c.WarnRejectsAbove > 0 && s.RejectShare() > c.WarnRejectsAbove {
			rejected = append(rejected, loss{r.ID(), s})
		}
		if c.WarnRejectsAbove > 0 && s.AtLimit {
			limited = append(limited, loss{r.ID(), s})
		}
	}
	name := func(ls []loss, f func(Samples) string) string {
		var b strings.Builder
		for i, l := range ls[:min(3, len(ls))] {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(l.id)
			if d := f(l.s); d != "" {
				b.WriteString(" " + d)
			}
		}
		if len(ls) > 3 {
			fmt.Fprintf(&b, "; and %d more", len(ls)-3)
		}
		return b.String()
	}
	if len(few) > 0 {
		slices.SortStableFunc(few, func(a, b loss) int { return a.s.Kept - b.s.Kept })
		out = append(out, fmt.Sprintf("%d of %d variants kept less than %g%% of their samples (runner.warn_kept_below): %s",
			len(few), len(run.Results), c.WarnKeptBelow, name(few, func(s Samples) string {
				return fmt.Sprintf("%d of %d iterations (%d of %d rounds)", s.Kept, s.Configured, s.RoundsKept, s.Rounds)
			})))
	}
	if len(rejected) > 0 {
		slices.SortStableFunc(rejected, func(a, b loss) int { return b.s.Rejected - a.s.Rejected })
		out = append(out, fmt.Sprintf("%d of %d variants rejected more than %g%% of their iterations (runner.warn_rejects_above): %s",
			len(rejected), len(run.Results), c.WarnRejectsAbove, name(rejected, func(s Samples) string {
				return fmt.Sprintf("%d rejected, %d kept", s.Rejected, s.Kept)
			})))
	}
	if len(limited) > 0 {
		out = append(out, fmt.Sprintf("%d of %d variants reached runner.retry_limit (%d rejects), so iterations that still deviated were kept: %s",
			len(limited), len(run.Results), c.RetryLimit, name(limited, func(Samples) string { return "" })))
	}
	return out
}
