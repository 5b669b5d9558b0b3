package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/josebench/josebench/bench"
)

// writeRefConfig writes writeConfig's fast configuration with
// runner.ref_rounds set to refRounds (2 rounds otherwise).
func writeRefConfig(t *testing.T, dir string, refRounds string) string {
	t.Helper()
	cfg := "runner:\n  rounds: 2\n  ref_rounds: " + refRounds + "\n  iterations: 1\n  revs: 3\n  warmup: 0\n  retry_threshold: 0\n  progress: none\n  report: none\n  storage: " + filepath.Join(dir, "runs") + "\n"
	path := filepath.Join(dir, "bench.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// loadStored reads the stored run id under dir/runs.
func loadStored(t *testing.T, dir, id string) *bench.Run {
	t.Helper()
	r, err := bench.Store{Dir: filepath.Join(dir, "runs")}.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A run that stores itself or compares with a stored run takes
// runner.ref_rounds rounds, unless --rounds is given; a plain run and
// --against keep runner.rounds; ref_rounds 0 keeps runner.rounds.
func TestRefRoundsPrecedence(t *testing.T) {
	dir := t.TempDir()
	cfg := writeRefConfig(t, dir, "3")
	tests := []struct {
		name   string
		args   []string
		rounds int // of the stored run, and in the summary's iterations
		per    int // iterations a round: 1, 3 with --against
	}{
		{"store", []string{"--store"}, 3, 1},
		{"store, explicit rounds", []string{"--store", "--rounds", "2"}, 2, 1},
		{"store, explicit rounds above", []string{"--store", "--rounds", "4"}, 4, 1},
		{"plain", nil, 2, 1},
		{"ref", []string{"--ref", "latest~2"}, 3, 1},
		{"ref, explicit rounds", []string{"--ref", "latest~2", "--rounds", "2"}, 2, 1},
		{"ref and store", []string{"--ref", "latest~2", "--store"}, 3, 1},
		{"against and store", []string{"--against", os.Args[0], "--store"}, 2, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"run", "--config", cfg, "--group", "HS256"}, tt.args...)
			before := storedIDs(t, dir)
			code, out, errs := runCLI(t, args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errs)
			}
			// HS256 has 3 variants.
			if want := "3 subjects, 3 variants, " + strconv.Itoa(3*tt.rounds*tt.per) + " iterations, "; !strings.Contains(out, want) {
				t.Errorf("%v: summary lacks %q:\n%s", args, want, out)
			}
			after := storedIDs(t, dir)
			if len(after) == len(before) {
				return
			}
			r := loadStored(t, dir, after[len(after)-1])
			if r.RoundsDone() != tt.rounds || r.Config.Runner.Rounds != tt.rounds || r.Config.Runner.RefRounds != 3 {
				t.Errorf("%v: stored %d rounds, runner.rounds %d, ref_rounds %d; want %d, %d, 3", args, r.RoundsDone(), r.Config.Runner.Rounds, r.Config.Runner.RefRounds, tt.rounds, tt.rounds)
			}
		})
	}

	// ref_rounds 0: --store keeps runner.rounds.
	dir0 := t.TempDir()
	cfg0 := writeRefConfig(t, dir0, "0")
	if code, _, errs := runCLI(t, "run", "--config", cfg0, "--group", "HS256", "--store"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if r := loadStored(t, dir0, "latest"); r.RoundsDone() != 2 {
		t.Errorf("ref_rounds 0: stored %d rounds, want runner.rounds, 2", r.RoundsDone())
	}
	// ref_rounds below runner.rounds: --store and --ref keep runner.rounds
	// (ref_rounds is there to give a comparison more rounds, never fewer).
	dir1 := t.TempDir()
	cfg1 := writeRefConfig(t, dir1, "1")
	for _, extra := range [][]string{{"--store"}, {"--store", "--ref", "latest"}} {
		args := append([]string{"run", "--config", cfg1, "--group", "HS256"}, extra...)
		if code, _, errs := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		if r := loadStored(t, dir1, "latest"); r.RoundsDone() != 2 {
			t.Errorf("%v with ref_rounds 1: stored %d rounds, want runner.rounds, 2", args, r.RoundsDone())
		}
	}
}

