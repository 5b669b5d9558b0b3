package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/bench/subjects"
)

// withPrepare replaces the preparer for one test.
func withPrepare(t *testing.T, p bench.Preparer) {
	t.Helper()
	old := prepare
	prepare = p
	t.Cleanup(func() { prepare = old })
}

// storedIDs returns the runs stored under dir/runs.
func storedIDs(t *testing.T, dir string) []string {
	t.Helper()
	ids, err := bench.Store{Dir: filepath.Join(dir, "runs")}.IDs()
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// A variant that fails its checks stops the run: the error names the
// variant and the check, the exit status is 1, nothing is stored.
func TestRunCheckFailure(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir)
	withPrepare(t, func(v *bench.Variant) (bench.Op, error) {
		if v.Alg == "HS384" && v.Subject == bench.SubjectVerification {
			return nil, &subjects.CheckError{Check: subjects.CheckFlippedSignature, Err: errors.New("the token was accepted")}
		}
		return subjects.Prepare(v)
	})
	code, out, errs := runCLI(t, "run", "--config", cfg, "--group", "hmac", "--store")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	want := "josebench: HS384Bench/benchVerification/alg=HS384: subjects: check flipped signature: the token was accepted\n"
	if !strings.HasSuffix(errs, want) {
		t.Errorf("stderr %q, want it to end %q", errs, want)
	}
	if out != "" {
		t.Errorf("stdout %q", out)
	}
	if ids := storedIDs(t, dir); len(ids) != 0 {
		t.Errorf("stored %v", ids)
	}
}

// With a machine format the report is alone on standard output; the
// summary and the storing messages go to standard error.
func TestRunMachineOutput(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir)
	for _, output := range []string{"json", "csv", "gobench", "html", "md"} {
		code, out, errs := runCLI(t, "run", "--config", cfg, "--group", "HS256", "--store", "--report", "aggregate", "--output", output)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", output, code, errs)
		}
		if !strings.Contains(errs, "3 subjects, 3 variants, ") || !strings.Contains(errs, "Storing results ... OK\n") {
			t.Errorf("%s: stderr %q lacks the summary", output, errs)
		}
		switch output {
		case "json":
			var doc map[string]any
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Errorf("json: stdout does not parse: %v\n%s", err, out)
			}
		case "csv":
			recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			if err != nil || len(recs) != 4 || recs[0][0] != "benchmark" {
				t.Errorf("csv: %v, %d records:\n%s", err, len(recs), out)
			}
		case "gobench":
			if !strings.HasPrefix(out, "goos: ") {
				t.Errorf("gobench: stdout starts %q", out[:min(40, len(out))])
			}
		case "html":
			if !strings.HasPrefix(out, "<!DOCTYPE html>") {
				t.Errorf("html: stdout starts %q", out[:min(40, len(out))])
			}
		case "md":
			if !strings.HasPrefix(out, "Jose Performance Test Suite\n===") {
				t.Errorf("md: stdout starts %q", out[:min(40, len(out))])
			}
		}
	}
	// The console keeps the summary before the report.
	code, out, _ := runCLI(t, "run", "--config", cfg, "--group", "HS256", "--report", "simple")
	if code != 0 || !strings.HasPrefix(out, "3 subjects, 3 variants, ") || !strings.Contains(out, "\nJose Performance Test Suite\n") {
		t.Errorf("console: exit %d\n%s", code, out)
	}
}

// An unusable storage directory is an error before any variant is
// prepared or measured.
func TestRunStorageProbedFirst(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir)
	prepared := 0
	withPrepare(t, func(v *bench.Variant) (bench.Op, error) {
		prepared++
		return subjects.Prepare(v)
	})
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	for _, storage := range []string{file, filepath.Join(file, "sub")} {
		code, _, errs := runCLI(t, "run", "--config", cfg, "--group", "HS256", "--store", "--storage", storage)
		if code != 1 || !strings.Contains(errs, "josebench: cannot create storage: ") {
			t.Errorf("%s: exit %d, stderr %q", storage, code, errs)
		}
	}
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		os.Mkdir(ro, 0o555)
		code, _, errs := runCLI(t, "run", "--config", cfg, "--group", "HS256", "--store", "--storage", ro)
		if code != 1 || !strings.Contains(errs, "josebench: cannot write to storage: ") {
			t.Errorf("read-only: exit %d, stderr %q", code, errs)
		}
	} else {
		t.Log("running as root: the read-only directory case is not tested (root writes anywhere)")
	}
	if prepared != 0 {
		t.Errorf("%d variants prepared before the storage error", prepared)
	}
	// Without --store the storage is not touched.
	code, _, errs := runCLI(t, "run", "--config", cfg, "--group", "HS256", "--storage", file)
	if code != 0 || prepared != 3 {
		t.Errorf("without --store: exit %d, %d prepared: %s", code, prepared, errs)
	}
}

