package report

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/bench/stats"
)

// TestReplay replays --ref offline over every ordered pair of stored runs
// of identical code: JOSEBENCH_REPLAY names their storage directories,
// separated by ":" (bench/scripts/ref-targets.sh leaves them in OUT/runs),
// JOSEBENCH_REPLAY_METRIC the metric (time by default). It logs the three
// figures of the --ref targets (README.md, "Comparing with a stored run"):
// the share of pairs in which --fail-slower 10 flags a variant, the share
// of intervals that exclude 0, and, with HS256 verification 1.4 times
// slower in the run of each pair (and HS256 round trip
// JOSEBENCH_REPLAY_ROUNDTRIP times, 1 by default), how often
// --fail-slower 10 flags it, calls it not comparable, or misses it (~).
// JOSEBENCH_REPLAY_QUANTILE=q compares the q quantile of the rounds (0: the
// paired median; 0.02 by default), JOSEBENCH_REPLAY_SHIFT=1 takes the
// Hodges-Lehmann shift of the rounds (e.shift; the quantile then
// defaults to 0, as a quantile comes first), JOSEBENCH_REPLAY_PERROUND=1
// divides each round by the calibration workload's speed in it first, JOSEBENCH_REPLAY_POOL=k pools
// each k consecutive stored runs (in the order of the directories and
// their ids) into one, as --ref TAG pools the runs of a tag, and replays
// the pooled runs. It measures, and asserts nothing:
// skipped without the variable, never in CI.
func TestReplay(t *testing.T) {
	dirs := os.Getenv("JOSEBENCH_REPLAY")
	if dirs == "" {
		t.Skip("JOSEBENCH_REPLAY names no stored runs")
	}
	m := Metric(os.Getenv("JOSEBENCH_REPLAY_METRIC"))
	e := defaultEstimator
	if f, err := strconv.ParseFloat(os.Getenv("JOSEBENCH_REPLAY_CUT"), 64); err == nil {
		e.cut = f
	}
	if e.shift = os.Getenv("JOSEBENCH_REPLAY_SHIFT") == "1"; e.shift {
		e.quantile = 0 // compareRuns takes the quantile before the shift
	}
	if f, err := strconv.ParseFloat(os.Getenv("JOSEBENCH_REPLAY_QUANTILE"), 64); err == nil {
		e.quantile = f
	}
	runs := replayRuns(t, dirs)
	if os.Getenv("JOSEBENCH_REPLAY_PERROUND") == "1" {
		for i, r := range runs {
			runs[i] = perRound(r)
		}
	}
	if k, err := strconv.Atoi(os.Getenv("JOSEBENCH_REPLAY_POOL")); err == nil && k > 1 {
		// Each k consecutive stored runs pooled into one, as --ref TAG
		// pools the runs of a tag (bench.PoolRuns): what k times the
		// rounds would give.
		var pooled []*bench.Run
		for s := 0; s+k <= len(runs); s += k {
			p := bench.PoolRuns(runs[s : s+k])
			if len(p.Pool.Runs) != k {
				t.Fatalf("runs %s to %s: %s", runs[s].ID, runs[s+k-1].ID, p.Pool)
			}
			pooled = append(pooled, p)
		}
		runs = pooled
	}
	if len(runs) < 2 {
		t.Fatalf("%d stored runs in %s", len(runs), dirs)
	}
	const detect = 10
	var pairs, flagged, notComparable, whole, intervals, exclude, significant int
	var slowFlagged, slowNC, slowMissed, slowOthers, slowWhole, slowPairs int
	var halves, resid []float64 // resid: raw log ratios about the pair's median
	culprits := map[string]int{}
	for a, run := range runs {
		slow := slowed(run, "benchVerification", "HS256", 1.4)
		if f, err := strconv.ParseFloat(os.Getenv("JOSEBENCH_REPLAY_ROUNDTRIP"), 64); err == nil {
			slow = slowed(slow, "benchRoundTrip", "HS256", f)
		}
		target := -1
		for i, r := range slow.Results {
			if isTarget(&r, "benchVerification", "HS256") {
				target = i
			}
		}
		if target < 0 {
			t.Fatalf("run %s has no HS256 verification", run.ID)
		}
		for b, ref := range runs {
			if a == b {
				continue
			}
			pairs++
			ds, dr := e.compare(run, ref, m, 0, detect)
			if dr.NotComparable != "" {
				whole++
			}
			if sl := Slower(ds, detect); len(sl) > 0 {
				flagged++
				for _, d := range sl {
					culprits[run.ID[len(run.ID)-4:]+" "+d.ID]++
				}
			}
			for _, d := range ds {
				if !d.Found {
					continue
				}
				if d.NotComparable != "" {
					notComparable++
				} else if !d.Noise {
					significant++
				}
			}
			wide, _ := e.compare(run, ref, m, 0, 1e6)
			var raws []float64
			for _, d := range wide {
				if d.Found && d.Raw > 0 {
					raws = append(raws, math.Log(d.Raw))
				}
			}
			if len(raws) > 0 {
				med := stats.Median(raws)
				for _, l := range raws {
					resid = append(resid, math.Abs(l-med))
				}
			}
			for _, d := range wide {
				if !d.Found || d.NotComparable != "" {
					continue
				}
				intervals++
				if !d.Interval.Contains(1) {
					exclude++
				}
				halves = append(halves, (math.Sqrt(d.Interval.Hi/d.Interval.Lo)-1)*100)
			}

			slowPairs++
			ds, dr = e.compare(slow, ref, m, 0, detect)
			if dr.NotComparable != "" {
				slowWhole++
			}
			d := ds[target]
			hit := false
			for _, s := range Slower(ds, detect) {
				if s.ID == d.ID {
					hit = true
				} else {
					slowOthers++
				}
			}
			switch {
			case hit:
				slowFlagged++
			case d.NotComparable != "":
				slowNC++
			default:
				slowMissed++
			}
		}
	}
	pct := func(n, of int) float64 { return 100 * float64(n) / float64(of) }
	slices.Sort(halves)
	q := func(p float64) float64 { return halves[int(p*float64(len(halves)-1))] }
	if os.Getenv("JOSEBENCH_REPLAY_CULPRITS") != "" {
		for k, n := range culprits {
			t.Logf("flagged: run %s: %d", k, n)
		}
	}
	t.Logf("%d stored runs, %d ordered pairs, metric %q, Hodges-Lehmann shift %v, quantile %v", len(runs), pairs, orMetric(m), e.shift, e.quantile)
	t.Logf("identical: --fail-slower %d flags a variant in %d of %d pairs (%.1f%%); %d pairs not comparable as a whole; %d of %d variants not comparable, %d significant", detect, flagged, pairs, pct(flagged, pairs), whole, notComparable, pairs*len(runs[0].Results), significant)
	if len(resid) > 0 {
		t.Logf("identical: raw log ratios about the median of their pair: robust standard deviation %.2f%% (1.4826 times their median absolute deviation)", 1.4826*stats.Median(resid)*100)
	}
	t.Logf("identical: %d of %d intervals exclude 0 (%.1f%%); half widths %.1f%% / %.1f%% / %.1f%% (10th, 50th, 90th percentile)", exclude, intervals, pct(exclude, intervals), q(0.1), q(0.5), q(0.9))
	t.Logf("HS256 verification x1.4: flagged %d (%.1f%%), not comparable %d, missed %d of %d; %d other variants flagged; %d pairs not comparable as a whole", slowFlagged, pct(slowFlagged, slowPairs), slowNC, slowMissed, slowPairs, slowOthers, slowWhole)
}

