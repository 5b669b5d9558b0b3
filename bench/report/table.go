// Package report renders stored josebench runs: the reports (simple,
// default, aggregate, and those bench.yaml defines from them), in the
// outputs console, md, csv, json, html and gobench, and the comparison with
// a reference run.
package report

import (
	"fmt"
	"math"
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
	text    kind = iota // a string
	integer             // an int
	number              // a float with two decimals (z-value)
	timeNS              // nanoseconds, shown in the run's time unit
	percent             // a percentage
	signed              // a signed percentage (+1.20%)
)

// Cell is one value of a table.
type Cell struct {
	kind kind
	s    string
	f    float64
}

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
	"iter":      func(r *bench.Result, it int) Cell { return Cell{kind: integer, f: float64(it)} },
	"rejects":   func(r *bench.Result, _ int) Cell { return Cell{kind: integer, f: float64(r.Rejects)} },
	"best":      func(r *bench.Result, _ int) Cell { return Cell{kind: timeNS, f: r.Stats.Best} },
	"mean":      func(r *bench.Result, _ int) Cell { return Cell{kind: timeNS, f: r.Stats.Mean} },
	"mode":      func(r *bench.Result, _ int) Cell { return Cell{kind: timeNS, f: r.Stats.Mode} },
	"median":    func(r *bench.Result, _ int) Cell { return Cell{kind: timeNS, f: r.Stats.Median} },
	"worst":     func(r *bench.Result, _ int) Cell { return Cell{kind: timeNS, f: r.Stats.Worst} },
	"stdev":     func(r *bench.Result, _ int) Cell { return Cell{kind: timeNS, f: r.Stats.Stdev} },
	"rstdev":    func(r *bench.Result, _ int) Cell { return Cell{kind: percent, f: r.Stats.RStdev} },
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
		return Cell{kind: text, s: "-"}
	}
	return Cell{kind: timeNS, f: ns}
}

// Options select a report and its output.
type Options struct {
	Report string     // simple, default, aggregate or a name defined in the run's config
	Ref    *bench.Run // a run to compare with (simple and aggregate reports), or nil
	Metric Metric     // what the comparison compares; "" means MetricTime
	Alpha  float64    // significance level of the comparison; 0 means DefaultAlpha
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
		t.Notes = append(t.Notes, fmt.Sprintf("Incomplete run: interrupted after %d variants; the variants not measured are missing.", len(run.Results)))
	}
	t.ref, t.metric = opts.Ref, opts.Metric
	if opts.Ref != nil && base != bench.ReportDefault {
		t.addComparison(opts.Ref, opts.Metric, Compare(run, opts.Ref, opts.Metric, opts.Alpha), opts.Alpha)
	}
	return t, nil
}

func (t *Table) row(r *bench.Result, it int) []Cell {
	row := make([]Cell, len(t.Columns))
	for i, c := range t.Columns {
		if f, ok := columns[c]; ok {
			row[i] = f(r, it)
		}
	}
	return row
}

// addComparison appends the reference mean and the difference columns.
func (t *Table) addComparison(ref *bench.Run, m Metric, deltas []Delta, alpha float64) {
	if alpha == 0 {
		alpha = DefaultAlpha
	}
	what := "the mean"
	if m == MetricCPU {
		t.Columns = append(t.Columns, "ref_cpu", "diff_cpu")
		what = "the mean thread CPU time"
	} else {
		t.Columns = append(t.Columns, "ref_mean", "diff")
	}
	for i := range t.Rows {
		d := deltas[i]
		switch {
		case d.NoData:
			t.Rows[i] = append(t.Rows[i], Cell{kind: text, s: "-"}, Cell{kind: text, s: "n/a"})
			continue
		case !d.Found:
			t.Rows[i] = append(t.Rows[i], Cell{kind: text, s: "-"}, Cell{kind: text, s: "new"})
			continue
		}
		diff := Cell{kind: signed, f: d.Percent}
		if d.Noise {
			diff.s = "~"
		}
		t.Rows[i] = append(t.Rows[i], Cell{kind: timeNS, f: d.Ref}, diff)
	}
	t.Notes = append(t.Notes,
		fmt.Sprintf("%s: change of %s from run %s; ~ marks a change within noise (two-sided Mann-Whitney U test on the iterations, p >= %g; with fewer than %d iterations on a side, |diff| <= rstdev + ref rstdev)", t.Columns[len(t.Columns)-1], what, ref.ID, alpha, minUTestSamples))
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
	}
	return c.s
}

// Raw returns the cell as a plain value for csv and json: a string, or a
// number (times in unit, percentages without the sign).
func (c Cell) Raw(unit bench.TimeUnit) any {
	switch c.kind {
	case text:
		return c.s
	case integer:
		return int64(c.f)
	case timeNS:
		return round(c.f/unit.Nanos(), 6)
	}
	return round(c.f, 6)
}

// Noise reports whether a diff cell is marked within noise.
func (c Cell) Noise() bool { return c.s == "~" }

// numeric reports whether the cell is right-aligned.
func (c Cell) numeric() bool { return c.kind != text || c.s == "-" || c.s == "new" || c.s == "n/a" }

func round(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}

// Header returns the column's heading, with the unit for time columns in
// csv.
func (t *Table) header(i int, withUnit bool) string {
	c := t.Columns[i]
	if withUnit && len(t.Rows) > 0 && t.Rows[0][i].kind == timeNS {
		return c + " (" + t.Unit.Symbol() + ")"
	}
	return c
}
