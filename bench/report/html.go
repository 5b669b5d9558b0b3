package report

import (
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/josebench/josebench/bench"
)

// subjectColors colours the bars of each subject.
var subjectColors = map[string]string{
	bench.SubjectSignature:    "#4e79a7",
	bench.SubjectVerification: "#f28e2b",
	bench.SubjectEncryption:   "#4e79a7",
	bench.SubjectDecryption:   "#f28e2b",
	bench.SubjectRoundTrip:    "#59a14f",
}

const htmlStyle = `body{font-family:system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;font-size:13px}
th,td{border:1px solid #ccc;padding:2px 6px}
td.n{text-align:right;font-variant-numeric:tabular-nums}
th{background:#f0f0f0}
svg text{font-size:11px;font-family:system-ui,sans-serif}
.legend span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px;vertical-align:middle}`

// writeHTML writes one self-contained page: no script, no external
// resource. It has an SVG bar chart of the mean of each variant per family
// group (hmac, RSASign, GCMKW, ...), then the report's table.
func (t *Table) writeHTML(w io.Writer) {
	esc := html.EscapeString
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n<style>\n%s\n</style>\n</head>\n<body>\n", esc(t.Title), htmlStyle)
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
	for _, fam := range families(t.Run) {
		t.writeChart(w, fam)
	}

	fmt.Fprint(w, "<h2>Report</h2>\n<table>\n<tr>")
	for _, c := range t.Columns {
		fmt.Fprintf(w, "<th>%s</th>", esc(c))
	}
	fmt.Fprint(w, "</tr>\n")
	for i, row := range t.formatted() {
		fmt.Fprint(w, "<tr>")
		for j, s := range row {
			if t.Rows[i][j].numeric() {
				fmt.Fprintf(w, "<td class=\"n\">%s</td>", esc(s))
			} else {
				fmt.Fprintf(w, "<td>%s</td>", esc(s))
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

// families returns the family groups of the run's results, in order.
func families(run *bench.Run) []string {
	var fams []string
	for _, r := range run.Results {
		if len(r.Groups) < 2 {
			continue
		}
		if f := r.Groups[1]; len(fams) == 0 || !containsStr(fams, f) {
			fams = append(fams, f)
		}
	}
	return fams
}

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// Chart geometry, in pixels.
const (
	chartLabelWidth = 430
	chartBarWidth   = 380
	chartValueWidth = 110
	chartRow        = 16
	chartBar        = 12
)

func (t *Table) writeChart(w io.Writer, family string) {
	esc := html.EscapeString
	var rs []*bench.Result
	var top float64
	for i := range t.Run.Results {
		r := &t.Run.Results[i]
		if len(r.Groups) > 1 && r.Groups[1] == family {
			rs = append(rs, r)
			top = max(top, r.Stats.Mean)
		}
	}
	if top == 0 {
		top = 1
	}
	width := chartLabelWidth + chartBarWidth + chartValueWidth
	height := len(rs)*chartRow + 4
	fmt.Fprintf(w, "<h2>%s</h2>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"mean time per variant of %s\">\n",
		esc(family), width, height, width, height, esc(family))
	for i, r := range rs {
		y := i*chartRow + 2
		label := chartLabel(r)
		barW := r.Stats.Mean / top * chartBarWidth
		fmt.Fprintf(w, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>", chartLabelWidth-6, y+chartBar-2, esc(label))
		fmt.Fprintf(w, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s: %s</title></rect>",
			chartLabelWidth, y, barW, chartBar, subjectColors[r.Subject], esc(r.ID()), esc(bench.FormatTime(r.Stats.Mean, t.Unit)+t.Unit.Symbol()))
		fmt.Fprintf(w, "<text x=\"%.1f\" y=\"%d\">%s</text>\n", chartLabelWidth+barW+4, y+chartBar-2, esc(bench.FormatTime(r.Stats.Mean, t.Unit)+t.Unit.Symbol()))
	}
	fmt.Fprint(w, "</svg>\n")
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
