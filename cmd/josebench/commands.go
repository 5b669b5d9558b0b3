package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/bench/report"
	"github.com/josebench/josebench/bench/subjects"
)

// configFlags are the flags that choose and override the configuration.
type configFlags struct {
	config  string
	storage string
	unit    string
}

func (c *configFlags) register(fs *flag.FlagSet, output bool) {
	fs.StringVar(&c.config, "config", "", "configuration `file` (default: the built-in configuration, identical to the shipped bench.yaml)")
	if !output {
		return
	}
	fs.StringVar(&c.storage, "storage", "", "`directory` of stored runs (default: runner.storage of the configuration)")
	fs.StringVar(&c.unit, "time-unit", "", "time `unit` of the output: nanoseconds, microseconds, milliseconds or seconds (default: runner.time_unit)")
}

// load returns the configuration with the flag overrides applied. A
// configuration file that cannot be read or is invalid is a usage error,
// as a bad flag is.
func (c *configFlags) load() (bench.Config, error) {
	cfg := bench.DefaultConfig()
	if c.config != "" {
		var err error
		if cfg, err = bench.LoadConfig(c.config); err != nil {
			return cfg, &usageError{err}
		}
	}
	if c.storage != "" {
		cfg.Runner.Storage = c.storage
	}
	if c.unit != "" {
		u := bench.TimeUnit(c.unit)
		if u.Nanos() == 0 {
			return cfg, usagef("unknown time unit %q (want nanoseconds, microseconds, milliseconds or seconds)", c.unit)
		}
		cfg.Runner.TimeUnit = u
	}
	return cfg, nil
}

// outputFlags are the flags of report output.
type outputFlags struct {
	report     string
	output     string
	file       string
	ref        string
	metric     string
	failSlower float64
	against    bool // the run compares with another build (run --against)
	refRounds  int  // the fewest rounds of a --ref comparison without a warning (runner.ref_rounds)
}

func (o *outputFlags) register(fs *flag.FlagSet, defaultReport, reportHelp string) {
	fs.StringVar(&o.report, "report", defaultReport, reportHelp)
	fs.StringVar(&o.output, "output", "console", "output `format`: "+strings.Join(report.Outputs, ", "))
	fs.StringVar(&o.file, "file", "", "write the report to `path` instead of standard output")
	fs.StringVar(&o.ref, "ref", "", "compare with the stored run `id`: a run id; latest, or latest~N for the Nth run before it in \"josebench log\"; or a tag, the newest run with that tag, pooled with the other runs of the tag of the same build, machine, configuration and variants (their rounds concatenated, read newest first until they hold the rounds compared). Each variant's ratio of the 2nd percentiles of the rounds (the median of the paired round ratios instead, for every variant, when any variant or the calibration workload has fewer than 175 rounds on either side) is divided by the change common to the run; ~ when its interval (round-to-round noise and run-to-run drift) includes 0; not comparable (too noisy) when the interval's half width exceeds the --fail-slower change (10% by default), its upper bound exceeds +that change and its lower bound does not. Fewer than runner.ref_rounds rounds on either side is warned about")
	fs.StringVar(&o.metric, "metric", "time", "what --ref compares: time (wall time per operation) or cpu (thread CPU time, steadier on a busy machine)")
	fs.Float64Var(&o.failSlower, "fail-slower", 0, "with --ref or --against, exit with status 1 when a variant is slower than the reference by more than `pct` percent beyond the interval (its whole interval above +pct%)")
}

func (o *outputFlags) check(cfg *bench.Config) error {
	if o.report != "none" && !cfg.HasReport(o.report) {
		return usagef("unknown report %q (want %s)", o.report, strings.Join(cfg.ReportNames(), ", "))
	}
	if !slices.Contains(report.Outputs, o.output) {
		return usagef("unknown output %q (want %s)", o.output, strings.Join(report.Outputs, ", "))
	}
	if o.metric != string(report.MetricTime) && o.metric != string(report.MetricCPU) {
		return usagef("unknown metric %q (want time or cpu)", o.metric)
	}
	if math.IsNaN(o.failSlower) || math.IsInf(o.failSlower, 0) {
		// NaN passed every check and then never flagged anything.
		return usagef("--fail-slower must be a finite number of percent")
	}
	if o.failSlower < 0 {
		return usagef("--fail-slower must not be negative")
	}
	if o.failSlower > 0 && o.ref == "" && !o.against {
		return usagef("--fail-slower needs --ref or --against")
	}
	return nil
}