// `log` lists stored runs; --tag names a run, and --uuid and --ref accept
// the tag (the newest run with it).
func TestLogAndTags(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir)
	store := bench.Store{Dir: filepath.Join(dir, "runs")}
	code, out, errs := runCLI(t, "log", "--config", cfg)
	if code != 0 || out != "" || !strings.Contains(errs, "no runs stored in ") {
		t.Errorf("empty log: exit %d, %q, %q", code, out, errs)
	}
	// Three fixed runs: the log's golden file.
	for i, r := range []struct {
		tag        string
		groups     []string
		filter     string
		n          int
		commit     string
		modified   bool
		from       string
		incomplete bool
	}{
		{"base", []string{"hmac"}, "", 9, "89ea31c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7", false, bench.CommitFromBuild, false},
		{"", []string{"JWS", "JWE"}, "Signature/alg=HS(256|512)$", 2, "", false, "", true},
		{"base", []string{"RSASign", "ECDSA"}, "^(RS256Bench|ES256Bench)/benchVerification/alg=", 4, "0123456789abcdef0123456789abcdef01234567", true, bench.CommitFromGit, false},
	} {
		run := &bench.Run{Format: bench.RunFormat, ID: []string{
			"019ad7a0-0000-7000-8000-000000000001", "019ad7a0-0000-7000-8000-000000000002", "019ad7a0-0000-7000-8000-000000000003"}[i],
			Tag: r.tag, Start: time.Date(2026, 12, 1, 22, i, 0, 0, time.UTC), Groups: r.groups, Filter: r.filter, Config: bench.DefaultConfig(),
			Env: bench.Environment{Commit: r.commit, Modified: r.modified, CommitFrom: r.from}, Incomplete: r.incomplete}
		for range r.n {
			run.Results = append(run.Results, bench.Result{Revs: 1, Iterations: []bench.Iteration{{Time: 1000}}})
		}
		if _, err := store.Save(run); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs = runCLI(t, "log", "--config", cfg)
	if code != 0 {
		t.Fatalf("log: exit %d: %s", code, errs)
	}
	golden(t, "log.golden", out)

	r, err := store.Load("base")
	if err != nil || r.ID != "019ad7a0-0000-7000-8000-000000000003" {
		t.Errorf("Load(base): %v, %v", r, err)
	}
	if _, err := store.Load("nope"); !errors.Is(err, bench.ErrNoRun) || !strings.Contains(err.Error(), `no run tagged "nope"`) {
		t.Errorf("Load(nope): %v", err)
	}

	// run --tag stores the tag; report --uuid and --ref take it.
	code, out, errs = runCLI(t, "run", "--config", cfg, "--group", "HS256", "--store", "--tag", "v1.2-rc_1")
	if code != 0 {
		t.Fatalf("run --tag: exit %d: %s", code, errs)
	}
	code, out, errs = runCLI(t, "report", "--config", cfg, "--uuid", "v1.2-rc_1", "--ref", "v1.2-rc_1", "--report", "simple", "--output", "csv")
	if code != 0 || !strings.HasPrefix(out, "benchmark,groups,subject,set,mean (μs),rounds,its,rejects,ref_mean (μs),diff,diff_significant,diff_low,diff_high\nHS256Bench,") {
		t.Errorf("report by tag: exit %d, %s\n%s", code, errs, out)
	}
	code, out, _ = runCLI(t, "log", "--config", cfg)
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != 0 || len(lines) != 5 || !strings.Contains(lines[4], "  v1.2-rc_1  HS256  ") || !strings.HasSuffix(lines[4], "  complete") {
		t.Errorf("log after run --tag:\n%s", out)
	}
}

// golden compares got with testdata/name, rewritten with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		os.WriteFile(path, []byte(got), 0o644)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s:\n%s\nwant\n%s", name, got, want)
	}
}

// Off a terminal the width comes from $COLUMNS, else 80.
func TestTerminalWidth(t *testing.T) {
	var b strings.Builder
	t.Setenv("COLUMNS", "60")
	if w := terminalWidth(&b); w != 60 {
		t.Errorf("COLUMNS=60: width %d", w)
	}
	t.Setenv("COLUMNS", "wide")
	if w := terminalWidth(&b); w != 80 {
		t.Errorf("COLUMNS=wide: width %d", w)
	}
}
