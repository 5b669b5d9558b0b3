package bench

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/josebench/josebench/bench/stats"
)

// Summary is the console summary of a run's results: phpbench's counts,
// then a line per subject. phpbench follows its counts with the best,
// mean, mode and worst time and the mean stdev over every variant, figures
// that mean nothing across RSA signing and HMAC verification; josebench
// gives per subject instead the spread of its variants and the fastest and
// slowest of them.
type Summary struct {
	Subjects   int // distinct (benchmark, subject) pairs, as phpbench counts subjects
	Variants   int // variants measured (subject × parameter set)
	Iterations int // accepted iterations, summed over the variants
	Revs       int // revolutions per iteration, summed over the variants (not × iterations)
	Rejects    int // rejected iterations, summed over the variants
	// BySubject holds one line per subject measured (benchSignature,
	// benchVerification, ...), in the order of [Subjects].
	BySubject []SubjectSummary
}

// SubjectSummary sums up the variants of one subject.
type SubjectSummary struct {
	Subject    string // benchSignature, benchVerification, ...
	Variants   int    // variants of the subject
	Iterations int    // accepted iterations, summed over them
	Rejects    int    // rejected iterations, summed over them
	// RStdev is the median of the variants' rstdevs, %: how noisy a
	// typical variant's iterations were.
	RStdev float64
	// MaxRStdev is the largest rstdev of a variant, %.
	MaxRStdev float64
	// Fastest and Slowest are the variants of the smallest and the largest
	// median time per revolution ([Result.Median], ns).
	Fastest, Slowest SummaryVariant
}

// SummaryVariant names a variant of a [SubjectSummary] and gives its
// median time per revolution, ns.
type SummaryVariant struct {
	Benchmark string
	Set       string
	Median    float64
}

// Summarize returns the summary of results. Variants without accepted
// iterations count in the totals but have no time or rstdev.
func Summarize(results []Result) Summary {
	var s Summary
	type pair struct{ benchmark, subject string }
	subjects := map[pair]bool{}
	by := map[string]*SubjectSummary{}
	rsds := map[string][]float64{}
	for i := range results {
		r := &results[i]
		subjects[pair{r.Benchmark, r.Subject}] = true
		s.Variants++
		s.Iterations += len(r.Iterations)
		s.Revs += r.Revs
		s.Rejects += r.Rejects
		ss := by[r.Subject]
		if ss == nil {
			ss = &SubjectSummary{Subject: r.Subject}
			by[r.Subject] = ss
		}
		ss.Variants++
		ss.Iterations += len(r.Iterations)
		ss.Rejects += r.Rejects
		if len(r.Iterations) == 0 {
			continue
		}
		v := SummaryVariant{Benchmark: r.Benchmark, Set: r.Set(), Median: r.Median}
		if len(rsds[r.Subject]) == 0 || v.Median < ss.Fastest.Median {
			ss.Fastest = v
		}
		if len(rsds[r.Subject]) == 0 || v.Median > ss.Slowest.Median {
			ss.Slowest = v
		}
		rsds[r.Subject] = append(rsds[r.Subject], r.Stats.RStdev)
	}
	s.Subjects = len(subjects)
	order := slices.Clone(Subjects)
	for name := range by {
		if !slices.Contains(order, name) {
			order = append(order, name) // not a known subject: after them, sorted
		}
	}
	slices.Sort(order[len(Subjects):])
	for _, name := range order {
		ss := by[name]
		if ss == nil {
			continue
		}
		if x := rsds[name]; len(x) > 0 {
			ss.RStdev, ss.MaxRStdev = stats.Median(x), slices.Max(x)
		}
		s.BySubject = append(s.BySubject, *ss)
	}
	return s
}

// Write prints the summary: phpbench's counts, with the count of variants
// after that of subjects, then a table of the subjects, times in unit:
//
//	3 subjects, 6 variants, 300 iterations, 12,000 revs, 4 rejects
//	subject            variants  its  rejects  rstdev (max)   fastest (μs)        slowest (μs)
//	benchSignature            3  150        3  1.2% (4.0%)   1.275 HS256Bench  1,310.644 RS256Bench
//	benchVerification         3  150        1  0.9% (2.1%)   1.302 HS256Bench     41.917 RS256Bench
//
// rstdev is the median of the variants' rstdevs (the largest in
// parentheses); fastest and slowest are the variants of the smallest and
// largest median, named by benchmark.
func (s Summary) Write(w io.Writer, unit TimeUnit) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s subjects, %s variants, %s iterations, %s revs, %s rejects\n",
		Thousands(s.Subjects), Thousands(s.Variants), Thousands(s.Iterations), Thousands(s.Revs), Thousands(s.Rejects))
	if len(s.BySubject) > 0 {
		sym := unit.Symbol()
		rows := [][]string{{"subject", "variants", "its", "rejects", "rstdev (max)", "fastest (" + sym + ")", "", "slowest (" + sym + ")", ""}}
		for _, ss := range s.BySubject {
			row := []string{ss.Subject, Thousands(ss.Variants), Thousands(ss.Iterations), Thousands(ss.Rejects), "-", "-", "", "-", ""}
			if ss.Iterations > 0 {
				row[4] = fmt.Sprintf("%.1f%% (%.1f%%)", ss.RStdev, ss.MaxRStdev)
				row[5], row[6] = groupedTime(ss.Fastest.Median, unit), ss.Fastest.Benchmark
				row[7], row[8] = groupedTime(ss.Slowest.Median, unit), ss.Slowest.Benchmark
			}
			rows = append(rows, row)
		}
		writeSummaryTable(&b, rows)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSummaryTable aligns rows: the subject left, the counts, rstdev and
// times right, the benchmark names left after their times; the header of
// a time spans its time and name.
func writeSummaryTable(b *strings.Builder, rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, row := range rows[1:] {
		for j, c := range row {
			widths[j] = max(widths[j], utf8.RuneCountInString(c))
		}
	}
	for j := range 5 {
		widths[j] = max(widths[j], utf8.RuneCountInString(rows[0][j]))
	}
	for _, j := range []int{5, 7} { // a time and its name under one header
		if h, w := utf8.RuneCountInString(rows[0][j]), widths[j]+1+widths[j+1]; h > w {
			widths[j+1] += h - w
		}
	}
	pad := func(s string, w int, right bool) string {
		n := w - utf8.RuneCountInString(s)
		if n <= 0 {
			return s
		}
		if right {
			return strings.Repeat(" ", n) + s
		}
		return s + strings.Repeat(" ", n)
	}
	for i, row := range rows {
		cells := []string{pad(row[0], widths[0], false)}
		for j := 1; j < 5; j++ {
			cells = append(cells, pad(row[j], widths[j], true))
		}
		for _, j := range []int{5, 7} {
			if i == 0 {
				cells = append(cells, pad(row[j], widths[j]+1+widths[j+1], false))
			} else {
				cells = append(cells, pad(row[j], widths[j], true)+" "+pad(row[j+1], widths[j+1], false))
			}
		}
		b.WriteString(strings.TrimRight(strings.Join(cells, "  "), " "))
		b.WriteString("\n")
	}
}

// groupedTime formats ns in unit with three decimals and commas between
// the thousands of the integer part.
func groupedTime(ns float64, unit TimeUnit) string {
	s := FormatTime(ns, unit)
	whole, frac, _ := strings.Cut(s, ".")
	n, err := strconv.Atoi(whole)
	if err != nil {
		return s
	}
	return Thousands(n) + "." + frac
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
