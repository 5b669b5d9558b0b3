package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/bench/stats"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// reportVariant returns the variant with the given ID among those the
// groups select with the default inputs.
func reportVariant(t *testing.T, group, id string) bench.Variant {
	vs, err := bench.Select(bench.DefaultConfig().Measure, []string{group})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if v.ID() == id {
			return v
		}
	}
	t.Fatalf("no variant %s in %s", id, group)
	return bench.Variant{}
}

func reportResult(v bench.Variant, revs, rejects int, times ...float64) bench.Result {
	r := bench.Result{Variant: v, Revs: revs, Rejects: rejects}
	for i, x := range times {
		r.Iterations = append(r.Iterations, bench.Iteration{Round: i, Time: x, CPU: x * 0.9, Bytes: int64(1000 + 8*i), Allocs: 12})
	}
	return r
}

// reportRun is a fixed synthetic run; scale multiplies its times (the
// reference run is the same with other times).
func reportRun(t *testing.T, id string, scale float64, withNew bool) *bench.Run {
	s := func(xs ...float64) []float64 {
		out := make([]float64, len(xs))
		for i, x := range xs {
			out[i] = x * scale
		}
		return out
	}
	results := []bench.Result{
		reportResult(reportVariant(t, "HS256", "HS256Bench/benchSignature/alg=HS256"), 4000, 0, s(2510, 2490, 2500, 2530, 2470, 2500)...),
		reportResult(reportVariant(t, "HS256", "HS256Bench/benchVerification/alg=HS256"), 3500, 1, 2900, 2880, 2950, 2910, 2860, 2900),
		reportResult(reportVariant(t, "RSA1_5", "RSA1_5Bench/benchDecryption/alg=RSA1_5/enc=A128GCM/bits=2048"), 8, 0, s(1.21e6, 1.25e6, 1.19e6, 1.22e6, 1.23e6, 1.22e6)...),
	}
	if withNew {
		results = append(results, reportResult(reportVariant(t, "ECDH-ES", "ECDHESBench/benchRoundTrip/alg=ECDH-ES/enc=A256GCM/crv=X25519"), 120, 2, 81000, 80500, 82000, 81500, 80000, 81000))
	}
	data := []byte(`{"format":1,"id":"` + id + `","start":"2026-12-01T06:05:45Z","duration":"3s","groups":["HS256","RSA1_5"],` +
		`"env":{"go_version":"go1.26.0","goos":"linux","goarch":"amd64","cpu":"Test CPU @ 2.00GHz","num_cpu":2,"gomaxprocs":2,"module":"github.com/josebench/josebench","version":"(devel)"},"results":[]}`)
	run, err := bench.DecodeRun(data)
	if err != nil {
		t.Fatal(err)
	}
	run.Config = bench.DefaultConfig()
	run.Config.Runner.Rounds = 6 // as many as the iterations
	// The machine did not change: the same calibration in every run.
	run.Calibration = &bench.Result{Variant: bench.CalibrationVariant(), Revs: 170}
	for i, x := range []float64{1000, 1010, 990, 1005, 995, 1000} {
		run.Calibration.Iterations = append(run.Calibration.Iterations, bench.Iteration{Round: i, Time: x, CPU: 0.9 * x})
	}
	// Recompute the statistics as a stored run's are.
	run.Results = results
	buf, err := jsonRoundTrip(run)
	if err != nil {
		t.Fatal(err)
	}
	return buf
}

func jsonRoundTrip(run *bench.Run) (*bench.Run, error) {
	dir, err := os.MkdirTemp("", "report")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	s := bench.Store{Dir: dir}
	if _, err := s.Save(run); err != nil {
		return nil, err
	}
	return s.Load(run.ID)
}

const (
	reportRunID = "01937a3c-5e40-7000-8000-000000000001"
	reportRefID = "01937a30-0000-7000-8000-000000000000"
)

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

