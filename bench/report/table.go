package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/bench/stats"
)

// DefaultTitle is the title of every report unless its definition gives
// another, as the PHP suite's phpbench.json.
const DefaultTitle = "Jose Performance Test Suite"

// kind is how a cell's value is formatted.
type kind int

const (
	text        kind = iota // a string
	missing                 // no value: "-" (or "new", "n/a"), null in json, empty in csv
	integer                 // an int
	number                  // a float with two decimals (z-value)
	timeNS                  // nanoseconds, shown in the run's time unit
	percent                 // a percentage
	signed                  // a signed percentage (+1.20%); s "~" marks it within noise
	percentSpan             // an interval of signed percentages, f to g
	countSpan               // an interval of counts (operations per second), f to g
)

// Cell is one value of a table.
type Cell struct {
	kind kind
	s    string
	f, g float64
}

// sampleWarning is the sample_warning cell of r: what of
// [bench.Run.SampleWarnings] concerns it, or none.
func sampleWarning(run *bench.Run, r *bench.Result) Cell {
	c := run.Config.Runner
	s := run.SamplesOf(r)
	var w []string
	if s.KeptWarns(c.WarnKeptBelow) {
		w = append(w, fmt.Sprintf("kept %d of %d", s.Kept, s.Configured))
	}
	if s.ShareWarns(c.WarnRejectsAbove, c.RetryLimit) {
		w = append(w, fmt.Sprintf("%.0f%% rejected", s.RejectShare()))
	}
	if s.LimitWarns(c.WarnRejectsAbove) {
		w = append(w, fmt.Sprintf("retry_limit reached, %d of %d kept deviate", s.Erratic, s.Kept))
	}
	if s.BusyWarns(c.WarnRejectsAbove) {
		w = append(w, fmt.Sprintf("retry_limit reached, %d of %d kept deviate, %d in wall time alone", s.Deviant, s.Kept, s.WallAlone()))
	}
	if len(w) == 0 {
		return Cell{kind: missing, s: "-"}
	}
	return Cell{kind: text, s: strings.Join(w, ", ")}
}

// sampleColumns are the columns of what a variant kept and rejected,
// added to every report that lacks them.
var sampleColumns = []string{"rounds", "its", "rejects"}

// none is the cell of a value that does not exist.
var none = Cell{kind: missing, s: "-"}

// Table is a rendered report before output formatting.
type Table struct {
	Title   string
	Run     *bench.Run
	Unit    bench.TimeUnit
	Columns []string
	Rows    [][]Cell
	Notes   []string // footnotes

	ref    *bench.Run // the reference run compared with, or nil
	metric Metric     // what the comparison compares
	detect float64    // Options.Detect
}

// column computes one column of a report for a result and, in the default
// report, one of its iterations (it < 0 otherwise).
type column func(r *bench.Result, it int) Cell

