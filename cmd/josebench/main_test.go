package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/josebench/josebench/bench"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(&out, &errb, args)
	return code, out.String(), errb.String()
}

func TestHelpGolden(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"help", []string{"help"}},
		{"help-run", []string{"help", "run"}},
		{"report-h", []string{"report", "-h"}},
		{"list-h", []string{"list", "-h"}},
		{"log-h", []string{"log", "-h"}},
	} {
		code, out, errs := runCLI(t, tt.args...)
		if code != 0 || errs != "" {
			t.Errorf("%v: exit %d, stderr %q", tt.args, code, errs)
		}
		path := filepath.Join("testdata", tt.name+".golden")
		if *update {
			os.WriteFile(path, []byte(out), 0o644)
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if out != string(want) {
			t.Errorf("%v:\n%s\nwant\n%s", tt.args, out, want)
		}
	}
}

// writeConfig writes a fast configuration storing under dir. Retries are
// off, so that every round keeps its iteration (a descheduled iteration
// would otherwise be dropped, and with it a round the tests count).
func writeConfig(t *testing.T, dir string) string {
	t.Helper()
	cfg := "runner:\n  rounds: 2\n  ref_rounds: 0\n  iterations: 1\n  revs: 3\n  warmup: 0\n  retry_threshold: 0\n  progress: none\n  report: none\n  storage: " + filepath.Join(dir, "runs") + "\n"
	path := filepath.Join(dir, "bench.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir)
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("runner:\n  iterations: 3\n  revz: 4\n"), 0o644)
	strict := filepath.Join(dir, "strict.yaml")
	os.WriteFile(strict, []byte("runner:\n  iterations: 2.5\n"), 0o644)
	tests := []struct {
		args []string
		msg  string
	}{
		{nil, "Usage:"},
		{[]string{"bench"}, `josebench: unknown command "bench"`},
		{[]string{"help", "nope"}, `josebench: unknown command "nope"`},
		{[]string{"run", "--nope"}, "flag provided but not defined: -nope"},
		{[]string{"run", "extra"}, `josebench: run: unexpected argument "extra"`},
		{[]string{"run", "--config", cfg, "--group", "HS257"}, `josebench: unknown group "HS257" (did you mean HS256? "josebench list" lists the groups)` + "\n"},
		{[]string{"list", "--group", "nope"}, `josebench: unknown group "nope"`},
		// An empty value (an unset shell variable) is no group, not every one.
		{[]string{"run", "--config", cfg, "--group", ""}, `invalid value "" for flag -group: empty`},
		{[]string{"list", "--group", " , "}, `invalid value " , " for flag -group: empty`},
		{[]string{"run", "--config", cfg, "--group", "HS256", "--subject", ""}, `invalid value "" for flag -subject: empty`},
		{[]string{"run", "--config", cfg, "--report", "fancy"}, `josebench: unknown report "fancy" (want simple, default, aggregate, full)`},
		{[]string{"run", "--config", cfg, "--output", "pdf"}, `josebench: unknown output "pdf"`},
		{[]string{"run", "--config", cfg, "--fail-slower", "5"}, "josebench: --fail-slower needs --ref or --against"},
		{[]string{"run", "--config", cfg, "--ref", "latest", "--fail-slower", "NaN"}, "josebench: --fail-slower must be a finite number of percent"},
		{[]string{"run", "--config", cfg, "--ref", "latest", "--fail-slower", "+Inf"}, "josebench: --fail-slower must be a finite number of percent"},
		{[]string{"run", "--config", cfg, "--rounds", "-1"}, "josebench: --rounds must be at least 1"},
		{[]string{"run", "--config", cfg, "--rounds", "0"}, "josebench: --rounds must be at least 1"},
		{[]string{"run", "--config", cfg, "--parallel", "1"}, "josebench: --parallel must be at least 2"},
		{[]string{"run", "--config", cfg, "--against", "/nonexistent/josebench"}, "josebench: --against: exec: \"/nonexistent/josebench\""},
		{[]string{"run", "--config", cfg, "--against", os.Args[0], "--ref", "latest"}, "josebench: --against goes with neither --ref nor --parallel"},
		{[]string{"run", "--config", cfg, "--against", os.Args[0], "--parallel", "2"}, "josebench: --against goes with neither --ref nor --parallel"},
		{[]string{"run", "--config", cfg, "--revs", "0"}, `josebench: --revs must be auto or a positive integer, not "0"`},
		{[]string{"run", "--config", cfg, "--subject", "benchSign"}, `josebench: unknown subject "benchSign"`},
		{[]string{"run", "--config", cfg, "--group", "HS256", "--subject", "benchEncryption"}, "select no variant"},
		{[]string{"run", "--config", cfg, "--progress", "bar"}, `josebench: unknown progress "bar"`},
		{[]string{"report", "--time-unit", "hours"}, `josebench: unknown time unit "hours"`},
		{[]string{"run", "--config", cfg, "--metric", "speed"}, `josebench: unknown metric "speed" (want time or cpu)`},
		{[]string{"run", "--config", cfg, "--tag", "latest"}, `josebench: tag "latest" would read as a run id`},
		{[]string{"run", "--config", cfg, "--tag", "a b"}, `josebench: tag "a b": letters, digits`},
		{[]string{"run", "--config", cfg, "--tag", "0190a000-0000-7000-8000-000000000000"}, `would read as a run id`},
		// A configuration file that does not load is a usage error too,
		// for every command that reads one.
		{[]string{"run", "--config", bad}, "josebench: " + bad + `:3: unknown key "revz" in runner` + "\n"},
		{[]string{"run", "--config", strict}, "josebench: " + strict + `:2: runner.iterations: must be an integer, not "2.5"` + "\n"},
		{[]string{"report", "--config", bad}, `unknown key "revz" in runner`},
		{[]string{"list", "--config", bad}, `unknown key "revz" in runner`},
		{[]string{"log", "--config", bad}, `unknown key "revz" in runner`},
		{[]string{"run", "--config", filepath.Join(dir, "none.yaml")}, "josebench: open "},
	}
	for _, tt := range tests {
		code, out, errs := runCLI(t, tt.args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", tt.args, code, errs)
		}
		if !strings.Contains(errs, tt.msg) {
			t.Errorf("%v: stderr %q does not contain %q", tt.args, errs, tt.msg)
		}
		if out != "" {
			t.Errorf("%v: stdout %q", tt.args, out)
		}
	}
}