func TestGolden(t *testing.T) {
	run := reportRun(t, reportRunID, 1, true)
	ref := reportRun(t, reportRefID, 1.1, false)
	// An A/B run: the other build is the reference run, stored inside.
	abRun := reportRun(t, reportRunID, 1, true)
	against := reportRun(t, reportRefID, 1.1, false)
	against.ID = "/tmp/josebench-base"
	against.Env.Commit = "89ea31c8f00d000000000000000000000000cafe"
	abRun.Against = against
	// A run with --parallel 4.
	parRun := reportRun(t, reportRunID, 1, false)
	for i := range parRun.Results {
		r := &parRun.Results[i]
		r.Parallel = &bench.Throughput{Goroutines: 4, OpsPerSec: []float64{700000, 710000, 690000, 705000, 695000, 700000}}
	}
	parRun, err := jsonRoundTrip(parRun) // the statistics, as a stored run's
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, report, output string
		ref                  *bench.Run
	}{
		{"simple.md", "simple", "md", nil},
		{"simple.console", "simple", "console", nil},
		{"default.md", "default", "md", nil},
		{"default.console", "default", "console", nil},
		{"aggregate.console", "aggregate", "console", nil},
		{"aggregate.md", "aggregate", "md", nil},
		{"aggregate.csv", "aggregate", "csv", nil},
		{"aggregate.json", "aggregate", "json", nil},
		{"aggregate.html", "aggregate", "html", nil},
		{"full.md", "full", "md", nil},
		{"run.gobench", "simple", "gobench", nil},
		{"simple-ref.md", "simple", "md", ref},
		{"aggregate-ref.console", "aggregate", "console", ref},
		{"aggregate-ref.csv", "aggregate", "csv", ref},
		{"aggregate-ref.json", "aggregate", "json", ref},
		{"aggregate-ref.html", "aggregate", "html", ref},
		{"simple-ref-cpu.md", "simple", "md", ref},
		{"simple-against.md", "simple", "md", against},
		{"aggregate-against.html", "aggregate", "html", against},
		{"simple-parallel.md", "simple", "md", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			opts := Options{Report: tt.report, Ref: tt.ref}
			if strings.Contains(tt.name, "-cpu") {
				opts.Metric = MetricCPU
			}
			r := run
			switch {
			case tt.ref == against:
				r = abRun
			case strings.Contains(tt.name, "-parallel"):
				r = parRun
			}
			if err := Write(&b, r, tt.output, opts); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tt.name, b.Bytes())
			if tt.ref == against && tt.output == "html" && !strings.Contains(b.String(), "<h2>Difference from the other build ("+against.ID+")</h2>") {
				t.Error("the difference chart of an A/B run is not headed as from the other build")
			}
		})
	}
}

// The markdown report starts as the PHP suite's documentation shows.
func TestMarkdownHeader(t *testing.T) {
	run := reportRun(t, reportRunID, 1, false)
	var b bytes.Buffer
	if err := Write(&b, run, "md", Options{Report: "simple"}); err != nil {
		t.Fatal(err)
	}
	want := "Jose Performance Test Suite\n===========================\n\n### suite: " + reportRunID + ", date: 2026-12-01, stime: 06:05:45\n\nbenchmark | groups | subject | set | mean | rounds | its | rejects\n--- | --- | --- | --- | --- | --- | --- | ---\nHS256Bench | JWS,hmac,HS256 | benchSignature | alg=HS256 | 2.500μs | 6 | 6 | 0\n"
	if !strings.HasPrefix(b.String(), want) {
		t.Errorf("markdown starts\n%s\nwant\n%s", b.String(), want)
	}
}