var columns = map[string]column{
	"benchmark": func(r *bench.Result, _ int) Cell { return Cell{kind: text, s: r.Benchmark} },
	"groups":    func(r *bench.Result, _ int) Cell { return Cell{kind: text, s: strings.Join(r.Groups, ",")} },
	"subject":   func(r *bench.Result, _ int) Cell { return Cell{kind: text, s: r.Subject} },
	"set":       func(r *bench.Result, _ int) Cell { return Cell{kind: text, s: r.Set()} },
	"revs":      func(r *bench.Result, _ int) Cell { return Cell{kind: integer, f: float64(r.Revs)} },
	"its":       func(r *bench.Result, _ int) Cell { return Cell{kind: integer, f: float64(len(r.Iterations))} },
	// rounds: see Table.row, which has the run.
	"rounds":  func(r *bench.Result, _ int) Cell { return Cell{kind: integer, f: float64(len(r.RoundTimes()))} },
	"iter":    func(r *bench.Result, it int) Cell { return Cell{kind: integer, f: float64(it)} },
	"rejects": func(r *bench.Result, _ int) Cell { return Cell{kind: integer, f: float64(r.Rejects)} },
	"best":    func(r *bench.Result, _ int) Cell { return Cell{kind: timeNS, f: r.Stats.Best} },
	"mean":    func(r *bench.Result, _ int) Cell { return Cell{kind: timeNS, f: r.Stats.Mean} },
	"mode":    func(r *bench.Result, _ int) Cell { return Cell{kind: timeNS, f: r.Stats.Mode} },
	"median":  func(r *bench.Result, _ int) Cell { return Cell{kind: timeNS, f: r.Stats.Median} },
	"worst":   func(r *bench.Result, _ int) Cell { return Cell{kind: timeNS, f: r.Stats.Worst} },
	"interval": func(r *bench.Result, _ int) Cell {
		if r.Median <= 0 {
			return none
		}
		return Cell{kind: percentSpan, f: (r.Interval.Lo/r.Median - 1) * 100, g: (r.Interval.Hi/r.Median - 1) * 100}
	},
	"round":  func(r *bench.Result, it int) Cell { return Cell{kind: integer, f: float64(r.Iterations[it].Round)} },
	"stdev":  func(r *bench.Result, _ int) Cell { return Cell{kind: timeNS, f: r.Stats.Stdev} },
	"rstdev": func(r *bench.Result, _ int) Cell { return Cell{kind: percent, f: r.Stats.RStdev} },
	// Bytes and allocations per operation are whole numbers, as
	// `go test -benchmem` prints them (the mean over the iterations,
	// truncated).
	"bytes": func(r *bench.Result, it int) Cell {
		if it >= 0 {
			return Cell{kind: integer, f: float64(r.Iterations[it].Bytes)}
		}
		return Cell{kind: integer, f: math.Floor(r.Bytes)}
	},
	"allocs": func(r *bench.Result, it int) Cell {
		if it >= 0 {
			return Cell{kind: integer, f: float64(r.Iterations[it].Allocs)}
		}
		return Cell{kind: integer, f: math.Floor(r.Allocs)}
	},
	"time_rev": func(r *bench.Result, it int) Cell { return Cell{kind: timeNS, f: r.Iterations[it].Time} },
	"cpu":      func(r *bench.Result, _ int) Cell { return cpuCell(r.CPU) },
	"cpu_rev":  func(r *bench.Result, it int) Cell { return cpuCell(r.Iterations[it].CPU) },
	"z_value": func(r *bench.Result, it int) Cell {
		return Cell{kind: number, f: stats.ZScore(r.Times(), r.Iterations[it].Time)}
	},
	"deviation": func(r *bench.Result, it int) Cell {
		return Cell{kind: signed, f: stats.Deviation(r.Stats.Mean, r.Iterations[it].Time)}
	},
}

// cpuCell shows a thread CPU time, or "-" when it was not measured.
func cpuCell(ns float64) Cell {
	if ns <= 0 {
		return none
	}
	return Cell{kind: timeNS, f: ns}
}

// Options select a report and its output.
type Options struct {
	Report string     // simple, default, aggregate or a name defined in the run's config
	Ref    *bench.Run // a run to compare with (simple and aggregate reports), or nil
	Metric Metric     // what the comparison compares; "" means MetricTime
	Alpha  float64    // significance level of the comparison; 0 means DefaultAlpha
	// Detect is the change, in percent, that a comparison between stored
	// runs must be able to detect (run --fail-slower); a variant whose
	// interval is too wide for it is not comparable (see [CompareFor]).
	// 0 means DefaultDetect.
	Detect float64
	// RefRounds is the fewest rounds, on either side, of a comparison
	// between stored runs without a warning (see [ShortRounds]); 0 means
	// the run's runner.ref_rounds (or runner.rounds when that is 0).
	RefRounds int
}

