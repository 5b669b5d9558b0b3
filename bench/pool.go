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
// machine's speed moves in phases, differently for each algorithm, and
// a comparison needs about 200 rounds a side to see a 10% change (see
// [RunnerConfig.RefRounds]): runs stored with fewer can be pooled.
//
// A comparison pairs round i with round i up to the shorter side, so
// rounds beyond those of the run compared are never paired: LoadRef reads
// the runs of the tag newest first and stops once the pool holds rounds
// rounds (0: it reads them all), so that a tag many stored runs carry
// costs the runs pooled. A run of another commit or Go version is left
// out by [Store.List]'s description, without reading it again, and an
// older run of the tag that cannot be read is left out, with why. The
// run except (the id of the run compared, report --ref; "" for none) is
// left out of a pool of other runs of the tag (its rounds would pair
// with themselves, shifted); a tag it alone carries gives that run, as
// its id would.
func (s Store) LoadRef(id string, rounds int, except string) (*Run, error) {
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
	var tagged []RunInfo
	for _, r := range infos {
		if r.Tag == id {
			tagged = append(tagged, r)
		}
	}
	var left []PoolLeft // newest first
	if n := len(tagged); except != "" && n > 0 && tagged[n-1].ID == except {
		left = append(left, PoolLeft{ID: except, Why: "the run compared (a run is not its own reference)"})
		tagged = tagged[:n-1]
	}
	// Load by id: by the tag, Load would call List again, reading and
	// decoding every stored run once more.
	switch {
	case len(tagged) == 0 && len(left) > 0:
		// The run compared alone carries the tag: compared with itself,
		// as --ref with its id.
		return s.Load(except)
	case len(tagged) == 0:
		return s.Load(id) // no run tagged id: Load's error
	case len(tagged) < 2 && len(left) == 0:
		return s.Load(tagged[0].ID)
	}
	newest, err := s.Load(tagged[len(tagged)-1].ID)
	if err != nil {
		return nil, err
	}
	alike := []*Run{newest} // newest first
	have, unread := newest.RoundsDone(), 0
	for i := len(tagged) - 2; i >= 0; i-- {
		if rounds > 0 && have >= rounds {
			unread = i + 1
			break
		}
		info := tagged[i]
		if info.ID == except {
			left = append(left, PoolLeft{ID: info.ID, Why: "the run compared (a run is not its own reference)"})
			continue
		}
		stub := Environment{Commit: info.Commit, Modified: info.Modified, GoVersion: info.GoVersion}
		if why := otherBuild(newest.Env, stub); why != "" {
			left = append(left, PoolLeft{ID: info.ID, Why: why})
			continue
		}
		r, err := s.Load(info.ID)
		if err != nil {
			left = append(left, PoolLeft{ID: info.ID, Why: "cannot be read: " + err.Error()})
			continue
		}
		if why := unlike(newest, r); why != "" {
			left = append(left, PoolLeft{ID: info.ID, Why: why})
			continue
		}
		alike = append(alike, r)
		have += r.RoundsDone()
	}
	return pool(alike, left, unread), nil
}

// PoolRuns returns one run holding the rounds of runs (oldest first, as
// [Store.List] orders them; at least one) that are alike the newest, the
// last: the same build (commit and tree state, [Environment.Revision],
// known unless a module version names the build; Go version; module
// version), the same machine (OS, architecture, CPU, its count and
// GOMAXPROCS), neither made with --against, the same configuration of
// what is measured and how (runner.iterations, revs, time, warmup,
// retry_threshold, retry_limit and [MeasureConfig.Settings]: not the
// groups and subjects, which the variants name; the rounds may differ),
// the same variants and calibration workload. Its results are the newest run's, in its order, each holding
// the iterations of every run pooled, newest first, their rounds
// renumbered to follow each other (the newest run's rounds first: a
// comparison pairs round i with round i, so a run shorter than the pool
// is paired with the newest rounds), its rejects their sum; the
// calibration workload likewise. Its ID, tag, environment and
// configuration are the newest run's, runner.rounds the rounds pooled;
// [Run.Pool] names the runs pooled and those left out, with why. With
// one run alike, that run is returned with Pool set.
func PoolRuns(runs []*Run) *Run {
	newest := runs[len(runs)-1]
	alike := []*Run{newest} // newest first
	var left []PoolLeft     // newest first
	for i := len(runs) - 2; i >= 0; i-- {
		r := runs[i]
		if why := unlike(newest, r); why != "" {
			left = append(left, PoolLeft{ID: r.ID, Why: why})
			continue
		}
		alike = append(alike, r)
	}
	return pool(alike, left, 0)
}

