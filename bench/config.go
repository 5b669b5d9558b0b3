package bench

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Config is the whole of bench.yaml, the counterpart of phpbench.json: how
// to run ([RunnerConfig]), what to measure ([MeasureConfig]) and the report
// definitions. [DefaultConfig] returns the built-in values, which are those of
// the bench.yaml shipped at the root of the repository.
type Config struct {
	Runner  RunnerConfig         `yaml:"runner" json:"runner"`
	Measure MeasureConfig        `yaml:"measure" json:"measure"`
	Reports map[string]ReportDef `yaml:"reports" json:"reports,omitempty"`
}

// RunnerConfig holds the runner settings.
type RunnerConfig struct {
	// Rounds is the number of rounds of a run: each round visits every
	// variant, in an order shuffled per round, so that the drift of a busy
	// machine spreads over all variants and shows in their intervals.
	Rounds int `yaml:"rounds" json:"rounds"`
	// RefRounds replaces Rounds, when above it, in a run that stores
	// itself (run --store) or compares with a stored run (run --ref),
	// unless --rounds is given; 0 keeps Rounds. A comparison between runs
	// made minutes apart needs more rounds than one of two builds in the
	// same rounds (run --against): on a quiet 2-core machine the speed
	// moved in phases that hit algorithm families differently
	// (rounds 30 to 42 of a 1 s run all about 25% faster), so the log
	// ratios of the variants of two 50-round runs scattered by 5.1%
	// (median; 10.1% at the 90th percentile), and a 40% slower HS256
	// verification was flagged by --fail-slower 10 in 47% of the pairs of
	// stored runs; the rounds of 4 runs pooled, 200 a side, flagged it in
	// 19 of 20 pairs (95%), with 0 of 20 identical pairs flagged and 4.4%
	// of their intervals excluding 0; on a loaded machine 200 rounds
	// flagged it in 15 and 17 of 20 (README.md, "Comparing with a stored
	// run").
	RefRounds int `yaml:"ref_rounds" json:"ref_rounds"`
	// Iterations is the number of timed iterations (samples) of a variant
	// in each round.
	Iterations int `yaml:"iterations" json:"iterations"`
	// Revs is the number of revolutions (calls) per iteration, or Auto to
	// calibrate it so that one iteration takes about Time.
	Revs Revs `yaml:"revs" json:"revs"`
	// Time is the target duration of one iteration when Revs is Auto.
	Time Duration `yaml:"time" json:"time"`
	// Warmup is the number of untimed revolutions run before each
	// iteration (phpbench's warmup).
	Warmup int `yaml:"warmup" json:"warmup"`
	// RetryThreshold, in percent, rejects and re-runs an iteration whose time
	// deviates from the median of the variant's iterations by at least that
	// much (phpbench's retry_threshold, which uses the mean), or whose wall
	// time exceeds the thread CPU time by that much (the thread waited
	// while other work ran; Linux only). 0 disables it.
	RetryThreshold float64 `yaml:"retry_threshold" json:"retry_threshold"`
	// RetryLimit bounds the rejects of one variant, re-run or dropped
	// (see [Runner]): when it is reached the remaining iterations are kept
	// as they are. A higher limit does not make a machine whose speed moves
	// in phases settle: the re-runs meet another phase (measured at a load
	// of 6 to 10: README.md, "The retry_limit warning").
	RetryLimit int `yaml:"retry_limit" json:"retry_limit"`
	// WarnKeptBelow, in percent, warns (on standard error and in every
	// report) about a variant that kept fewer of the rounds × iterations
	// configured; 0 disables it.
	WarnKeptBelow float64 `yaml:"warn_kept_below" json:"warn_kept_below"`
	// WarnRejectsAbove, in percent, warns about a variant whose rejected
	// iterations are more than this share of all it measured (kept and
	// rejected) while fewer than RetryLimit ([Samples.ShareWarns]), and
	// about one whose rejects reached RetryLimit while more
	// than this share of the iterations it kept still deviate by the rule
	// of RetryThreshold in their thread CPU time, in wall time where it is
	// not measured ([Samples.LimitWarns]); one that kept more than this
	// share deviating but no more than it in thread CPU time, the others
	// in wall time alone (descheduled while other work ran), is in a
	// warning of its own, that the machine was busy ([Samples.BusyWarns]).
	// With 50 rounds and a limit of 10 the reject share cannot pass 20,
	// so those two are the warnings a run of the defaults can give; 0
	// disables all three. A few deviating iterations kept are no warning: on the first
	// 2-core development VM nearly every variant kept some (933 of 935 in
	// a full run at a load of 1; at a load of 6 to 9 the machine's speed
	// moved in phases), and the median of the rounds does not follow
	// them. On the VM that replaced it (2026-12-04), the thread CPU time
	// rule named 9 to 15% of a full run's variants at a load of 4 to 13,
	// the fast ones that allocate much, whose iterations vary with the
	// garbage collector (README.md, "The retry_limit warning").
	WarnRejectsAbove float64 `yaml:"warn_rejects_above" json:"warn_rejects_above"`
	// TimeUnit is the unit of times in the console summary and the reports.
	TimeUnit TimeUnit `yaml:"time_unit" json:"time_unit"`
	// Progress is how a run shows progress: "auto" (a progress line on a
	// terminal, dots otherwise), "dots", "line" or "none".
	Progress string `yaml:"progress" json:"progress"`
	// Storage is the directory where --store saves runs.
	Storage string `yaml:"storage" json:"storage"`
	// Report is the report printed after a run ("none" for the summary
	// only).
	Report string `yaml:"report" json:"report"`
}

