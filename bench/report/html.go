package report

import (
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/bench/stats"
)

// subjectColors colours the bars of each subject.
var subjectColors = map[string]string{
	bench.SubjectSignature:    "#4e79a7",
	bench.SubjectVerification: "#f28e2b",
	bench.SubjectEncryption:   "#4e79a7",
	bench.SubjectDecryption:   "#f28e2b",
	bench.SubjectRoundTrip:    "#59a14f",
}

// Colours of the bars of a difference chart.
const (
	colorSlower = "#e15759" // slower beyond the interval
	colorFaster = "#59a14f" // faster beyond the interval
	colorSame   = "#bab0ac" // the interval includes 0
)

const htmlStyle = `body{font-family:system-ui,sans-serif;margin:16px 24px;color:#222}
h2{margin:1.4em 0 .3em}
p.what{margin:.2em 0 .6em;color:#555;font-size:13px}
svg.chart{display:block;max-width:100%;height:auto}
svg text{font-size:11px;font-family:system-ui,sans-serif;fill:#222}
svg text.axis-title{font-size:12px;fill:#555}
svg line.grid{stroke:#e4e4e4}
svg line.axis,svg line.zero{stroke:#888}
svg path.ci{stroke:#222;fill:none;stroke-width:1.2}
table{border-collapse:collapse;font-size:11px;max-width:100%}
th,td{border:1px solid #ccc;padding:2px 3px;vertical-align:top}
td{white-space:nowrap}
td.n{text-align:right;font-variant-numeric:tabular-nums}
td.t{white-space:normal}
th{background:#f0f0f0;font-weight:600}
.legend span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px;vertical-align:middle}`

// writeHTML writes one self-contained page, no script and no external
// resource: an overview chart of every variant (log scale, fastest first),
// a chart per requested group, with a reference run a chart of the %
// difference of each variant, then the report's table. A time bar is the
// median of the variant's rounds with the interval of the table's interval
// column (see [bench.Result.Interval]): the variation from round to round.
func (t *Table) writeHTML(w io.Writer) {
	esc := html.EscapeString
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width\">\n<title>%s</title>\n<style>\n%s\n</style>\n</head>\n<body>\n", esc(t.Title), htmlStyle)
	fmt.Fprintf(w, "<h1>%s</h1>\n<p>%s</p>\n", esc(t.Title), esc(t.suiteLine()))
	e := t.Run.Env
	fmt.Fprintf(w, "<p>%s %s/%s, %s, GOMAXPROCS %d</p>\n", esc(e.GoVersion), esc(e.GOOS), esc(e.GOARCH), esc(e.CPU), e.GOMAXPROCS)

	fmt.Fprint(w, "<p class=\"legend\">")
	for _, s := range bench.Subjects {
		if !t.hasSubject(s) {
			continue
		}
		fmt.Fprintf(w, "<span style=\"background:%s\"></span>%s", subjectColors[s], esc(s))
	}
	fmt.Fprint(w, "</p>\n")

	unit := t.Unit
	all := make([]*bench.Result, 0, len(t.Run.Results))
	for i := range t.Run.Results {
		if len(t.Run.Results[i].Iterations) > 0 {
			all = append(all, &t.Run.Results[i])
		}
	}
	if len(all) > 0 {
		sorted := slices.Clone(all)
		slices.SortStableFunc(sorted, func(a, b *bench.Result) int {
			return compareFloat(a.Median, b.Median)
		})
		fmt.Fprintf(w, "<h2>All variants</h2>\n<p class=\"what\">Time per operation of each of the %d variants (the median of the rounds), fastest first, on a log scale; whiskers: %s.</p>\n", len(sorted), intervalWhat)
		t.writeTimeChart(w, "chart-all", "median time per operation of every variant", sorted, true, unit)
	}
	for _, g := range t.Run.Groups {
		var rs []*bench.Result
		for _, r := range all {
			if benchmarkInGroup(r, g) {
				rs = append(rs, r)
			}
		}
		if len(rs) == 0 {
			continue
		}
		lo, hi := math.Inf(1), 0.0
		for _, r := range rs {
			lo, hi = min(lo, r.Median), max(hi, r.Median)
		}
		logScale := hi > 20*lo
		scale := "linear scale from zero"
		if logScale {
			scale = "log scale (the times span more than a factor of 20)"
		}
		fmt.Fprintf(w, "<h2>Group %s</h2>\n<p class=\"what\">Time per operation of the %d variants of group %s (the median of the rounds), in suite order, %s; whiskers: %s.</p>\n", esc(g), len(rs), esc(g), scale, intervalWhat)
		t.writeTimeChart(w, "chart-group-"+g, "median time per operation in group "+g, rs, logScale, unit)
	}
	if t.ref != nil {
		t.writeDiffChart(w)
	}

	fmt.Fprint(w, "<h2>Report</h2>\n<table>\n<tr>")
	for j := range t.Columns {
		// A heading may break after an underscore (diff_<wbr>interval).
		fmt.Fprintf(w, "<th>%s</th>", strings.ReplaceAll(esc(t.header(j, true)), "_", "_<wbr>"))
	}
	fmt.Fprint(w, "</tr>\n")
	for _, row := range t.Rows {
		fmt.Fprint(w, "<tr>")
		for _, c := range row {
			s := c.Format(unit)
			if c.kind == timeNS {
				s = bench.FormatTime(c.f, unit) // the unit is in the heading
			}
			switch {
			case c.kind == percentSpan || c.kind == countSpan:
				// An interval may wrap after "to".
				fmt.Fprintf(w, "<td class=\"t\">%s</td>", esc(s))
			case c.numeric():
				fmt.Fprintf(w, "<td class=\"n\">%s</td>", esc(s))
			default:
				fmt.Fprintf(w, "<td class=\"t\">%s</td>", breakable(s))
			}
		}
		fmt.Fprint(w, "</tr>\n")
	}
	fmt.Fprint(w, "</table>\n")
	for _, n := range t.Notes {
		fmt.Fprintf(w, "<p>%s</p>\n", esc(n))
	}
	fmt.Fprint(w, "</body>\n</html>\n")
}

