package report

import (
	"fmt"
	"html"
	"io"
	"math"
	"slices"

	"github.com/josebench/josebench/bench"
)

// Geometry of the small multiples, in pixels: panels panelWidth wide, in
// three columns that fit a 1400-pixel page (and stack on a narrow one).
const (
	panelWidth     = 430
	panelTitle     = 15 // the family's name above the rows
	panelRow       = 13 // a benchmark
	panelAxis      = 16 // the tick labels below the rows of a column's last panel
	panelFoot      = 3  // below the rows of any other panel
	panelGap       = 4  // between two panels of a column (.multiples svg)
	panelDotRadius = 2.5
	panelColumns   = 3
)

// A dot is one variant in a panel of the small multiples.
type dot struct {
	row, lane int // the row (a benchmark) and, in it, the lane (a subject)
	value     float64
	color     string
	title     string // the tooltip
}

// A panel is one small multiple: the variants of one family of
// benchmarks (hmac, RSASign, ECDHES, ...), a row per benchmark in suite
// order, in each row a lane per subject.
type panel struct {
	family string
	rows   []string // the benchmarks
	lanes  []string // the subjects, in bench.Subjects order
	count  int      // variants
	dots   []dot
}

// family returns the family of r's benchmark: its second group (see
// bench.Benchmark.Family), or the benchmark's name when it has none.
func family(r *bench.Result) string {
	if len(r.Groups) > 1 {
		return r.Groups[1]
	}
	return r.Benchmark
}

// panels sorts rs into a panel per family, in the order the families
// first appear, and makes each result a dot with mk(r) as its value,
// colour and tooltip.
func panels(rs []*bench.Result, mk func(r *bench.Result) (value float64, color, title string)) []*panel {
	var ps []*panel
	byFamily := map[string]*panel{}
	for _, r := range rs {
		p := byFamily[family(r)]
		if p == nil {
			p = &panel{family: family(r)}
			byFamily[p.family] = p
			ps = append(ps, p)
		}
		if !slices.Contains(p.rows, r.Benchmark) {
			p.rows = append(p.rows, r.Benchmark)
		}
		if !slices.Contains(p.lanes, r.Subject) {
			p.lanes = append(p.lanes, r.Subject)
		}
	}
	for _, p := range ps {
		slices.SortStableFunc(p.lanes, func(a, b string) int { return subjectOrder(a) - subjectOrder(b) })
	}
	for _, r := range rs {
		p := byFamily[family(r)]
		v, color, title := mk(r)
		p.dots = append(p.dots, dot{row: slices.Index(p.rows, r.Benchmark), lane: slices.Index(p.lanes, r.Subject), value: v, color: color, title: title})
		p.count++
	}
	return ps
}

// subjectOrder is the place of a subject in bench.Subjects, after them
// for one not there.
func subjectOrder(s string) int {
	if i := slices.Index(bench.Subjects, s); i >= 0 {
		return i
	}
	return len(bench.Subjects)
}

// height returns the height of p's SVG: with the axis's tick labels below
// its rows when it ends a column, else with a narrow foot (the grid runs
// through every panel; the axis is the same in all).
func (p *panel) height(last bool) int {
	if last {
		return panelTitle + len(p.rows)*panelRow + panelAxis
	}
	return panelTitle + len(p.rows)*panelRow + panelFoot
}

// columnHeight returns the height of a column of the panels of col, the
// last with the tick labels.
func columnHeight(col []*panel) int {
	h := 0
	for i, p := range col {
		h += p.height(i == len(col)-1) + panelGap
	}
	return h
}

// multiplesLabel returns the room for the row labels of every panel of
// ps, so that their plots align.
func multiplesLabel(ps []*panel) float64 {
	x0 := 60.0
	for _, p := range ps {
		for _, r := range p.rows {
			x0 = max(x0, math.Ceil(textWidth(r, chartFont))+chartLabelGap+2)
		}
	}
	return min(x0, panelWidth/2)
}

