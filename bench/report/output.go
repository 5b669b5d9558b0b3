package report

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/josebench/josebench/bench"
)

// Outputs lists the output formats.
var Outputs = []string{"console", "md", "csv", "json", "html", "gobench"}

// Write renders the report opts selects of run in output format to w. The
// gobench output is the Go benchmark format, one line per iteration whatever
// the report (benchstat reads it); the others render the report's table.
func Write(w io.Writer, run *bench.Run, output string, opts Options) error {
	if output == "gobench" {
		return writeGobench(w, run)
	}
	t, err := Build(run, opts)
	if err != nil {
		return err
	}
	return t.Write(w, output)
}

// Write renders the table in output format: console, md, csv, json or
// html.
func (t *Table) Write(w io.Writer, output string) error {
	bw := bufio.NewWriter(w)
	var err error
	switch output {
	case "console":
		t.writeConsole(bw)
	case "md":
		t.writeMarkdown(bw)
	case "csv":
		err = t.writeCSV(bw)
	case "json":
		err = t.writeJSON(bw)
	case "html":
		t.writeHTML(bw)
	default:
		return fmt.Errorf("report: unknown output %q (known: %s)", output, strings.Join(Outputs, ", "))
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// suiteLine is phpbench's "suite: <id>, date: YYYY-MM-DD, stime: HH:MM:SS".
func (t *Table) suiteLine() string {
	s := t.Run.Start.UTC()
	return fmt.Sprintf("suite: %s, date: %s, stime: %s", t.Run.ID, s.Format("2006-01-02"), s.Format("15:04:05"))
}

func (t *Table) formatted() [][]string {
	out := make([][]string, len(t.Rows))
	for i, row := range t.Rows {
		out[i] = make([]string, len(row))
		for j, c := range row {
			out[i][j] = c.Format(t.Unit)
		}
	}
	return out
}

// consoleWidth is the most columns a console table takes: columns are
// left out, least telling first (see consoleDrop), until it fits, and a
// note names them; md, csv and json keep every column.
const consoleWidth = 120

// consoleDrop lists the columns a console table may leave out, in the
// order it leaves them out. The identity of a variant, its mean (or
// iteration time) and a comparison's diff are always kept.
var consoleDrop = []string{"groups", "round", "par_interval", "median", "worst", "best", "mode", "stdev", "cpu_rev", "z_value", "cpu", "revs", "iter", "ref_mean", "ref_cpu", "base_mean", "base_cpu", "ops_s", "allocs", "bytes", "deviation", "rstdev", "interval", "diff_interval", "sample_warning", "rounds", "its", "rejects"}

func (t *Table) writeConsole(w io.Writer) {
	fmt.Fprintf(w, "%s\n%s\n\n", t.Title, t.suiteLine())
	cells := t.formatted()
	cols := slices.Clone(t.Columns)
	// The benchmark names the algorithm: the set leaves out alg=.
	if slices.Contains(cols, "benchmark") {
		if j := slices.Index(cols, "set"); j >= 0 {
			for _, row := range cells {
				row[j] = withoutAlg(row[j])
			}
		}
	}
	keep := make([]int, len(cols))
	for j := range keep {
		keep[j] = j
	}
	widths := make([]int, len(cols))
	for j, c := range cols {
		widths[j] = utf8.RuneCountInString(c)
	}
	for _, row := range cells {
		for j, s := range row {
			widths[j] = max(widths[j], utf8.RuneCountInString(s))
		}
	}
	total := func() int {
		n := 2 * (len(keep) - 1)
		for _, j := range keep {
			n += widths[j]
		}
		return n
	}
	var dropped []string
	drop := consoleDrop
	if slices.Contains(cols, "iter") {
		// A row per iteration: the notes name the variants warned
		// about, and their rows say it again and again.
		drop = append([]string{"sample_warning"}, drop...)
	}
	for _, name := range drop {
		if total() <= consoleWidth {
			break
		}
		if i := slices.IndexFunc(keep, func(j int) bool { return cols[j] == name }); i >= 0 {
			keep = slices.Delete(keep, i, i+1)
			dropped = append(dropped, name)
		}
	}
	line := func(vals []string, right func(j int) bool) {
		var b strings.Builder
		for k, j := range keep {
			s := vals[j]
			if k > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(s))
			if right(j) {
				b.WriteString(pad + s)
			} else {
				b.WriteString(s)
				if k < len(keep)-1 {
					b.WriteString(pad)
				}
			}
		}
		fmt.Fprintln(w, b.String())
	}
	numericCol := func(j int) bool { return len(t.Rows) > 0 && t.Rows[0][j].numeric() }
	line(cols, numericCol)
	rule := make([]string, len(cols))
	for j := range rule {
		rule[j] = strings.Repeat("-", widths[j])
	}
	line(rule, func(int) bool { return false })
	for i, row := range cells {
		line(row, func(j int) bool { return t.Rows[i][j].numeric() })
	}
	notes := t.Notes
	if len(dropped) > 0 {
		notes = append(slices.Clone(notes), fmt.Sprintf("Left out to fit %d columns: %s (every column: --output md, csv or json).", consoleWidth, strings.Join(dropped, ", ")))
	}
	for _, n := range notes {
		fmt.Fprintf(w, "\n%s\n", wrap(n, consoleWidth))
	}
}

// withoutAlg returns a parameter set without its leading alg=, "-" when
// nothing else is left.
func withoutAlg(set string) string {
	rest, ok := strings.CutPrefix(set, "alg=")
	if !ok {
		return set
	}
	if _, rest, _ = strings.Cut(rest, ","); rest == "" {
		return "-"
	}
	return rest
}

// wrap breaks s at spaces into lines of at most width runes (a longer word
// keeps its own line).
func wrap(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(s) {
		wl := utf8.RuneCountInString(word)
		if i > 0 {
			if n+1+wl > width {
				b.WriteByte('\n')
				n = 0
			} else {
				b.WriteByte(' ')
				n++
			}
		}
		b.WriteString(word)
		n += wl
	}
	return b.String()
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func (t *Table) writeMarkdown(w io.Writer) {
	fmt.Fprintf(w, "%s\n%s\n\n### %s\n\n", t.Title, strings.Repeat("=", utf8.RuneCountInString(t.Title)), t.suiteLine())
	fmt.Fprintln(w, strings.Join(t.Columns, " | "))
	seps := make([]string, len(t.Columns))
	for j := range seps {
		seps[j] = "---"
	}
	fmt.Fprintln(w, strings.Join(seps, " | "))
	for _, row := range t.formatted() {
		for j := range row {
			row[j] = mdEscape(row[j])
		}
		fmt.Fprintln(w, strings.Join(row, " | "))
	}
	for _, n := range t.Notes {
		fmt.Fprintf(w, "\n%s\n", n)
	}
}

// A field is one value of a row in csv and json: a column, one end of an
// interval column, or the significance of a diff column.
type field struct {
	name string
	col  int // the column's index
	part part
}

type part int

const (
	whole       part = iota // the cell's value ([Cell.Raw])
	high                    // an interval's upper end ([Cell.High]); whole is its lower end
	significant             // whether a diff is beyond noise
)

// fields returns the fields of csv and json, the machine-readable outputs:
// each column, but an interval column (interval, diff_interval,
// par_interval) becomes two, its low and high ends, named after it with
// _low and _high (interval_low, interval_high, diff_low, diff_high,
// par_low, par_high), and a diff column (diff, diff_cpu) is followed by
// diff_significant.
func (t *Table) fields() []field {
	var fs []field
	for j, c := range t.Columns {
		switch {
		case c == "interval" || strings.HasSuffix(c, "_interval"):
			base := strings.TrimSuffix(c, "_interval")
			fs = append(fs, field{base + "_low", j, whole}, field{base + "_high", j, high})
		case c == "diff" || c == "diff_cpu":
			fs = append(fs, field{c, j, whole}, field{"diff_significant", j, significant})
		default:
			fs = append(fs, field{c, j, whole})
		}
	}
	return fs
}

// value returns the field of a row: a string, an int64, a float64, a bool
// or nil (no value).
func (t *Table) value(row []Cell, f field) any {
	c := row[f.col]
	switch f.part {
	case high:
		return c.High()
	case significant:
		if c.kind != signed {
			return nil
		}
		return !c.Noise()
	}
	return c.Raw(t.Unit)
}

func (t *Table) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	fs := t.fields()
	rec := make([]string, len(fs))
	for i, f := range fs {
		rec[i] = f.name
		if f.part == whole && t.timeColumn(f.col) {
			rec[i] += " (" + t.Unit.Symbol() + ")"
		}
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	for _, row := range t.Rows {
		for i, f := range fs {
			switch v := t.value(row, f).(type) {
			case nil:
				rec[i] = ""
			case string:
				rec[i] = v
			case float64:
				rec[i] = strconv.FormatFloat(v, 'f', -1, 64)
			default:
				rec[i] = fmt.Sprint(v)
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// jsonRow is an ordered JSON object.
type jsonRow struct {
	names []string
	vals  []any
}

func (r jsonRow) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, c := range r.names {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(c)
		v, err := json.Marshal(r.vals[i])
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

func (t *Table) writeJSON(w io.Writer) error {
	s := t.Run.Start.UTC()
	fs := t.fields()
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.name
	}
	doc := struct {
		Title    string    `json:"title"`
		Suite    string    `json:"suite"`
		Date     string    `json:"date"`
		Stime    string    `json:"stime"`
		TimeUnit string    `json:"time_unit"`
		Columns  []string  `json:"columns"`
		Rows     []jsonRow `json:"rows"`
		Notes    []string  `json:"notes,omitempty"`
	}{t.Title, t.Run.ID, s.Format("2006-01-02"), s.Format("15:04:05"), string(t.Unit), names, []jsonRow{}, t.Notes}
	for _, row := range t.Rows {
		r := jsonRow{names: names, vals: make([]any, len(fs))}
		for i, f := range fs {
			r.vals[i] = t.value(row, f)
		}
		doc.Rows = append(doc.Rows, r)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// GobenchPackage is the "pkg:" of the gobench output: the package whose
// BenchmarkSuite runs the suite's variants under go test, so that the two
// outputs name the same benchmarks alike.
const GobenchPackage = "github.com/josebench/josebench/bench/subjects"

// writeGobench writes the run in the Go benchmark format, as
// `go test -bench Suite/ ./bench/subjects` prints it: the configuration
// lines goos, goarch, pkg and cpu (what go test writes, and what two runs
// on one machine share: benchstat starts a new table where they differ),
// a comment line with what is particular to the run (its id and tag, the
// Go version, the commit), which benchstat ignores, then one line per
// iteration,
//
//	BenchmarkSuite/HS256Bench/benchSignature/alg=HS256-2  10000  1234 ns/op  512 B/op  7 allocs/op
//
// named as go test names BenchmarkSuite's sub-benchmark of the variant,
// where the -N suffix is GOMAXPROCS when it is not 1, followed by the
// thread CPU time (cpu-ns/op) when it was measured. So benchstat pairs the
// same variant of two exports, or of an export and a go test run, with no
// flags.
func writeGobench(w io.Writer, run *bench.Run) error {
	bw := bufio.NewWriter(w)
	e := run.Env
	fmt.Fprintf(bw, "goos: %s\ngoarch: %s\npkg: %s\n", e.GOOS, e.GOARCH, GobenchPackage)
	if e.CPU != "" && e.CPU != "unknown" {
		fmt.Fprintf(bw, "cpu: %s\n", e.CPU)
	}
	fmt.Fprintf(bw, "# josebench run %s", run.ID)
	if run.Tag != "" {
		fmt.Fprintf(bw, " (tag %s)", run.Tag)
	}
	fmt.Fprintf(bw, ", %s", e.GoVersion)
	if rev := e.Revision(); rev != "" {
		fmt.Fprintf(bw, ", commit %s", rev)
		if e.CommitFrom != "" {
			fmt.Fprintf(bw, " (from %s)", e.CommitFrom)
		}
	}
	fmt.Fprintln(bw)
	for _, w := range run.SampleWarnings() {
		fmt.Fprintf(bw, "# warning: %s\n", w)
	}
	for i := range run.Results {
		r := &run.Results[i]
		name := gobenchName(r.ID(), e.GOMAXPROCS)
		s := run.SamplesOf(r)
		fmt.Fprintf(bw, "# %s: kept %d of %d rounds, %d of %d iterations; %d rejected\n", name, s.RoundsKept, s.Rounds, s.Kept, s.Configured, s.Rejected)
		for _, it := range r.Iterations {
			fmt.Fprintf(bw, "%s\t%8d\t%s ns/op\t%8d B/op\t%8d allocs/op", name, r.Revs, nsPerOp(it.Time), it.Bytes, it.Allocs)
			if it.CPU > 0 {
				fmt.Fprintf(bw, "\t%s cpu-ns/op", nsPerOp(it.CPU))
			}
			fmt.Fprintln(bw)
		}
	}
	return bw.Flush()
}

// gobenchName returns the name that go test prints for BenchmarkSuite's
// sub-benchmark b.Run(id) with GOMAXPROCS procs: -procs appended unless
// procs is 1. (The testing package would also write a space as "_" and
// escape a rune that is not printable; a variant's identity has neither.)
func gobenchName(id string, procs int) string {
	if procs > 1 {
		return fmt.Sprintf("BenchmarkSuite/%s-%d", id, procs)
	}
	return "BenchmarkSuite/" + id
}

// nsPerOp formats ns as `go test` does: fewer decimals for larger values.
func nsPerOp(ns float64) string {
	switch {
	case ns == 0 || ns >= 99.995:
		return fmt.Sprintf("%10.0f", ns)
	case ns >= 9.9995:
		return fmt.Sprintf("%12.1f", ns)
	}
	return fmt.Sprintf("%13.2f", ns)
}