// write renders the report of r (with the reference ref, if any) and
// applies --fail-slower.
func (o *outputFlags) write(stdout io.Writer, r, ref *bench.Run) error {
	if o.report != "none" {
		w := stdout
		var f *os.File
		if o.file != "" {
			var err error
			if f, err = os.Create(o.file); err != nil {
				return err
			}
			w = f
		}
		err := report.Write(w, r, o.output, report.Options{Report: o.report, Ref: ref, Metric: report.Metric(o.metric), Detect: o.failSlower, RefRounds: o.refRounds})
		if f != nil {
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return err
		}
	}
	if ref != nil && o.failSlower > 0 {
		ds, _ := report.CompareFor(r, ref, report.Metric(o.metric), 0, o.failSlower)
		slow := report.Slower(ds, o.failSlower)
		if len(slow) > 0 {
			var b strings.Builder
			what := "run " + ref.ID
			if r.Against == ref {
				what = "the other build"
			}
			fmt.Fprintf(&b, "%d variants are slower than %s by more than %g%% beyond their interval:", len(slow), what, o.failSlower)
			for _, d := range slow {
				fmt.Fprintf(&b, "\n\t%s: %+.2f%% [%+.2f%%, %+.2f%%]", d.ID, d.Percent, d.Lo(), d.Hi())
			}
			return errors.New(b.String())
		}
	}
	return nil
}

// prepare makes and checks the operation of each variant; tests replace it
// with a broken subject.
var prepare bench.Preparer = subjects.Prepare