// Build computes the table of a report of run.
func Build(run *bench.Run, opts Options) (*Table, error) {
	name := opts.Report
	if name == "" {
		name = bench.ReportAggregate
	}
	base, title, cols := name, DefaultTitle, bench.ReportColumns[name]
	if cols == nil {
		def, ok := run.Config.Reports[name]
		if !ok {
			return nil, fmt.Errorf("report: unknown report %q (known: %s)", name, strings.Join(run.Config.ReportNames(), ", "))
		}
		base = def.Extends
		cols = bench.ReportColumns[base]
		if cols == nil {
			return nil, fmt.Errorf("report: report %q extends unknown report %q", name, def.Extends)
		}
		if def.Title != "" {
			title = def.Title
		}
		if len(def.Cols) > 0 {
			cols = def.Cols
		}
	}
	unit := run.Config.Runner.TimeUnit
	if unit.Nanos() == 0 {
		unit = bench.Microseconds
	}
	// Every report says what each variant kept and rejected (the console
	// never leaves these out).
	if base != bench.ReportDefault {
		for _, c := range sampleColumns {
			if !slices.Contains(cols, c) {
				cols = append(slices.Clip(cols), c)
			}
		}
	}
	t := &Table{Title: title, Run: run, Unit: unit, Columns: cols}
	for i := range run.Results {
		r := &run.Results[i]
		if base == bench.ReportDefault {
			for it := range r.Iterations {
				t.Rows = append(t.Rows, t.row(r, it))
			}
			continue
		}
		t.Rows = append(t.Rows, t.row(r, -1))
	}
	if run.Incomplete {
		t.Notes = append(t.Notes, incompleteNote(run))
	}
	if base != bench.ReportDefault {
		r := run.Config.Runner
		per := max(r.Iterations, 1)
		if run.Against != nil {
			per = max(per, 3)
		}
		t.Notes = append(t.Notes, fmt.Sprintf("rounds, its: the rounds and iterations kept of the %d rounds of %d iterations configured; rejects: iterations rejected (re-run or dropped, at most retry_limit, %d)", r.Rounds, per, r.RetryLimit))
	}
	if warnings := run.SampleWarnings(); len(warnings) > 0 {
		for _, w := range warnings {
			t.Notes = append(t.Notes, "Warning: "+w+".")
		}
		// The rows say it too, for csv, which has no notes: in the
		// default report, every iteration's row its variant's.
		t.Columns = append(t.Columns, "sample_warning")
		k := 0
		for i := range run.Results {
			w := sampleWarning(run, &run.Results[i])
			n := 1
			if base == bench.ReportDefault {
				n = len(run.Results[i].Iterations)
			}
			for range n {
				t.Rows[k] = append(t.Rows[k], w)
				k++
			}
		}
	}
	t.ref, t.metric, t.detect = opts.Ref, opts.Metric, opts.Detect
	if slices.Contains(t.Columns, "interval") {
		t.Notes = append(t.Notes, fmt.Sprintf("interval: the %.0f%% confidence interval (sign test) of the median of the rounds, relative to it: the variation from round to round", stats.DefaultConfidence*100))
		if n := fewestRounds(run); n < minRounds {
			t.Notes = append(t.Notes, fmt.Sprintf("Too few rounds for %.0f%%: with %d rounds (%d are needed), an interval is the whole range of the rounds and covers the median only with the confidence it reaches (%.1f%%).", stats.DefaultConfidence*100, n, minRounds, rangeConfidence(n)*100))
		}
	}
	if base != bench.ReportDefault {
		t.addThroughput()
	}
	if opts.Ref != nil && base != bench.ReportDefault {
		ds, dr := CompareFor(run, opts.Ref, opts.Metric, opts.Alpha, opts.Detect)
		t.addComparison(opts.Ref, opts.Metric, ds, dr, opts.Alpha)
		if p := opts.Ref.Pool; p != nil && (len(p.Runs) > 1 || len(p.Left) > 0) {
			t.Notes = append(t.Notes, fmt.Sprintf("Reference: %s (%d rounds, the newest run's first).", p, opts.Ref.RoundsDone()))
		}
		if w := ShortRounds(run, opts.Ref, opts.RefRounds); w != "" {
			t.Notes = append(t.Notes, "Warning: "+w+".")
		}
	}
	return t, nil
}

func (t *Table) row(r *bench.Result, it int) []Cell {
	row := make([]Cell, len(t.Columns))
	for i, c := range t.Columns {
		if c == "rounds" {
			row[i] = Cell{kind: integer, f: float64(t.Run.SamplesOf(r).RoundsKept)}
		} else if f, ok := columns[c]; ok {
			row[i] = f(r, it)
		}
	}
	return row
}