// CompareRounds returns the rounds of a run that stores itself or
// compares with a stored run: RefRounds, or Rounds when RefRounds is 0.
func (r RunnerConfig) CompareRounds() int {
	if r.RefRounds > 0 {
		return r.RefRounds
	}
	return r.Rounds
}

// MeasureConfig says what to measure.
type MeasureConfig struct {
	// Groups selects the benchmarks (see [Groups]); --group overrides it.
	Groups []string `yaml:"groups" json:"groups"`
	// Subjects restricts the subjects measured (see [Subjects]).
	Subjects []string `yaml:"subjects" json:"subjects"`
	// RSASignBits are the RSA key sizes of the RS* and PS* benchmarks.
	RSASignBits []int `yaml:"rsa_sign_bits" json:"rsa_sign_bits"`
	// RSAEncBits are the RSA key sizes of the RSA1_5 and RSA-OAEP* ones.
	RSAEncBits []int `yaml:"rsa_enc_bits" json:"rsa_enc_bits"`
	// Curves are the curves of the ECDH-ES benchmarks.
	Curves []string `yaml:"curves" json:"curves"`
	// Payloads are "rfc7520" (the RFC 7520 §4 text) or sizes in bytes.
	Payloads []string `yaml:"payloads" json:"payloads"`
	// Serializations are "compact" and/or "json" (flattened JSON; with
	// the AAD "A,B,C,D" for JWE, as the PHP decryption input).
	Serializations []string `yaml:"serializations" json:"serializations"`
	// P2C is the PBES2 iteration count (RFC 7518 §4.8.1.2).
	P2C int `yaml:"p2c" json:"p2c"`
}

// Settings returns m without its groups and subjects: how each variant is
// measured, not which variants are (those a run's results name).
func (m MeasureConfig) Settings() MeasureConfig {
	m.Groups, m.Subjects = nil, nil
	return m
}

// ReportDef defines a named report from one of the built-in ones.
type ReportDef struct {
	// Extends is the built-in report it derives from: simple, default or
	// aggregate.
	Extends string `yaml:"extends" json:"extends"`
	// Title replaces the report's title when not empty.
	Title string `yaml:"title" json:"title,omitempty"`
	// Cols selects and orders the columns (all of the base's when empty).
	Cols []string `yaml:"cols" json:"cols,omitempty"`
}

// Built-in report names (see package report).
const (
	ReportSimple    = "simple"
	ReportDefault   = "default"
	ReportAggregate = "aggregate"
)

