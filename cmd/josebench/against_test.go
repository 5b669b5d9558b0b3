package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/josebench/josebench/bench"
)

// TestMain lets the test binary stand in for josebench: run as
// "<test binary> worker" (which run --against does) it is the worker.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "worker" {
		os.Exit(run(os.Stdout, os.Stderr, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// run --against drives another binary (here the test binary itself, so an
// identical build) in the same rounds and reports the paired ratios.
func TestRunAgainst(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir)
	code, out, errs := runCLI(t, "run", "--config", cfg, "--group", "HS256", "--against", os.Args[0], "--rounds", "6",
		"--report", "simple", "--output", "md", "--store", "--fail-slower", "1000")
	if code != 0 {
		t.Fatalf("run --against: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "\nbenchmark | groups | subject | set | mean | rounds | its | rejects | base_mean | diff | diff_interval\n") ||
		!strings.Contains(out, "diff: change of the time from the other build") {
		t.Errorf("run --against output:\n%s", out)
	}
	m := uuidRE.FindStringSubmatch(errs) // with md output, messages go to stderr
	if m == nil {
		t.Fatalf("not stored:\n%s\nstdout:\n%s", errs, out)
	}
	r, err := bench.Store{Dir: dir + "/runs"}.Load(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if r.Against == nil || r.Against.Env.GoVersion == "" || len(r.Against.Results) != len(r.Results) || len(r.Results) != 3 {
		t.Fatalf("stored A/B run: %+v", r.Against)
	}
	for i := range r.Results {
		a, b := r.Results[i], r.Against.Results[i]
		// Three alternating iterations a round, on each side.
		if a.ID() != b.ID() || len(a.Iterations) != 18 || len(b.Iterations) != 18 || a.Revs != b.Revs || b.Iterations[17].Round != 5 {
			t.Errorf("%s: %d and %d iterations, revs %d and %d", a.ID(), len(a.Iterations), len(b.Iterations), a.Revs, b.Revs)
		}
	}
	// report on the stored A/B run compares the two builds again.
	code, out, errs = runCLI(t, "report", "--config", cfg, "--uuid", m[1], "--report", "simple")
	if code != 0 || !strings.Contains(out, "base_mean") {
		t.Errorf("report of an A/B run: exit %d, %s\n%s", code, errs, out)
	}

	// A binary that is not josebench.
	code, _, errs = runCLI(t, "run", "--config", cfg, "--group", "HS256", "--against", "/bin/true")
	if code != 1 || !strings.Contains(errs, "does not speak josebench-worker/1") {
		t.Errorf("--against /bin/true: exit %d, %q", code, errs)
	}
}

// --ref warns when the variants moved together (the machine changed)
// or the runs cannot be compared.
func TestWarnDrift(t *testing.T) {
	cal := func(scale float64) *bench.Result {
		r := &bench.Result{Variant: bench.CalibrationVariant(), Revs: 512}
		for i, x := range []float64{100, 101, 99, 100, 102, 98} {
			r.Iterations = append(r.Iterations, bench.Iteration{Round: i, Time: x * scale})
		}
		return r
	}
	variant := func(scale float64) bench.Result {
		r := bench.Result{Variant: bench.Variant{Benchmark: "HS256Bench", Subject: "benchSignature", Groups: []string{"HS256"}}, Revs: 10}
		for i, x := range []float64{100, 101, 99, 100, 102, 98} {
			r.Iterations = append(r.Iterations, bench.Iteration{Round: i, Time: x * scale})
		}
		return r
	}
	for _, tt := range []struct {
		run, ref *bench.Result
		scale    float64
		pct      float64
		want     string
	}{
		// One variant: the calibration's change is divided out, and the
		// warning says so (not "the variants moved together").
		{cal(1.2), cal(1), 1.2, 0, "josebench: warning: the machine changed: the calibration workload +20.0% [+20.0%, +20.0%] against run REF, beyond 10%; with 1 variant (fewer than 5) that change is divided out of each"},
		{cal(1.2), cal(1), 1.2, 40, ""},
		{cal(0.85), cal(1), 0.85, 10, "the calibration workload -15.0%"},
		{cal(1.05), cal(1), 1.05, 0, ""},
		{cal(1.5), cal(1), 1.5, 0, "josebench: warning: not comparable with run REF: the machine changed: the calibration workload takes +50.0%"},
		{cal(1), nil, 1, 0, "josebench: warning: not comparable with run REF: no calibration workload in run REF"},
	} {
		var b strings.Builder
		run := &bench.Run{Calibration: tt.run, Results: []bench.Result{variant(tt.scale)}}
		ref := &bench.Run{ID: "REF", Calibration: tt.ref, Results: []bench.Result{variant(1)}}
		warnDrift(&b, run, ref, "", tt.pct)
		if got := b.String(); tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("%v against %v at %g%%: %q, want %q", tt.run.Iterations[0].Time, tt.ref, tt.pct, got, tt.want)
		}
	}
	// Nine variants: the change common to the run is theirs; one of them
	// too noisy to show 10% is named.
	run := &bench.Run{Calibration: cal(1.2)}
	ref := &bench.Run{ID: "REF", Calibration: cal(1)}
	for i := range 9 {
		a, b := variant(1.2), variant(1)
		a.Subject, b.Subject = fmt.Sprintf("bench%d", i), fmt.Sprintf("bench%d", i)
		if i == 4 {
			for k := range a.Iterations {
				a.Iterations[k].Time *= []float64{1, 1.5, 0.6, 1.4, 0.7, 1}[k]
			}
		}
		run.Results, ref.Results = append(run.Results, a), append(ref.Results, b)
	}
	var b strings.Builder
	warnDrift(&b, run, ref, "", 0)
	for _, want := range []string{
		"josebench: warning: the machine changed: the variants moved together by +20.0% against run REF (the calibration workload +20.0% [+20.0%, +20.0%]), beyond 10%",
		"josebench: warning: 1 of 9 variants not comparable with run REF, too noisy: their interval is wider than the 10% to detect, so --fail-slower could not have seen a change of that size (compare builds with --against instead): HS256Bench/bench4",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("nine variants: %q, want %q", b.String(), want)
		}
	}
	// The same nine +20% while the calibration did not move: a change
	// they share, which may be the code's; the variants within 10% of
	// it (all nine here: the noisy one too, for that reason first) are
	// not comparable, and the warning says so.
	run.Calibration = cal(1)
	b.Reset()
	warnDrift(&b, run, ref, "", 0)
	want := "josebench: warning: 9 of 9 variants not comparable with run REF: the variants moved together by +20.0% but the calibration workload by +0.0%: a change they share, beyond the 10% to detect, cannot be told from the machine's; only a variant beyond it either way is compared"
	if !strings.Contains(b.String(), want) || strings.Contains(b.String(), "too noisy") {
		t.Errorf("nine variants, calibration unchanged: %q, want %q", b.String(), want)
	}
}