// breakable escapes a text cell and marks where a narrow table may break
// it: after the commas of a list (groups, parameter sets), before the
// "Bench" of a benchmark name and after the "bench" of a subject.
func breakable(s string) string {
	e := strings.ReplaceAll(html.EscapeString(s), ",", ",<wbr>")
	if b, ok := strings.CutSuffix(e, "Bench"); ok && b != "" {
		e = b + "<wbr>Bench"
	}
	if b, ok := strings.CutPrefix(e, "bench"); ok && b != "" {
		e = "bench<wbr>" + b
	}
	return e
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// benchmarkInGroup reports whether r's benchmark is in group g (aliases
// resolved as --group resolves them).
func benchmarkInGroup(r *bench.Result, g string) bool {
	for _, b := range bench.Benchmarks {
		if b.Name == r.Benchmark {
			return b.InGroup(g)
		}
	}
	return slices.Contains(r.Groups, g)
}

// intervalWhat describes the whiskers of a time chart.
var intervalWhat = fmt.Sprintf("the %.0f%% confidence interval (sign test) of that median, as the table's interval column: the variation from round to round", stats.DefaultConfidence*100)

// intervalName names an interval in a tooltip: "95% interval" when it
// reaches the confidence the reports claim (the sign test's coverage is
// at least that), else what it covers: with fewer than 6 rounds it is
// their whole range.
func intervalName(iv stats.Interval) string {
	if iv.Confidence >= stats.DefaultConfidence {
		return fmt.Sprintf("%.0f%% interval", stats.DefaultConfidence*100)
	}
	return fmt.Sprintf("only a %.0f%% interval", iv.Confidence*100)
}

// writeTimeChart charts the median round time of rs with its interval.
func (t *Table) writeTimeChart(w io.Writer, id, aria string, rs []*bench.Result, logScale bool, unit bench.TimeUnit) {
	bars := make([]bar, len(rs))
	lo, hi := math.Inf(1), 0.0
	for i, r := range rs {
		m, l, h := r.Median, r.Interval.Lo, r.Interval.Hi
		// The axis spans the medians and the upper ends; a lower end
		// below it is cut at the axis.
		lo, hi = min(lo, m), max(hi, h, m)
		val := bench.FormatTime(m, unit) + unit.Symbol()
		bars[i] = bar{
			label: chartLabel(r), value: m, lo: l, hi: h, color: subjectColors[r.Subject],
			text:  val,
			title: fmt.Sprintf("%s: %s (%s %s to %s)", r.ID(), val, intervalName(r.Interval), bench.FormatTime(l, unit), bench.FormatTime(h, unit)+unit.Symbol()),
		}
	}
	x0, width := plotArea()
	a := timeAxis(lo, hi, logScale, x0, width)
	title := "median time per operation (" + unit.Symbol() + ")"
	if logScale {
		title += ", log scale"
	}
	writeChart(w, id, aria, bars, a, tickTime(unit), title, math.NaN())
}

// writeDiffChart charts the % difference of each variant from the
// reference run, with its 95% interval, coloured as the table's diff
// column judges it (Compare: grey within noise).
func (t *Table) writeDiffChart(w io.Writer) {
	esc := html.EscapeString
	var bars []bar
	m := 1.0
	for i, d := range Compare(t.Run, t.ref, t.metric, 0) {
		if !d.Found {
			continue
		}
		r := &t.Run.Results[i]
		pct, lo, hi := d.Percent, d.Lo(), d.Hi()
		color := colorSame
		switch {
		case d.Noise:
		case pct > 0:
			color = colorSlower
		default:
			color = colorFaster
		}
		m = max(m, math.Abs(lo), math.Abs(hi))
		bars = append(bars, bar{
			label: chartLabel(r), value: pct, lo: lo, hi: hi, color: color,
			text:  fmt.Sprintf("%+.2f%%", pct),
			title: fmt.Sprintf("%s: %+.2f%% (%s %+.2f%% to %+.2f%%)", r.ID(), pct, intervalName(d.Interval), lo, hi),
		})
	}
	if len(bars) == 0 {
		return
	}
	what := "time"
	if t.metric == MetricCPU {
		what = "thread CPU time"
	}
	from, side := "run "+t.ref.ID, "the reference run"
	if t.Run.Against == t.ref {
		from, side = "the other build ("+t.ref.ID+")", "the other build"
	}
	fmt.Fprintf(w, "<h2>Difference from %s</h2>\n<p class=\"what\">Change of the %s of each variant from %s, in percent (positive: slower): the median of the ratios of the paired rounds; whiskers: its 95%% confidence interval, as the table's diff_interval. Red: slower, green: faster, grey: within noise (the table's ~).</p>\n", esc(from), what, side)
	x0, width := plotArea()
	step := niceStep(m / 3)
	lim := math.Ceil(m/step) * step
	a := axis{lo: -lim, hi: lim, x0: x0, w: width}
	writeChart(w, "chart-diff", "difference from the reference run", bars, a, tickPercent, "change of the "+what+" (%)", 0)
}

// chartLabel is "RSA1_5Bench benchDecryption enc=A128GCM,bits=2048": the
// parameters but alg, which the benchmark names.
func chartLabel(r *bench.Result) string {
	var ps []string
	for _, p := range r.Params {
		if p.Name != "alg" {
			ps = append(ps, p.Name+"="+p.Value)
		}
	}
	return strings.TrimSpace(r.Benchmark + " " + r.Subject + " " + strings.Join(ps, ","))
}

func (t *Table) hasSubject(s string) bool {
	for _, r := range t.Run.Results {
		if r.Subject == s {
			return true
		}
	}
	return false
}