// addComparison appends the reference mean, the difference and its
// interval.
func (t *Table) addComparison(ref *bench.Run, m Metric, deltas []Delta, dr Drift, alpha float64) {
	if alpha <= 0 || alpha >= 1 {
		alpha = DefaultAlpha
	}
	what, side := "time", "run "+ref.ID
	refCol, diffCol := "ref_mean", "diff"
	if m == MetricCPU {
		refCol, diffCol, what = "ref_cpu", "diff_cpu", "thread CPU time"
	}
	if t.Run.Against == ref {
		refCol, side = "base_mean", "the other build"
		if m == MetricCPU {
			refCol = "base_cpu"
		}
		if rev := ref.Env.Revision(); rev != "" {
			side += " (commit " + rev + ")"
		}
	}
	t.Columns = append(t.Columns, refCol, diffCol, "diff_interval")
	refs := resultsByID(ref)
	for i := range t.Rows {
		d := deltas[i]
		switch {
		case d.NoData:
			t.Rows[i] = append(t.Rows[i], none, Cell{kind: missing, s: "n/a"}, none)
			continue
		case !d.Found:
			t.Rows[i] = append(t.Rows[i], none, Cell{kind: missing, s: "new"}, none)
			continue
		case d.NotComparable != "":
			t.Rows[i] = append(t.Rows[i], Cell{kind: timeNS, f: refMeanOf(refs[d.ID], d, m)}, Cell{kind: missing, s: "not comparable"}, none)
			continue
		}
		diff := Cell{kind: signed, f: d.Percent}
		if d.Noise {
			diff.s = "~"
		}
		t.Rows[i] = append(t.Rows[i], Cell{kind: timeNS, f: refMeanOf(refs[d.ID], d, m)}, diff, Cell{kind: percentSpan, f: d.Lo(), g: d.Hi()})
	}
	if t.Run.Against == ref {
		t.Notes = append(t.Notes,
			fmt.Sprintf("%s: change of the %s from %s, the median of the ratios of the rounds paired in order (the best iteration of each); diff_interval: its %.0f%% confidence interval (sign test); ~ marks a change whose interval includes 0", diffCol, what, side, (1-alpha)*100))
	} else {
		t.Notes = append(t.Notes, driftNote(dr, comparedOf(deltas), diffCol, what, side, alpha))
		if dr.SharedCount > 0 {
			t.Notes = append(t.Notes, fmt.Sprintf("%s: %d of %d variants not comparable: %s; only a variant beyond it either way is compared", diffCol, dr.SharedCount, dr.Variants, dr.Shared))
		}
		if dr.TooNoisy > 0 {
			t.Notes = append(t.Notes, tooNoisyNote(dr, diffCol))
		}
	}
	few := math.MaxInt
	for _, d := range deltas {
		if d.TooFew {
			few = min(few, d.Pairs)
		}
	}
	if few < math.MaxInt {
		t.Notes = append(t.Notes, fmt.Sprintf("Too few rounds paired: with %d pairs no interval reaches %.0f%% (%d pairs are needed), so those changes are marked ~ and --fail-slower ignores them; diff_interval is the whole range of the ratios.", few, (1-alpha)*100, minRounds))
	}
}

// tooNoisyNote says which variants were too noisy to compare.
func tooNoisyNote(dr Drift, diffCol string) string {
	return fmt.Sprintf("%s: %d of %d variants not comparable, too noisy: the run or the reference varied so much that their interval is wider than the %g%% to detect (--fail-slower), and a change of that size could not have shown; compare builds in the same rounds with run --against instead", diffCol, dr.TooNoisy, dr.Variants, dr.Detect)
}

// refMeanOf is the reference's mean of the metric compared, for the
// ref_mean column.
func refMeanOf(r *bench.Result, d Delta, m Metric) float64 {
	switch {
	case r == nil:
		return d.Ref
	case m == MetricCPU:
		return r.CPU
	}
	return r.Stats.Mean
}

