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
	// Name is the benchmark followed by the parameters that tell the
	// variant from the subject's other variants of that benchmark, alg
	// left out ("RSAOAEPBench enc=A128GCM,bits=2048"); the benchmark
	// alone when it has one variant of the subject.
	Name string
}

// Summarize returns the summary of results. Variants without accepted
// iterations count in the totals but have no time or rstdev.
func Summarize(results []Result) Summary {
	var s Summary
	type pair struct{ benchmark, subject string }
	subjects := map[pair]bool{}
	by := map[string]*SubjectSummary{}
	rsds := map[string][]float64{}
	fastest, slowest := map[string]*Result{}, map[string]*Result{}
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
			ss.Fastest, fastest[r.Subject] = v, r
		}
		if len(rsds[r.Subject]) == 0 || v.Median > ss.Slowest.Median {
			ss.Slowest, slowest[r.Subject] = v, r
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
			ss.Fastest.Name = summaryName(results, fastest[name])
			ss.Slowest.Name = summaryName(results, slowest[name])
		}
		s.BySubject = append(s.BySubject, *ss)
	}
	return s
}

// summaryName returns the [SummaryVariant.Name] of r among results: its
// benchmark, and the parameters (alg left out) whose values differ among
// the results of the same benchmark and subject.
func summaryName(results []Result, r *Result) string {
	var vary []string
	for _, p := range r.Params {
		if p.Name == "alg" {
			continue
		}
		for i := range results {
			o := &results[i]
			if o.Benchmark == r.Benchmark && o.Subject == r.Subject && o.Param(p.Name) != p.Value {
				vary = append(vary, p.Name+"="+p.Value)
				break
			}
		}
	}
	if len(vary) == 0 {
		return r.Benchmark
	}
	return r.Benchmark + " " + strings.Join(vary, ",")
}

// summaryWidth is the width, in columns, that the summary's table keeps
// to, as the console report does: wider, the fastest and slowest variants
// are named on lines of their own.
const summaryWidth = 120

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
// largest median, named by benchmark and the parameters that tell them
// from the subject's other variants of it ([SummaryVariant.Name]). When
// that table is wider than 120 columns, it gives the times alone and
// names the variants on a line under each subject (two when one is too
// long):
//
//	benchDecryption        18   36       95  2.4% (62.3%)       975.930    34,833.378
//	  fastest: RSA1_5Bench enc=A256CBC-HS512,bits=2048; slowest: RSA1_5Bench enc=A192CBC-HS384,bits=4096
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
				row[5], row[6] = groupedTime(ss.Fastest.Median, unit), orBenchmark(ss.Fastest)
				row[7], row[8] = groupedTime(ss.Slowest.Median, unit), orBenchmark(ss.Slowest)
			}
			rows = append(rows, row)
		}
		var t strings.Builder
		writeSummaryTable(&t, rows, nil)
		if maxLineWidth(t.String()) > summaryWidth {
			// Too wide: the times in the table, the names under each
			// subject, on one line or, longer, on two.
			names := make([]string, len(rows))
			for i, ss := range s.BySubject {
				row := rows[i+1]
				if ss.Iterations == 0 {
					continue
				}
				f, sl := orBenchmark(ss.Fastest), orBenchmark(ss.Slowest)
				if line := "  fastest: " + f + "; slowest: " + sl; utf8.RuneCountInString(line) <= summaryWidth {
					names[i+1] = line
				} else {
					names[i+1] = "  fastest: " + f + "\n  slowest: " + sl
				}
				row[6], row[8] = "", ""
			}
			t.Reset()
			writeSummaryTable(&t, rows, names)
		}
		b.WriteString(t.String())
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSummaryTable aligns rows: the subject left, the counts, rstdev and
// times right, the benchmark names left after their times; the header of
// a time spans its time and name.
//
// names[i], when not empty, is printed after row i.
func writeSummaryTable(b *strings.Builder, rows [][]string, names []string) {
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
		h := utf8.RuneCountInString(rows[0][j])
		switch w := widths[j] + 1 + widths[j+1]; {
		case widths[j+1] == 0: // no names: the time right under its header
			widths[j] = max(widths[j], h)
		case h > w:
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
			switch {
			case widths[j+1] == 0:
				cells = append(cells, pad(row[j], widths[j], true))
			case i == 0:
				cells = append(cells, pad(row[j], widths[j]+1+widths[j+1], false))
			default:
				cells = append(cells, pad(row[j], widths[j], true)+" "+pad(row[j+1], widths[j+1], false))
			}
		}
		b.WriteString(strings.TrimRight(strings.Join(cells, "  "), " "))
		b.WriteString("\n")
		if i < len(names) && names[i] != "" {
			b.WriteString(names[i] + "\n")
		}
	}
}

// orBenchmark returns the name of v, its benchmark for a SummaryVariant
// made without one.
func orBenchmark(v SummaryVariant) string {
	if v.Name == "" {
		return v.Benchmark
	}
	return v.Name
}

// maxLineWidth returns the columns of the longest line of s.
func maxLineWidth(s string) int {
	n := 0
	for line := range strings.Lines(s) {
		n = max(n, utf8.RuneCountInString(strings.TrimSuffix(line, "\n")))
	}
	return n
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