func TestCompare(t *testing.T) {
	run := reportRun(t, reportRunID, 1, true)
	ref := reportRun(t, reportRefID, 1.1, false)
	ds := Compare(run, ref, MetricTime, 0)
	if len(ds) != 4 {
		t.Fatalf("%d deltas", len(ds))
	}
	// HS256 sign: every pair 10% faster (ratio 1/1.1): significant.
	if d := ds[0]; !d.Found || d.Noise || d.Pairs != 6 || math.Abs(d.Ratio-1/1.1) > 1e-12 || d.Interval.Hi >= 1 || d.Percent > -9 || d.Percent < -10 {
		t.Errorf("sign delta %+v", d)
	}
	// Six pairs: the whole range, which covers the median with
	// probability 1 - 2/64.
	if d := ds[0]; d.Interval.Confidence != 1-2.0/64 || d.TooFew {
		t.Errorf("confidence %v with 6 pairs, too few %v", d.Interval.Confidence, d.TooFew)
	}
	// HS256 verify: same samples: ratio 1, noise.
	if d := ds[1]; !d.Found || !d.Noise || d.Percent != 0 {
		t.Errorf("verify delta %+v", d)
	}
	if d := ds[3]; d.Found {
		t.Errorf("new variant found in ref: %+v", d)
	}
	// The reverse comparison: sign and decryption are 10% slower.
	back := Compare(ref, run, "", 0)
	// Three variants: the calibration (unchanged) is the common change
	// and the interval includes the assumed run-to-run drift (4%
	// standard deviation, about ±8%): 10% slower is beyond 0, not 5%.
	if s := Slower(back, 0); len(s) != 2 || s[0].ID != "HS256Bench/benchSignature/alg=HS256" {
		t.Errorf("Slower = %+v", s)
	}
	if s := Slower(back, 15); len(s) != 0 {
		t.Errorf("Slower(15) = %+v", s)
	}
	// CPU time: the synthetic runs' CPU is 0.9 of the time.
	cpu := Compare(run, ref, MetricCPU, 0)
	if d := cpu[0]; !d.Found || d.Noise || d.Cur != 0.9*2500 || d.Percent > -9 || d.Percent < -10 {
		t.Errorf("cpu delta %+v", d)
	}
	noCPU := reportRun(t, reportRefID, 1.1, false)
	for i := range noCPU.Results {
		for j := range noCPU.Results[i].Iterations {
			noCPU.Results[i].Iterations[j].CPU = 0
		}
	}
	if d := Compare(run, noCPU, MetricCPU, 0)[0]; d.Found || !d.NoData {
		t.Errorf("cpu delta without CPU in ref: %+v", d)
	}

	// Fewer than 6 pairs cannot reach 95%: however far every pair moved,
	// the change is not claimed (benchstat's rule) and --fail-slower
	// does not fire; the interval is the whole range.
	for n := 1; n <= 5; n++ {
		a, b := reportRun(t, reportRunID, 1, false), reportRun(t, reportRefID, 2, false)
		a.Results, b.Results = a.Results[:1], b.Results[:1]
		a.Results[0].Iterations = a.Results[0].Iterations[:n]
		d := Compare(b, a, MetricTime, 0)[0]
		if !d.Found || d.Pairs != n || !d.TooFew || !d.Noise || d.Interval.Confidence >= 0.95 || math.Abs(d.Percent-100) > 1e-9 {
			t.Errorf("%d pairs, twice as slow: %+v, want too few pairs, noise", n, d)
		}
		if s := Slower([]Delta{d}, 10); len(s) != 0 {
			t.Errorf("%d pairs: Slower = %+v", n, s)
		}
	}

	// Rounds pair by round, the iterations of a round averaged.
	a, b := reportRun(t, reportRunID, 1, false), reportRun(t, reportRefID, 1, false)
	a.Results = a.Results[:1]
	b.Results = b.Results[:1]
	a.Results[0].Iterations = []bench.Iteration{{Round: 0, Time: 100}, {Round: 0, Time: 300}, {Round: 1, Time: 400}}
	b.Results[0].Iterations = []bench.Iteration{{Round: 0, Time: 100}, {Round: 1, Time: 200}}
	if d := Compare(a, b, MetricTime, 0)[0]; d.Pairs != 2 || d.RawInterval.Lo != 1 || d.RawInterval.Hi != 2 {
		t.Errorf("rounds paired: %+v, want the ratios of the bests 100/100 and 400/200", d)
	}
}

// syntheticRun is an A/B run of one variant: rounds rounds of three
// samples a side around 1000 ns, the other build's times multiplied by shift, both with
// noise that drifts from round to round (shared by the pair, as it is on
// the machine) plus independent noise.
func syntheticRun(t *testing.T, rng *rand.Rand, rounds int, shift float64) *bench.Run {
	v := reportVariant(t, "HS256", "HS256Bench/benchVerification/alg=HS256")
	this, other := bench.Result{Variant: v, Revs: 100}, bench.Result{Variant: v, Revs: 100}
	for r := range rounds {
		drift := 1 + 0.3*rng.Float64() // the machine: up to 30% slower
		noise := func() float64 { return 1 + 0.08*rng.NormFloat64() }
		// One sample in ten is hit by a preemption.
		hit := func() float64 {
			if rng.IntN(10) == 0 {
				return 1.5
			}
			return 1
		}
		// Three iterations a side, alternating, as an A/B run makes.
		for range 3 {
			this.Iterations = append(this.Iterations, bench.Iteration{Round: r, Time: 1000 * shift * drift * noise() * hit()})
			other.Iterations = append(other.Iterations, bench.Iteration{Round: r, Time: 1000 * drift * noise() * hit()})
		}
	}
	run := &bench.Run{ID: reportRunID, Results: []bench.Result{this}}
	run.Against = &bench.Run{ID: "/tmp/other", Results: []bench.Result{other}}
	return run
}

