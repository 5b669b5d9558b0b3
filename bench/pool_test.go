package bench

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// poolRun returns run k of a pool test: the HS256 variants (or those of
// groups) and the calibration workload, rounds rounds of one iteration,
// each iteration's time 1000 × (k + 1) + its round, so that the run and
// round it came from show.
func poolRun(t *testing.T, k, rounds int, tag string, groups ...string) *Run {
	t.Helper()
	if len(groups) == 0 {
		groups = []string{"HS256"}
	}
	vs, err := Select(DefaultConfig().Measure, groups)
	if err != nil {
		t.Fatal(err)
	}
	res := func(v Variant) Result {
		r := Result{Variant: v, Revs: 10 + k, Rejects: 1}
		for i := range rounds {
			r.Iterations = append(r.Iterations, Iteration{Round: i, Time: float64(1000*(k+1) + i)})
		}
		r.summarize()
		return r
	}
	run := &Run{
		Format: RunFormat, ID: fmt.Sprintf("01937a30-0000-7000-8000-%012d", k), Tag: tag,
		Start:    time.Date(2026, 12, 1, 6, k, 0, 0, time.UTC),
		Duration: Duration(4 * time.Second), Groups: groups, Config: DefaultConfig(),
		Env: Environment{GoVersion: "go1.26.0", Commit: "abc", CommitFrom: CommitFromGit},
	}
	run.Config.Runner.Rounds = rounds
	run.Config.Measure.Groups = groups
	for _, v := range vs {
		run.Results = append(run.Results, res(v))
	}
	cal := res(CalibrationVariant())
	run.Calibration = &cal
	return run
}

