package bench

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// LoadRef reads the reference of a comparison (run --ref, report --ref):
// as [Store.Load], except that a tag several stored runs carry pools them
// ([PoolRuns]): the runs of the tag alike the newest one, their rounds
// concatenated into one reference. Between runs made minutes apart the
// machine's speed moves over seconds, differently for each algorithm, and
// a comparison needs about 200 rounds a side to see a 10% change (see
// [RunnerConfig.RefRounds]): runs stored with fewer can be pooled.
func (s Store) LoadRef(id string) (*Run, error) {
	_, relative, err := parseLatest(id)
	if err != nil {
		return nil, err
	}
	if relative || CheckTag(id) != nil {
		return s.Load(id)
	}
	infos, err := s.List()
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, r := range infos {
		if r.Tag == id {
			ids = append(ids, r.ID)
		}
	}
	if len(ids) < 2 {
		return s.Load(id)
	}
	runs := make([]*Run, len(ids))
	for i, rid := range ids {
		if runs[i], err = s.Load(rid); err != nil {
			return nil, err
		}
	}
	return PoolRuns(runs), nil
}

// PoolRuns returns one run holding the rounds of runs (oldest first, as
// [Store.List] orders them; at least one) that are alike the newest, the
// last: the same commit and tree state ([Environment.Revision]) and Go
// version, the same configuration of what is measured and how
// (runner.iterations, revs, time, warmup, retry_threshold, retry_limit and
// the measure section but its groups; the rounds may differ), the same variants and
// calibration workload. Its results are the newest run's, in its order,
// each holding the iterations of every run pooled, newest first, their
// rounds renumbered to follow each other (the newest run's rounds first:
// a comparison pairs round i with round i, so a run shorter than the pool
// is paired with the newest rounds), its rejects their sum; the
// calibration workload likewise. Its ID, tag, environment and
// configuration are the newest run's, runner.rounds the rounds pooled;
// [Run.Pool] names the runs pooled and those left out, with why. With
// one run alike, that run is returned with Pool set.
func PoolRuns(runs []*Run) *Run {
	newest := runs[len(runs)-1]
	pool := &Pool{Tag: newest.Tag}
	var alike []*Run // newest first
	for i := len(runs) - 1; i >= 0; i-- {
		r := runs[i]
		if why := unlike(newest, r); why != "" {
			pool.Left = append(pool.Left, PoolLeft{ID: r.ID, Why: why})
			continue
		}
		alike = append(alike, r)
		pool.Runs = append(pool.Runs, r.ID)
	}
	slices.Reverse(pool.Runs)
	slices.Reverse(pool.Left)
	out := *newest
	out.Pool = pool
	out.Against = nil
	out.Incomplete = false
	if len(alike) == 1 {
		out.Incomplete = newest.Incomplete
		return &out
	}
	out.Results = make([]Result, len(newest.Results))
	for i := range newest.Results {
		out.Results[i] = newest.Results[i]
		out.Results[i].Iterations = nil
		out.Results[i].Rejects = 0
	}
	if newest.Calibration != nil {
		cal := *newest.Calibration
		cal.Iterations, cal.Rejects = nil, 0
		out.Calibration = &cal
	}
	offset := 0
	out.Duration = 0
	for _, r := range alike {
		byID := make(map[string]*Result, len(r.Results))
		for i := range r.Results {
			byID[r.Results[i].ID()] = &r.Results[i]
		}
		for i := range out.Results {
			appendRounds(&out.Results[i], byID[out.Results[i].ID()], offset)
		}
		if out.Calibration != nil {
			appendRounds(out.Calibration, r.Calibration, offset)
		}
		offset += r.RoundsDone()
		out.Duration += r.Duration
	}
	out.Config.Runner.Rounds = offset
	out.summarize()
	return &out
}

// appendRounds appends the iterations of from to to, their rounds moved
// by offset, and adds its rejects.
func appendRounds(to, from *Result, offset int) {
	for _, it := range from.Iterations {
		it.Round += offset
		to.Iterations = append(to.Iterations, it)
	}
	to.Rejects += from.Rejects
}

// unlike says why the stored run r cannot be pooled with newest, or ""
// when it can.
func unlike(newest, r *Run) string {
	if a, b := r.Env.Revision(), newest.Env.Revision(); a != b || r.Env.GoVersion != newest.Env.GoVersion {
		return fmt.Sprintf("another build: commit %s, %s (the newest: %s, %s)", orDash(a), r.Env.GoVersion, orDash(b), newest.Env.GoVersion)
	}
	if a, b := measuredConfig(r.Config), measuredConfig(newest.Config); !reflect.DeepEqual(a, b) {
		return "another configuration of what is measured or how"
	}
	if a, b := variantIDs(r), variantIDs(newest); !slices.Equal(a, b) {
		return fmt.Sprintf("other variants (%d, the newest %d)", len(a), len(b))
	}
	if (r.Calibration == nil) != (newest.Calibration == nil) || r.Calibration != nil && r.Calibration.ID() != newest.Calibration.ID() {
		return "another calibration workload"
	}
	return ""
}

// measuredConfig is the part of c that pooled runs share: the measure
// section but the groups (the variants are compared apart) and the runner
// settings that change what an iteration is or which are kept (not
// rounds, output, storage or warnings).
func measuredConfig(c Config) Config {
	r := c.Runner
	m := c.Measure
	m.Groups = nil
	return Config{
		Runner: RunnerConfig{Iterations: r.Iterations, Revs: r.Revs, Time: r.Time, Warmup: r.Warmup,
			RetryThreshold: r.RetryThreshold, RetryLimit: r.RetryLimit},
		Measure: m,
	}
}

// variantIDs returns the sorted identities of run's results.
func variantIDs(run *Run) []string {
	ids := make([]string, len(run.Results))
	for i := range run.Results {
		ids[i] = run.Results[i].ID()
	}
	slices.Sort(ids)
	return ids
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// String describes the pool in a line: the runs pooled, and those left
// out with why.
func (p *Pool) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d of the %d runs tagged %s pooled, their rounds concatenated: %s", len(p.Runs), len(p.Runs)+len(p.Left), p.Tag, strings.Join(p.Runs, ", "))
	if len(p.Left) > 0 {
		fmt.Fprintf(&b, "; %d left out:", len(p.Left))
		for i, l := range p.Left {
			if i > 0 {
				b.WriteString(";")
			}
			fmt.Fprintf(&b, " %s, %s", l.ID, l.Why)
		}
	}
	return b.String()
}
