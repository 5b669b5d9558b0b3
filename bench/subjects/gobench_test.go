package subjects

import (
	"bufio"
	"bytes"
	"maps"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/bench/report"
)

// benchFile is what benchstat reads of a file in the Go benchmark format:
// the configuration lines (which split its tables where they differ) and
// the names of the benchmark lines (which pair its rows).
type benchFile struct {
	config map[string]string
	names  []string // in order, each once
}

// parseBenchFile reads a benchmark file as golang.org/x/perf/benchfmt
// does: a configuration line is "key: value" where key starts with a
// lower-case letter and holds no space or upper-case letter; a benchmark
// line starts with "Benchmark"; every other line is ignored.
func parseBenchFile(t *testing.T, data []byte) benchFile {
	t.Helper()
	f := benchFile{config: map[string]string{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "Benchmark") {
			name, _, _ := strings.Cut(line, "\t")
			if name = strings.TrimSpace(name); !slices.Contains(f.names, name) {
				f.names = append(f.names, name)
			}
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok || key == "" || !unicode.IsLower([]rune(key)[0]) || strings.ContainsFunc(key, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsUpper(r) }) {
			continue
		}
		if val = strings.TrimLeft(val, " \t"); val == "" {
			delete(f.config, key)
		} else {
			f.config[key] = val
		}
	}
	return f
}

// The gobench export names each variant as go test names BenchmarkSuite's
// sub-benchmark of it, under the same configuration lines, so that
// benchstat pairs an export with a go test run (or another export) with
// no flags: this test binary runs BenchmarkSuite on a few benchmarks (once
// each), and a run of the same variants is exported.
func TestGobenchMatchesGoTest(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short: runs BenchmarkSuite in a subprocess")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	groups := []string{"HS256", "RS256", "ECDHESA128KW", "PBES2HS256A128KW", "dir", "HPKE-0", "JWTNestedES256", "JWTRS256"}
	if slices.Contains(bench.Groups(), "MLDSA") { // Go 1.27 builds
		groups = append(groups, "ML-DSA-44")
	}
	m := bench.DefaultConfig().Measure
	vs, err := bench.Select(m, groups)
	if err != nil {
		t.Fatal(err)
	}
	var benchmarks []string
	for _, v := range vs {
		if !slices.Contains(benchmarks, v.Benchmark) {
			benchmarks = append(benchmarks, v.Benchmark)
		}
	}
	procs := runtime.GOMAXPROCS(0)
	cmd := exec.Command(exe, "-test.run=^$", "-test.bench=Suite/^("+strings.Join(benchmarks, "|")+")$", "-test.benchtime=1x", "-test.cpu="+strconv.Itoa(procs))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %v\n%s\n%s", cmd.Args, err, out, stderr.Bytes())
	}
	goTest := parseBenchFile(t, out)

	run := &bench.Run{Format: bench.RunFormat, ID: "019ad7a0-0000-7000-8000-000000000001", Tag: "base", Env: bench.CurrentEnvironment()}
	for _, v := range vs {
		run.Results = append(run.Results, bench.Result{Variant: v, Revs: 1, Iterations: []bench.Iteration{{Time: 1000, CPU: 900}, {Round: 1, Time: 1010}}})
	}
	var export bytes.Buffer
	if err := report.Write(&export, run, "gobench", report.Options{}); err != nil {
		t.Fatal(err)
	}
	josebench := parseBenchFile(t, export.Bytes())

	if len(josebench.names) != len(vs) || len(goTest.names) != len(vs) {
		t.Errorf("%d variants: %d names exported, %d from go test", len(vs), len(josebench.names), len(goTest.names))
	}
	if !slices.Equal(josebench.names, goTest.names) {
		t.Errorf("names differ:\nexport:  %v\ngo test: %v", josebench.names, goTest.names)
	}
	for _, k := range []string{"goos", "goarch", "pkg"} {
		if goTest.config[k] == "" {
			t.Errorf("go test printed no %s: line:\n%s", k, out)
		}
	}
	if !maps.Equal(josebench.config, goTest.config) {
		t.Errorf("configuration lines differ (benchstat would print two tables):\nexport:  %v\ngo test: %v\n%s", josebench.config, goTest.config, export.Bytes())
	}
	// What is particular to the run is there, where benchstat ignores it.
	if !strings.Contains(export.String(), "\n# josebench run "+run.ID+" (tag base), "+runtime.Version()) {
		t.Errorf("no comment line naming the run:\n%s", export.Bytes())
	}
}

// Every variant a configuration can select is named alike by go test and
// the gobench export: its identity is unique (go test would suffix a
// repeated name with #01) and holds no rune that the testing package
// rewrites in a sub-benchmark's name (a space, a rune not printable).
func TestVariantNamesAsGoTestWrites(t *testing.T) {
	m := bench.DefaultConfig().Measure
	m.RSASignBits, m.RSAEncBits = bench.RSABits, bench.RSABits
	m.Curves, m.Serializations = bench.Curves, bench.Serializations
	m.Payloads = []string{bench.PayloadRFC7520, "1", "1024", strconv.Itoa(bench.MaxPayloadSize)}
	vs, err := bench.Select(m, bench.Groups())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, v := range vs {
		id := v.ID()
		if seen[id] {
			t.Errorf("two variants are %s", id)
		}
		seen[id] = true
		if strings.ContainsFunc(id, func(r rune) bool { return unicode.IsSpace(r) || !strconv.IsPrint(r) || r == '#' }) {
			t.Errorf("go test would rewrite the name of %q", id)
		}
	}
	if len(vs) < 1000 {
		t.Errorf("only %d variants", len(vs))
	}
}