// The A/B statistics on synthetic samples: for identical distributions
// the interval covers no change about 95% of the time and --fail-slower 10
// never fires; for a known shift of 40% the interval covers the shift
// about 95% of the time and --fail-slower 10 fires.
func TestCompareSynthetic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const trials = 500
	for _, rounds := range []int{10, 20} {
		covered, alarms := 0, 0
		for range trials {
			run := syntheticRun(t, rng, rounds, 1)
			d := Compare(run, run.Against, MetricTime, 0)[0]
			if d.Noise {
				covered++
			}
			if len(Slower([]Delta{d}, 10)) > 0 {
				alarms++
			}
		}
		// The interval's confidence is at least 95%; allow for the
		// sampling of 500 trials.
		if covered < trials*92/100 {
			t.Errorf("%d rounds, identical builds: the interval covers no change in %d of %d trials, want about 95%%", rounds, covered, trials)
		}
		if alarms != 0 {
			t.Errorf("%d rounds, identical builds: %d false alarms in %d trials at 10%%", rounds, alarms, trials)
		}
		found, flagged := 0, 0
		for range trials {
			run := syntheticRun(t, rng, rounds, 1.4)
			d := Compare(run, run.Against, MetricTime, 0)[0]
			if d.Interval.Contains(1.4) {
				found++
			}
			if len(Slower([]Delta{d}, 10)) > 0 {
				flagged++
			}
		}
		if found < trials*92/100 || flagged < trials*99/100 {
			t.Errorf("%d rounds, 40%% slower: the interval covers the shift in %d, flagged in %d of %d trials", rounds, found, flagged, trials)
		}
	}
}

// The calibration workloads compare as variants do.
func TestCompareCalibration(t *testing.T) {
	run, ref := reportRun(t, reportRunID, 1, false), reportRun(t, reportRefID, 1, false)
	run.Calibration = nil
	if _, ok := CompareCalibration(run, ref, 0); ok {
		t.Error("calibration compared without calibration results")
	}
	cal := func(scale float64) *bench.Result {
		r := &bench.Result{Variant: bench.CalibrationVariant(), Revs: 512}
		for i, x := range []float64{100, 102, 98, 101, 99, 100} {
			r.Iterations = append(r.Iterations, bench.Iteration{Round: i, Time: x * scale})
		}
		return r
	}
	run.Calibration, ref.Calibration = cal(1.25), cal(1)
	d, ok := CompareCalibration(run, ref, 0)
	if !ok || d.Noise || math.Abs(d.Percent-25) > 1e-9 {
		t.Errorf("calibration delta %+v", d)
	}
}

func TestErrors(t *testing.T) {
	run := reportRun(t, reportRunID, 1, false)
	var b bytes.Buffer
	if err := Write(&b, run, "md", Options{Report: "nope"}); err == nil || !strings.Contains(err.Error(), `report: unknown report "nope" (known: simple, default, aggregate, full)`) {
		t.Errorf("unknown report: %v", err)
	}
	if err := Write(&b, run, "pdf", Options{}); err == nil || !strings.Contains(err.Error(), `report: unknown output "pdf"`) {
		t.Errorf("unknown output: %v", err)
	}
}