var runCommand = &command{
	name:    "run",
	summary: "run the benchmarks of the selected groups",
	usage: `Usage: josebench run [flags]

Runs the variants of the selected groups (every group by default, see
"josebench list"), prints the phpbench summary and a report, and with
--store saves the run under the storage directory (created and checked for
writing before the first variant runs).

Before it is timed, every variant is checked both ways: its token loads and
gives back the input; the token with one bit flipped in its signature or tag,
and in its payload or ciphertext, is refused with the right jose error; the
token under another key of the same type is refused. A variant that fails a
check stops the run with an error naming it (exit status 1); nothing is
stored.

With --output console the summary precedes the report on standard output;
with any other output standard output holds the report alone and the summary
goes to standard error. An interrupt (Ctrl-C) stops the run after the current
iteration, in the rounds or in the retries that follow them: the rounds that
every variant completed are summarized, reported and, with --store, saved
marked incomplete; the exit status is 1.

A run is runner.rounds rounds; each visits every variant for
runner.iterations iterations, in an order shuffled per round from a seed
(--seed, random by default, stored with the run). Intervals are those of
the median of the rounds. A run with --store or --ref (not --against) is
runner.ref_rounds rounds instead (200 by default) when that is more:
between runs made minutes apart the machine's speed moves in phases,
differently for each algorithm, and 50 rounds a side saw a 40% slower
HS256 verification in only about half the comparisons. --rounds, when
given, wins.

--against PATH compares with another josebench binary (for instance one
built from the base commit): it runs "PATH worker", measures each variant
in both builds back to back in every round, and reports the median of the
paired ratios with its interval (~ when it includes 0). --ref compares
with a stored run: each variant's ratio of the 2nd percentiles of the
rounds (the rounds other work disturbed least; for every variant the
median of paired ratios when any variant or the calibration workload
has fewer than 175 rounds on either side) is divided by the change
common to the run (the mean over the other variants near their median,
or with fewer than 5 the calibration workload's); its interval combines the
variant's round-to-round noise with the run-to-run drift estimated from
the other variants. A change every variant shares is not claimed; runs
the machine moved too far between, and variants whose interval is wider
than the --fail-slower change (10% by default) either way, with its upper
bound above +that change and its lower bound not, are "not comparable"
(see README.md, "Comparing with a stored run"). --ref takes
a run id, a tag, latest or latest~N (the Nth stored run before the
latest, counted as "josebench log" lists them), read when the run starts,
before --store saves it. A tag that several stored runs carry pools
them: the rounds of the runs of the tag made by the same build (commit
and tree state, Go version), on the same machine, with the same
configuration and variants as the newest, concatenated into one
reference, newest first until it holds the rounds compared; the
warnings name the runs left out. A comparison with
fewer than runner.ref_rounds rounds on either side is warned about.

A worker that does not answer a request within 20 times the work asked
for (runner.time, or the times it reported, per revolution), and at least
10 s, is killed and the run fails naming it.

Examples:

	josebench run --config bench.yaml --group RSASign --store
	josebench run --config bench.yaml --group RSASign --ref latest~1
	josebench run --group hmac --against /tmp/josebench-base --fail-slower 10
`,
	flags: func(fs *flag.FlagSet) func(stdout, stderr io.Writer) error {
		var (
			cf        configFlags
			of        outputFlags
			groups    listFlag
			doStore   bool
			tag       string
			iters     int
			revs      string
			itTime    time.Duration
			progress  string
			subjectsF listFlag
			filter    string
			rounds    int
			seed      uint64
			against   string
			parallel  int
		)
		cf.register(fs, true)
		of.register(fs, "", "report printed after the run: simple, default, aggregate, one defined in the configuration, or none (default: runner.report)")
		fs.Lookup("ref").Usage += "; without --rounds, the run takes runner.ref_rounds rounds when more than runner.rounds"
		fs.Var(&groups, "group", "benchmark `group` to run, case ignored (see \"josebench list\"); repeatable or comma-separated (default: measure.groups)")
		fs.StringVar(&filter, "filter", "", filterHelp)
		fs.Var(&subjectsF, "subject", "only this `subject` ("+strings.Join(bench.Subjects, ", ")+"); repeatable")
		fs.BoolVar(&doStore, "store", false, "save the run under the storage directory; without --rounds, the run takes runner.ref_rounds rounds when more than runner.rounds (enough for a later --ref; not with --against)")
		fs.StringVar(&tag, "tag", "", "name the run `name` (letters, digits, '.', '_', '-'), for --ref, --uuid and josebench log")
		fs.IntVar(&iters, "iterations", 0, "override runner.iterations with `n`")
		fs.StringVar(&revs, "revs", "", "override runner.revs: a number or auto")
		fs.DurationVar(&itTime, "time", 0, "override runner.time, the target `duration` of an iteration with auto revs")
		fs.StringVar(&progress, "progress", "", "override runner.progress: auto, dots, line or none")
		fs.IntVar(&rounds, "rounds", 0, "run `n` rounds: overrides runner.rounds, and runner.ref_rounds with --store or --ref")
		fs.Uint64Var(&seed, "seed", 0, "`seed` of the round orders, to repeat a stored run's (default: random)")
		fs.StringVar(&against, "against", "", "compare with the josebench binary at `path`, measured in the same rounds")
		fs.IntVar(&parallel, "parallel", 0, "also measure each variant with `n` goroutines sharing its signer, verifier, encrypter or decrypter, and report operations per second")
		return func(stdout, stderr io.Writer) error {
			cfg, err := cf.load()
			if err != nil {
				return err
			}
			if iters < 0 || iters == 0 && flagSet(fs, "iterations") {
				return usagef("--iterations must be at least 1")
			}
			if iters > 0 {
				cfg.Runner.Iterations = iters
			}
			if rounds < 0 || rounds == 0 && flagSet(fs, "rounds") {
				return usagef("--rounds must be at least 1")
			}
			switch {
			case rounds > 0: // explicit wins
				cfg.Runner.Rounds = rounds
			case against == "" && (doStore || of.ref != ""):
				// A run that may be compared with one made minutes
				// apart, or is: runner.ref_rounds (README.md,
				// "Comparing with a stored run"), never fewer than
				// runner.rounds.
				cfg.Runner.Rounds = max(cfg.Runner.Rounds, cfg.Runner.CompareRounds())
			}
			if parallel < 0 || parallel == 1 {
				return usagef("--parallel must be at least 2")
			}
			if against != "" {
				if of.ref != "" || parallel > 0 {
					return usagef("--against goes with neither --ref nor --parallel")
				}
				path, err := exec.LookPath(against)
				if err != nil {
					return usagef("--against: %v", err)
				}
				against, of.against = path, true
			}
			if seed == 0 {
				seed = bench.NewSeed()
			}
			if revs != "" {
				var r bench.Revs
				if err := r.UnmarshalJSON([]byte(revs)); err != nil {
					return usagef("--revs must be auto or a positive integer, not %q", revs)
				}
				cfg.Runner.Revs = r
			}
			if itTime < 0 {
				return usagef("--time must be positive")
			}
			if itTime > 0 {
				cfg.Runner.Time = bench.Duration(itTime)
			}
			if progress != "" {
				if !slices.Contains([]string{"auto", "dots", "line", "none"}, progress) {
					return usagef("unknown progress %q (want auto, dots, line or none)", progress)
				}
				cfg.Runner.Progress = progress
			}
			if len(groups) > 0 {
				if cfg.Measure.Groups, err = bench.ResolveGroups(groups); err != nil {
					return &usageError{err}
				}
			}
			if len(subjectsF) > 0 {
				for _, s := range subjectsF {
					if !slices.Contains(bench.Subjects, s) {
						return usagef("unknown subject %q (want %s)", s, strings.Join(bench.Subjects, ", "))
					}
				}
				cfg.Measure.Subjects = subjectsF
			}
			if tag != "" {
				if err := bench.CheckTag(tag); err != nil {
					return &usageError{err}
				}
			}
			if of.report == "" {
				of.report = cfg.Runner.Report
			}
			of.refRounds = cfg.Runner.CompareRounds()
			if err := of.check(&cfg); err != nil {
				return err
			}
			variants, err := bench.Select(cfg.Measure, cfg.Measure.Groups)
			if err != nil {
				return &usageError{err}
			}
			if len(variants) == 0 {
				return usagef("the groups %s select no variant with the subjects %s", strings.Join(cfg.Measure.Groups, ","), strings.Join(cfg.Measure.Subjects, ","))
			}
			if variants, err = filterVariants(variants, filter, cfg.Measure.Groups); err != nil {
				return err
			}
			store := bench.Store{Dir: cfg.Runner.Storage}
			var ref *bench.Run
			if of.ref != "" {
				// Rounds of a pool beyond the run's are never paired;
				// ShortRounds asks for runner.ref_rounds.
				if ref, err = store.LoadRef(of.ref, max(cfg.Runner.Rounds, cfg.Runner.CompareRounds()), ""); err != nil {
					return err
				}
				notePool(stderr, ref)
			}
			if doStore {
				if err := store.Probe(); err != nil {
					return err
				}
			}
			id, err := bench.NewRunID()
			if err != nil {
				return err
			}
			r := &bench.Run{
				Format: bench.RunFormat, ID: id, Tag: tag, Start: time.Now().UTC().Truncate(time.Second),
				Groups: cfg.Measure.Groups, Filter: filter, Config: cfg, Env: bench.CurrentEnvironment(), Seed: seed,
			}
			runner := &bench.Runner{
				Config:   cfg.Runner,
				Prepare:  prepare,
				Progress: bench.NewProgress(cfg.Runner.Progress, stderr, isTerminal(stderr), terminalWidth(stderr)),
				Seed:     seed,
				Parallel: parallel,
			}
			// The summary and the storing messages precede a console
			// report; any other output is alone on standard output.
			info := stdout
			if of.output != "console" {
				info = stderr
			}
			// An interrupt stops the run after the current iteration;
			// what was measured is summarized, stored marked incomplete
			// and reported.
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			if against != "" {
				remote, err := bench.StartRemote(ctx, against, cfg, variants, stderr)
				if err != nil {
					return err
				}
				defer remote.Close()
				exe, err := os.Executable()
				if err != nil {
					return err
				}
				self, err := bench.StartRemote(ctx, exe, cfg, variants, stderr)
				if err != nil {
					return err
				}
				defer self.Close()
				runner.Against, runner.Self = remote, self
				r.Against = &bench.Run{Format: bench.RunFormat, ID: against, Start: r.Start, Groups: r.Groups, Config: cfg, Env: remote.Env(), Seed: seed}
			}
			start := time.Now()
			out, err := runner.Run(ctx, variants)
			r.Duration = bench.Duration(time.Since(start).Round(time.Millisecond))
			if out != nil {
				r.Results, r.Calibration = out.Results, out.Calibration
				if r.Against != nil {
					r.Against.Results, r.Against.Duration = out.Against, r.Duration
				}
			}
			interrupted := err != nil && ctx.Err() != nil
			if err != nil && (!interrupted || len(r.Results) == 0) {
				return err
			}
			stop() // a second interrupt ends the program
			r.Incomplete = interrupted
			if r.Against != nil {
				r.Against.Incomplete = interrupted
				ref = r.Against
			}
			if ref != nil && r.Against == nil {
				warnRefSet(stderr, r, ref)
				warnRefRounds(stderr, r, ref, of.refRounds)
				warnDrift(stderr, r, ref, report.Metric(of.metric), of.failSlower)
			}
			if err := bench.Summarize(r.Results).Write(info, cfg.Runner.TimeUnit); err != nil {
				return err
			}
			for _, w := range r.SampleWarnings() {
				fmt.Fprintf(stderr, "josebench: warning: %s\n", w)
			}
			if doStore {
				fmt.Fprint(info, "Storing results ... ")
				if _, err := store.Save(r); err != nil {
					fmt.Fprintln(info, "FAILED")
					return err
				}
				switch {
				case interrupted && r.RoundsDone() >= cfg.Runner.Rounds:
					fmt.Fprintf(info, "OK (incomplete: retries interrupted)\nRun: %s\n", r.ID)
				case interrupted:
					fmt.Fprintf(info, "OK (incomplete: %d of %d rounds)\nRun: %s\n", r.RoundsDone(), cfg.Runner.Rounds, r.ID)
				default:
					fmt.Fprintf(info, "OK\nRun: %s\n", r.ID)
				}
			}
			if of.report != "none" && of.output == "console" && of.file == "" {
				fmt.Fprintln(stdout)
			}
			if werr := of.write(stdout, r, ref); werr != nil || !interrupted {
				return werr
			}
			return err
		}
	},
}

