package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/bench"
)

// chromium returns the path of a Chromium or Chrome binary: the
// JOSEBENCH_CHROMIUM variable, else the first of the usual names on PATH.
func chromium() string {
	if p := os.Getenv("JOSEBENCH_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// measureScript, appended to the page under test only, writes the layout
// that the test asserts on into the DOM, which --dump-dom prints: the
// page's height as it opens (folded charts and table closed), then, with
// every <details> opened, each chart's box, its bars and dots whose fill
// is not a colour, and its texts whose box leaves the chart's, the table's
// box and the names in it that break onto a second line.
const measureScript = `<script>
(function () {
  var de = document.documentElement;
  var r = {innerWidth: window.innerWidth, height: de.scrollHeight, legend: [], charts: [], wrapped: []};
  document.querySelectorAll(".legend span").forEach(function (s) {
    r.legend.push(getComputedStyle(s).backgroundColor);
  });
  document.querySelectorAll("details").forEach(function (d) { d.open = true; });
  r.clientWidth = de.clientWidth;
  r.scrollWidth = de.scrollWidth;
  document.querySelectorAll("svg").forEach(function (s) {
    var b = s.getBoundingClientRect();
    var c = {id: s.id, width: b.width, height: b.height, left: b.left, right: b.right, bars: 0, dots: 0, badFills: [], outside: []};
    s.querySelectorAll("rect:not(.band), circle").forEach(function (e) {
      if (e.tagName == "rect") { c.bars++; } else { c.dots++; }
      var f = e.getAttribute("fill") || "";
      if (!/^#[0-9a-f]{6}$/i.test(f) || getComputedStyle(e).fill == "none") {
        c.badFills.push(f + " " + (e.textContent || ""));
      }
    });
    s.querySelectorAll("text").forEach(function (t) {
      var tb = t.getBoundingClientRect();
      if (tb.left < b.left - 0.5 || tb.right > b.right + 0.5 || tb.top < b.top - 0.5 || tb.bottom > b.bottom + 0.5) {
        c.outside.push(t.textContent + " [" + Math.round(tb.left - b.left) + ", " + Math.round(tb.right - b.left) + "] of " + Math.round(b.width));
      }
    });
    r.charts.push(c);
  });
  var t = document.querySelector("table");
  var tb = t.getBoundingClientRect();
  var sc = t.parentElement;
  r.table = {width: tb.width, right: tb.right, scrollWidth: sc.scrollWidth, clientWidth: sc.clientWidth};
  document.querySelectorAll("td.name").forEach(function (td) {
    var range = document.createRange();
    range.selectNodeContents(td);
    if (range.getClientRects().length > 1) {
      r.wrapped.push(td.textContent);
    }
  });
  var out = document.createElement("output");
  out.id = "measure";
  out.style.display = "none";
  out.textContent = JSON.stringify(r);
  document.body.appendChild(out);
})();
</script>
`

type layout struct {
	InnerWidth, ClientWidth, ScrollWidth, Height float64
	Legend                                       []string
	Charts                                       []struct {
		ID                         string
		Width, Height, Left, Right float64
		Bars, Dots                 int
		BadFills, Outside          []string
	}
	Table struct {
		Width, Right             float64
		ScrollWidth, ClientWidth float64
	}
	Wrapped []string
}

// browserRun is every variant of the default suite (its groups JWS, JWE
// and JWT), with times from 0.5 μs to 20 ms, some of them as noisy, and
// against the reference run (scale not 1) as slow, as real runs are.
func browserRun(t *testing.T, id string, scale float64) *bench.Run {
	cfg := bench.DefaultConfig()
	vs, err := bench.Select(cfg.Measure, cfg.Measure.Groups)
	if err != nil {
		t.Fatal(err)
	}
	run := &bench.Run{Format: bench.RunFormat, ID: id, Start: time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC),
		Groups: cfg.Measure.Groups, Config: cfg}
	for i, v := range vs {
		base := 500 * float64(1+i%40) * float64(1+(i/40)%20)
		if v.RSABits == 4096 {
			base = 2e7
		}
		s := scale
		if i%7 == 0 {
			s = 1 / scale // some faster, some slower, some the same
		} else if i%5 == 0 {
			s = 1
		} else if i%13 == 4 && scale != 1 {
			s = 0.45 // the run is more than twice as slow (+122%)
		}
		base *= s
		revs, rejects := 100, 0
		times := []float64{base, base * 1.02, base * 0.99, base * 1.01, base * 0.97, base * 1.005}
		if i%11 == 3 {
			// As noisy as a run on a busy machine can be: the widest
			// numbers a real table holds (-26.1% to +117.4%, ±40%).
			revs, rejects = 1233, 10
			times = []float64{base, base * 2.5, base * 0.85, base * 1.3, base * 0.9, base * 1.6}
		}
		run.Results = append(run.Results, reportResult(v, revs, rejects, times...))
	}
	if run, err = jsonRoundTrip(run); err != nil {
		t.Fatal(err)
	}
	return run
}

// maxPageHeight is the most pixels the page of the whole default suite may
// take, as it opens, in a 1400-pixel window.
const maxPageHeight = 2000

// The HTML report in a real browser: headless Chromium lays out the page of
// the whole default suite, compared with a reference run, in a 1400-pixel
// window, with the default groups and with every group requested. As it
// opens, the page is at most maxPageHeight tall; with every folded chart
// and the table opened, nothing overflows horizontally, every chart (the
// overview's bars and small multiples, one per requested group that does
// not repeat another, the difference's) has its box within the page, every
// bar and dot a colour, every text its box within its chart; every subject
// has a colour in the legend, and no name in the table breaks.
func TestHTMLInChromium(t *testing.T) {
	bin := chromium()
	if bin == "" {
		t.Skip("SKIPPED: Chromium not found (install the Debian package chromium, as .ci/run does, or set JOSEBENCH_CHROMIUM): the HTML report was not checked in a browser")
	}
	for _, tt := range []struct {
		name   string
		groups []string
	}{
		{"default groups", nil},
		{"every group", bench.Groups()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			run := browserRun(t, reportRunID, 1)
			ref := browserRun(t, reportRefID, 1.05)
			if tt.groups != nil {
				run.Groups, ref.Groups = tt.groups, tt.groups
			}
			checkInChromium(t, bin, run, ref)
		})
	}
}

