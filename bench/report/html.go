package report

import (
	"fmt"
	"hash/fnv"
	"html"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/bench/stats"
)

// subjectColors colours the bars and dots of each subject, one colour per
// subject (Tableau 10's): TestSubjectColors fails for a subject of
// bench.Subjects without its own.
var subjectColors = map[string]string{
	bench.SubjectSignature:    "#4e79a7", // blue
	bench.SubjectVerification: "#f28e2b", // orange
	bench.SubjectEncryption:   "#76b7b2", // teal
	bench.SubjectDecryption:   "#b07aa1", // purple
	bench.SubjectIssue:        "#9c755f", // brown
	bench.SubjectValidate:     "#ff9da7", // pink
	bench.SubjectRoundTrip:    "#59a14f", // green
}

// spareColors colour a subject that subjectColors does not know (in a
// run stored by another version), chosen by a hash of its name.
var spareColors = []string{"#edc948", "#e15759", "#bab0ac", "#8cd17d", "#499894"}

// subjectColor returns the colour of a subject: its own from
// subjectColors, else one of spareColors that its name picks, so that a
// subject is always drawn in the same colour and never without one.
func subjectColor(subject string) string {
	if c, ok := subjectColors[subject]; ok {
		return c
	}
	h := fnv.New32a()
	h.Write([]byte(subject))
	return spareColors[h.Sum32()%uint32(len(spareColors))]
}

// Colours of the bars of a difference chart.
const (
	colorSlower = "#e15759" // slower beyond the interval
	colorFaster = "#59a14f" // faster beyond the interval
	colorSame   = "#bab0ac" // the interval includes 0
)

// maxOpenRows is the most bars a chart, or rows a table, shows open: a
// longer one is folded (a closed <details>, opened by a click) under the
// small multiples that summarize it, so that the page of the whole
// default suite (935 variants: 1,684 px in TestHTMLInChromium) stays within
// 2,000 pixels at 1,400 wide.
const maxOpenRows = 64

const htmlStyle = `body{font-family:system-ui,sans-serif;margin:16px 24px;color:#222}
h2{margin:1.2em 0 .3em}
p.what{margin:.2em 0 .6em;color:#555;font-size:13px;max-width:1300px}
p.note{margin:.4em 0;font-size:13px;max-width:1300px}
svg.chart{display:block;max-width:100%;height:auto}
svg text{font-size:11px;font-family:system-ui,sans-serif;fill:#222}
svg text.axis-title{font-size:12px;fill:#555}
svg text.panel-title{font-size:12.5px;font-weight:600}
svg line.grid{stroke:#e4e4e4}
svg line.axis,svg line.zero{stroke:#888}
svg path.ci{stroke:#222;fill:none;stroke-width:1.2}
svg circle{fill-opacity:.75}
svg circle.beyond{stroke:#222;stroke-width:1}
.multiples{display:flex;flex-wrap:wrap;gap:0 16px;align-items:flex-start}
.multiples .col{flex:0 1 430px;min-width:0}
.multiples svg{margin-bottom:4px}
details{margin:.3em 0}
summary{cursor:pointer;color:#333}
.scroll{max-width:100%;overflow-x:auto}
table{border-collapse:collapse;font-size:10px}
th,td{border:1px solid #ccc;padding:2px 1px;vertical-align:top}
td{white-space:nowrap}
td.n{text-align:right;font-variant-numeric:tabular-nums}
td.t,td.span{white-space:normal}
th{background:#f0f0f0;font-weight:600}
.legend span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px;vertical-align:middle}`