// A --ref comparison with fewer than runner.ref_rounds rounds on either
// side warns on stderr and in the report, and says what to do; one with
// enough does not.
func TestRefRoundsWarning(t *testing.T) {
	dir := t.TempDir()
	cfg := writeRefConfig(t, dir, "6")
	base := []string{"run", "--config", cfg, "--group", "HS256"}
	// A reference of 6 rounds (ref_rounds) and one of 2 (--rounds).
	for _, extra := range [][]string{{"--store", "--tag", "full"}, {"--store", "--tag", "short", "--rounds", "2"}} {
		if code, _, errs := runCLI(t, append(base, extra...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, errs)
		}
	}
	const warn = "josebench: warning: the comparison with run "
	tests := []struct {
		name  string
		args  []string
		warns []string // what the warning says; none when empty
	}{
		{"enough", []string{"--ref", "full"}, nil},
		{"short ref", []string{"--ref", "short"}, []string{"has 6 rounds in the run and 2 in the reference, fewer than the 6 asked for (runner.ref_rounds, or runner.rounds when it is 0)", "store the reference again with --rounds 6, or store more runs under its tag"}},
		{"short run", []string{"--ref", "full", "--rounds", "3"}, []string{"has 3 rounds in the run and 6 in the reference", "; run with --rounds 6\n"}},
		{"both short", []string{"--ref", "short", "--rounds", "2"}, []string{"has 2 rounds in the run and 2 in the reference", "run with --rounds 6 and store the reference again with --rounds 6"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append(append(append([]string{}, base...), tt.args...), "--report", "simple", "--output", "md")
			code, out, errs := runCLI(t, args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errs)
			}
			if len(tt.warns) == 0 {
				if strings.Contains(errs, warn) || strings.Contains(out, "runner.ref_rounds") {
					t.Errorf("%v: warned with enough rounds:\n%s\n%s", args, errs, out)
				}
				return
			}
			for _, w := range tt.warns {
				if !strings.Contains(errs, warn) || !strings.Contains(errs, w) {
					t.Errorf("%v: stderr lacks %q:\n%s", args, w, errs)
				}
				if !strings.Contains(out, "Warning: the comparison with run ") || !strings.Contains(out, strings.TrimSuffix(w, "\n")) {
					t.Errorf("%v: report lacks %q:\n%s", args, w, out)
				}
			}
		})
	}

	// josebench report --ref warns as run --ref does.
	code, _, errs := runCLI(t, "report", "--config", cfg, "--uuid", "full", "--ref", "short", "--report", "simple")
	if code != 0 || !strings.Contains(errs, warn) || !strings.Contains(errs, "has 6 rounds in the run and 2 in the reference") {
		t.Errorf("report --ref: exit %d, stderr:\n%s", code, errs)
	}
}