// Every report of every variant the suite can select (both serializations,
// a 1 MB payload, times up to 0.7 s per operation), with and without a
// reference, fits consoleWidth columns on the console; md keeps every
// column.
func TestConsoleWidth(t *testing.T) {
	m := bench.DefaultConfig().Measure
	m.RSASignBits = bench.RSABits
	m.Serializations = bench.Serializations
	m.Payloads = []string{bench.PayloadRFC7520, "1000000"}
	vs, err := bench.Select(m, []string{"JWS", "JWE"})
	if err != nil {
		t.Fatal(err)
	}
	run := &bench.Run{Format: bench.RunFormat, ID: reportRunID, Config: bench.DefaultConfig()}
	for i, v := range vs {
		run.Results = append(run.Results, reportResult(v, 1_000_000, 3, float64(i+1)*1e6, float64(i+1)*1.3e6, float64(i+1)*0.7e6))
	}
	run, err = jsonRoundTrip(run)
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []*bench.Run{nil, run} {
		for _, name := range run.Config.ReportNames() {
			var b strings.Builder
			if err := Write(&b, run, "console", Options{Report: name, Ref: ref}); err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(b.String(), "\n") {
				if n := utf8.RuneCountInString(line); n > consoleWidth {
					t.Fatalf("%s (ref %v): a line of %d columns:\n%s", name, ref != nil, n, line)
				}
			}
			var md strings.Builder
			Write(&md, run, "md", Options{Report: name, Ref: ref})
			tab, _ := Build(run, Options{Report: name, Ref: ref})
			if !strings.Contains(md.String(), "\n"+strings.Join(tab.Columns, " | ")+"\n") {
				t.Errorf("%s: md lacks a column", name)
			}
		}
	}
}

// Bytes and allocations per operation print as integers, truncated as
// `go test -benchmem` truncates them (2240.9 B/op is 2240).
func TestIntegerBytesAllocs(t *testing.T) {
	v := reportVariant(t, "HS256", "HS256Bench/benchSignature/alg=HS256")
	r := bench.Result{Variant: v, Revs: 10, Bytes: 2240.9, Allocs: 17.5}
	for _, c := range []struct {
		col  string
		want string
		raw  any
	}{{"bytes", "2240", int64(2240)}, {"allocs", "17", int64(17)}} {
		cell := columns[c.col](&r, -1)
		if got := cell.Format(bench.Microseconds); got != c.want {
			t.Errorf("%s: %q, want %q", c.col, got, c.want)
		}
		if got := cell.Raw(bench.Microseconds); got != c.raw {
			t.Errorf("%s raw: %v (%T), want %v", c.col, got, got, c.raw)
		}
	}
}

// A run interrupted before its end says so in every output.
func TestIncompleteNote(t *testing.T) {
	run := reportRun(t, reportRunID, 1, true)
	run.Incomplete = true
	for i := range run.Results { // interrupted in the second round
		r := &run.Results[i]
		r.Iterations = r.Iterations[:1]
	}
	for _, output := range []string{"console", "md", "csv", "json", "html"} {
		var b bytes.Buffer
		if err := Write(&b, run, output, Options{Report: "simple"}); err != nil {
			t.Fatal(err)
		}
		if output == "csv" {
			continue // csv holds rows only
		}
		// One round done.
		if !strings.Contains(b.String(), "Incomplete run: interrupted after 1 of 6 rounds") {
			t.Errorf("%s: no incomplete note:\n%s", output, b.String())
		}
	}
	// Interrupted in the retries, every round done: not "after 6 of 6
	// rounds; the rounds not completed are missing", but what it kept
	// unretried (every iteration of reportRun waited: wall time 11% above
	// CPU time; here all but one of HS256 signing's, and none of HS256
	// verification's).
	run = reportRun(t, reportRunID, 1, true)
	run.Incomplete = true
	for _, its := range [][]bench.Iteration{run.Results[0].Iterations[1:], run.Results[1].Iterations} {
		for k := range its {
			its[k].CPU = its[k].Time
		}
	}
	var b bytes.Buffer
	if err := Write(&b, run, "md", Options{Report: "simple"}); err != nil {
		t.Fatal(err)
	}
	if want := "Incomplete run: interrupted during the retries, after all 6 rounds; 3 of 4 variants kept iterations that still deviate by runner.retry_threshold, not re-run."; !strings.Contains(b.String(), want) {
		t.Errorf("interrupted in the retries: no %q:\n%s", want, b.String())
	}
}