// pool pools the runs alike (newest first, at least one), the runs left
// (newest first) and the count of runs unread named in its [Pool].
func pool(alike []*Run, left []PoolLeft, unread int) *Run {
	newest := alike[0]
	p := &Pool{Tag: newest.Tag, Left: left, Unread: unread}
	for _, r := range alike {
		p.Runs = append(p.Runs, r.ID)
	}
	slices.Reverse(p.Runs)
	slices.Reverse(p.Left)
	out := *newest
	out.Pool = p
	if len(alike) == 1 {
		return &out
	}
	out.Against = nil
	out.Incomplete = false
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
	if why := otherBuild(newest.Env, r.Env); why != "" {
		return why
	}
	a, b := r.Env, newest.Env
	if a.Revision() == "" && (a.Version == "" || a.Version == "(devel)") {
		// Two builds of an unknown commit cannot be told apart (a module
		// version, as go install ...@v1.2.3 builds, names one).
		return "another build, or not: commit unknown"
	}
	if a.Module != b.Module || a.Version != b.Version {
		return fmt.Sprintf("another build: module %s %s (the newest: %s %s)", a.Module, a.Version, b.Module, b.Version)
	}
	if a.GOOS != b.GOOS || a.GOARCH != b.GOARCH || a.CPU != b.CPU || a.NumCPU != b.NumCPU || a.GOMAXPROCS != b.GOMAXPROCS {
		return fmt.Sprintf("another machine: %s/%s, %s, %d CPUs, GOMAXPROCS %d (the newest: %s/%s, %s, %d CPUs, GOMAXPROCS %d)",
			a.GOOS, a.GOARCH, a.CPU, a.NumCPU, a.GOMAXPROCS, b.GOOS, b.GOARCH, b.CPU, b.NumCPU, b.GOMAXPROCS)
	}
	switch {
	case newest.Against != nil:
		return "the newest was made with --against (its rounds hold both builds' alternating iterations)"
	case r.Against != nil:
		return "made with --against (its rounds hold both builds' alternating iterations)"
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

// otherBuild says why a run of env r is of another build than one of
// newest, judged by commit, tree state and Go version, or "" when it may
// be the same.
func otherBuild(newest, r Environment) string {
	if a, b := r.Revision(), newest.Revision(); a != b || r.GoVersion != newest.GoVersion {
		return fmt.Sprintf("another build: commit %s, %s (the newest: %s, %s)", orDash(a), r.GoVersion, orDash(b), newest.GoVersion)
	}
	return ""
}

// measuredConfig is the part of c that pooled runs share: the measure
// section's [MeasureConfig.Settings] (the variants are compared apart)
// and the runner settings that change what an iteration is or which are
// kept (not rounds, output, storage or warnings).
func measuredConfig(c Config) Config {
	r := c.Runner
	return Config{
		Runner: RunnerConfig{Iterations: r.Iterations, Revs: r.Revs, Time: r.Time, Warmup: r.Warmup,
			RetryThreshold: r.RetryThreshold, RetryLimit: r.RetryLimit},
		Measure: c.Measure.Settings(),
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
	fmt.Fprintf(&b, "%d of the %d runs tagged %s pooled, their rounds concatenated: %s", len(p.Runs), len(p.Runs)+len(p.Left)+p.Unread, p.Tag, strings.Join(p.Runs, ", "))
	if len(p.Left) > 0 {
		fmt.Fprintf(&b, "; %d left out:", len(p.Left))
		for i, l := range p.Left {
			if i > 0 {
				b.WriteString(";")
			}
			fmt.Fprintf(&b, " %s, %s", l.ID, l.Why)
		}
	}
	if p.Unread > 0 {
		fmt.Fprintf(&b, "; %d older not read, the pool holding the rounds the comparison pairs", p.Unread)
	}
	return b.String()
}