// --ref TAG pools the stored runs of the tag alike the newest, says so on
// stderr and in the report, and warns about those left out; the pool of
// 3 runs of 2 rounds has the 6 of runner.ref_rounds, so no warning about
// too few rounds. josebench log lists the runs one by one.
func TestRefPoolCLI(t *testing.T) {
	dir := t.TempDir()
	cfg := writeRefConfig(t, dir, "6")
	base := []string{"run", "--config", cfg, "--group", "HS256"}
	for _, extra := range [][]string{
		{},
		{"--filter", "benchSignature"}, // other variants: left out
		{}, {},
	} {
		args := append(append(append([]string{}, base...), "--store", "--tag", "base", "--rounds", "2"), extra...)
		if code, _, errs := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
	}
	ids := storedIDs(t, dir)
	code, out, errs := runCLI(t, append(base, "--ref", "base", "--report", "simple", "--output", "md")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := "josebench: warning: --ref base: 3 of the 4 runs tagged base pooled, their rounds concatenated: " + ids[0] + ", " + strings.Join(ids[2:], ", ") + "; 1 left out: " + ids[1] + ", other variants (1, the newest 3)\n"
	if !strings.Contains(errs, want) {
		t.Errorf("stderr lacks\n%s\n%s", want, errs)
	}
	if !strings.Contains(out, "Reference: 3 of the 4 runs tagged base pooled") || !strings.Contains(out, "(6 rounds, the newest run's first)") {
		t.Errorf("report lacks the pool:\n%s", out)
	}
	if strings.Contains(errs, "the comparison with run") || strings.Contains(out, "runner.ref_rounds") {
		t.Errorf("warned about too few rounds with 6 pooled:\n%s\n%s", errs, out)
	}
	code, out, errs = runCLI(t, "log", "--config", cfg)
	if code != 0 || strings.Count(out, " base ") != 4 {
		t.Errorf("log: exit %d, want 4 runs tagged base:\n%s%s", code, out, errs)
	}
	// report --ref pools as run --ref does, but for the run reported.
	code, _, errs = runCLI(t, "report", "--config", cfg, "--uuid", ids[2], "--ref", "base", "--report", "simple")
	if code != 0 || !strings.Contains(errs, "josebench: warning: --ref base: 2 of the 4 runs tagged base pooled, their rounds concatenated: "+ids[0]+", "+ids[3]+"; 2 left out: "+ids[1]+", other variants (1, the newest 3); "+ids[2]+", the run compared") {
		t.Errorf("report --ref: exit %d:\n%s", code, errs)
	}
	// Pooled without runs left out: said, not warned.
	for range 2 {
		if code, _, errs := runCLI(t, append(append([]string{}, base...), "--store", "--tag", "two", "--rounds", "3")...); code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
	}
	ids = storedIDs(t, dir)
	_, _, errs = runCLI(t, append(base, "--ref", "two")...)
	if want := "josebench: --ref two: 2 of the 2 runs tagged two pooled, their rounds concatenated: " + strings.Join(ids[len(ids)-2:], ", ") + " (6 rounds)\n"; !strings.Contains(errs, want) || strings.Contains(errs, "warning: --ref") {
		t.Errorf("stderr: want\n%s\nand no warning about the pool:\n%s", want, errs)
	}
	// report of a run against a pool holding it: left out.
	ids = storedIDs(t, dir)
	_, _, errs = runCLI(t, "report", "--config", cfg, "--uuid", ids[len(ids)-1], "--ref", "two", "--report", "simple")
	if want := "josebench: warning: --ref two: 1 of the 2 runs tagged two pooled, their rounds concatenated: " + ids[len(ids)-2] + "; 1 left out: " + ids[len(ids)-1] + ", the run compared"; !strings.Contains(errs, want) {
		t.Errorf("report --ref two of its newest run: stderr lacks\n%s\n%s", want, errs)
	}
	// The runs of a tag are read newest first only until the pool holds
	// the rounds compared (runner.ref_rounds, 6, or the run's): 3 of 4
	// runs of 2 rounds.
	for range 4 {
		if code, _, errs := runCLI(t, append(append([]string{}, base...), "--store", "--tag", "many", "--rounds", "2")...); code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
	}
	ids = storedIDs(t, dir)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--ref", "many"}, "3 of the 4 runs tagged many pooled, their rounds concatenated: " + strings.Join(ids[len(ids)-3:], ", ") + "; 1 older not read"},
		{[]string{"--ref", "many", "--rounds", "8"}, "4 of the 4 runs tagged many pooled"},
		{[]string{"--ref", "many", "--rounds", "1"}, "3 of the 4 runs tagged many pooled"},
	} {
		_, _, errs = runCLI(t, append(append([]string{}, base...), tt.args...)...)
		if !strings.Contains(errs, "josebench: --ref many: "+tt.want) {
			t.Errorf("%v: stderr lacks %q:\n%s", tt.args, tt.want, errs)
		}
	}
}
