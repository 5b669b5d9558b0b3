package report

import (
	"bytes"
	"html"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/bench/stats"
)

// The HTML page fetches nothing and runs nothing.
func TestHTMLSelfContained(t *testing.T) {
	run := reportRun(t, reportRunID, 1, true)
	var b bytes.Buffer
	if err := Write(&b, run, "html", Options{}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{"<script", "src=", "href=", "@import", "url("} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	// The overview and one chart per requested group (HS256, RSA1_5; the
	// ECDH-ES result is in neither).
	if n := strings.Count(page, "<svg"); n != 3 {
		t.Errorf("%d charts, want 3 (all, HS256, RSA1_5)", n)
	}
	for _, id := range []string{`id="chart-all"`, `id="chart-group-HS256"`, `id="chart-group-RSA1_5"`} {
		if !strings.Contains(page, id) {
			t.Errorf("no %s", id)
		}
	}
}

// A variant so noisy that its interval reaches far below its median does
// not stretch the log axis: the axis starts at the power of ten below the
// fastest median.
func TestLogAxisFromMedians(t *testing.T) {
	run := reportRun(t, reportRunID, 1, true)
	r := &run.Results[0]
	r.Iterations = []bench.Iteration{{Time: 10}, {Time: 5000}}
	r.Stats = stats.Summarize(r.Times())
	r.Median, r.Interval = stats.MedianInterval(r.RoundTimes(), stats.DefaultConfidence)
	var b bytes.Buffer
	if err := Write(&b, run, "html", Options{}); err != nil {
		t.Fatal(err)
	}
	all := b.String()[strings.Index(b.String(), `id="chart-all"`):]
	all = all[:strings.Index(all, "</svg>")]
	ticks := regexp.MustCompile(`class="tick"[^>]*>([^<]*)<`).FindAllStringSubmatch(all, -1)
	if len(ticks) == 0 || ticks[0][1] != "1μs" {
		t.Errorf("first tick %v, want 1μs (the fastest median is 2.5μs, its interval reaches 0.01μs)", ticks)
	}
}

// The charts draw what the table's interval column gives: the median of
// the rounds with its sign-test interval, not a mean ± t interval over
// the iterations (which would hide the round-to-round variation).
func TestChartsDrawRoundMedianInterval(t *testing.T) {
	run := reportRun(t, reportRunID, 1, true)
	r := &run.Results[0]
	// Ten rounds, two iterations each: the round means are 1000..1900 and
	// one round far off; the sign-test interval of 10 rounds is
	// [x(2), x(9)] of the round means.
	r.Iterations = nil
	for round := range 10 {
		x := 1000 + 100*float64(round)
		if round == 9 {
			x = 9000
		}
		r.Iterations = append(r.Iterations, bench.Iteration{Round: round, Time: x - 10}, bench.Iteration{Round: round, Time: x + 10})
	}
	r.Stats = stats.Summarize(r.Times())
	r.Median, r.Interval = stats.MedianInterval(r.RoundTimes(), stats.DefaultConfidence)
	if r.Median != 1450 || r.Interval.Lo != 1100 || r.Interval.Hi != 1800 {
		t.Fatalf("median %v interval %+v, want 1450 [1100, 1800]", r.Median, r.Interval)
	}
	var b bytes.Buffer
	if err := Write(&b, run, "html", Options{}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, id := range []string{"chart-all", "chart-group-HS256"} {
		i := strings.Index(page, `id="`+id+`"`)
		if i < 0 {
			t.Fatalf("no %s", id)
		}
		chart := page[i:]
		chart = chart[:strings.Index(chart, "</svg>")]
		want := "HS256Bench/benchSignature/alg=HS256: 1.450μs (95% interval 1.100 to 1.800μs)"
		if !strings.Contains(chart, html.EscapeString(want)) {
			t.Errorf("%s: no bar titled %q:\n%s", id, want, chart)
		}
	}
	if strings.Contains(page, "confidence interval of the mean") {
		t.Error("the page still describes a confidence interval of the mean")
	}
}

// Every subject has its own colour, a subject no build knows one of the
// spare colours, always the same, and no bar or dot of any page is drawn
// without one.
func TestSubjectColors(t *testing.T) {
	seen := map[string]string{}
	for _, s := range bench.Subjects {
		c, ok := subjectColors[s]
		if !ok || !regexp.MustCompile(`^#[0-9a-f]{6}$`).MatchString(c) {
			t.Errorf("subject %s: colour %q", s, c)
		}
		if other, dup := seen[c]; dup {
			t.Errorf("subjects %s and %s share %s", s, other, c)
		}
		seen[c] = s
		if subjectColor(s) != c {
			t.Errorf("subjectColor(%s) = %s, want %s", s, subjectColor(s), c)
		}
	}
	for _, s := range []string{"benchSomethingNew", "", "benchIssue2"} {
		c := subjectColor(s)
		if !slices.Contains(spareColors, c) || subjectColor(s) != c {
			t.Errorf("unknown subject %q: colour %q", s, c)
		}
		if _, dup := seen[c]; dup {
			t.Errorf("unknown subject %q takes %s's colour", s, seen[c])
		}
	}
	// The whole default suite, with a reference run.
	run, ref := browserRun(t, reportRunID, 1), browserRun(t, reportRefID, 1.05)
	var b bytes.Buffer
	if err := Write(&b, run, "html", Options{Ref: ref}); err != nil {
		t.Fatal(err)
	}
	fills := regexp.MustCompile(`<(rect|circle)\b[^>]*>`).FindAllString(b.String(), -1)
	if len(fills) < 4*len(run.Results) {
		t.Fatalf("%d bars and dots for %d variants", len(fills), len(run.Results))
	}
	for _, f := range fills {
		if !regexp.MustCompile(` fill="#[0-9a-f]{6}"`).MatchString(f) {
			t.Fatalf("a bar or dot without a colour: %s", f)
		}
	}
	for _, s := range bench.Subjects {
		if !strings.Contains(b.String(), `<span style="background:`+subjectColors[s]+`"></span>`+s) {
			t.Errorf("the legend has no swatch for %s", s)
		}
	}
}

// A chart appears once: with a single group requested, the overview is
// that group and no group chart repeats it, whether the overview is a
// chart of bars (a few variants) or small multiples (many).
func TestHTMLSingleGroup(t *testing.T) {
	for _, tt := range []struct {
		group     string
		multiples bool
	}{{"HS256", false}, {"JWE", true}} {
		page, vs := groupsPage(t, []string{tt.group}, []string{tt.group})
		if n := strings.Count(page, `id="chart-all"`); n != 1 {
			t.Errorf("%s: %d overview charts", tt.group, n)
		}
		if strings.Contains(page, `id="chart-group-`) {
			t.Errorf("%s: a group chart repeats the overview", tt.group)
		}
		if got := strings.Contains(page, `id="chart-family-`); got != tt.multiples {
			t.Errorf("%s (%d variants): small multiples %v, want %v", tt.group, len(vs), got, tt.multiples)
		}
		// Every bar once: in the one chart of bars.
		if n := strings.Count(page, "<rect x="); n != len(vs) {
			t.Errorf("%s: %d bars for %d variants", tt.group, n, len(vs))
		}
	}
}

// A group chart appears once: a group that holds the same variants as one
// before it (EdDSA and Ed25519, KW and JWEKW) is named in that chart's
// heading; and with every group requested, the folded group charts are
// folded together, so that the page opens no longer than with a few.
func TestHTMLGroupChartsOnce(t *testing.T) {
	page := func(groups, results []string) string {
		p, _ := groupsPage(t, groups, results)
		return p
	}
	p := page([]string{"EdDSA", "Ed25519", "HS256"}, []string{"EdDSA", "HS256"})
	for id, n := range map[string]int{`id="chart-group-EdDSA"`: 1, `id="chart-group-Ed25519"`: 0, `id="chart-group-HS256"`: 1, "<h2>Groups EdDSA and Ed25519</h2>": 1} {
		if got := strings.Count(p, id); got != n {
			t.Errorf("EdDSA, Ed25519, HS256: %d of %s, want %d", got, id, n)
		}
	}
	together := "<summary>A chart per requested group:"
	if p := page(bench.DefaultConfig().Measure.Groups, bench.DefaultConfig().Measure.Groups); strings.Contains(p, together) {
		t.Errorf("the default groups' charts are folded together")
	}
	p = page(bench.Groups(), bench.DefaultConfig().Measure.Groups)
	if n := strings.Count(p, together); n != 1 {
		t.Errorf("every group: %d summaries folding the group charts together, want 1", n)
	}
	if strings.Contains(p, `id="chart-group-KW"`) || !strings.Contains(p, "Groups JWEKW and KW: ") {
		t.Errorf("every group: KW has a chart of its own, or JWEKW's does not name it")
	}
}

// groupsPage returns the HTML page of a run of the variants of the groups
// results, made with groups requested, and those variants.
func groupsPage(t *testing.T, groups, results []string) (string, []bench.Variant) {
	t.Helper()
	vs, err := bench.Select(bench.DefaultConfig().Measure, results)
	if err != nil {
		t.Fatal(err)
	}
	run := &bench.Run{Format: bench.RunFormat, ID: reportRunID, Groups: groups, Config: bench.DefaultConfig()}
	for i, v := range vs {
		run.Results = append(run.Results, reportResult(v, 10, 0, float64(1000+i), float64(1010+i), float64(990+i)))
	}
	if run, err = jsonRoundTrip(run); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, run, "html", Options{}); err != nil {
		t.Fatal(err)
	}
	return b.String(), vs
}

// The HTML chart of a comparison with a stored run of 200 rounds a side
// says what the table's note says: the change of the 2nd percentiles,
// divided by the common change, not the median of paired ratios.
func TestHTMLRefStatistic(t *testing.T) {
	run, ref := coverageRunsOf(rand.New(rand.NewPCG(7, 8)), 200, nineVariants(t), 0.01, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1})
	run.Format, ref.Format = bench.RunFormat, bench.RunFormat
	var b bytes.Buffer
	if err := Write(&b, run, "html", Options{Ref: ref}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	want := "the ratio of the 2nd percentiles of the rounds (the best iteration of each; order-statistic intervals), divided by the change common to the run"
	if !strings.Contains(page, want) || strings.Contains(page, "the median of the ratios of the paired rounds") {
		t.Errorf("the chart does not say it compares the 2nd percentiles:\n%s", page)
	}
}
