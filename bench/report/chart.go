package report

import (
	"fmt"
	"html"
	"io"
	"math"
	"strconv"

	"github.com/josebench/josebench/bench"
)

// Chart geometry, in pixels: a chart is chartWidth wide (it fits a
// 1400-pixel page with its margins) and scales down with the page.
const (
	chartWidth      = 1300
	chartFont       = 11  // the size of a chart's text (htmlStyle)
	chartMinLabel   = 120 // the least room for the labels left of the bars
	chartMaxLabel   = 600 // the most: a longer label is cut (its tooltip is whole)
	chartLabelGap   = 6   // between a label and the plot
	chartValueWidth = 120 // the value after each bar
	chartRow        = 16
	chartBar        = 11
	chartTop        = 8  // above the first bar
	chartAxisHeight = 40 // tick labels and the axis title below the bars
	chartTallRows   = 40 // from this many bars the tick labels repeat above them
	chartTopLabels  = 16 // room for those labels
)

// bar is one row of a chart: a value and its interval.
type bar struct {
	label  string  // left of the bar
	title  string  // the tooltip
	value  float64 // the bar's end
	lo, hi float64 // the interval drawn over the bar
	text   string  // right of the bar
	color  string
}

// axis maps values to x positions, linearly or on a log scale.
type axis struct {
	log    bool
	lo, hi float64 // the values at the ends
	x0, w  float64 // the pixels they map to
}

func (a axis) pos(v float64) float64 {
	var f float64
	if a.log {
		v = max(v, a.lo)
		f = (math.Log10(v) - math.Log10(a.lo)) / (math.Log10(a.hi) - math.Log10(a.lo))
	} else {
		f = (v - a.lo) / (a.hi - a.lo)
	}
	return a.x0 + min(max(f, 0), 1)*a.w
}

// ticks returns the tick values: each power of ten on a log scale, about
// six round steps on a linear one.
func (a axis) ticks() []float64 {
	var ts []float64
	if a.log {
		for v := a.lo; v <= a.hi*1.0001; v *= 10 {
			ts = append(ts, v)
		}
		return ts
	}
	step := niceStep((a.hi - a.lo) / 6)
	for v := math.Ceil(a.lo/step) * step; v <= a.hi+step/1e6; v += step {
		ts = append(ts, v)
	}
	return ts
}

// niceStep rounds x up to 1, 2 or 5 times a power of ten.
func niceStep(x float64) float64 {
	if x <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// timeAxis is the axis of times lo..hi (ns): a log scale from the power of
// ten below lo to the one above hi when logScale, else linear from zero.
func timeAxis(lo, hi float64, logScale bool, x0, w float64) axis {
	if logScale {
		lo = math.Pow(10, math.Floor(math.Log10(max(lo, 1e-3))))
		hi = math.Pow(10, math.Ceil(math.Log10(max(hi, lo*10))))
		if hi <= lo {
			hi = lo * 10
		}
		return axis{log: true, lo: lo, hi: hi, x0: x0, w: w}
	}
	step := niceStep(max(hi, 1e-9) / 6)
	return axis{lo: 0, hi: math.Ceil(max(hi, 1e-9)/step) * step, x0: x0, w: w}
}

// writeChart writes an SVG bar chart: a row per bar with its label, the
// bar from the axis origin (or its left end) to the value, the interval as
// a whisker, and the value; below them the axis with ticks, tick labels
// and the axis title. ref, when not NaN, draws a vertical line there (0 in
// a chart of differences).
func writeChart(w io.Writer, id, aria string, bars []bar, a axis, tickLabel func(float64) string, axisTitle string, ref float64) {
	esc := html.EscapeString
	top := chartTop
	if len(bars) >= chartTallRows {
		top += chartTopLabels
	}
	plotH := len(bars)*chartRow + top
	height := plotH + chartAxisHeight
	fmt.Fprintf(w, "<svg class=\"chart\" id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\">\n",
		esc(id), chartWidth, height, chartWidth, height, esc(aria))
	// Grid lines and tick labels.
	for _, v := range a.ticks() {
		x := a.pos(v)
		fmt.Fprintf(w, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", x, top-4, x, plotH)
		if top > chartTop {
			fmt.Fprintf(w, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", x, top-8, esc(tickLabel(v)))
		}
		fmt.Fprintf(w, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x, plotH+14, esc(tickLabel(v)))
	}
	fmt.Fprintf(w, "<line class=\"axis\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", a.x0, plotH, a.x0+a.w, plotH)
	fmt.Fprintf(w, "<text class=\"axis-title\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", a.x0+a.w/2, plotH+32, esc(axisTitle))
	origin := a.x0
	if !math.IsNaN(ref) {
		origin = a.pos(ref)
	}
	for i, b := range bars {
		y := top + i*chartRow
		x1, x2 := origin, a.pos(b.value)
		if x2 < x1 {
			x1, x2 = x2, x1
		}
		mid := y + chartBar/2
		fmt.Fprintf(w, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\">%s</text>", a.x0-chartLabelGap, y+chartBar-1, esc(fitText(b.label, chartFont, a.x0-chartLabelGap-2)))
		fmt.Fprintf(w, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s</title></rect>",
			x1, y, max(x2-x1, 1), chartBar, b.color, esc(b.title))
		lo, hi := a.pos(b.lo), a.pos(b.hi)
		fmt.Fprintf(w, "<path class=\"ci\" d=\"M%.1f %dV%dM%.1f %dH%.1fM%.1f %dV%d\"/>", lo, mid-3, mid+3, lo, mid, hi, hi, mid-3, mid+3)
		fmt.Fprintf(w, "<text x=\"%.1f\" y=\"%d\">%s</text>\n", max(hi, x2)+5, y+chartBar-1, esc(b.text))
	}
	if !math.IsNaN(ref) {
		x := a.pos(ref)
		fmt.Fprintf(w, "<line class=\"zero\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", x, top-4, x, plotH)
	}
	fmt.Fprint(w, "</svg>\n")
}

// plotArea returns the x origin and width of the bars of charts labelled
// labels: right of the widest label (see textWidth), up to chartMaxLabel.
// A page's charts share it, so that their axes align.
func plotArea(labels []string) (x0, w float64) {
	x0 = chartMinLabel
	for _, l := range labels {
		x0 = max(x0, math.Ceil(textWidth(l, chartFont))+chartLabelGap+2)
	}
	x0 = min(x0, chartMaxLabel)
	return x0, chartWidth - x0 - chartValueWidth
}

// tickTime labels a tick of a time axis in the largest unit that keeps
// its number at least 1 ("100ns", "10μs", "2.5ms"; "0" in unit), so that
// the labels of a log axis spanning seconds stay short.
func tickTime(unit bench.TimeUnit) func(float64) string {
	return func(ns float64) string {
		u := unit
		if ns > 0 {
			u = bench.Nanoseconds
			for _, larger := range []bench.TimeUnit{bench.Microseconds, bench.Milliseconds, bench.Seconds} {
				if ns >= larger.Nanos()*(1-1e-9) {
					u = larger
				}
			}
		}
		return strconv.FormatFloat(round(ns/u.Nanos(), 6), 'f', -1, 64) + u.Symbol()
	}
}

// tickPercent labels a tick of a percentage axis: "+10%", "0%", "-5%".
func tickPercent(p float64) string {
	s := strconv.FormatFloat(p, 'f', -1, 64) + "%"
	if p > 0 {
		s = "+" + s
	}
	return s
}