// --ref TAG pools the stored runs of the tag alike the newest: their
// rounds concatenated, the newest first, renumbered; the others are left
// out with why. --uuid TAG (Load) and josebench log (List) still see the
// runs one by one.
func TestLoadRefPools(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	var runs []*Run
	add := func(r *Run) {
		if _, err := s.Save(r); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	add(poolRun(t, 0, 50, "base"))
	other := poolRun(t, 1, 50, "base")
	other.Env.Modified = true // abc+: another tree
	add(other)
	add(poolRun(t, 2, 40, "base")) // fewer rounds: pooled
	add(poolRun(t, 3, 50, "base", "HS384"))
	cfg := poolRun(t, 4, 50, "base")
	cfg.Config.Runner.Iterations = 2
	add(cfg)
	add(poolRun(t, 5, 50, "other"))
	out := poolRun(t, 6, 50, "base")
	out.Config.Runner.Progress, out.Config.Runner.Report = "none", "none"                      // not what is measured: pooled
	out.Config.Measure.Groups, out.Config.Measure.Subjects = []string{"jws"}, []string{"jose"} // which variants, not how: pooled
	add(out)
	add(poolRun(t, 7, 50, "base")) // the newest of the tag
	add(poolRun(t, 8, 50, "later"))

	ref, err := s.LoadRef("base", 0, "")
	if err != nil {
		t.Fatal(err)
	}
	p := ref.Pool
	if p == nil {
		t.Fatal("no Pool")
	}
	if want := []string{runs[0].ID, runs[2].ID, runs[6].ID, runs[7].ID}; !slices.Equal(p.Runs, want) {
		t.Errorf("pooled %v, want %v", p.Runs, want)
	}
	wantLeft := map[string]string{runs[1].ID: "another build: commit abc+", runs[3].ID: "other variants", runs[4].ID: "another configuration"}
	if len(p.Left) != len(wantLeft) {
		t.Errorf("left out %v, want %v", p.Left, wantLeft)
	}
	for _, l := range p.Left {
		if !strings.Contains(l.Why, wantLeft[l.ID]) || wantLeft[l.ID] == "" {
			t.Errorf("left out %s: %q, want %q", l.ID, l.Why, wantLeft[l.ID])
		}
	}
	if s := p.String(); !strings.HasPrefix(s, "4 of the 7 runs tagged base pooled, their rounds concatenated: "+runs[0].ID) || !strings.Contains(s, "; 3 left out: "+runs[1].ID+", another build") {
		t.Errorf("String() = %q", s)
	}
	if ref.ID != runs[7].ID || ref.Tag != "base" || ref.Config.Runner.Rounds != 190 || ref.RoundsDone() != 190 || ref.Incomplete {
		t.Errorf("pooled run %s tag %s, %d rounds configured, %d held", ref.ID, ref.Tag, ref.Config.Runner.Rounds, ref.RoundsDone())
	}
	// Newest first: run 7's rounds 0-49, run 6's 50-99, run 2's 100-139,
	// run 0's 140-189.
	wantTime := func(round int) float64 {
		switch {
		case round < 50:
			return float64(8000 + round)
		case round < 100:
			return float64(7000 + round - 50)
		case round < 140:
			return float64(3000 + round - 100)
		}
		return float64(1000 + round - 140)
	}
	for _, r := range append(slices.Clone(ref.Results), *ref.Calibration) {
		if len(r.Iterations) != 190 || r.Rejects != 4 || r.Revs != 17 {
			t.Errorf("%s: %d iterations, %d rejects, revs %d; want 190, 4, 17", r.ID(), len(r.Iterations), r.Rejects, r.Revs)
			continue
		}
		for i, it := range r.Iterations {
			if it.Round != i || it.Time != wantTime(i) {
				t.Errorf("%s: iteration %d: round %d, time %v; want round %d, time %v", r.ID(), i, it.Round, it.Time, i, wantTime(i))
				break
			}
		}
		if got := len(r.RoundBests(func(it Iteration) float64 { return it.Time })); got != 190 {
			t.Errorf("%s: %d round values, want 190", r.ID(), got)
		}
		if r.Stats.Best != 1000 || r.Stats.Worst != 8049 {
			t.Errorf("%s: statistics not recomputed: best %v worst %v", r.ID(), r.Stats.Best, r.Stats.Worst)
		}
	}

	// Load (report --uuid base) takes the newest run alone; List lists
	// each run.
	one, err := s.Load("base")
	if err != nil {
		t.Fatal(err)
	}
	if one.Pool != nil || one.RoundsDone() != 50 || one.ID != runs[7].ID {
		t.Errorf("Load(base): %s, %d rounds, pool %v", one.ID, one.RoundsDone(), one.Pool)
	}
	infos, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != len(runs) {
		t.Errorf("List: %d runs, want %d", len(infos), len(runs))
	}

	// A tag of one run, an id, latest: no pool.
	for _, id := range []string{"other", runs[0].ID, "latest", "latest~1"} {
		r, err := s.LoadRef(id, 0, "")
		if err != nil {
			t.Fatal(err)
		}
		if r.Pool != nil || r.RoundsDone() != 50 {
			t.Errorf("LoadRef(%s): pool %v, %d rounds", id, r.Pool, r.RoundsDone())
		}
	}
	// Every other run unlike the newest: that run, with the pool saying
	// so.
	s2 := Store{Dir: t.TempDir()}
	a, b := poolRun(t, 0, 50, "x", "HS384"), poolRun(t, 1, 50, "x")
	for _, r := range []*Run{a, b} {
		if _, err := s2.Save(r); err != nil {
			t.Fatal(err)
		}
	}
	r, err := s2.LoadRef("x", 0, "")
	if err != nil {
		t.Fatal(err)
	}
	if r.Pool == nil || !slices.Equal(r.Pool.Runs, []string{b.ID}) || len(r.Pool.Left) != 1 || r.RoundsDone() != 50 {
		t.Errorf("LoadRef(x): %+v, %d rounds", r.Pool, r.RoundsDone())
	}
}

// A run is pooled only with runs of the same build on the same machine,
// made the same way: not one made with --against (its rounds hold 3
// alternating iterations each, its best of them is not a plain run's
// sample), not one of an unknown commit (two builds of an unknown commit
// cannot be told apart), nor one of another machine (CPU, core count,
// GOMAXPROCS, OS or architecture) or module version.
func TestPoolRunsLeavesOutOtherBuildsMachinesAndKinds(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change func(old, newest *Run)
		why    string
	}{
		{"against", func(old, _ *Run) { old.Against = &Run{ID: "/tmp/base-jb"} }, "--against"},
		{"newest against", func(_, newest *Run) { newest.Against = &Run{ID: "/tmp/base-jb"} }, "--against"},
		{"unknown commit", func(old, newest *Run) { old.Env.Commit, newest.Env.Commit = "", "" }, "commit unknown"},
		{"unknown commit, devel", func(old, newest *Run) {
			old.Env.Commit, newest.Env.Commit = "", ""
			old.Env.Version, newest.Env.Version = "(devel)", "(devel)"
		}, "commit unknown"},
		{"module versions", func(old, newest *Run) {
			old.Env.Commit, newest.Env.Commit = "", ""
			old.Env.Version, newest.Env.Version = "v1.2.3", "v1.3.0"
		}, "another build: module"},
		{"cpu", func(old, _ *Run) { old.Env.CPU = "another CPU" }, "another machine"},
		{"gomaxprocs", func(old, _ *Run) { old.Env.GOMAXPROCS = 1 }, "another machine"},
		{"num cpu", func(old, _ *Run) { old.Env.NumCPU = 64 }, "another machine"},
		{"goarch", func(old, _ *Run) { old.Env.GOARCH = "arm64" }, "another machine"},
		{"version", func(old, _ *Run) { old.Env.Version = "v1.2.3" }, "another build"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			old, newest := poolRun(t, 0, 50, "base"), poolRun(t, 1, 50, "base")
			tt.change(old, newest)
			p := PoolRuns([]*Run{old, newest})
			if !slices.Equal(p.Pool.Runs, []string{newest.ID}) || len(p.Pool.Left) != 1 || !strings.Contains(p.Pool.Left[0].Why, tt.why) {
				t.Fatalf("pool %+v, want %s alone, %s left out: %q", p.Pool, newest.ID, old.ID, tt.why)
			}
			if p.RoundsDone() != 50 || len(p.Results[0].Iterations) != 50 {
				t.Errorf("%d rounds, %d iterations, want 50", p.RoundsDone(), len(p.Results[0].Iterations))
			}
			if p.Against != newest.Against {
				t.Errorf("Against %v, want the newest's %v", p.Against, newest.Against)
			}
		})
	}
	// One module version, commit unknown: one build, pooled.
	old, newest := poolRun(t, 0, 50, "base"), poolRun(t, 1, 50, "base")
	for _, r := range []*Run{old, newest} {
		r.Env.Commit, r.Env.Version = "", "v1.2.3"
	}
	if p := PoolRuns([]*Run{old, newest}); len(p.Pool.Runs) != 2 || p.RoundsDone() != 100 {
		t.Errorf("module version v1.2.3: %s, %d rounds", p.Pool, p.RoundsDone())
	}
}

