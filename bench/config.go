package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
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
	// Iterations is the number of timed iterations (samples) per variant.
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
	// much (phpbench's retry_threshold, which uses the mean). 0 disables it.
	RetryThreshold float64 `yaml:"retry_threshold" json:"retry_threshold"`
	// RetryLimit bounds the rejects of one variant; when it is reached the
	// remaining iterations are kept as they are.
	RetryLimit int `yaml:"retry_limit" json:"retry_limit"`
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

// Revs is a number of revolutions per iteration; the zero value is Auto.
type Revs int

// Auto is the Revs value that calibrates the revolutions to the target time.
const Auto Revs = 0

// String returns "auto" or the number.
func (r Revs) String() string {
	if r == Auto {
		return "auto"
	}
	return strconv.Itoa(int(r))
}

// UnmarshalYAML accepts "auto" or a positive integer.
func (r *Revs) UnmarshalYAML(n *yaml.Node) error {
	v, err := parseRevs(n.Value)
	if err != nil || n.Kind != yaml.ScalarNode {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: revs must be \"auto\" or a positive integer, not %q", n.Line, n.Value)}}
	}
	*r = v
	return nil
}

// MarshalJSON writes "auto" or the number.
func (r Revs) MarshalJSON() ([]byte, error) {
	if r == Auto {
		return []byte(`"auto"`), nil
	}
	return strconv.AppendInt(nil, int64(r), 10), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *Revs) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	v, err := parseRevs(s)
	if err != nil {
		return err
	}
	*r = v
	return nil
}

func parseRevs(s string) (Revs, error) {
	if s == "auto" {
		return Auto, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("bench: revs must be \"auto\" or a positive integer, not %q", s)
	}
	return Revs(n), nil
}

// Duration is a time.Duration written as "10ms" in YAML and JSON.
type Duration time.Duration

// String formats d as time.Duration does.
func (d Duration) String() string { return time.Duration(d).String() }

// UnmarshalYAML parses a Go duration ("10ms", "1s").
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil || n.Kind != yaml.ScalarNode {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: time must be a duration such as 10ms, not %q", n.Line, n.Value)}}
	}
	*d = Duration(v)
	return nil
}

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// UnmarshalJSON reads what MarshalJSON writes.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// TimeUnit is the unit in which times are shown.
type TimeUnit string

// Time units, named as phpbench names them.
const (
	Nanoseconds  TimeUnit = "nanoseconds"
	Microseconds TimeUnit = "microseconds"
	Milliseconds TimeUnit = "milliseconds"
	Seconds      TimeUnit = "seconds"
)

// Nanos returns the number of nanoseconds in one u (0 for an unknown unit).
func (u TimeUnit) Nanos() float64 {
	switch u {
	case Nanoseconds:
		return 1
	case Microseconds:
		return 1e3
	case Milliseconds:
		return 1e6
	case Seconds:
		return 1e9
	}
	return 0
}

// Symbol returns the unit's symbol: ns, μs, ms or s.
func (u TimeUnit) Symbol() string {
	switch u {
	case Nanoseconds:
		return "ns"
	case Microseconds:
		return "μs"
	case Milliseconds:
		return "ms"
	case Seconds:
		return "s"
	}
	return string(u)
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
	ReportDefault:   {"benchmark", "groups", "subject", "set", "revs", "iter", "rejects", "time_rev", "cpu_rev", "z_value", "deviation", "bytes", "allocs"},
	ReportAggregate: {"benchmark", "groups", "subject", "set", "revs", "its", "rejects", "best", "mean", "mode", "median", "worst", "stdev", "rstdev", "cpu", "bytes", "allocs"},
}

// DefaultConfig returns the built-in configuration, identical to the
// bench.yaml shipped with the module: every group, 10 iterations of about
// 10ms each, and the PHP suite's inputs.
func DefaultConfig() Config {
	return Config{
		Runner: RunnerConfig{
			Iterations:     10,
			Revs:           Auto,
			Time:           Duration(10 * time.Millisecond),
			Warmup:         0,
			RetryThreshold: 10,
			RetryLimit:     3,
			TimeUnit:       Microseconds,
			Progress:       "auto",
			Storage:        ".josebench",
			Report:         ReportAggregate,
		},
		Measure: MeasureConfig{
			Groups:         []string{"JWS", "JWE"},
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

// LoadConfig reads and parses the configuration file at path (see
// [ParseConfig]); errors name the file and line.
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("bench: %w", err)
	}
	return ParseConfig(path, data)
}

// ConfigError is an error in a configuration file, at a line.
type ConfigError struct {
	File string // file name as given to ParseConfig
	Line int    // 1-based line, 0 if unknown
	Msg  string
}

// Error returns "bench: file:line: message".
func (e *ConfigError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("bench: %s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("bench: %s: %s", e.File, e.Msg)
}

var yamlLineMsg = regexp.MustCompile(`^line (\d+): (.*)$`)
var yamlUnknownField = regexp.MustCompile(`^field (\S+) not found in type bench\.(\w+)$`)

// sectionOf names the YAML section that a Go type decodes.
var sectionOf = map[string]string{
	"Config":        "the top level",
	"RunnerConfig":  "runner",
	"MeasureConfig": "measure",
	"ReportDef":     "a report definition",
}

// ParseConfig parses bench.yaml content. Keys absent from data keep their
// [DefaultConfig] value; unknown keys, values of the wrong type and invalid
// values are errors that give name:line. An empty document is the default
// configuration.
func ParseConfig(name string, data []byte) (Config, error) {
	cfg := DefaultConfig()
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return Config{}, yamlError(name, err)
	}
	if len(root.Content) == 0 {
		return cfg, nil
	}
	if root.Content[0].Kind != yaml.MappingNode {
		return Config{}, &ConfigError{File: name, Line: root.Content[0].Line, Msg: "the configuration must be a mapping (runner:, measure:, reports:)"}
	}
	// Lists replace the defaults rather than merge into them.
	cfg.Reports = nil
	withDefaultReports := true
	if findNode(root.Content[0], "reports") != nil {
		withDefaultReports = false
	}
	if err := checkTypes(root.Content[0], reflect.TypeFor[Config](), ""); err != nil {
		err.File = name
		return Config{}, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		return Config{}, yamlError(name, err)
	}
	if withDefaultReports {
		cfg.Reports = DefaultConfig().Reports
	}
	if p := cfg.validate(); p != nil {
		return Config{}, &ConfigError{File: name, Line: lineOf(root.Content[0], p.path), Msg: p.path + ": " + p.msg}
	}
	return cfg, nil
}

// yamlError turns a yaml.v3 error into a ConfigError with its line.
func yamlError(name string, err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg := te.Errors[0]
		if m := yamlLineMsg.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			msg = m[2]
			if f := yamlUnknownField.FindStringSubmatch(msg); f != nil {
				sec := sectionOf[f[2]]
				if sec == "" {
					sec = f[2]
				}
				msg = fmt.Sprintf("unknown key %q in %s", f[1], sec)
			}
			msg = strings.TrimPrefix(msg, "yaml: ")
			return &ConfigError{File: name, Line: line, Msg: msg}
		}
		return &ConfigError{File: name, Msg: msg}
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := yamlLineMsg.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &ConfigError{File: name, Line: line, Msg: m[2]}
	}
	return &ConfigError{File: name, Msg: msg}
}