var reportCommand = &command{
	name:    "report",
	summary: "report on a stored run",
	usage: `Usage: josebench report [flags]

Renders a report of a run saved by "josebench run --store".

Reports: simple (benchmark, groups, subject, set, mean), default (one row
per iteration), aggregate (every statistic), and those the run's
configuration defines. Outputs: console, md (starting "Jose Performance
Test Suite"), csv and json (every value a number but the names; an
interval as <name>_low and <name>_high, the diff's significance in
diff_significant: see package bench/report), html (one self-contained
page of SVG charts and the table) and gobench (the Go benchmark format:
"benchstat base.txt new.txt" pairs two exports, or an export and
"go test -bench Suite/ ./bench/subjects", with no flags).

Examples:

	josebench report --uuid=latest --report=simple --output=md --file report.md
	josebench report --uuid=base --output=gobench > base.txt
	josebench report --uuid=latest --output=gobench > new.txt
	benchstat base.txt new.txt
`,
	flags: func(fs *flag.FlagSet) func(stdout, stderr io.Writer) error {
		var (
			cf   configFlags
			of   outputFlags
			uuid string
		)
		cf.register(fs, true)
		of.register(fs, bench.ReportAggregate, "`report`: simple, default, aggregate, or one defined in the run's configuration")
		fs.StringVar(&uuid, "uuid", "latest", "`id` of the stored run: a run id; latest, or latest~N for the Nth run before it in \"josebench log\"; or a tag (the newest run with that tag)")
		return func(stdout, stderr io.Writer) error {
			cfg, err := cf.load()
			if err != nil {
				return err
			}
			store := bench.Store{Dir: cfg.Runner.Storage}
			r, err := store.Load(uuid)
			if err != nil {
				return err
			}
			if cf.unit != "" {
				r.Config.Runner.TimeUnit = cfg.Runner.TimeUnit
			}
			// Reports defined in the configuration apply to older runs too.
			for name, def := range cfg.Reports {
				if _, ok := r.Config.Reports[name]; !ok {
					if r.Config.Reports == nil {
						r.Config.Reports = map[string]bench.ReportDef{}
					}
					r.Config.Reports[name] = def
				}
			}
			if err := of.check(&r.Config); err != nil {
				return err
			}
			if of.report == "none" {
				return usagef("--report none makes no report")
			}
			var ref *bench.Run
			switch {
			case of.ref != "":
				// Rounds of a pool beyond the run's are never paired;
				// ShortRounds asks for runner.ref_rounds.
				if ref, err = store.LoadRef(of.ref, max(r.RoundsDone(), cfg.Runner.CompareRounds()), r.ID); err != nil {
					return err
				}
				notePool(stderr, ref)
				of.refRounds = cfg.Runner.CompareRounds()
				warnRefSet(stderr, r, ref)
				warnRefRounds(stderr, r, ref, of.refRounds)
				warnDrift(stderr, r, ref, report.Metric(of.metric), of.failSlower)
			case r.Against != nil:
				ref, of.against = r.Against, true
			}
			return of.write(stdout, r, ref)
		}
	},
}