// ReportColumns lists the columns of each built-in report, in order. A
// [ReportDef] selects among those of the report it extends.
var ReportColumns = map[string][]string{
	ReportSimple:    {"benchmark", "groups", "subject", "set", "mean"},
	ReportDefault:   {"benchmark", "groups", "subject", "set", "revs", "iter", "round", "rejects", "time_rev", "cpu_rev", "z_value", "deviation", "bytes", "allocs"},
	ReportAggregate: {"benchmark", "groups", "subject", "set", "revs", "its", "rejects", "best", "mean", "mode", "median", "interval", "worst", "stdev", "rstdev", "cpu", "bytes", "allocs"},
}

// DefaultConfig returns the built-in configuration, identical to the
// bench.yaml shipped with the module: every group, 50 rounds of one
// iteration of about 1ms each (short enough that a busy machine seldom
// deschedules one), 200 rounds for a run stored or compared with a stored
// one (see [RunnerConfig.RefRounds]), and the PHP suite's inputs.
func DefaultConfig() Config {
	return Config{
		Runner: RunnerConfig{
			Rounds:           50,
			RefRounds:        200,
			Iterations:       1,
			Revs:             Auto,
			Time:             Duration(time.Millisecond),
			Warmup:           0,
			RetryThreshold:   10,
			RetryLimit:       10,
			WarnKeptBelow:    80,
			WarnRejectsAbove: 20,
			TimeUnit:         Microseconds,
			Progress:         "auto",
			Storage:          ".josebench",
			Report:           ReportAggregate,
		},
		Measure: MeasureConfig{
			Groups:         []string{"JWS", "JWE", "JWT", "Bearer", "DPoP"},
			Subjects:       slices.Clone(Subjects),
			RSASignBits:    []int{2048},
			RSAEncBits:     []int{2048, 3072, 4096},
			Curves:         []string{"P-256", "P-384", "P-521", "X25519"},
			Payloads:       []string{PayloadRFC7520},
			Serializations: []string{SerializationCompact},
			P2C:            4096,
		},
		Reports: map[string]ReportDef{
			"full": {
				Extends: ReportAggregate,
				Title:   "Jose Performance Test Suite (full)",
				Cols:    []string{"benchmark", "subject", "set", "revs", "its", "best", "mode", "mean", "worst", "stdev", "rstdev", "cpu", "bytes", "allocs"},
			},
		},
	}
}

// problem is a validation failure at a dotted path ("runner.iterations",
// "measure.groups[2]").
type problem struct{ path, msg string }