func TestFailures(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "blocker")
	os.WriteFile(blocker, nil, 0o644)
	cfg := writeConfig(t, dir)
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"report", "--config", cfg}, "josebench: no such stored run: storage " + filepath.Join(dir, "runs") + " holds no runs\n"},
		{[]string{"report", "--config", cfg, "--uuid", "0190a000-0000-7000-8000-000000000000"}, "josebench: no such stored run: 0190a000-0000-7000-8000-000000000000 in "},
		{[]string{"report", "--config", cfg, "--uuid", "../../x"}, `josebench: run id "../../x" is neither a UUID, "latest", "latest~N" nor a tag`},
		{[]string{"run", "--config", cfg, "--group", "HS256", "--store", "--storage", blocker}, "josebench: cannot create storage: "},
		{[]string{"run", "--config", cfg, "--group", "HS256", "--ref", "latest"}, "josebench: no such stored run"},
	}
	for _, tt := range tests {
		code, _, errs := runCLI(t, tt.args...)
		if code != 1 {
			t.Errorf("%v: exit %d, want 1 (stderr %q)", tt.args, code, errs)
		}
		if !strings.Contains(errs, tt.msg) {
			t.Errorf("%v: stderr %q does not contain %q", tt.args, errs, tt.msg)
		}
		if strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: stderr is not one line: %q", tt.args, errs)
		}
	}
}

var uuidRE = regexp.MustCompile(`Run: ([0-9a-f-]{36})\n`)

