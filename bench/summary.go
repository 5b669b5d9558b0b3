package bench

import (
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/josebench/josebench/bench/stats"
)

// Summary is the phpbench console summary of a run's results. Each field
// has the definition of phpbench's PhpBench\Model\Summary, over the
// iteration times per revolution that phpbench's Distribution is built
// from; Variants is josebench's own addition.
type Summary struct {
	Subjects   int     // distinct (benchmark, subject) pairs, as phpbench counts subjects
	Variants   int     // variants measured (subject × parameter set)
	Iterations int     // accepted iterations, summed over the variants
	Revs       int     // revolutions per iteration, summed over the variants (not × iterations)
	Rejects    int     // rejected iterations, summed over the variants
	Best       float64 // smallest iteration time of any variant, ns (min of the variants' min)
	Mean       float64 // mean of the variants' means, ns
	Mode       float64 // mean of the variants' modes, ns
	Worst      float64 // largest iteration time of any variant, ns (see [Summarize])
	Total      float64 // sum of every iteration time per revolution, ns (⅀T: the sum of the variants' sums)
	MeanStdev  float64 // mean of the variants' stdevs, ns (μSD/r)
	MeanRStdev float64 // mean of the variants' rstdevs, % (μRSD/r)
}

// Summarize returns the summary of results. phpbench's getMaxTime takes
// the smallest of the variants' worst times (min where max is meant);
// Worst here is the largest, as its name and the summary line say.
func Summarize(results []Result) Summary {
	var s Summary
	if len(results) == 0 {
		return s
	}
	type pair struct{ benchmark, subject string }
	subjects := map[pair]bool{}
	var means, modes, sds, rsds, bests, worsts []float64
	for i := range results {
		r := &results[i]
		subjects[pair{r.Benchmark, r.Subject}] = true
		s.Variants++
		s.Iterations += len(r.Iterations)
		s.Revs += r.Revs
		s.Rejects += r.Rejects
		if len(r.Iterations) == 0 {
			continue
		}
		for _, it := range r.Iterations {
			s.Total += it.Time
		}
		means = append(means, r.Stats.Mean)
		modes = append(modes, r.Stats.Mode)
		sds = append(sds, r.Stats.Stdev)
		rsds = append(rsds, r.Stats.RStdev)
		bests = append(bests, r.Stats.Best)
		worsts = append(worsts, r.Stats.Worst)
	}
	s.Subjects = len(subjects)
	if len(bests) == 0 {
		return s
	}
	s.Best, s.Worst = slices.Min(bests), slices.Max(worsts)
	s.Mean, s.Mode = stats.Mean(means), stats.Mean(modes)
	s.MeanStdev, s.MeanRStdev = stats.Mean(sds), stats.Mean(rsds)
	return s
}

// Write prints the summary as phpbench does, with the count of variants
// after that of subjects, times in unit:
//
//	2 subjects, 12 variants, 120 iterations, 12,000 revs, 0 rejects
//	(best [mean mode] worst) = 1.275 [6.783 6.790] 11.275 (μs)
//	⅀T: 813.950μs μSD/r 0.120μs μRSD/r: 1.520%
func (s Summary) Write(w io.Writer, unit TimeUnit) error {
	f := func(ns float64) string { return FormatTime(ns, unit) }
	_, err := fmt.Fprintf(w, "%s subjects, %s variants, %s iterations, %s revs, %s rejects\n(best [mean mode] worst) = %s [%s %s] %s (%s)\n⅀T: %s%s μSD/r %s%s μRSD/r: %.3f%%\n",
		Thousands(s.Subjects), Thousands(s.Variants), Thousands(s.Iterations), Thousands(s.Revs), Thousands(s.Rejects),
		f(s.Best), f(s.Mean), f(s.Mode), f(s.Worst), unit.Symbol(),
		f(s.Total), unit.Symbol(), f(s.MeanStdev), unit.Symbol(), s.MeanRStdev)
	return err
}

// FormatTime formats ns nanoseconds in unit with three decimals.
func FormatTime(ns float64, unit TimeUnit) string {
	d := unit.Nanos()
	if d == 0 {
		d = 1
	}
	return strconv.FormatFloat(ns/d, 'f', 3, 64)
}

// Thousands formats n with commas between groups of three digits.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}
