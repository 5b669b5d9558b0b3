package bench

import (
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/josebench/josebench/bench/stats"
)

// Summary is the phpbench console summary of a run's results.
type Summary struct {
	Subjects   int     // variants measured
	Iterations int     // accepted iterations
	Revs       int     // revolutions timed (revs × iterations, summed)
	Rejects    int     // rejected iterations
	Best       float64 // smallest best, ns
	Mean       float64 // mean of the means, ns
	Mode       float64 // mean of the modes, ns
	Worst      float64 // largest worst, ns
	Total      float64 // sum of the means, ns (phpbench's ⅀T)
	MeanStdev  float64 // mean of the stdevs, ns (μSD/r)
	MeanRStdev float64 // mean of the rstdevs, % (μRSD/r)
}

// Summarize returns the summary of results.
func Summarize(results []Result) Summary {
	var s Summary
	if len(results) == 0 {
		return s
	}
	var means, modes, sds, rsds, bests, worsts []float64
	for i := range results {
		r := &results[i]
		s.Subjects++
		s.Iterations += len(r.Iterations)
		s.Revs += r.Revs * len(r.Iterations)
		s.Rejects += r.Rejects
		means = append(means, r.Stats.Mean)
		modes = append(modes, r.Stats.Mode)
		sds = append(sds, r.Stats.Stdev)
		rsds = append(rsds, r.Stats.RStdev)
		bests = append(bests, r.Stats.Best)
		worsts = append(worsts, r.Stats.Worst)
	}
	s.Best, s.Worst = slices.Min(bests), slices.Max(worsts)
	s.Mean, s.Mode = stats.Mean(means), stats.Mean(modes)
	for _, m := range means {
		s.Total += m
	}
	s.MeanStdev, s.MeanRStdev = stats.Mean(sds), stats.Mean(rsds)
	return s
}

// Write prints the summary as phpbench does, times in unit:
//
//	12 subjects, 60 iterations, 12,000 revs, 0 rejects
//	(best [mean mode] worst) = 1.275 [6.783 6.790] 11.275 (μs)
//	⅀T: 81.395μs μSD/r 0.120μs μRSD/r: 1.520%
func (s Summary) Write(w io.Writer, unit TimeUnit) error {
	f := func(ns float64) string { return FormatTime(ns, unit) }
	_, err := fmt.Fprintf(w, "%s subjects, %s iterations, %s revs, %s rejects\n(best [mean mode] worst) = %s [%s %s] %s (%s)\n⅀T: %s%s μSD/r %s%s μRSD/r: %.3f%%\n",
		Thousands(s.Subjects), Thousands(s.Iterations), Thousands(s.Revs), Thousands(s.Rejects),
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
