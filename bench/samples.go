package bench

import (
	"cmp"
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
	// Deviant counts the iterations kept that still deviate by the rule
	// of runner.retry_threshold (from the median of those kept, or wall
	// time above thread CPU time) once the machine's common speed at the
	// moment each was measured is taken out (see [Run.Samples]); 0 with
	// retries off or in an A/B run, which has none.
	Deviant int
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

// LimitWarns reports whether the retry_limit warning of
// [Run.SampleWarnings] names the variant: its rejects reached the limit
// while more than share percent (runner.warn_rejects_above) of the
// iterations it kept still deviate. One deviating iteration in 50 does
// not: on the 2-core development VM nearly every variant of a full run
// kept at least one (933 of 935 at a load of 1), which the median of its
// rounds does not follow. Nor does a deviation that every variant
// measured at that moment shared ([Run.Samples]).
func (s Samples) LimitWarns(share float64) bool {
	return share > 0 && s.AtLimit && s.DeviantShare() > share
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

// SamplesOf returns the sample counts of result r of run. It measures
// the machine's speed over the whole run for [Samples.Deviant]: for every
// result, [Run.Samples] does that once.
func (run *Run) SamplesOf(r *Result) Samples {
	return run.samplesOf(r, run.machineSpeed())
}

// Samples returns the sample counts of every result of run, in order
// ([Run.SamplesOf]).
//
// An iteration deviates when its time, divided by the machine's common
// speed at the moment it was measured, is at least runner.retry_threshold
// percent off the median of the variant's iterations so divided, or when
// its wall time exceeds its thread CPU time by that much more than the
// iterations measured around it do. The common speed is the median, over
// the speedNeighbours iterations of other variants (the calibration
// workload included) measured nearest before and after it
// ([Iteration.Seq]), of their time divided by their variant's median: a
// phase of the machine (a slower core, other work descheduling every
// variant) is then not counted as the variant's deviation, while a
// variant that is itself erratic (a subject that sometimes does ten times
// its work) is. In runs stored before [Iteration.Seq] was recorded, or
// with too few variants to tell the machine from the variant, the speed
// is 1: the deviation is from the variant's median alone.
func (run *Run) Samples() []Samples {
	speed := run.machineSpeed()
	out := make([]Samples, len(run.Results))
	for i := range run.Results {
		out[i] = run.samplesOf(&run.Results[i], speed)
	}
	return out
}

func (run *Run) samplesOf(r *Result, speed map[*Iteration]moment) Samples {
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
	dev := 0
	if run.Against == nil && c.RetryThreshold > 0 {
		dev = deviantCount(r, c.RetryThreshold, speed)
	}
	atLimit := dev > 0 && c.RetryLimit > 0 && r.Rejects >= c.RetryLimit
	return Samples{Rounds: rounds, RoundsKept: kept, Configured: rounds * per, Kept: len(r.Iterations), Rejected: r.Rejects, Deviant: dev, AtLimit: atLimit}
}

// speedNeighbours is how many iterations of other variants, measured
// nearest before and after an iteration (as many on each side where the
// run has them), give the machine's speed at its moment: about 16 ms of
// the run with the default 1 ms iterations, shorter than the phases in
// which a shared machine's speed moves, and enough that one other
// erratic variant among them does not move their median.
const speedNeighbours = 16

// moment is the machine's common speed when an iteration was measured:
// the time of the iterations of other variants measured around it, each
// divided by its variant's median, and their wall time over thread CPU
// time (1 where not measured), as medians.
type moment struct {
	time, waited float64
}

// machineSpeed returns the common speed ([moment]) of the moment of every
// iteration of run's results, or nil when the run did not record
// [Iteration.Seq] for all of them, is an A/B run or has retries off (and
// so nothing to count).
func (run *Run) machineSpeed() map[*Iteration]moment {
	if run.Against != nil || run.Config.Runner.RetryThreshold <= 0 {
		return nil
	}
	type entry struct {
		it    *Iteration
		owner int
		ratio float64 // time over the owner's median
	}
	var all []entry
	add := func(owner int, r *Result) bool {
		if len(r.Iterations) == 0 {
			return true
		}
		median := stats.Median(r.Times())
		for k := range r.Iterations {
			it := &r.Iterations[k]
			if it.Seq <= 0 || median <= 0 {
				return false
			}
			all = append(all, entry{it, owner, it.Time / median})
		}
		return true
	}
	for i := range run.Results {
		if !add(i, &run.Results[i]) {
			return nil
		}
	}
	if run.Calibration != nil && !add(len(run.Results), run.Calibration) {
		return nil
	}
	slices.SortFunc(all, func(a, b entry) int { return a.it.Seq - b.it.Seq })
	out := make(map[*Iteration]moment, len(all))
	ratios := make([]float64, 0, speedNeighbours)
	waits := make([]float64, 0, speedNeighbours)
	for k, e := range all {
		if e.owner == len(run.Results) {
			continue // the calibration's own moments count nothing
		}
		// The nearest iterations of other owners, alternately after and
		// before, then from the side that has more.
		ratios, waits = ratios[:0], waits[:0]
		lo, hi := k-1, k+1
		take := func(j int) {
			if o := all[j]; o.owner != e.owner {
				ratios = append(ratios, o.ratio)
				if o.it.CPU > 0 {
					waits = append(waits, o.it.Time/o.it.CPU)
				}
			}
		}
		for len(ratios) < speedNeighbours && (lo >= 0 || hi < len(all)) {
			if hi < len(all) {
				take(hi)
				hi++
			}
			if lo >= 0 && len(ratios) < speedNeighbours {
				take(lo)
				lo--
			}
		}
		if len(ratios) < speedNeighbours {
			// Too few other iterations in the whole run to tell the
			// machine from the variant.
			return nil
		}
		m := moment{time: stats.Median(ratios), waited: 1}
		if len(waits) >= speedNeighbours/2 {
			m.waited = max(stats.Median(waits), 1)
		}
		out[e.it] = m
	}
	return out
}

// deviantCount counts the iterations of r that deviate by the retry rule
// ([deviant]) once the common speed of their moment (speed, nil for none)
// is taken out; see [Run.Samples].
func deviantCount(r *Result, threshold float64, speed map[*Iteration]moment) int {
	if len(r.Iterations) == 0 {
		return 0
	}
	at := func(it *Iteration) moment {
		if m, ok := speed[it]; ok {
			return m
		}
		return moment{time: 1, waited: 1}
	}
	norm := make([]float64, len(r.Iterations))
	for k := range r.Iterations {
		norm[k] = r.Iterations[k].Time / at(&r.Iterations[k]).time
	}
	median := stats.Median(norm)
	n := 0
	for k := range r.Iterations {
		it := r.Iterations[k]
		m := at(&r.Iterations[k])
		// The iteration as the machine's moment left it: its time and
		// its wall time beyond CPU time divided by the common ones.
		it.Time = norm[k]
		it.CPU *= m.waited / m.time
		if deviant(it, median, threshold) {
			n++
		}
	}
	return n
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
// warn_rejects_above on, those whose rejects reached runner.retry_limit
// while more than that share of the iterations they kept still deviate
// ([Samples.LimitWarns]; with the shipped defaults, 50 rounds and a limit
// of 10, neither share can be crossed otherwise). None when both are off
// or no variant crosses them.
func (run *Run) SampleWarnings() []string {
	c := run.Config.Runner
	var out []string
	type loss struct {
		id string
		s  Samples
	}
	var few, rejected, limited []loss
	samples := run.Samples()
	for i := range run.Results {
		r := &run.Results[i]
		s := samples[i]
		if c.WarnKeptBelow > 0 && s.KeptShare() < c.WarnKeptBelow {
			few = append(few, loss{r.ID(), s})
		}
		if c.WarnRejectsAbove > 0 && s.RejectShare() > c.WarnRejectsAbove {
			rejected = append(rejected, loss{r.ID(), s})
		}
		if s.LimitWarns(c.WarnRejectsAbove) {
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
		slices.SortStableFunc(limited, func(a, b loss) int { return cmp.Compare(b.s.DeviantShare(), a.s.DeviantShare()) })
		out = append(out, fmt.Sprintf("%d of %d variants reached runner.retry_limit (%d rejects) and kept more than %g%% of their iterations still deviating by runner.retry_threshold (runner.warn_rejects_above): %s",
			len(limited), len(run.Results), c.RetryLimit, c.WarnRejectsAbove, name(limited, func(s Samples) string {
				return fmt.Sprintf("%d of %d kept deviate", s.Deviant, s.Kept)
			})))
	}
	return out
}
