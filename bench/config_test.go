package bench

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The built-in defaults are the shipped bench.yaml.
func TestDefaultConfigIsBenchYAML(t *testing.T) {
	cfg, err := LoadConfig("../bench.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if want := DefaultConfig(); !reflect.DeepEqual(cfg, want) {
		t.Errorf("bench.yaml and DefaultConfig differ:\nbench.yaml: %+v\ndefault:    %+v", cfg, want)
	}
}

func TestParseConfigOverrides(t *testing.T) {
	src := `
runner:
  rounds: 4
  iterations: 3
  revs: 100
  time: 5ms
  warmup: 0
  retry_threshold: 0
  warn_kept_below: 95
  time_unit: nanoseconds
  progress: none
  storage: /tmp/x
  report: full
measure:
  groups: [HS256, KW, ECDH-ES+A128KW]
  subjects: [benchRoundTrip]
  rsa_enc_bits: [4096]
  curves: [X25519]
  payloads: [rfc7520, 1024]
  serializations: [json, compact]
  p2c: 1000
`
	cfg, err := ParseConfig("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultConfig()
	want.Runner = RunnerConfig{Rounds: 4, RefRounds: want.Runner.RefRounds, Iterations: 3, Revs: 100, Time: Duration(5 * time.Millisecond), Warmup: 0,
		RetryThreshold: 0, RetryLimit: want.Runner.RetryLimit, WarnKeptBelow: 95, WarnRejectsAbove: want.Runner.WarnRejectsAbove, TimeUnit: Nanoseconds, Progress: "none", Storage: "/tmp/x", Report: "full"}
	want.Measure = MeasureConfig{
		Groups: []string{"HS256", "KW", "ECDH-ES+A128KW"}, Subjects: []string{SubjectRoundTrip},
		RSASignBits: []int{2048}, RSAEncBits: []int{4096}, Curves: []string{"X25519"},
		Payloads: []string{"rfc7520", "1024"}, Serializations: []string{"json", "compact"}, P2C: 1000,
	}
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("got  %+v\nwant %+v", cfg, want)
	}
}

// runner.ref_rounds replaces runner.rounds for a stored or compared run;
// 0 keeps runner.rounds.
func TestCompareRounds(t *testing.T) {
	tests := []struct {
		src  string
		want int
	}{
		{"", 200},
		{"runner:\n  rounds: 30\n", 200},
		{"runner:\n  ref_rounds: 120\n", 120},
		{"runner:\n  rounds: 30\n  ref_rounds: 0\n", 30},
		{"runner:\n  rounds: 300\n  ref_rounds: 100\n", 100},
	}
	for _, tt := range tests {
		cfg, err := ParseConfig("t.yaml", []byte(tt.src))
		if err != nil {
			t.Fatalf("%q: %v", tt.src, err)
		}
		if got := cfg.Runner.CompareRounds(); got != tt.want {
			t.Errorf("%q: CompareRounds() = %d, want %d", tt.src, got, tt.want)
		}
	}
}

