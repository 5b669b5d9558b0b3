package bench

import (
	"cmp"
	"fmt"
	"math"
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
	// Deviant counts the iterations kept that still deviate by the rule
	// of runner.retry_threshold (from the median of those kept, or wall
	// time above thread CPU time); 0 with retries off or in an A/B run,
	// which has none.
	Deviant int
	// Erratic counts, of the Deviant iterations, those whose thread CPU
	// time deviates by runner.retry_threshold from the median thread CPU
	// time of those kept: the variant's own work varied (or the core's
	// speed, which thread CPU time follows too), not the time other work
	// took from its core. Where the thread CPU time is not measured (on
	// other systems than Linux, in runs stored before it was), Deviant.
	Erratic int
	// CPUTime says that every iteration kept has its thread CPU time,
	// by which Erratic counts (with retries on, outside an A/B run).
	CPUTime bool
	// AtLimit says that the rejects reached runner.retry_limit (with
	// retries on) and that iterations kept still deviate (Deviant > 0):
	// the limit, not the measurement, ended the retries.
	AtLimit bool
}

// DeviantShare returns the kept iterations that still deviate
// ([Samples.Deviant]) in percent of those kept (0 when none was).
func (s Samples) DeviantShare() float64 {
	if s.Kept == 0 {
		return 0
	}
	return 100 * float64(s.Deviant) / float64(s.Kept)
}

// ErraticShare returns the kept iterations whose thread CPU time still
// deviates ([Samples.Erratic]) in percent of those kept (0 when none
// was).
func (s Samples) ErraticShare() float64 {
	if s.Kept == 0 {
		return 0
	}
	return 100 * float64(s.Erratic) / float64(s.Kept)
}

// LimitWarns reports whether the retry_limit warning of
// [Run.SampleWarnings] names the variant: its rejects reached the limit
// while more than share percent (runner.warn_rejects_above) of the
// iterations it kept still deviate in their thread CPU time
// ([Samples.Erratic]). One deviating iteration in 50 does not: on the
// first 2-core development VM nearly every variant of a full run kept at
// least one (933 of 935 at a load of 1), which the median of its rounds
// does not follow. Nor does a deviation of the wall time alone, which
// other work on the core made ([Samples.BusyWarns]).
func (s Samples) LimitWarns(share float64) bool {
	return share > 0 && s.AtLimit && s.ErraticShare() > share
}

// BusyWarns reports whether the variant is counted in the busy-machine
// warning of [Run.SampleWarnings]: its rejects reached the limit while
// more than share percent of the iterations it kept still deviate by the
// retry rule, but not in their thread CPU time ([Samples.LimitWarns] is
// false): descheduled while other work ran, which says that the machine
// was busy, not that the variant is erratic.
func (s Samples) BusyWarns(share float64) bool {
	return share > 0 && s.AtLimit && s.DeviantShare() > share && !s.LimitWarns(share)
}

// WallAlone returns the kept iterations that deviate in wall time alone,
// their thread CPU time steady (Deviant but not Erratic).
func (s Samples) WallAlone() int { return s.Deviant - s.Erratic }

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

// KeptWarns reports whether the warning of [Run.SampleWarnings] about
// iterations kept names the variant: it kept less than below percent
// (runner.warn_kept_below, 0: off) of the iterations configured
// ([Samples.KeptShare]).
func (s Samples) KeptWarns(below float64) bool {
	return below > 0 && s.KeptShare() < below
}

// ShareWarns reports whether the reject-share warning of
// [Run.SampleWarnings] names the variant: its rejects are more than share
// percent (runner.warn_rejects_above) of all it measured
// ([Samples.RejectShare]) while below limit (runner.retry_limit, when
// above 0). A variant whose rejects reached the limit is judged by what
// it kept instead ([Samples.LimitWarns], [Samples.BusyWarns]): in a run
// of fewer than 4 × limit iterations (20 rounds against the default limit
// of 10) the limit alone is more than 20% of what it measured, which made
// this warning name nearly every variant of such a run whatever its
// retries had left.
func (s Samples) ShareWarns(share float64, limit int) bool {
	return share > 0 && s.RejectShare() > share && (limit <= 0 || s.Rejected < limit)
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
	dev, erratic, withCPU := 0, 0, false
	if run.Against == nil && c.RetryThreshold > 0 {
		dev, erratic, withCPU = deviantCount(r, c.RetryThreshold)
	}
	atLimit := dev > 0 && c.RetryLimit > 0 && r.Rejects >= c.RetryLimit
	return Samples{Rounds: rounds, RoundsKept: kept, Configured: rounds * per, Kept: len(r.Iterations), Rejected: r.Rejects, Deviant: dev, Erratic: erratic, CPUTime: withCPU, AtLimit: atLimit}
}