// splitColumns cuts ps, in order, into at most panelColumns columns so
// that the tallest is as short as can be (the columns read top to bottom,
// left to right, in suite order).
func splitColumns(ps []*panel) [][]*panel {
	// tallest returns the least height of the tallest of k columns holding
	// ps[i:], and where the first of them ends.
	var tallest func(i, k int) (int, int)
	tallest = func(i, k int) (int, int) {
		if k == 1 {
			return columnHeight(ps[i:]), len(ps)
		}
		best, cut := math.MaxInt, len(ps)
		for j := i; j <= len(ps); j++ {
			rest, _ := tallest(j, k-1)
			if m := max(columnHeight(ps[i:j]), rest); m < best {
				best, cut = m, j
			}
		}
		return best, cut
	}
	var cols [][]*panel
	for i, k := 0, panelColumns; i < len(ps); k-- {
		_, cut := tallest(i, k)
		cols = append(cols, ps[i:cut])
		i = cut
	}
	return cols
}

// writeMultiples writes the panels as small multiples: an SVG per family
// with a row per benchmark, a dot per variant at its value on the axis a
// (shared by every panel, so that they compare; a value beyond its ends
// is drawn there, ringed), the axis's grid through the rows (its tick
// labels below the last panel of each column only), and at ref, when not NaN, a vertical line (0 of a difference).
// The panels fill panelColumns columns (see splitColumns), each family
// whole.
func writeMultiples(w io.Writer, idPrefix string, ps []*panel, a axis, tickLabel func(float64) string, ref float64) {
	esc := html.EscapeString
	fmt.Fprint(w, "<div class=\"multiples\">\n")
	for _, col := range splitColumns(ps) {
		fmt.Fprint(w, "<div class=\"col\">\n")
		for pi, p := range col {
			last := pi == len(col)-1
			h := p.height(last)
			plotTop, plotBottom := panelTitle, panelTitle+len(p.rows)*panelRow
			fmt.Fprintf(w, "<svg class=\"chart panel\" id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\">\n",
				esc(idPrefix+p.family), panelWidth, h, panelWidth, h, esc(p.family))
			noun := "variants"
			if p.count == 1 {
				noun = "variant"
			}
			fmt.Fprintf(w, "<text class=\"panel-title\" x=\"2\" y=\"12\">%s</text>", esc(fitText(fmt.Sprintf("%s: %d %s", p.family, p.count, noun), chartFont*1.15, panelWidth-4)))
			for _, v := range a.ticks() {
				x := a.pos(v)
				fmt.Fprintf(w, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", x, plotTop, x, plotBottom)
				if last {
					fmt.Fprintf(w, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", x, plotBottom+12, esc(tickLabel(v)))
				}
				fmt.Fprint(w, "\n")
			}
			fmt.Fprintf(w, "<line class=\"axis\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", a.x0, plotBottom, a.x0+a.w, plotBottom)
			if !math.IsNaN(ref) {
				x := a.pos(ref)
				fmt.Fprintf(w, "<line class=\"zero\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", x, plotTop, x, plotBottom)
			}
			for i, r := range p.rows {
				y := plotTop + i*panelRow
				if i%2 == 1 {
					fmt.Fprintf(w, "<rect class=\"band\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#f4f4f4\"/>", a.x0, y, a.w, panelRow)
				}
				fmt.Fprintf(w, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\">%s</text>\n", a.x0-chartLabelGap, y+panelRow-3, esc(fitText(r, chartFont, a.x0-chartLabelGap-2)))
			}
			lane := float64(panelRow-3) / float64(max(len(p.lanes), 1))
			for _, d := range p.dots {
				cy := float64(plotTop+d.row*panelRow) + 1.5 + lane*(float64(d.lane)+0.5)
				class := ""
				if d.value < a.lo || d.value > a.hi {
					class = ` class="beyond"` // drawn at the axis's end
				}
				fmt.Fprintf(w, "<circle%s cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"><title>%s</title></circle>", class, a.pos(d.value), cy, panelDotRadius, d.color, esc(d.title))
			}
			fmt.Fprint(w, "\n</svg>\n")
		}
		fmt.Fprint(w, "</div>\n")
	}
	fmt.Fprint(w, "</div>\n")
}

// multiplesAxisRoom returns the x origin and width of the plots of the
// small multiples of ps whose axis ends with a tick labelled last: right
// of the row labels, with room for half that label at the right.
func multiplesAxisRoom(ps []*panel, last string) (x0, w float64) {
	x0 = multiplesLabel(ps)
	right := math.Ceil(textWidth(last, chartFont)/2) + 4
	return x0, panelWidth - x0 - right
}