func (c *Config) validate() *problem {
	r := &c.Runner
	switch {
	case r.Rounds < 1:
		return &problem{"runner.rounds", "must be at least 1"}
	case r.RefRounds < 0:
		return &problem{"runner.ref_rounds", "must not be negative (0: runner.rounds)"}
	case r.Iterations < 1:
		return &problem{"runner.iterations", "must be at least 1"}
	case r.Revs < 0:
		return &problem{"runner.revs", "must be auto or a positive integer"}
	case r.Revs == Auto && r.Time <= 0:
		return &problem{"runner.time", "must be positive when revs is auto"}
	case r.Time < 0:
		return &problem{"runner.time", "must not be negative"}
	case r.Warmup < 0:
		return &problem{"runner.warmup", "must not be negative"}
	case r.RetryThreshold < 0:
		return &problem{"runner.retry_threshold", "must not be negative (0 disables retries)"}
	case r.RetryLimit < 0:
		return &problem{"runner.retry_limit", "must not be negative"}
	case r.WarnKeptBelow < 0 || r.WarnKeptBelow > 100:
		return &problem{"runner.warn_kept_below", "must be a percentage from 0 (off) to 100"}
	case r.WarnRejectsAbove < 0 || r.WarnRejectsAbove > 100:
		return &problem{"runner.warn_rejects_above", "must be a percentage from 0 (off) to 100"}
	case r.TimeUnit.Nanos() == 0:
		return &problem{"runner.time_unit", fmt.Sprintf("unknown unit %q (want nanoseconds, microseconds, milliseconds or seconds)", r.TimeUnit)}
	case !slices.Contains([]string{"auto", "dots", "line", "none"}, r.Progress):
		return &problem{"runner.progress", fmt.Sprintf("unknown progress %q (want auto, dots, line or none)", r.Progress)}
	case r.Storage == "":
		return &problem{"runner.storage", "must not be empty"}
	}
	if r.Report != "none" && !c.HasReport(r.Report) {
		return &problem{"runner.report", fmt.Sprintf("unknown report %q (want none, %s)", r.Report, strings.Join(c.ReportNames(), ", "))}
	}

	m := &c.Measure
	if len(m.Groups) == 0 {
		return &problem{"measure.groups", "must list at least one group"}
	}
	for i, name := range m.Groups {
		g, ok := LookupGroup(name) // case ignored, as --group
		if !ok {
			return &problem{fmt.Sprintf("measure.groups[%d]", i), unknownGroup(name)}
		}
		m.Groups[i] = g
	}
	if len(m.Subjects) == 0 {
		return &problem{"measure.subjects", "must list at least one subject"}
	}
	for i, s := range m.Subjects {
		if !slices.Contains(Subjects, s) {
			return &problem{fmt.Sprintf("measure.subjects[%d]", i), fmt.Sprintf("unknown subject %q (known: %s)", s, strings.Join(Subjects, ", "))}
		}
	}
	if p := checkList("measure.rsa_sign_bits", m.RSASignBits, RSABits); p != nil {
		return p
	}
	if p := checkList("measure.rsa_enc_bits", m.RSAEncBits, RSABits); p != nil {
		return p
	}
	if p := checkList("measure.curves", m.Curves, Curves); p != nil {
		return p
	}
	if len(m.Payloads) == 0 {
		return &problem{"measure.payloads", "must list at least one payload"}
	}
	for i, p := range m.Payloads {
		if _, err := PayloadSize(p); err != nil {
			return &problem{fmt.Sprintf("measure.payloads[%d]", i), err.Error()}
		}
		if slices.Index(m.Payloads, p) != i {
			return &problem{fmt.Sprintf("measure.payloads[%d]", i), fmt.Sprintf("%s is listed twice", p)}
		}
	}
	if p := checkList("measure.serializations", m.Serializations, Serializations); p != nil {
		return p
	}
	if m.P2C < 1000 || m.P2C > 600000 {
		return &problem{"measure.p2c", "must be between 1000 and 600000 (the benchmark raises its decrypter's jose.Limits.PBES2MaxCount to it)"}
	}

	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range c.Reports {
			if !yield(k) {
				return
			}
		}
	}) {
		d := c.Reports[name]
		path := "reports." + name
		if _, builtin := ReportColumns[name]; builtin || name == "none" {
			return &problem{path, fmt.Sprintf("%q is a built-in report name", name)}
		}
		cols, ok := ReportColumns[d.Extends]
		if !ok {
			return &problem{path + ".extends", fmt.Sprintf("unknown report %q (want simple, default or aggregate)", d.Extends)}
		}
		for i, col := range d.Cols {
			if !slices.Contains(cols, col) {
				return &problem{fmt.Sprintf("%s.cols[%d]", path, i), fmt.Sprintf("unknown column %q for a %s report (known: %s)", col, d.Extends, strings.Join(cols, ", "))}
			}
		}
	}
	return nil
}

// checkList checks that list is not empty, that its items are known and
// not repeated.
func checkList[T comparable](path string, list, known []T) *problem {
	if len(list) == 0 {
		return &problem{path, "must list at least one value"}
	}
	for i, v := range list {
		if !slices.Contains(known, v) {
			return &problem{fmt.Sprintf("%s[%d]", path, i), fmt.Sprintf("unsupported value %v (supported: %s)", v, joinAny(known))}
		}
		if slices.Index(list, v) != i {
			return &problem{fmt.Sprintf("%s[%d]", path, i), fmt.Sprintf("%v is listed twice", v)}
		}
	}
	return nil
}

func joinAny[T any](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// HasReport reports whether name is a built-in report or one defined in c.
func (c *Config) HasReport(name string) bool {
	if _, ok := ReportColumns[name]; ok {
		return true
	}
	_, ok := c.Reports[name]
	return ok
}

// ReportNames returns the built-in report names and the defined ones,
// sorted after them.
func (c *Config) ReportNames() []string {
	names := []string{ReportSimple, ReportDefault, ReportAggregate}
	var defined []string
	for k := range c.Reports {
		defined = append(defined, k)
	}
	slices.Sort(defined)
	return append(names, defined...)
}