// checkTypes checks the scalar types of the YAML document n against the
// Go type t before it is decoded, so that every type error names its key
// and integers are strict: yaml.v3 would truncate "iterations: 2.5" to 2
// and report a string where an int belongs without naming the key. Keys
// unknown to t are left to the decoder, types with their own UnmarshalYAML
// (revs, time) to their decoder.
func checkTypes(n *yaml.Node, t reflect.Type, path string) *ConfigError {
	if reflect.PointerTo(t).Implements(reflect.TypeFor[yaml.Unmarshaler]()) {
		return nil
	}
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	bad := func(want string) *ConfigError {
		got := strconv.Quote(n.Value)
		switch n.Kind {
		case yaml.MappingNode:
			got = "a mapping"
		case yaml.SequenceNode:
			got = "a list"
		}
		return &ConfigError{Line: n.Line, Msg: fmt.Sprintf("%s: must be %s, not %s", path, want, got)}
	}
	join := func(key string) string {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			if n.Tag == "!!null" {
				return nil
			}
			return bad("a mapping")
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i].Value
			for j := range t.NumField() {
				f := t.Field(j)
				if name, _, _ := strings.Cut(f.Tag.Get("yaml"), ","); name == key {
					if err := checkTypes(n.Content[i+1], f.Type, join(key)); err != nil {
						return err
					}
				}
			}
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			if n.Tag == "!!null" {
				return nil
			}
			return bad("a mapping")
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if err := checkTypes(n.Content[i+1], t.Elem(), join(n.Content[i].Value)); err != nil {
				return err
			}
		}
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			if n.Tag == "!!null" {
				return nil
			}
			return bad("a list")
		}
		for i, e := range n.Content {
			if err := checkTypes(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Int:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
			return bad("an integer")
		}
		if _, err := strconv.Atoi(n.Value); err != nil {
			return bad("a decimal integer")
		}
	case reflect.Float64:
		if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") {
			return bad("a number")
		}
	case reflect.String:
		if n.Kind != yaml.ScalarNode {
			return bad("a string")
		}
	}
	return nil
}

// problem is a validation failure at a dotted path ("runner.iterations",
// "measure.groups[2]").
type problem struct{ path, msg string }

func (c *Config) validate() *problem {
	r := &c.Runner
	switch {
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
	for i, g := range m.Groups {
		if !IsGroup(g) {
			return &problem{fmt.Sprintf("measure.groups[%d]", i), fmt.Sprintf("unknown group %q (known: %s)", g, strings.Join(Groups(), ", "))}
		}
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
	}
	if p := checkList("measure.serializations", m.Serializations, Serializations); p != nil {
		return p
	}
	if m.P2C < 1000 || m.P2C > 600000 {
		return &problem{"measure.p2c", "must be between 1000 and 600000 (the jose.Limits PBES2 defaults)"}
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

// findNode returns the value node of key in mapping m, or nil.
func findNode(m *yaml.Node, key string) *yaml.Node {
	_, v := findKey(m, key)
	return v
}

// findKey returns the key and value nodes of key in mapping m, or nils.
func findKey(m *yaml.Node, key string) (k, v *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// lineOf returns the line of the node at a dotted path with optional [i]
// indexes, or of the closest existing ancestor.
func lineOf(root *yaml.Node, path string) int {
	n := root
	line := root.Line
	for _, part := range strings.Split(path, ".") {
		key, idx := part, -1
		if i := strings.IndexByte(part, '['); i >= 0 {
			key = part[:i]
			idx, _ = strconv.Atoi(strings.TrimSuffix(part[i+1:], "]"))
		}
		k, v := findKey(n, key)
		if v == nil {
			return line
		}
		n, line = v, k.Line
		if idx >= 0 {
			if n.Kind != yaml.SequenceNode || idx >= len(n.Content) {
				return line
			}
			n = n.Content[idx]
			line = n.Line
		}
	}
	return line
}