// driftNote explains the diff of a comparison between stored runs: what
// was divided out, and the drift included in the interval, or why the
// runs are not comparable.
func driftNote(dr Drift, compared, diffCol, what, side string, alpha float64) string {
	if dr.NotComparable != "" {
		return fmt.Sprintf("%s: not comparable with %s: %s; compare builds in the same rounds with run --against instead", diffCol, side, dr.NotComparable)
	}
	common := "the geometric mean of the ratios of the variants compared that agree with their median"
	left := "left between the variants"
	shared := "a change that more than half the variants share is taken for the machine's: not claimed, and the other variants seem to change the other way"
	if !dr.FromVariants {
		common = "the calibration workload's ratio"
		shared = "the calibration workload follows the machine only roughly"
		left = "assumed with fewer than 5 variants"
	}
	cal := "no calibration workload"
	if dr.Calibrated && dr.Calibration.Found {
		cal = fmt.Sprintf("the calibration workload %+.1f%%", dr.Calibration.Percent)
	}
	if !dr.FromVariants {
		return fmt.Sprintf("%s: change of the %s from %s, %s, divided by the change common to the run, %+.1f%% (%s; %s): %s; diff_interval: its %.0f%% confidence interval, the round-to-round noise with the calibration's and a run-to-run drift of %.1f%% (standard deviation) %s; ~ marks a change whose interval includes 0", diffCol, what, side, compared, (dr.Common-1)*100, common, cal, shared, (1-alpha)*100, dr.Spread*100, left)
	}
	return fmt.Sprintf("%s: change of the %s from %s, %s, divided by the change common to the run, %+.1f%% (%s, %d of %d kept; %s): %s; diff_interval: its %.0f%% confidence interval, the variant's round-to-round noise and the run-to-run drift of one variant, %.1f%% (standard deviation), estimated from the other variants (Student's t); ~ marks a change whose interval includes 0", diffCol, what, side, compared, (dr.Common-1)*100, common, dr.Kept, dr.Variants, cal, shared, (1-alpha)*100, dr.Spread*100)
}

// comparedOf says what the raw change of the variants of a comparison
// between stored runs is: the ratio of a quantile of the rounds (with
// enough rounds on both sides), or the median of the paired ratios.
func comparedOf(deltas []Delta) string {
	// CompareFor takes one statistic for every variant of a comparison
	// (the paired median for all when any is short of rounds).
	for _, d := range deltas {
		if d.Found && d.Quantile > 0 {
			return fmt.Sprintf("the ratio of the %s percentiles of the rounds (the best iteration of each; order-statistic intervals)", ordinal(d.Quantile*100))
		}
	}
	return "the median of the ratios of the rounds paired in order (the best iteration of each; sign-test interval)"
}

// ordinal returns "2nd" for 2, "5th" for 5, "2.5th" for 2.5.
func ordinal(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if x != math.Trunc(x) {
		return s + "th"
	}
	switch n := int(x); {
	case n%100 >= 11 && n%100 <= 13:
		return s + "th"
	case n%10 == 1:
		return s + "st"
	case n%10 == 2:
		return s + "nd"
	case n%10 == 3:
		return s + "rd"
	}
	return s + "th"
}

// addThroughput appends, when the run measured throughput (run
// --parallel N), the operations per second of one goroutine (from the
// median time) and of N goroutines sharing one operation, with its
// interval.
func (t *Table) addThroughput() {
	n := 0
	for i := range t.Run.Results {
		if p := t.Run.Results[i].Parallel; p != nil {
			n = p.Goroutines
		}
	}
	if n == 0 || len(t.Rows) != len(t.Run.Results) {
		return
	}
	t.Columns = append(t.Columns, "ops_s", "par_ops_s", "par_interval")
	for i := range t.Rows {
		r := &t.Run.Results[i]
		one := none
		if r.Median > 0 {
			one = Cell{kind: integer, f: math.Round(1e9 / r.Median)}
		}
		par, iv := none, none
		if p := r.Parallel; p != nil && p.Median > 0 {
			par = Cell{kind: integer, f: math.Round(p.Median)}
			iv = Cell{kind: countSpan, f: math.Round(p.Interval.Lo), g: math.Round(p.Interval.Hi)}
		}
		t.Rows[i] = append(t.Rows[i], one, par, iv)
	}
	t.Notes = append(t.Notes, fmt.Sprintf("ops_s: operations per second of one goroutine (1 / the median round time); par_ops_s: of %d goroutines sharing the variant's one Signer, Verifier, Encrypter or Decrypter (median of the rounds), par_interval its %.0f%% confidence interval", n, stats.DefaultConfidence*100))
}

// minRounds is the fewest rounds whose sign-test interval reaches the
// reports' confidence ([stats.DefaultConfidence], 95%: 6).
const minRounds = 6

// rangeConfidence is the coverage of the whole range of n samples as an
// interval of their median: 1 - 2^(1-n).
func rangeConfidence(n int) float64 {
	if n < 2 {
		return 0
	}
	return 1 - math.Pow(2, float64(1-n))
}

// fewestRounds returns the fewest rounds of any measured variant of run
// (math.MaxInt when none was measured).
func fewestRounds(run *bench.Run) int {
	n := math.MaxInt
	for i := range run.Results {
		if r := &run.Results[i]; len(r.Iterations) > 0 {
			n = min(n, len(r.RoundTimes()))
		}
	}
	return n
}

