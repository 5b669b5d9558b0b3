package report

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/josebench/josebench/bench"
)

// splitColumns keeps the panels of the default suite in order, each once,
// in at most panelColumns columns whose tallest is as short as any cut
// into that many columns can make it; the page's small multiples draw the
// tick labels under the last panel of each column only.
func TestSplitColumns(t *testing.T) {
	run := browserRun(t, reportRunID, 1)
	all := make([]*bench.Result, len(run.Results))
	for i := range run.Results {
		all[i] = &run.Results[i]
	}
	ps := panels(all, func(*bench.Result) (float64, string, string) { return 1, "#000000", "" })
	cols := splitColumns(ps)
	if len(cols) > panelColumns {
		t.Fatalf("%d columns, want at most %d", len(cols), panelColumns)
	}
	if got := slices.Concat(cols...); !slices.Equal(got, ps) {
		t.Fatalf("the columns hold %d panels, not the %d in order", len(got), len(ps))
	}
	tallest := 0
	for _, c := range cols {
		tallest = max(tallest, columnHeight(c))
	}
	best := columnHeight(ps)
	for i := 0; i <= len(ps); i++ {
		for j := i; j <= len(ps); j++ {
			best = min(best, max(columnHeight(ps[:i]), columnHeight(ps[i:j]), columnHeight(ps[j:])))
		}
	}
	if tallest != best {
		t.Errorf("the tallest column is %d px, but a cut makes it %d", tallest, best)
	}

	var b bytes.Buffer
	a := timeAxis(1, 1e6, true, 0, 0)
	a.x0, a.w = multiplesAxisRoom(ps, "1ms")
	writeMultiples(&b, "chart-family-", ps, a, func(float64) string { return "1ms" }, 0)
	ticks := len(a.ticks())
	colRE, svgRE := regexp.MustCompile(`(?s)<div class="col">(.*?)</div>`), regexp.MustCompile(`(?s)<svg .*?</svg>`)
	htmlCols := colRE.FindAllStringSubmatch(b.String(), -1)
	if len(htmlCols) != len(cols) {
		t.Fatalf("%d columns in the HTML, want %d", len(htmlCols), len(cols))
	}
	for i, c := range htmlCols {
		svgs := svgRE.FindAllString(c[1], -1)
		if len(svgs) != len(cols[i]) {
			t.Fatalf("column %d: %d panels, want %d", i, len(svgs), len(cols[i]))
		}
		for j, s := range svgs {
			want := 0
			if j == len(svgs)-1 {
				want = ticks
			}
			if n := strings.Count(s, `class="tick"`); n != want {
				t.Errorf("column %d, panel %s: %d tick labels, want %d", i, cols[i][j].family, n, want)
			}
		}
	}
}
