package bench

import (
	"fmt"
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
	out.Config.Runner.Progress, out.Config.Runner.Report = "none", "none" // not what is measured: pooled
	add(out)
	add(poolRun(t, 7, 50, "base")) // the newest of the tag
	add(poolRun(t, 8, 50, "later"))

	ref, err := s.LoadRef("base")
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
		r, err := s.LoadRef(id)
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
	r, err := s2.LoadRef("x")
	if err != nil {
		t.Fatal(err)
	}
	if r.Pool == nil || !slices.Equal(r.Pool.Runs, []string{b.ID}) || len(r.Pool.Left) != 1 || r.RoundsDone() != 50 {
		t.Errorf("LoadRef(x): %+v, %d rounds", r.Pool, r.RoundsDone())
	}
}