// A run of fewer than 6 rounds says that its intervals are the range of
// the rounds, short of 95%, and a comparison that its changes are not
// claimed; with 6 rounds neither note appears.
func TestTooFewRoundsNotes(t *testing.T) {
	for _, n := range []int{minRounds - 1, minRounds} {
		if _, iv := stats.MedianInterval(make([]float64, n), stats.DefaultConfidence); (iv.Confidence >= stats.DefaultConfidence) != (n >= minRounds) || (n < minRounds && iv.Confidence != rangeConfidence(n)) {
			t.Errorf("%d rounds: confidence %v, minRounds %d", n, iv.Confidence, minRounds)
		}
		run, ref := reportRun(t, reportRunID, 1, false), reportRun(t, reportRefID, 2, false)
		for _, r := range []*bench.Run{run, ref} {
			for i := range r.Results {
				r.Results[i].Iterations = r.Results[i].Iterations[:n]
			}
		}
		var err error
		if run, err = jsonRoundTrip(run); err != nil { // the statistics, as a stored run's
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := Write(&b, run, "console", Options{Report: "aggregate", Ref: ref}); err != nil {
			t.Fatal(err)
		}
		out := strings.Join(strings.Fields(b.String()), " ")
		few := n < minRounds
		if got := strings.Contains(out, "Too few rounds for 95%: with 5 rounds (6 are needed)"); got != few {
			t.Errorf("%d rounds: interval note %v, want %v:\n%s", n, got, few, b.String())
		}
		if got := strings.Contains(out, "Too few rounds paired: with 5 pairs"); got != few {
			t.Errorf("%d rounds: comparison note %v, want %v:\n%s", n, got, few, b.String())
		}
		if got := strings.Contains(out, "~ -50.00%"); got != few {
			t.Errorf("%d rounds: twice as fast marked ~: %v, want %v:\n%s", n, got, few, b.String())
		}
		// The HTML tooltips of the time and difference charts say it too.
		b.Reset()
		if err := Write(&b, run, "html", Options{Report: "aggregate", Ref: ref}); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		diff := page[strings.Index(page, `id="chart-diff"`):]
		for name, part := range map[string]string{"time": page[:strings.Index(page, `id="chart-diff"`)], "diff": diff[:strings.Index(diff, "</svg>")]} {
			if got := strings.Contains(part, "(only a 94% interval"); got != few {
				t.Errorf("%d rounds: %s chart tooltips short of 95%%: %v, want %v", n, name, got, few)
			}
		}
	}
}

// In csv and json every value but the names is a number, a boolean or
// empty: each interval is two numbers named after it with _low and _high,
// the diff a plain number, its significance a separate field.
func TestMachineFormatsNumeric(t *testing.T) {
	run := reportRun(t, reportRunID, 1, true)
	ref := reportRun(t, reportRefID, 1.1, false)
	par := reportRun(t, reportRunID, 1, false)
	for i := range par.Results {
		par.Results[i].Parallel = &bench.Throughput{Goroutines: 4, OpsPerSec: []float64{700000, 710000, 690000, 705000, 695000, 700000}}
	}
	par, err := jsonRoundTrip(par)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{"benchmark": true, "groups": true, "subject": true, "set": true}
	for _, tt := range []struct {
		name string
		run  *bench.Run
		opts Options
		want []string // fields that must be there
	}{
		{"aggregate", run, Options{Report: "aggregate"}, []string{"interval_low", "interval_high"}},
		{"aggregate-ref", run, Options{Report: "aggregate", Ref: ref}, []string{"interval_low", "interval_high", "diff", "diff_low", "diff_high", "diff_significant"}},
		{"aggregate-ref-cpu", run, Options{Report: "aggregate", Ref: ref, Metric: MetricCPU}, []string{"diff_cpu", "diff_low", "diff_high", "diff_significant"}},
		{"simple-parallel", par, Options{Report: "simple"}, []string{"ops_s", "par_ops_s", "par_low", "par_high"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var js bytes.Buffer
			if err := Write(&js, tt.run, "json", tt.opts); err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Columns []string
				Rows    []map[string]any
			}
			dec := json.NewDecoder(&js)
			dec.UseNumber()
			if err := dec.Decode(&doc); err != nil {
				t.Fatal(err)
			}
			for _, f := range tt.want {
				if !slices.Contains(doc.Columns, f) {
					t.Errorf("json: no field %s in %v", f, doc.Columns)
				}
			}
			for _, c := range doc.Columns {
				if strings.HasSuffix(c, "interval") {
					t.Errorf("json: field %s is an interval in one field", c)
				}
			}
			for _, row := range doc.Rows {
				if len(row) != len(doc.Columns) {
					t.Errorf("json: row of %d fields, %d columns", len(row), len(doc.Columns))
				}
				for k, v := range row {
					switch v.(type) {
					case json.Number, nil:
					case bool:
						if k != "diff_significant" {
							t.Errorf("json: %s = %v, a boolean", k, v)
						}
					default:
						if !names[k] && k != "sample_warning" {
							t.Errorf("json: %s = %#v, not a number", k, v)
						}
					}
				}
				num := func(k string) (float64, bool) {
					n, ok := row[k].(json.Number)
					if !ok {
						return 0, false
					}
					f, err := n.Float64()
					return f, err == nil
				}
				for _, iv := range []string{"interval", "diff", "par"} {
					lo, okLo := num(iv + "_low")
					hi, okHi := num(iv + "_high")
					if okLo != okHi || okLo && lo > hi {
						t.Errorf("json: %s_low %v, %s_high %v", iv, row[iv+"_low"], iv, row[iv+"_high"])
					}
					if !okLo || iv != "diff" {
						continue
					}
					d, ok := num("diff")
					if !ok {
						d, ok = num("diff_cpu")
					}
					sig, _ := row["diff_significant"].(bool)
					// Six pairs reach 95%: significant exactly when the
					// interval excludes 0.
					if !ok || d < lo || d > hi || sig != (lo > 0 || hi < 0) {
						t.Errorf("json: diff %v in [%v, %v], significant %v", row["diff"], lo, hi, row["diff_significant"])
					}
				}
			}

			var cs bytes.Buffer
			if err := Write(&cs, tt.run, "csv", tt.opts); err != nil {
				t.Fatal(err)
			}
			recs, err := csv.NewReader(&cs).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != len(doc.Rows)+1 {
				t.Fatalf("csv: %d records, json %d rows", len(recs), len(doc.Rows))
			}
			for j, h := range recs[0] {
				if name, _, _ := strings.Cut(h, " ("); name != doc.Columns[j] {
					t.Errorf("csv column %d is %q, json's %q", j, h, doc.Columns[j])
				}
			}
			for i, rec := range recs[1:] {
				for j, v := range rec {
					k := doc.Columns[j]
					if names[k] || v == "" || k == "sample_warning" {
						continue
					}
					if _, err := strconv.ParseFloat(v, 64); err != nil && !(k == "diff_significant" && (v == "true" || v == "false")) {
						t.Errorf("csv row %d: %s = %q, not a number", i, k, v)
					}
					if jv := fmt.Sprint(doc.Rows[i][k]); jv != v {
						t.Errorf("csv row %d: %s = %q, json %s", i, k, v, jv)
					}
				}
			}
		})
	}
}