// checkInChromium lays out the page of run compared with ref in Chromium
// and checks it as TestHTMLInChromium says.
func checkInChromium(t *testing.T, bin string, run, ref *bench.Run) {
	var page bytes.Buffer
	if err := Write(&page, run, "html", Options{Report: bench.ReportAggregate, Ref: ref}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src := strings.Replace(page.String(), "</body>", measureScript+"</body>", 1)
	path := filepath.Join(dir, "report.html")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + filepath.Join(dir, "profile"), "--window-size=1400,1000"}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(args, "--dump-dom", "file://"+path)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, stderr.Bytes())
	}
	m := regexp.MustCompile(`<output id="measure"[^>]*>([^<]*)</output>`).FindSubmatch(dom)
	if m == nil {
		t.Fatalf("no measurements in the DOM Chromium dumped (%d bytes); stderr:\n%s", len(dom), stderr.Bytes())
	}
	var l layout
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &l); err != nil {
		t.Fatal(err)
	}
	t.Logf("layout: window %v, client %v, scroll %v, page %v px tall, table %v px, %d charts", l.InnerWidth, l.ClientWidth, l.ScrollWidth, l.Height, l.Table.Width, len(l.Charts))
	if l.InnerWidth != 1400 {
		t.Fatalf("window %v px wide, want 1400: the check would not be at 1400 px", l.InnerWidth)
	}
	if l.Height > maxPageHeight || l.Height <= 0 {
		t.Errorf("the page of %d variants and %d groups is %v px tall as it opens, want at most %d", len(run.Results), len(run.Groups), l.Height, maxPageHeight)
	}
	if l.ScrollWidth > l.ClientWidth {
		t.Errorf("horizontal overflow: the page is %v px wide in a %v px viewport", l.ScrollWidth, l.ClientWidth)
	}
	if l.Table.Right > l.ClientWidth || l.Table.Width <= 0 || l.Table.ScrollWidth > l.Table.ClientWidth {
		t.Errorf("table: %v px wide, right edge at %v px, %v px in a box of %v", l.Table.Width, l.Table.Right, l.Table.ScrollWidth, l.Table.ClientWidth)
	}
	if len(l.Wrapped) > 0 {
		t.Errorf("%d names in the table break across lines, as %q", len(l.Wrapped), l.Wrapped[0])
	}
	subjects := map[string]bool{}
	for _, r := range run.Results {
		subjects[r.Subject] = true
	}
	if len(l.Legend) != len(subjects) {
		t.Errorf("legend of %d subjects, want %d", len(l.Legend), len(subjects))
	}
	for _, c := range l.Legend {
		if c == "" || c == "rgba(0, 0, 0, 0)" || c == "rgb(0, 0, 0)" {
			t.Errorf("a legend swatch is %q", c)
		}
	}
	// A bar per variant of the overview, of each group and of the
	// difference; a dot per variant in the small multiples of a family.
	// A group that holds every variant, or the same ones as a group
	// before it, has no chart of its own.
	want := map[string]int{"chart-all": len(run.Results), "chart-diff": len(run.Results)}
	charted := map[string]bool{}
	for _, g := range run.Groups {
		vs, err := bench.Select(bench.DefaultConfig().Measure, []string{g})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, v := range vs {
			ids = append(ids, v.ID())
		}
		key := strings.Join(ids, " ")
		if len(vs) == len(run.Results) || charted[key] {
			continue
		}
		charted[key] = true
		want["chart-group-"+g] = len(vs)
	}
	dots := map[string]int{}
	for _, r := range run.Results {
		dots["chart-family-"+r.Groups[1]]++
		dots["chart-family-diff-"+r.Groups[1]]++
	}
	for _, c := range l.Charts {
		if c.Width <= 0 || c.Height <= 0 || c.Left < 0 || c.Right > l.ClientWidth {
			t.Errorf("chart %s: box %v×%v px from %v to %v", c.ID, c.Width, c.Height, c.Left, c.Right)
		}
		if len(c.BadFills) > 0 {
			t.Errorf("chart %s: %d bars or dots without a colour, as %q", c.ID, len(c.BadFills), c.BadFills[0])
		}
		if len(c.Outside) > 0 {
			t.Errorf("chart %s: %d texts leave the chart, as %q", c.ID, len(c.Outside), c.Outside[0])
		}
		if n, ok := want[c.ID]; ok {
			delete(want, c.ID)
			if c.Bars != n {
				t.Errorf("chart %s: %d bars, want %d", c.ID, c.Bars, n)
			}
			continue
		}
		if n, ok := dots[c.ID]; ok {
			delete(dots, c.ID)
			if c.Dots != n {
				t.Errorf("chart %s: %d dots, want %d", c.ID, c.Dots, n)
			}
			continue
		}
		t.Errorf("unexpected chart %q", c.ID)
	}
	for id := range want {
		t.Errorf("chart %s missing", id)
	}
	for id := range dots {
		t.Errorf("chart %s missing", id)
	}
	if shot := os.Getenv("JOSEBENCH_SCREENSHOT"); shot != "" && len(run.Groups) == len(bench.DefaultConfig().Measure.Groups) {
		// The page as it opens, without the script.
		plain := filepath.Join(dir, "plain.html")
		if err := os.WriteFile(plain, page.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.CommandContext(ctx, bin, append(args[:len(args)-1], fmt.Sprintf("--window-size=1400,%d", maxPageHeight), "--screenshot="+shot, "file://"+plain)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("screenshot: %v\n%s", err, out)
		}
	}
}