// writeHTML writes one self-contained page, no script and no external
// resource. The overview charts every variant: with up to maxOpenRows
// variants a bar each (log scale, fastest first); with more, small
// multiples, a panel per family of benchmarks with a dot per variant,
// above the folded chart of every bar. Then a chart per requested group,
// unless it holds every variant (a single group: the overview shows it),
// folded under a page of small multiples; with a reference run the %
// difference of each variant, drawn as the overview; then the report's
// table, folded beyond maxOpenRows rows. A time bar is the median of the
// variant's rounds with the interval of the table's interval column (see
// [bench.Result.Interval]): the variation from round to round.
func (t *Table) writeHTML(w io.Writer) {
	esc := html.EscapeString
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width\">\n<title>%s</title>\n<style>\n%s\n</style>\n</head>\n<body>\n", esc(t.Title), htmlStyle)
	fmt.Fprintf(w, "<h1>%s</h1>\n<p>%s</p>\n", esc(t.Title), esc(t.suiteLine()))
	if env := t.envLine(); env != "" {
		fmt.Fprintf(w, "<p>%s</p>\n", esc(env))
	}

	fmt.Fprint(w, "<p class=\"legend\">")
	for _, s := range t.subjects() {
		fmt.Fprintf(w, "<span style=\"background:%s\"></span>%s", subjectColor(s), esc(s))
	}
	fmt.Fprint(w, "</p>\n")

	var all []*bench.Result
	for i := range t.Run.Results {
		if len(t.Run.Results[i].Iterations) > 0 {
			all = append(all, &t.Run.Results[i])
		}
	}
	folded := len(all) > maxOpenRows
	labels := make([]string, len(all))
	for i, r := range all {
		labels[i] = chartLabel(r)
	}
	x0, _ := plotArea(labels)
	if len(all) > 0 {
		sorted := slices.Clone(all)
		slices.SortStableFunc(sorted, func(a, b *bench.Result) int {
			return compareFloat(a.Median, b.Median)
		})
		what := fmt.Sprintf("Time per operation of %s (the median of the rounds), fastest first, on a log scale; whiskers: %s.", eachOf(len(sorted)), intervalWhat)
		if !folded {
			fmt.Fprintf(w, "<h2>All variants</h2>\n<p class=\"what\">%s</p>\n", what)
			t.writeTimeChart(w, "chart-all", "median time per operation of every variant", sorted, true, x0)
		} else {
			fmt.Fprintf(w, "<h2>All variants, by family</h2>\n<p class=\"what\">Time per operation of %s (the median of the rounds), on one log scale: a panel per family, a row per benchmark, a dot per variant in its subject's colour (in a row, top to bottom as in the legend); a dot's tooltip names the variant and gives its interval. Every variant's bar, with its interval, is in the chart below.</p>\n", eachOf(len(all)))
			t.writeTimeMultiples(w, all)
			fmt.Fprintf(w, "<details>\n<summary>Every variant, fastest first: %d bars</summary>\n<p class=\"what\">%s</p>\n", len(sorted), what)
			t.writeTimeChart(w, "chart-all", "median time per operation of every variant", sorted, true, x0)
			fmt.Fprint(w, "</details>\n")
		}
	}
	t.writeGroupCharts(w, all, folded, x0)
	if t.ref != nil {
		t.writeDiff(w, x0)
	}

	fmt.Fprint(w, "<h2>Report</h2>\n")
	if len(t.Rows) > maxOpenRows {
		fmt.Fprintf(w, "<details>\n<summary>The table: %d rows of %d columns (click to open)</summary>\n", len(t.Rows), len(t.Columns))
	}
	t.writeHTMLTable(w)
	if len(t.Rows) > maxOpenRows {
		fmt.Fprint(w, "</details>\n")
	}
	for _, n := range t.Notes {
		fmt.Fprintf(w, "<p class=\"note\">%s</p>\n", esc(n))
	}
	fmt.Fprint(w, "</body>\n</html>\n")
}

// maxOpenGroups is the most folded group charts listed on the page: with
// more (every group requested), they are folded together under one line.
const maxOpenGroups = 8