// replayRuns returns the runs stored in the directories dirs (separated
// by ":"), in the order of the directories and, in each, of their ids.
func replayRuns(t *testing.T, dirs string) []*bench.Run {
	t.Helper()
	var runs []*bench.Run
	for _, dir := range filepath.SplitList(dirs) {
		files, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(files)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			r, err := bench.DecodeRun(data)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			runs = append(runs, r)
		}
	}
	return runs
}

func orMetric(m Metric) Metric {
	if m == "" {
		return MetricTime
	}
	return m
}

func isTarget(r *bench.Result, subject, alg string) bool {
	return r.Subject == subject && strings.Contains(r.ID(), alg)
}

// slowed returns a copy of run whose results of subject for alg take f
// times as long (wall and CPU time).
func slowed(run *bench.Run, subject, alg string, f float64) *bench.Run {
	c := *run
	c.Results = slices.Clone(run.Results)
	for i := range c.Results {
		r := &c.Results[i]
		if !isTarget(r, subject, alg) {
			continue
		}
		r.Iterations = slices.Clone(r.Iterations)
		for k := range r.Iterations {
			r.Iterations[k].Time *= f
			r.Iterations[k].CPU *= f
		}
	}
	return &c
}

// perRound returns a copy of run whose iterations are divided by the
// calibration workload's speed in their round: its median in the round
// over its median in the run (a lever TestReplay measures,
// JOSEBENCH_REPLAY_PERROUND=1). Rounds without it are left alone.
func perRound(run *bench.Run) *bench.Run {
	if run.Calibration == nil {
		return run
	}
	byRound := map[int][]float64{}
	var all []float64
	for _, it := range run.Calibration.Iterations {
		byRound[it.Round] = append(byRound[it.Round], it.Time)
		all = append(all, it.Time)
	}
	whole := stats.Median(all)
	c := *run
	c.Results = slices.Clone(run.Results)
	for i := range c.Results {
		r := &c.Results[i]
		r.Iterations = slices.Clone(r.Iterations)
		for k := range r.Iterations {
			if xs := byRound[r.Iterations[k].Round]; len(xs) > 0 {
				f := whole / stats.Median(xs)
				r.Iterations[k].Time *= f
				r.Iterations[k].CPU *= f
			}
		}
	}
	return &c
}