var listCommand = &command{
	name:    "list",
	summary: "list the groups and the variants they select",
	usage: `Usage: josebench list [flags]

Without --group or --filter, lists every group with the number of
variants and the benchmarks it selects; with --group, lists the variants
selected, one per line, as benchmark/subject/params: the names --filter
matches. With --filter, lists those of the selected groups (measure.groups
without --group) that it matches: the variants "josebench run" would run
with the same flags.
`,
	flags: func(fs *flag.FlagSet) func(stdout, stderr io.Writer) error {
		var (
			cf     configFlags
			groups listFlag
			filter string
		)
		cf.register(fs, false)
		fs.Var(&groups, "group", "list the variants of `group`, case ignored; repeatable or comma-separated")
		fs.StringVar(&filter, "filter", "", filterHelp)
		return func(stdout, stderr io.Writer) error {
			cfg, err := cf.load()
			if err != nil {
				return err
			}
			if len(groups) > 0 || flagSet(fs, "filter") {
				if len(groups) == 0 {
					groups = cfg.Measure.Groups
				}
				vs, err := bench.Select(cfg.Measure, groups)
				if err != nil {
					return &usageError{err}
				}
				if vs, err = filterVariants(vs, filter, groups); err != nil {
					return err
				}
				for _, v := range vs {
					fmt.Fprintln(stdout, v.ID())
				}
				return nil
			}
			all := bench.Groups()
			width := 0
			for _, g := range all {
				width = max(width, len(g))
			}
			for _, g := range all {
				vs, _ := bench.Select(cfg.Measure, []string{g})
				var names []string
				for _, v := range vs {
					if !slices.Contains(names, v.Benchmark) {
						names = append(names, v.Benchmark)
					}
				}
				fmt.Fprintf(stdout, "%-*s %4d variants  %s\n", width, g, len(vs), strings.Join(names, " "))
			}
			return nil
		}
	},
}