// percentRange writes an interval of percentages as "-1.2% to +3.4%"
// (which a narrow HTML cell may wrap).
func percentRange(lo, hi float64) string {
	return signedPercent(lo) + " to " + signedPercent(hi)
}

func signedPercent(x float64) string {
	s := strconv.FormatFloat(x, 'f', 1, 64) + "%"
	if x >= 0 {
		s = "+" + s
	}
	return s
}

// resultsByID indexes the results of run by their variant's identity.
func resultsByID(run *bench.Run) map[string]*bench.Result {
	m := make(map[string]*bench.Result, len(run.Results))
	for i := range run.Results {
		m[run.Results[i].ID()] = &run.Results[i]
	}
	return m
}

// Format returns the cell as text in unit, with unit symbols.
func (c Cell) Format(unit bench.TimeUnit) string {
	switch c.kind {
	case text:
		return c.s
	case integer:
		return strconv.FormatFloat(c.f, 'f', 0, 64)
	case number:
		return strconv.FormatFloat(c.f, 'f', 2, 64)
	case timeNS:
		return bench.FormatTime(c.f, unit) + unit.Symbol()
	case percent:
		return "±" + strconv.FormatFloat(c.f, 'f', 2, 64) + "%"
	case signed:
		s := strconv.FormatFloat(c.f, 'f', 2, 64) + "%"
		if c.f >= 0 {
			s = "+" + s
		}
		if c.s == "~" {
			return "~ " + s
		}
		return s
	case percentSpan:
		return percentRange(c.f, c.g)
	case countSpan:
		return "[" + strconv.FormatFloat(c.f, 'f', 0, 64) + ", " + strconv.FormatFloat(c.g, 'f', 0, 64) + "]"
	}
	return c.s
}

// Raw returns the cell as a plain value for csv and json: a string, a
// number (times in unit, percentages in percent without a sign or a
// mark), or nil for a missing value. An interval's value is its lower
// bound; see [Cell.High].
func (c Cell) Raw(unit bench.TimeUnit) any {
	switch c.kind {
	case text:
		return c.s
	case missing:
		return nil
	case integer, countSpan:
		return int64(c.f)
	case timeNS:
		return round(c.f/unit.Nanos(), 6)
	}
	return round(c.f, 6)
}

// High returns the upper bound of an interval cell as [Cell.Raw] returns
// the lower one, or nil for a missing value.
func (c Cell) High() any {
	switch c.kind {
	case countSpan:
		return int64(c.g)
	case percentSpan:
		return round(c.g, 6)
	}
	return nil
}

// Noise reports whether a diff cell is marked within noise.
func (c Cell) Noise() bool { return c.s == "~" }

// numeric reports whether the cell is right-aligned.
func (c Cell) numeric() bool { return c.kind != text }

func round(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}

// Header returns the column's heading, with the unit for time columns in
// csv.
func (t *Table) header(i int, withUnit bool) string {
	c := t.Columns[i]
	if withUnit && t.timeColumn(i) {
		return c + " (" + t.Unit.Symbol() + ")"
	}
	return c
}

// timeColumn reports whether column i holds times: its first value that
// exists is one (a first row may have none, as the ref_mean of a variant
// the reference run does not have).
func (t *Table) timeColumn(i int) bool {
	for _, row := range t.Rows {
		if row[i].kind != missing {
			return row[i].kind == timeNS
		}
	}
	return false
}

// incompleteNote is the note of a run interrupted before its end: in
// its rounds, or, when they are all done, in the retries, which then kept
// iterations they had not re-run yet whatever runner.retry_limit.
func incompleteNote(run *bench.Run) string {
	done, rounds := run.RoundsDone(), run.Config.Runner.Rounds
	if done < rounds || run.Against != nil || run.Config.Runner.RetryThreshold <= 0 {
		return fmt.Sprintf("Incomplete run: interrupted after %d of %d rounds; the rounds not completed are missing.", done, rounds)
	}
	n := 0
	for i := range run.Results {
		if run.SamplesOf(&run.Results[i]).Deviant > 0 {
			n++
		}
	}
	return fmt.Sprintf("Incomplete run: interrupted during the retries, after all %d rounds; %d of %d variants kept iterations that still deviate by runner.retry_threshold, not re-run.", rounds, n, len(run.Results))
}