// A time column's heading gives its unit whichever row comes first: with a
// first variant that the reference run does not have (ref_mean empty), or
// a first without a thread CPU time, ref_mean and cpu are still in μs.
func TestTimeHeadingUnit(t *testing.T) {
	run := reportRun(t, reportRunID, 1, true)
	run.Results[0].CPU = 0
	for i := range run.Results[0].Iterations {
		run.Results[0].Iterations[i].CPU = 0
	}
	ref := reportRun(t, reportRefID, 1.1, true)
	ref.Results = ref.Results[1:]
	var b bytes.Buffer
	if err := Write(&b, run, "csv", Options{Report: "aggregate", Ref: ref}); err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(b.String(), "\n")
	if rec, _, _ := strings.Cut(strings.Split(b.String(), "\n")[1], ","); rec != "HS256Bench" {
		t.Fatalf("first row %q", rec)
	}
	for _, h := range []string{"cpu (μs)", "ref_mean (μs)", "mean (μs)"} {
		if !slices.Contains(strings.Split(head, ","), h) {
			t.Errorf("csv heading %q has no %q", head, h)
		}
	}
	tab, err := Build(run, Options{Report: "aggregate", Ref: ref})
	if err != nil {
		t.Fatal(err)
	}
	for j, c := range tab.Columns {
		if (c == "cpu" || c == "ref_mean") && tab.header(j, true) != c+" (μs)" {
			t.Errorf("heading of %s: %q", c, tab.header(j, true))
		}
	}
}