func TestParseConfigEmptyAndNull(t *testing.T) {
	for _, src := range []string{"", "# nothing\n", "runner:\nmeasure:\n"} {
		cfg, err := ParseConfig("t.yaml", []byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if !reflect.DeepEqual(cfg, DefaultConfig()) {
			t.Errorf("%q: got %+v, want the defaults", src, cfg)
		}
	}
	// An explicit empty reports mapping removes the default definitions.
	cfg, err := ParseConfig("t.yaml", []byte("reports: {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Reports) != 0 {
		t.Errorf("reports: {} kept %v", cfg.Reports)
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		msg       string
	}{
		{"syntax", "runner: [\n", 1, "did not find expected node content"},
		{"not a mapping", "- a\n- b\n", 1, "must be a mapping"},
		{"unknown top key", "runner:\n  iterations: 2\nfoo: 1\n", 3, `unknown key "foo" in the top level`},
		{"unknown runner key", "runner:\n  itrations: 3\n", 2, `unknown key "itrations" in runner`},
		{"unknown measure key", "measure:\n  group: [JWS]\n", 2, `unknown key "group" in measure`},
		{"unknown report key", "reports:\n  x:\n    extends: simple\n    colums: [mean]\n", 4, `unknown key "colums" in a report definition`},
		// Every type error names its key, and integers are strict (yaml.v3
		// alone truncated 2.5 to 2 and named no key).
		{"wrong type", "runner:\n  iterations: many\n", 2, `runner.iterations: must be an integer, not "many"`},
		{"wrong list type", "measure:\n  groups: JWS\n", 2, `measure.groups: must be a list, not "JWS"`},
		{"fraction", "runner:\n  iterations: 2.5\n", 2, `runner.iterations: must be an integer, not "2.5"`},
		{"whole float", "runner:\n  warmup: 2.0\n", 2, `runner.warmup: must be an integer, not "2.0"`},
		{"exponent", "runner:\n  retry_limit: 1e3\n", 2, `runner.retry_limit: must be an integer, not "1e3"`},
		{"hex", "measure:\n  p2c: 0x1000\n", 2, `measure.p2c: must be a decimal integer, not "0x1000"`},
		{"quoted int", "runner:\n  iterations: \"3\"\n", 2, `runner.iterations: must be an integer, not "3"`},
		{"int list", "runner:\n  iterations: [1]\n", 2, `runner.iterations: must be an integer, not a list`},
		{"int mapping", "runner:\n  iterations: {n: 1}\n", 2, `runner.iterations: must be an integer, not a mapping`},
		{"fraction in list", "measure:\n  rsa_enc_bits: [2048, 3072.5]\n", 2, `measure.rsa_enc_bits[1]: must be an integer, not "3072.5"`},
		{"number word", "runner:\n  retry_threshold: abc\n", 2, `runner.retry_threshold: must be a number, not "abc"`},
		{"string list", "runner:\n  storage: [a]\n", 2, `runner.storage: must be a string, not a list`},
		{"section scalar", "measure: 3\n", 1, `measure: must be a mapping, not "3"`},
		{"report cols", "reports:\n  mine:\n    extends: simple\n    cols: mean\n", 4, `reports.mine.cols: must be a list, not "mean"`},
		{"revs word", "runner:\n  revs: lots\n", 2, `revs must be "auto" or a positive integer, not "lots"`},
		{"revs zero", "runner:\n  revs: 0\n", 2, `revs must be "auto" or a positive integer`},
		{"revs negative", "runner:\n  revs: -5\n", 2, `revs must be "auto" or a positive integer`},
		{"time word", "runner:\n  time: fast\n", 2, `time must be a duration such as 10ms, not "fast"`},
		{"iterations", "runner:\n  iterations: 0\n", 2, "runner.iterations: must be at least 1"},
		{"ref_rounds", "runner:\n  rounds: 10\n  ref_rounds: -1\n", 3, "runner.ref_rounds: must not be negative (0: runner.rounds)"},
		{"ref_rounds fraction", "runner:\n  ref_rounds: 20.5\n", 2, `runner.ref_rounds: must be an integer, not "20.5"`},
		{"auto without time", "runner:\n  revs: auto\n  time: 0s\n", 3, "runner.time: must be positive when revs is auto"},
		{"negative time", "runner:\n  revs: 10\n  time: -1s\n", 3, "runner.time: must not be negative"},
		{"warmup", "runner:\n  warmup: -1\n", 2, "runner.warmup: must not be negative"},
		{"retry_threshold", "runner:\n  retry_threshold: -1\n", 2, "runner.retry_threshold: must not be negative"},
		{"retry_limit", "runner:\n  retry_limit: -1\n", 2, "runner.retry_limit: must not be negative"},
		{"warn_kept_below", "runner:\n  warn_kept_below: 101\n", 2, "runner.warn_kept_below: must be a percentage from 0 (off) to 100"},
		{"warn_rejects_above", "runner:\n  warn_rejects_above: -1\n", 2, "runner.warn_rejects_above: must be a percentage from 0 (off) to 100"},
		{"time_unit", "runner:\n  time_unit: hours\n", 2, `runner.time_unit: unknown unit "hours"`},
		{"progress", "runner:\n  progress: bar\n", 2, `runner.progress: unknown progress "bar"`},
		{"storage", "runner:\n  storage: \"\"\n", 2, "runner.storage: must not be empty"},
		{"report", "runner:\n  report: nope\n", 2, `runner.report: unknown report "nope" (want none, simple, default, aggregate, full)`},
		{"no groups", "measure:\n  groups: []\n", 2, "measure.groups: must list at least one group"},
		{"unknown group", "measure:\n  groups:\n    - JWS\n    - Nope\n", 4, `measure.groups[1]: unknown group "Nope" ("josebench list" lists the`},
		{"misspelt group", "measure:\n  groups: [JWS, RSASing]\n", 2, `measure.groups[1]: unknown group "RSASing" (did you mean RSASign? "josebench list" lists the groups)`},
		{"no subjects", "measure:\n  subjects: []\n", 2, "measure.subjects: must list at least one subject"},
		{"unknown subject", "measure:\n  subjects: [benchSign]\n", 2, `measure.subjects[0]: unknown subject "benchSign"`},
		{"rsa_sign_bits", "measure:\n  rsa_sign_bits: [1024]\n", 2, "measure.rsa_sign_bits[0]: unsupported value 1024 (supported: 2048, 3072, 4096)"},
		{"rsa_enc_bits twice", "measure:\n  rsa_enc_bits: [2048, 2048]\n", 2, "measure.rsa_enc_bits[1]: 2048 is listed twice"},
		{"rsa_enc_bits empty", "measure:\n  rsa_enc_bits: []\n", 2, "measure.rsa_enc_bits: must list at least one value"},
		{"curves", "measure:\n  curves: [P-192]\n", 2, "measure.curves[0]: unsupported value P-192"},
		{"no payloads", "measure:\n  payloads: []\n", 2, "measure.payloads: must list at least one payload"},
		{"payload word", "measure:\n  payloads: [big]\n", 2, `measure.payloads[0]: payload must be "rfc7520" or a size in bytes from 1 to 1048576, not "big"`},
		{"payload zero", "measure:\n  payloads: [0]\n", 2, `measure.payloads[0]: payload must be`},
		{"payload huge", "measure:\n  payloads: [2000000]\n", 2, `measure.payloads[0]: payload must be`},
		// A size is written one way, and once: the variant's identity
		// (payload=1024) pairs it across runs and in benchstat.
		{"payload twice", "measure:\n  payloads: [rfc7520, 1024, rfc7520]\n", 2, `measure.payloads[2]: rfc7520 is listed twice`},
		{"payload plus", "measure:\n  payloads: [\"+1024\"]\n", 2, `measure.payloads[0]: payload must be`},
		{"payload zeros", "measure:\n  payloads: [\"01024\"]\n", 2, `measure.payloads[0]: payload must be`},
		{"serializations", "measure:\n  serializations: [xml]\n", 2, "measure.serializations[0]: unsupported value xml (supported: compact, json)"},
		{"p2c", "measure:\n  p2c: 10\n", 2, "measure.p2c: must be between 1000 and 600000"},
		{"builtin report name", "reports:\n  simple:\n    extends: simple\n", 2, `reports.simple: "simple" is a built-in report name`},
		{"report extends", "reports:\n  mine:\n    extends: fancy\n", 3, `reports.mine.extends: unknown report "fancy"`},
		{"report cols", "reports:\n  mine:\n    extends: simple\n    cols: [mean, mode]\n", 4, `reports.mine.cols[1]: unknown column "mode" for a simple report`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig("b.yaml", []byte(tt.src))
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want a *ConfigError", err)
			}
			if ce.Line != tt.line {
				t.Errorf("line %d, want %d (%v)", ce.Line, tt.line, err)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not contain %q", err, tt.msg)
			}
			prefix := "bench: b.yaml:"
			if !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("error %q does not start with %q", err, prefix)
			}
		})
	}
}

func TestLoadConfigMissingFile(t *testing.T) {
	_, err := LoadConfig("testdata/does-not-exist.yaml")
	if err == nil || !strings.HasPrefix(err.Error(), "bench: ") {
		t.Errorf("got %v", err)
	}
}