var logCommand = &command{
	name:    "log",
	summary: "list the stored runs",
	usage: `Usage: josebench log [flags]

Lists the runs saved by "josebench run --store", oldest first: id, start
date (UTC), tag, groups requested, --filter ("-" for none; quoted when it
holds a space or a control character, cut to 32 characters), variants
measured, commit of the build
(12 digits, "+" when the tree was modified, untracked files included),
where the commit came from ("build": the binary's VCS stamping; "git": a
binary built without it, as with GOFLAGS=-buildvcs=false, asked git in the
directory it was compiled from when it ran, whatever GIT_DIR says; "-": not
known, as for a module version built by go install) and whether
the run is complete or was interrupted. "--ref" and "--uuid" take an id,
latest (the last line), latest~N (the Nth line above it: latest~1 is the
run before the latest), or a tag (the newest run with that tag).
`,
	flags: func(fs *flag.FlagSet) func(stdout, stderr io.Writer) error {
		var cf configFlags
		cf.register(fs, false)
		fs.StringVar(&cf.storage, "storage", "", "`directory` of stored runs (default: runner.storage of the configuration)")
		return func(stdout, stderr io.Writer) error {
			cfg, err := cf.load()
			if err != nil {
				return err
			}
			runs, err := bench.Store{Dir: cfg.Runner.Storage}.List()
			if err != nil {
				return err
			}
			if len(runs) == 0 {
				fmt.Fprintf(stderr, "josebench: no runs stored in %s\n", cfg.Runner.Storage)
				return nil
			}
			return writeLog(stdout, runs)
		}
	},
}