// LoadRef reads the runs of the tag newest first, and no more of them
// than the rounds it is asked for need: a tag carried by many stored runs
// costs the runs pooled, not all of them. An older run of the tag that
// cannot be decoded is left out, not an error.
func TestLoadRefBounded(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	runs := saveRuns(t, s, 5)
	// The oldest: valid for List (josebench log), not for Load.
	bad := filepath.Join(s.Dir, runs[0].ID+".json")
	data, err := os.ReadFile(bad)
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte(`"round": 0,`), []byte(`"round": "zero",`), 1)
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(runs[0].ID); err == nil {
		t.Fatal("the damaged run loads")
	}
	for _, tt := range []struct {
		rounds int
		pooled []string
		left   int
	}{
		{100, []string{runs[3].ID, runs[4].ID}, 0},
		{120, []string{runs[2].ID, runs[3].ID, runs[4].ID}, 0},
		{50, []string{runs[4].ID}, 0},
		{0, []string{runs[1].ID, runs[2].ID, runs[3].ID, runs[4].ID}, 1},
		{1000, []string{runs[1].ID, runs[2].ID, runs[3].ID, runs[4].ID}, 1},
	} {
		ref, err := s.LoadRef("base", tt.rounds, "")
		if err != nil {
			t.Fatalf("LoadRef(base, %d): %v", tt.rounds, err)
		}
		if !slices.Equal(ref.Pool.Runs, tt.pooled) || len(ref.Pool.Left) != tt.left || ref.RoundsDone() != 50*len(tt.pooled) {
			t.Errorf("LoadRef(base, %d): %s, %d rounds; want %v pooled, %d left out", tt.rounds, ref.Pool, ref.RoundsDone(), tt.pooled, tt.left)
		}
		if tt.left > 0 && !strings.Contains(ref.Pool.Left[0].Why, "cannot be read") {
			t.Errorf("LoadRef(base, %d): left out %+v", tt.rounds, ref.Pool.Left)
		}
	}
}

// The run compared (report --uuid X --ref TAG, X tagged TAG) is not
// pooled into its own reference with other runs: its rounds would pair
// with themselves, shifted.
func TestLoadRefExceptTheRunCompared(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	runs := saveRuns(t, s, 3)
	for _, tt := range []struct {
		except string
		pooled []string
	}{
		{runs[2].ID, []string{runs[0].ID, runs[1].ID}},
		{runs[1].ID, []string{runs[0].ID, runs[2].ID}},
		{"", []string{runs[0].ID, runs[1].ID, runs[2].ID}},
	} {
		ref, err := s.LoadRef("base", 0, tt.except)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ref.Pool.Runs, tt.pooled) || ref.ID == tt.except {
			t.Errorf("except %s: %s (ref %s)", tt.except, ref.Pool, ref.ID)
		}
		if tt.except != "" && (len(ref.Pool.Left) != 1 || ref.Pool.Left[0].ID != tt.except || !strings.Contains(ref.Pool.Left[0].Why, "the run compared")) {
			t.Errorf("except %s: left out %+v", tt.except, ref.Pool.Left)
		}
	}
	// A tag of one run, the run compared: that run (compared with
	// itself, as with its id).
	s1 := Store{Dir: t.TempDir()}
	if _, err := s1.Save(runs[0]); err != nil {
		t.Fatal(err)
	}
	if r, err := s1.LoadRef("base", 0, runs[0].ID); err != nil || r.ID != runs[0].ID || r.Pool != nil {
		t.Errorf("LoadRef of a tag of the run compared alone: %v, %v", r, err)
	}
}

// saveRuns stores n runs of 50 rounds tagged base (poolRun k, 0 to n-1)
// in s and returns them, oldest first.
func saveRuns(t *testing.T, s Store, n int) []*Run {
	t.Helper()
	var runs []*Run
	for k := range n {
		r := poolRun(t, k, 50, "base")
		if _, err := s.Save(r); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	return runs
}