// deviantCount counts the iterations of r that deviate by the retry rule
// ([deviant]) from the median of r's iterations, and of those the ones
// whose thread CPU time deviates by threshold percent from the median
// thread CPU time of r's iterations ([Samples.Erratic]; all of them when
// an iteration of r has no CPU time, which withCPU reports).
func deviantCount(r *Result, threshold float64) (n, erratic int, withCPU bool) {
	if len(r.Iterations) == 0 {
		return 0, 0, false
	}
	median := stats.Median(r.Times())
	cpus := make([]float64, len(r.Iterations))
	for k, it := range r.Iterations {
		cpus[k] = it.CPU
	}
	cpu := stats.Median(cpus)
	withCPU = !slices.ContainsFunc(cpus, func(c float64) bool { return c <= 0 })
	for _, it := range r.Iterations {
		if !deviant(it, median, threshold) {
			continue
		}
		n++
		if !withCPU || math.Abs(stats.Deviation(cpu, it.CPU)) >= threshold {
			erratic++
		}
	}
	return n, erratic, withCPU
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
// of the iterations configured, and those whose rejects, fewer than
// runner.retry_limit, are more than runner.warn_rejects_above percent of
// what they measured ([Samples.ShareWarns]), each with the count and the
// worst variants (at most three named); and, with
// warn_rejects_above on, those whose rejects reached runner.retry_limit
// while more than that share of the iterations they kept still deviate in
// their thread CPU time, or in wall time where it was not measured, which
// the line then says ([Samples.LimitWarns], [Samples.CPUTime]; with the
// shipped defaults, 50 rounds and a limit of 10, neither share can be
// crossed otherwise), and, in a line of their own, those that kept that
// share deviating but not in thread CPU time, the others in wall time
// alone ([Samples.BusyWarns]: the machine was busy), with how many in
// wall time alone ([Samples.WallAlone]). None when both are off or no
// variant crosses them.
func (run *Run) SampleWarnings() []string {
	c := run.Config.Runner
	var out []string
	type loss struct {
		id string
		s  Samples
	}
	var few, rejected, limited, busy []loss
	for i := range run.Results {
		r := &run.Results[i]
		s := run.SamplesOf(r)
		if s.KeptWarns(c.WarnKeptBelow) {
			few = append(few, loss{r.ID(), s})
		}
		if s.ShareWarns(c.WarnRejectsAbove, c.RetryLimit) {
			rejected = append(rejected, loss{r.ID(), s})
		}
		if s.LimitWarns(c.WarnRejectsAbove) {
			limited = append(limited, loss{r.ID(), s})
		}
		if s.BusyWarns(c.WarnRejectsAbove) {
			busy = append(busy, loss{r.ID(), s})
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
		slices.SortStableFunc(limited, func(a, b loss) int { return cmp.Compare(b.s.ErraticShare(), a.s.ErraticShare()) })
		// In thread CPU time where it was measured: a run stored
		// before it was, or made on another system than Linux, has
		// the wall time's deviation alone.
		in := ""
		switch n := len(slices.DeleteFunc(slices.Clone(limited), func(l loss) bool { return !l.s.CPUTime })); {
		case n == len(limited):
			in = " in thread CPU time"
		case n > 0:
			in = " in thread CPU time, or in wall time where it was not measured"
		}
		out = append(out, fmt.Sprintf("%d of %d variants reached runner.retry_limit (%d rejects) and kept more than %g%% of their iterations still deviating by runner.retry_threshold%s (runner.warn_rejects_above): %s",
			len(limited), len(run.Results), c.RetryLimit, c.WarnRejectsAbove, in, name(limited, func(s Samples) string {
				return fmt.Sprintf("%d of %d kept deviate", s.Erratic, s.Kept)
			})))
	}
	if len(busy) > 0 {
		// Worst first by the share deviating in wall time alone, what
		// the line is about.
		alone := func(s Samples) float64 { return float64(s.WallAlone()) / float64(max(s.Kept, 1)) }
		slices.SortStableFunc(busy, func(a, b loss) int { return cmp.Compare(alone(b.s), alone(a.s)) })
		out = append(out, fmt.Sprintf("%d of %d variants kept, at runner.retry_limit, more than %g%% of their iterations deviating by runner.retry_threshold but no more than that share in thread CPU time, the others in wall time alone, their thread CPU time steady (other work ran on their core: the machine was busy): %s",
			len(busy), len(run.Results), c.WarnRejectsAbove, name(busy, func(s Samples) string {
				return fmt.Sprintf("%d of %d kept deviate, %d in wall time alone", s.Deviant, s.Kept, s.WallAlone())
			})))
	}
	return out
}