// writeLog prints the runs as an aligned table: the commit (+ when the
// tree was modified) and where it came from, the build's VCS stamping or
// git (see bench.Environment).
func writeLog(w io.Writer, runs []bench.RunInfo) error {
	rows := [][]string{{"id", "date (UTC)", "tag", "groups", "filter", "variants", "commit", "from", "status"}}
	for _, r := range runs {
		commit, from := "-", "-"
		if r.Commit != "" {
			commit = r.Commit[:min(12, len(r.Commit))]
			if r.Modified {
				commit += "+"
			}
		}
		if r.CommitFrom != "" {
			from = r.CommitFrom
		}
		tag, status := r.Tag, "complete"
		if tag == "" {
			tag = "-"
		}
		if r.Incomplete {
			status = "incomplete"
		}
		rows = append(rows, []string{r.ID, r.Start.UTC().Format("2006-01-02 15:04:05"), tag, strings.Join(r.Groups, ","), logFilter(r.Filter), fmt.Sprint(r.Variants), commit, from, status})
	}
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for j, c := range row {
			widths[j] = max(widths[j], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, row := range rows {
		for j, c := range row {
			switch {
			case j == 5: // variants, right-aligned
				fmt.Fprintf(&b, "%*s", widths[j], c)
			case j == len(row)-1:
				b.WriteString(c)
			default:
				b.WriteString(c + strings.Repeat(" ", widths[j]-utf8.RuneCountInString(c)))
			}
			if j < len(row)-1 {
				b.WriteString("  ")
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// maxLogFilter bounds the characters of a filter in the log's column.
const maxLogFilter = 32

// logFilter is the log's filter column: "-" for none, quoted when it holds
// a space or a character that is not printable, and a long pattern cut to
// maxLogFilter characters ending in "…" (the stored JSON has it whole).
func logFilter(f string) string {
	if strings.ContainsFunc(f, func(r rune) bool { return r == ' ' || !unicode.IsPrint(r) }) {
		f = strconv.Quote(f)
	}
	switch {
	case f == "":
		return "-"
	case utf8.RuneCountInString(f) > maxLogFilter:
		return string([]rune(f)[:maxLogFilter-1]) + "…"
	}
	return f
}

// warnRefSet warns on stderr about the variants of run that the stored
// run ref does not have, as when ref was made with other groups, another
// --filter, other subjects or other measure settings (named then): they are not compared, and --fail-slower cannot
// count them, so a comparison with a reference of other variants does not
// pass for one that found no regression.
func warnRefSet(stderr io.Writer, run, ref *bench.Run) {
	have := make(map[string]bool, len(ref.Results))
	for i := range ref.Results {
		have[ref.Results[i].ID()] = true
	}
	var missing []string
	for i := range run.Results {
		if id := run.Results[i].ID(); !have[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return
	}
	var made []string
	if g, rg := strings.Join(run.Groups, ","), strings.Join(ref.Groups, ","); g != rg {
		made = append(made, "the groups "+rg)
	}
	if run.Filter != ref.Filter {
		if ref.Filter == "" {
			made = append(made, "no --filter")
		} else {
			made = append(made, fmt.Sprintf("--filter %q", ref.Filter))
		}
	}
	m, rm := run.Config.Measure, ref.Config.Measure
	if !slices.Equal(m.Subjects, rm.Subjects) {
		made = append(made, "the subjects "+strings.Join(rm.Subjects, ","))
	}
	if !reflect.DeepEqual(m.Settings(), rm.Settings()) {
		made = append(made, "other measure settings")
	}
	why := ""
	if len(made) > 0 {
		why = " (made with " + strings.Join(made, " and ") + ")"
	}
	names := strings.Join(missing[:min(3, len(missing))], ", ")
	if len(missing) > 3 {
		names += fmt.Sprintf(" and %d more", len(missing)-3)
	}
	what := "they are not compared"
	if len(missing) == len(run.Results) {
		what = "no variant is compared"
	}
	fmt.Fprintf(stderr, "josebench: warning: %d of %d variants are not in run %s%s: %s, and --fail-slower counts none of them: %s\n",
		len(missing), len(run.Results), ref.ID, why, what, names)
}

// notePool says on stderr, for a reference pooled from the stored runs of
// a tag (bench.Store.LoadRef), which runs it holds, and warns about those
// of the tag it left out, with why.
func notePool(stderr io.Writer, ref *bench.Run) {
	p := ref.Pool
	switch {
	case p == nil:
	case len(p.Left) > 0:
		fmt.Fprintf(stderr, "josebench: warning: --ref %s: %s\n", p.Tag, p)
	case len(p.Runs) > 1:
		fmt.Fprintf(stderr, "josebench: --ref %s: %s (%d rounds)\n", p.Tag, p, ref.RoundsDone())
	}
}

// warnRefRounds warns on stderr when the comparison of run with the
// stored run ref has fewer than need rounds on either side
// (report.ShortRounds), and says what to do.
func warnRefRounds(stderr io.Writer, run, ref *bench.Run, need int) {
	if w := report.ShortRounds(run, ref, need); w != "" {
		fmt.Fprintf(stderr, "josebench: warning: %s\n", w)
	}
}

// warnDrift warns on stderr when the comparison of run with the stored
// run ref cannot be made (the machine moved more than can be corrected:
// report.CompareFor), when the change common to the run (the variants',
// or with fewer than 5 variants the calibration workload's) is beyond pct
// percent (10 when 0): that change is taken for the machine's, and a
// change of the code that every variant shares would be missed (when the
// calibration workload does not show it, the variants within pct percent
// of it are not comparable: report.Drift.Shared); and when variants were
// too noisy to detect pct percent.
func warnDrift(stderr io.Writer, run, ref *bench.Run, m report.Metric, pct float64) {
	if pct <= 0 {
		pct = report.DefaultDetect
	}
	ds, d := report.CompareFor(run, ref, m, 0, pct)
	cal := "no calibration workload"
	if d.Calibrated && d.Calibration.Found {
		cal = fmt.Sprintf("the calibration workload %+.1f%% [%+.1f%%, %+.1f%%]", d.Calibration.Percent, d.Calibration.Lo(), d.Calibration.Hi())
	}
	switch {
	case d.NotComparable != "":
		fmt.Fprintf(stderr, "josebench: warning: not comparable with run %s: %s; no variant is compared and --fail-slower counts none (compare builds with --against instead)\n", ref.ID, d.NotComparable)
		return
	case d.Shared != "":
		fmt.Fprintf(stderr, "josebench: warning: %d of %d variants not comparable with run %s: %s; only a variant beyond it either way is compared (compare builds with --against instead)\n", d.SharedCount, d.Variants, ref.ID, d.Shared)
	case math.Abs(d.Common-1)*100 <= pct:
	case d.FromVariants:
		fmt.Fprintf(stderr, "josebench: warning: the machine changed: the variants moved together by %+.1f%% against run %s (%s), beyond %g%%; that change is divided out, so one every variant shares is not seen (compare builds with --against instead)\n", (d.Common-1)*100, ref.ID, cal, pct)
	default:
		fmt.Fprintf(stderr, "josebench: warning: the machine changed: %s against run %s, beyond %g%%; with %s (fewer than 5) that change is divided out of each, so one the variants share with it is not seen (compare builds with --against instead)\n", cal, ref.ID, pct, plural(d.Variants, "variant"))
	}
	if d.TooNoisy > 0 {
		var ids []string
		for _, x := range ds {
			if strings.HasPrefix(x.NotComparable, "too noisy") {
				ids = append(ids, x.ID)
			}
		}
		fmt.Fprintf(stderr, "josebench: warning: %d of %d variants not comparable with run %s, too noisy: their interval is wider than the %g%% to detect, so --fail-slower could not have seen a change of that size (compare builds with --against instead): %s\n", d.TooNoisy, d.Variants, ref.ID, pct, strings.Join(ids, ", "))
	}
}

// plural returns n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// filterHelp is the help of --filter.
const filterHelp = "only the variants whose name matches the Go `regexp` (RE2 syntax), anywhere in it unless anchored with ^ and $; the name is benchmark/subject/params, as \"josebench list --group\" prints it (the gobench name without BenchmarkSuite/)"

// filterVariants applies --filter to the variants of groups: an invalid
// pattern, or one that matches none of them, is a usage error. An empty
// pattern keeps every variant.
func filterVariants(vs []bench.Variant, pattern string, groups []string) ([]bench.Variant, error) {
	if pattern == "" {
		return vs, nil
	}
	re, err := bench.CompileFilter(pattern)
	if err != nil {
		return nil, &usageError{err}
	}
	out := bench.Filter(vs, re)
	if len(out) == 0 {
		g := strings.Join(groups, ",")
		return nil, usagef("--filter %q matches none of the %d variants of the groups %s (\"josebench list --group %s\" prints their names)", pattern, len(vs), g, g)
	}
	return out, nil
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
