package report

import (
	"bytes"
	"context"
	"encoding/json"
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
// that the test asserts on into the DOM, which --dump-dom prints.
const measureScript = `<script>
(function () {
  var de = document.documentElement;
  var r = {innerWidth: window.innerWidth, clientWidth: de.clientWidth, scrollWidth: de.scrollWidth, charts: []};
  document.querySelectorAll("svg").forEach(function (s) {
    var b = s.getBoundingClientRect();
    r.charts.push({id: s.id, width: b.width, height: b.height, left: b.left, right: b.right, bars: s.querySelectorAll("rect").length});
  });
  var t = document.querySelector("table").getBoundingClientRect();
  r.table = {width: t.width, right: t.right};
  var out = document.createElement("output");
  out.id = "measure";
  out.style.display = "none";
  out.textContent = JSON.stringify(r);
  document.body.appendChild(out);
})();
</script>
`

type layout struct {
	InnerWidth, ClientWidth, ScrollWidth float64
	Charts                               []struct {
		ID                         string
		Width, Height, Left, Right float64
		Bars                       int
	}
	Table struct{ Width, Right float64 }
}

// browserRun is every variant of the default suite, with times from 0.5 μs
// to 20 ms, requested as the default groups JWS and JWE.
func browserRun(t *testing.T, id string, scale float64) *bench.Run {
	vs, err := bench.Select(bench.DefaultConfig().Measure, []string{"JWS", "JWE"})
	if err != nil {
		t.Fatal(err)
	}
	run := &bench.Run{Format: bench.RunFormat, ID: id, Start: time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC),
		Groups: []string{"JWS", "JWE"}, Config: bench.DefaultConfig()}
	for i, v := range vs {
		base := 500 * float64(1+i%40) * float64(1+(i/40)%20)
		if v.RSABits == 4096 {
			base = 2e7
		}
		base *= scale
		run.Results = append(run.Results, reportResult(v, 100, 0, base, base*1.02, base*0.99, base*1.01, base*0.97))
	}
	if run, err = jsonRoundTrip(run); err != nil {
		t.Fatal(err)
	}
	return run
}

// The HTML report in a real browser: headless Chromium lays out the page of
// the whole default suite, compared with a reference run, in a 1400-pixel
// window; nothing overflows horizontally and every chart (the overview,
// one per requested group, the difference chart) has a non-empty box
// within the page.
func TestHTMLInChromium(t *testing.T) {
	bin := chromium()
	if bin == "" {
		t.Skip("SKIPPED: Chromium not found (install the Debian package chromium, as .ci/run does, or set JOSEBENCH_CHROMIUM): the HTML report was not checked in a browser")
	}
	run := browserRun(t, reportRunID, 1)
	ref := browserRun(t, reportRefID, 1.05)
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
	t.Logf("layout: window %v, client %v, scroll %v, table %v px, %d charts", l.InnerWidth, l.ClientWidth, l.ScrollWidth, l.Table.Width, len(l.Charts))
	if l.InnerWidth != 1400 {
		t.Fatalf("window %v px wide, want 1400: the check would not be at 1400 px", l.InnerWidth)
	}
	if l.ScrollWidth > l.ClientWidth {
		t.Errorf("horizontal overflow: the page is %v px wide in a %v px viewport", l.ScrollWidth, l.ClientWidth)
	}
	if l.Table.Right > l.ClientWidth || l.Table.Width <= 0 {
		t.Errorf("table: %v px wide, right edge at %v px", l.Table.Width, l.Table.Right)
	}
	// One bar per variant of the group: 39 JWS (48 with Go 1.27's ML-DSA)
	// and 630 JWE of the PHP suite's algorithms and dir, plus HPKE's.
	groupSize := func(g string) int {
		vs, err := bench.Select(bench.DefaultConfig().Measure, []string{g})
		if err != nil {
			t.Fatal(err)
		}
		return len(vs)
	}
	want := map[string]int{"chart-all": len(run.Results), "chart-group-JWS": groupSize("JWS"), "chart-group-JWE": groupSize("JWE"), "chart-diff": len(run.Results)}
	for _, c := range l.Charts {
		n, ok := want[c.ID]
		if !ok {
			t.Errorf("unexpected chart %q", c.ID)
			continue
		}
		delete(want, c.ID)
		if c.Width <= 0 || c.Height <= 0 || c.Left < 0 || c.Right > l.ClientWidth {
			t.Errorf("chart %s: box %v×%v px from %v to %v", c.ID, c.Width, c.Height, c.Left, c.Right)
		}
		if c.Bars != n {
			t.Errorf("chart %s: %d bars, want %d", c.ID, c.Bars, n)
		}
	}
	for id := range want {
		t.Errorf("chart %s missing", id)
	}
	if shot := os.Getenv("JOSEBENCH_SCREENSHOT"); shot != "" {
		cmd := exec.CommandContext(ctx, bin, append(args[:len(args)-1], "--window-size=1400,2400", "--screenshot="+shot, "file://"+path)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("screenshot: %v\n%s", err, out)
		}
	}
}