// writeGroupCharts writes a chart per requested group, in suite order,
// each folded when folded is set or it has more than maxOpenRows bars, its
// plot from x0. A group that holds every variant has none (the overview
// shows it), nor one that holds the same variants as a group before it
// (KW and JWEKW, EdDSA and Ed25519): that chart names both. Beyond
// maxOpenGroups folded charts, they are folded together too.
func (t *Table) writeGroupCharts(w io.Writer, all []*bench.Result, folded bool, x0 float64) {
	esc := html.EscapeString
	type groupChart struct {
		names []string
		rs    []*bench.Result
	}
	var charts []*groupChart
	bySet := map[string]*groupChart{}
	for _, g := range t.Run.Groups {
		var rs []*bench.Result
		var key strings.Builder
		for i, r := range all {
			if benchmarkInGroup(r, g) {
				rs = append(rs, r)
				fmt.Fprintf(&key, "%d,", i)
			}
		}
		if len(rs) == 0 || len(rs) == len(all) {
			continue
		}
		if c := bySet[key.String()]; c != nil {
			if !slices.Contains(c.names, g) {
				c.names = append(c.names, g)
			}
			continue
		}
		c := &groupChart{names: []string{g}, rs: rs}
		bySet[key.String()] = c
		charts = append(charts, c)
	}
	nFolded := 0
	for _, c := range charts {
		if folded || len(c.rs) > maxOpenRows {
			nFolded++
		}
	}
	heading, together := false, nFolded > maxOpenGroups
	for _, c := range charts {
		g, rs := c.names[0], c.rs
		name := "group " + g
		if len(c.names) > 1 {
			name = "groups " + strings.Join(c.names, " and ")
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
		what := fmt.Sprintf("Time per operation of %s of %s (the median of the rounds), in suite order, %s; whiskers: %s.", theVariants(len(rs)), esc(name), scale, intervalWhat)
		if !folded && len(rs) <= maxOpenRows {
			fmt.Fprintf(w, "<h2>%s</h2>\n<p class=\"what\">%s</p>\n", esc(capitalize(name)), what)
			t.writeTimeChart(w, "chart-group-"+g, "median time per operation in "+name, rs, logScale, x0)
			continue
		}
		if !heading {
			fmt.Fprint(w, "<h2>Groups</h2>\n")
			if together {
				fmt.Fprintf(w, "<details>\n<summary>A chart per requested group: %d charts (click to open)</summary>\n", nFolded)
			}
			heading = true
		}
		fmt.Fprintf(w, "<details>\n<summary>%s: %d bars</summary>\n<p class=\"what\">%s</p>\n", esc(capitalize(name)), len(rs), what)
		t.writeTimeChart(w, "chart-group-"+g, "median time per operation in "+name, rs, logScale, x0)
		fmt.Fprint(w, "</details>\n")
	}
	if together {
		fmt.Fprint(w, "</details>\n")
	}
}

// capitalize returns s with its first letter upper-case ("Group HS256").
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// writeHTMLTable writes the report's table. The names (benchmark,
// subject) and the numbers never break; a list (groups, set) may break
// after its commas, an interval after its "to" or comma. With a benchmark column, the set leaves out
// alg=, which the benchmark names, as the console does.
func (t *Table) writeHTMLTable(w io.Writer) {
	esc := html.EscapeString
	fmt.Fprint(w, "<div class=\"scroll\">\n<table>\n<tr>")
	// The page states the sample warnings below the table; the column
	// that repeats them per row is for csv and json.
	skip := slices.Index(t.Columns, "sample_warning")
	for j := range t.Columns {
		if j == skip {
			continue
		}
		// A heading may break after an underscore (diff_<wbr>interval)
		// and before its unit.
		h := strings.ReplaceAll(esc(t.header(j, true)), "_", "_<wbr>")
		fmt.Fprintf(w, "<th>%s</th>", strings.Replace(h, " (", " <wbr>(", 1))
	}
	fmt.Fprint(w, "</tr>\n")
	shortSet := slices.Contains(t.Columns, "benchmark")
	for _, row := range t.Rows {
		fmt.Fprint(w, "<tr>")
		for j, c := range row {
			if j == skip {
				continue
			}
			s := c.Format(t.Unit)
			switch {
			case c.kind == timeNS:
				s = bench.FormatTime(c.f, t.Unit) // the unit is in the heading
			case t.Columns[j] == "set" && shortSet:
				s = withoutAlg(s)
			}
			switch {
			case c.kind == percentSpan || c.kind == countSpan:
				// An interval may break after "to" or its comma, so that
				// with a reference run the table keeps to 1,400 px.
				fmt.Fprintf(w, "<td class=\"n span\">%s</td>", strings.Replace(esc(s), " to ", "\u00a0to ", 1))
			case c.numeric():
				fmt.Fprintf(w, "<td class=\"n\">%s</td>", esc(s))
			case t.Columns[j] == "groups" || t.Columns[j] == "set":
				fmt.Fprintf(w, "<td class=\"t\">%s</td>", strings.ReplaceAll(esc(s), ",", ",<wbr>"))
			default:
				fmt.Fprintf(w, "<td class=\"name\">%s</td>", esc(s))
			}
		}
		fmt.Fprint(w, "</tr>\n")
	}
	fmt.Fprint(w, "</table>\n</div>\n")
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

// timeTitle is the tooltip of a variant's time: its identity, median and
// interval.
func (t *Table) timeTitle(r *bench.Result) string {
	unit := t.Unit
	return fmt.Sprintf("%s: %s (%s %s to %s)", r.ID(), bench.FormatTime(r.Median, unit)+unit.Symbol(), intervalName(r.Interval), bench.FormatTime(r.Interval.Lo, unit), bench.FormatTime(r.Interval.Hi, unit)+unit.Symbol())
}

// writeTimeChart charts the median round time of rs with its interval,
// the bars from x0.
func (t *Table) writeTimeChart(w io.Writer, id, aria string, rs []*bench.Result, logScale bool, x0 float64) {
	unit := t.Unit
	bars := make([]bar, len(rs))
	lo, hi := math.Inf(1), 0.0
	for i, r := range rs {
		m, l, h := r.Median, r.Interval.Lo, r.Interval.Hi
		// The axis spans the medians and the upper ends; a lower end
		// below it is cut at the axis.
		lo, hi = min(lo, m), max(hi, h, m)
		bars[i] = bar{
			label: chartLabel(r), value: m, lo: l, hi: h, color: subjectColor(r.Subject),
			text:  bench.FormatTime(m, unit) + unit.Symbol(),
			title: t.timeTitle(r),
		}
	}
	a := timeAxis(lo, hi, logScale, x0, chartWidth-x0-chartValueWidth)
	title := "median time per operation (" + unit.Symbol() + ")"
	if logScale {
		title += ", log scale"
	}
	writeChart(w, id, aria, bars, a, tickTime(unit), title, math.NaN())
}

// writeTimeMultiples draws the median round time of every result of all
// as small multiples, a panel per family, on one log axis.
func (t *Table) writeTimeMultiples(w io.Writer, all []*bench.Result) {
	ps := panels(all, func(r *bench.Result) (float64, string, string) {
		return r.Median, subjectColor(r.Subject), t.timeTitle(r)
	})
	lo, hi := math.Inf(1), 0.0
	for _, r := range all {
		lo, hi = min(lo, r.Median), max(hi, r.Median)
	}
	tick := tickTime(t.Unit)
	a := timeAxis(lo, hi, true, 0, 0)
	a.x0, a.w = multiplesAxisRoom(ps, tick(a.hi))
	writeMultiples(w, "chart-family-", ps, a, tick, math.NaN())
}

// A change is one variant's difference from the reference run, as the
// difference charts draw it.
type change struct {
	r            *bench.Result
	pct, lo, hi  float64
	color, title string
}

// changes returns the difference of each variant found in the reference
// run, coloured as the table's diff column judges it (Compare: grey within
// noise), and what statistic it is the change of.
func (t *Table) changes() ([]change, string) {
	var cs []change
	ds, _ := CompareFor(t.Run, t.ref, t.metric, 0, t.detect)
	stat := "the median of the ratios of the paired rounds"
	if t.Run.Against != t.ref {
		stat = comparedOf(ds) + ", divided by the change common to the run"
	}
	for i, d := range ds {
		if !d.Found || d.NotComparable != "" {
			continue
		}
		r := &t.Run.Results[i]
		color := colorSame
		switch {
		case d.Noise:
		case d.Percent > 0:
			color = colorSlower
		default:
			color = colorFaster
		}
		cs = append(cs, change{r: r, pct: d.Percent, lo: d.Lo(), hi: d.Hi(), color: color,
			title: fmt.Sprintf("%s: %+.2f%% (%s %+.2f%% to %+.2f%%)", r.ID(), d.Percent, intervalName(d.Interval), d.Lo(), d.Hi())})
	}
	return cs, stat
}

// percentAxis returns a linear axis of percentages symmetric about 0
// that holds ±m.
func percentAxis(m, x0, w float64) axis {
	step := niceStep(max(m, 1) / 3)
	lim := math.Ceil(max(m, 1)/step) * step
	return axis{lo: -lim, hi: lim, x0: x0, w: w}
}

// writeDiff charts the % difference of each variant from the reference
// run: bars with their 95% intervals, or, beyond maxOpenRows variants,
// small multiples of dots above the folded chart of the bars; the bars
// from x0.
func (t *Table) writeDiff(w io.Writer, x0 float64) {
	esc := html.EscapeString
	cs, stat := t.changes()
	if len(cs) == 0 {
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
	barsWhat := fmt.Sprintf("Change of the %s of each variant from %s, in percent (positive: slower): %s; whiskers: its 95%% confidence interval, as the table's diff_interval. Red: slower, green: faster, grey: within noise (the table's ~).", what, side, stat)
	fmt.Fprintf(w, "<h2>Difference from %s</h2>\n", esc(from))
	if len(cs) <= maxOpenRows {
		fmt.Fprintf(w, "<p class=\"what\">%s</p>\n", barsWhat)
		t.writeDiffChart(w, cs, x0)
		return
	}
	fmt.Fprintf(w, "<p class=\"what\">Change of the %s of %s from %s, in percent (positive: slower; %s), by family as above: red slower, green faster, grey within noise (the table's ~), ringed at the axis's end when beyond it; a dot's tooltip gives the value and its 95%% interval. Every variant's bar is in the chart below.</p>\n", what, eachOf(len(cs)), side, stat)
	rs := make([]*bench.Result, len(cs))
	byResult := make(map[*bench.Result]change, len(cs))
	for i, c := range cs {
		rs[i] = c.r
		byResult[c.r] = c
	}
	ps := panels(rs, func(r *bench.Result) (float64, string, string) {
		c := byResult[r]
		return c.pct, c.color, c.title
	})
	a := percentAxis(dotsReach(cs), 0, 0)
	a.x0, a.w = multiplesAxisRoom(ps, tickPercent(a.hi))
	writeMultiples(w, "chart-family-diff-", ps, a, tickPercent, 0)
	fmt.Fprintf(w, "<details>\n<summary>Every variant's difference: %d bars</summary>\n<p class=\"what\">%s</p>\n", len(cs), barsWhat)
	t.writeDiffChart(w, cs, x0)
	fmt.Fprint(w, "</details>\n")
}

// dotsReach returns how far from 0 the axis of the small multiples of cs
// reaches: to the farthest change, unless that is more than twice the 95th
// percentile of their sizes (a few outliers would squeeze every other dot
// against 0), then to 1.25 times that percentile.
func dotsReach(cs []change) float64 {
	sizes := make([]float64, len(cs))
	for i, c := range cs {
		sizes[i] = math.Abs(c.pct)
	}
	slices.Sort(sizes)
	m, q := sizes[len(sizes)-1], sizes[int(math.Ceil(0.95*float64(len(sizes))))-1]
	if q > 0 && m > 2*q {
		return 1.25 * q
	}
	return m
}

// writeDiffChart charts the changes cs as bars from x0 with their
// intervals.
func (t *Table) writeDiffChart(w io.Writer, cs []change, x0 float64) {
	bars := make([]bar, len(cs))
	m := 1.0
	for i, c := range cs {
		m = max(m, math.Abs(c.lo), math.Abs(c.hi))
		bars[i] = bar{label: chartLabel(c.r), value: c.pct, lo: c.lo, hi: c.hi, color: c.color, text: fmt.Sprintf("%+.2f%%", c.pct), title: c.title}
	}
	what := "time"
	if t.metric == MetricCPU {
		what = "thread CPU time"
	}
	writeChart(w, "chart-diff", "difference from the reference run", bars, percentAxis(m, x0, chartWidth-x0-chartValueWidth), tickPercent, "change of the "+what+" (%)", 0)
}

// eachOf is "each of the 4 variants", or "the one variant".
func eachOf(n int) string {
	if n == 1 {
		return "the one variant"
	}
	return fmt.Sprintf("each of the %d variants", n)
}

// theVariants is "the 4 variants", or "the one variant".
func theVariants(n int) string {
	if n == 1 {
		return "the one variant"
	}
	return fmt.Sprintf("the %d variants", n)
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

// envLine describes the machine and build: "go1.26.8 linux/amd64, AMD
// EPYC, GOMAXPROCS 2, commit 0483b52cafe1+ (from git)", leaving out what
// the run does not know.
func (t *Table) envLine() string {
	e := t.Run.Env
	var parts []string
	if s := strings.TrimSpace(e.GoVersion + " " + strings.Trim(e.GOOS+"/"+e.GOARCH, "/")); s != "" {
		parts = append(parts, s)
	}
	if e.CPU != "" {
		parts = append(parts, e.CPU)
	}
	if e.GOMAXPROCS > 0 {
		parts = append(parts, fmt.Sprintf("GOMAXPROCS %d", e.GOMAXPROCS))
	}
	if rev := e.Revision(); rev != "" {
		c := "commit " + rev
		if e.CommitFrom != "" {
			c += " (from " + e.CommitFrom + ")"
		}
		parts = append(parts, c)
	}
	return strings.Join(parts, ", ")
}

// subjects returns the subjects of the run's results: those of
// bench.Subjects in its order, then any other in the order they appear.
func (t *Table) subjects() []string {
	var ss []string
	for _, r := range t.Run.Results {
		if !slices.Contains(ss, r.Subject) {
			ss = append(ss, r.Subject)
		}
	}
	slices.SortStableFunc(ss, func(a, b string) int { return subjectOrder(a) - subjectOrder(b) })
	return ss
}