// The main job end to end: run a small group with few revs, store it, and
// report it in two formats; then compare against a faster reference.
func TestEndToEnd(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir)
	// Six rounds: the comparison at the end needs as many to reach 95%.
	code, out, errs := runCLI(t, "run", "--config", cfg, "--group", "HS256", "--store", "--rounds", "6")
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	if !strings.HasPrefix(out, "3 subjects, 3 variants, 18 iterations, 9 revs, ") ||
		!regexp.MustCompile(`\nsubject +variants +its +rejects +rstdev \(max\) +fastest \(μs\) +slowest \(μs\)\nbenchSignature +1 +6 +\d+ +[\d.]+% \([\d.]+%\) +[\d,.]+ HS256Bench +[\d,.]+ HS256Bench\n`).MatchString(out) ||
		strings.Contains(out, "mean") {
		t.Errorf("run summary:\n%s", out)
	}
	m := uuidRE.FindStringSubmatch(out)
	if m == nil || !strings.Contains(out, "Storing results ... OK\n") {
		t.Fatalf("run output:\n%s", out)
	}
	id := m[1]

	// The stored run.
	data, err := os.ReadFile(filepath.Join(dir, "runs", id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var stored struct {
		ID      string
		Seed    uint64
		Groups  []string
		Env     bench.Environment
		Config  bench.Config
		Results []struct {
			Benchmark, Subject string
			Revs               int
			Iterations         []bench.Iteration
		}
	}
	if err := json.Unmarshal(data, &stored); err != nil {
		t.Fatal(err)
	}
	if stored.ID != id || len(stored.Groups) != 1 || stored.Groups[0] != "HS256" || stored.Env.GoVersion == "" || stored.Config.Runner.Rounds != 6 || stored.Seed == 0 {
		t.Errorf("stored run header: %+v", stored)
	}
	if len(stored.Results) != 3 {
		t.Fatalf("%d results", len(stored.Results))
	}
	for i, subj := range []string{"benchSignature", "benchVerification", "benchRoundTrip"} {
		r := stored.Results[i]
		if r.Benchmark != "HS256Bench" || r.Subject != subj || r.Revs != 3 || len(r.Iterations) != 6 || r.Iterations[0].Time <= 0 || r.Iterations[1].Round != 1 {
			t.Errorf("result %d: %+v", i, r)
		}
	}

	// report --report=simple --output=md
	code, out, errs = runCLI(t, "report", "--config", cfg, "--uuid=latest", "--report=simple", "--output=md")
	if code != 0 {
		t.Fatalf("report md: exit %d: %s", code, errs)
	}
	wantHead := "Jose Performance Test Suite\n===========================\n\n### suite: " + id + ", date: "
	if !strings.HasPrefix(out, wantHead) || !strings.Contains(out, "\nbenchmark | groups | subject | set | mean | rounds | its | rejects\n") ||
		!strings.Contains(out, "\nHS256Bench | JWS,hmac,HS256 | benchVerification | alg=HS256 | ") {
		t.Errorf("md report:\n%s", out)
	}

	// A report defined in the configuration given to report.
	cfg2 := filepath.Join(dir, "bench2.yaml")
	raw2, _ := os.ReadFile(cfg)
	os.WriteFile(cfg2, append(raw2, "reports:\n  means:\n    extends: aggregate\n    cols: [benchmark, subject, mean, median]\n"...), 0o644)
	code, out, errs = runCLI(t, "report", "--config", cfg2, "--report", "means", "--output", "csv")
	if code != 0 || !strings.HasPrefix(out, "benchmark,subject,mean (μs),median (μs),rounds,its,rejects\nHS256Bench,benchSignature,") {
		t.Errorf("defined report: exit %d, %s\n%s", code, errs, out)
	}

	// report --output=gobench --file
	gb := filepath.Join(dir, "run.txt")
	code, out, errs = runCLI(t, "report", "--config", cfg, "--uuid", id, "--output", "gobench", "--file", gb)
	if code != 0 || out != "" {
		t.Fatalf("report gobench: exit %d, stdout %q: %s", code, out, errs)
	}
	data, _ = os.ReadFile(gb)
	line := regexp.MustCompile(`(?m)^BenchmarkSuite/HS256Bench/benchRoundTrip/alg=HS256(-\d+)?\t +3\t +[\d.]+ ns/op\t +\d+ B/op\t +\d+ allocs/op(\t +[\d.]+ cpu-ns/op)?$`)
	if n := len(line.FindAll(data, -1)); n != 6 {
		t.Errorf("%d round-trip lines in gobench output:\n%s", n, data)
	}

	// A reference run a thousand times faster: everything is slower.
	var ref map[string]any
	raw, _ := os.ReadFile(filepath.Join(dir, "runs", id+".json"))
	json.Unmarshal(raw, &ref)
	refID := "00000000-0000-7000-8000-000000000000"
	ref["id"] = refID
	for _, r := range ref["results"].([]any) {
		for _, it := range r.(map[string]any)["iterations"].([]any) {
			it := it.(map[string]any)
			it["time"] = it["time"].(float64) / 1000
		}
	}
	raw, _ = json.Marshal(ref)
	os.WriteFile(filepath.Join(dir, "runs", refID+".json"), raw, 0o644)
	code, out, errs = runCLI(t, "report", "--config", cfg, "--uuid", id, "--ref", refID, "--report", "simple", "--fail-slower", "50")
	if code != 1 || !strings.Contains(errs, "josebench: 3 variants are slower than run "+refID+" by more than 50% beyond their interval:\n\tHS256Bench/benchSignature/alg=HS256: +99900.00% [") {
		t.Errorf("fail-slower: exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "ref_mean") || !strings.Contains(out, "+99900.00%") {
		t.Errorf("comparison report:\n%s", out)
	}
	// The reference's CPU times are the run's: by CPU time nothing is
	// slower (on Linux, where it is measured).
	if stored.Results[0].Iterations[0].CPU > 0 {
		code, out, errs = runCLI(t, "report", "--config", cfg, "--uuid", id, "--ref", refID, "--report", "simple", "--metric", "cpu", "--fail-slower", "50")
		if code != 0 || !strings.Contains(out, "ref_cpu") {
			t.Errorf("fail-slower by cpu: exit %d, stderr %q\n%s", code, errs, out)
		}
	}

	// run --ref compares the new run with a stored one; one variant of
	// two rounds cannot be corrected for the machine's change (too few
	// rounds of the calibration workload): not comparable.
	code, out, errs = runCLI(t, "run", "--config", cfg, "--group", "HS256", "--subject", "benchSignature", "--ref", id, "--report", "simple", "--output", "md")
	if code != 0 {
		t.Fatalf("run --ref: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "\nbenchmark | groups | subject | set | mean | rounds | its | rejects | ref_mean | diff | diff_interval\n") || !strings.Contains(out, "diff: not comparable with run "+id+": the calibration workload has too few rounds (2)") || !strings.Contains(errs, "josebench: warning: not comparable with run "+id) {
		t.Errorf("run --ref output:\n%s", out)
	}
	// Compared with itself nothing is slower.
	code, _, errs = runCLI(t, "report", "--config", cfg, "--uuid", id, "--ref", id, "--fail-slower", "1")
	if code != 0 {
		t.Errorf("self comparison: exit %d: %s", code, errs)
	}
}

func TestList(t *testing.T) {
	code, out, _ := runCLI(t, "list", "--group", "RSA1_5")
	if code != 0 {
		t.Fatal(code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 54 || lines[0] != "RSA1_5Bench/benchEncryption/alg=RSA1_5/enc=A128CBC-HS256/bits=2048" {
		t.Errorf("%d lines, first %q", len(lines), lines[0])
	}
	code, out, _ = runCLI(t, "list")
	if code != 0 || !strings.Contains(out, "\nKW ") || !strings.Contains(out, "864 variants") { // JWE: 630 of the PHP suite and dir, 108 of RSA-OAEP-384 and -512, 126 of HPKE
		t.Errorf("list:\n%s", out)
	}
	// The groups of issue 22, in their families.
	for _, want := range []string{"\nES256K ", "\nRSA-OAEP-384 ", "\nRSA-OAEP-512 ", "ES512Bench ES256KBench", "RSAOAEP256Bench RSAOAEP384Bench RSAOAEP512Bench"} {
		if !strings.Contains(out, want) {
			t.Errorf("list does not show %q", want)
		}
	}
}

// --iterations 0 is refused, not ignored (issue 19).
func TestIterationsZero(t *testing.T) {
	code, _, errs := runCLI(t, "run", "--iterations", "0", "--group", "HS256")
	if code != 2 || !strings.Contains(errs, "--iterations must be at least 1") {
		t.Errorf("--iterations 0: exit %d, %q", code, errs)
	}
}
