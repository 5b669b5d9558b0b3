package bench

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/josebench/josebench/bench/stats"
)

func storageRun(t *testing.T, id string) *Run {
	vs, err := Select(DefaultConfig().Measure, []string{"HS256"})
	if err != nil {
		t.Fatal(err)
	}
	r := Result{Variant: vs[0], Revs: 100, Rejects: 1, Iterations: []Iteration{{Time: 1000, Bytes: 64, Allocs: 2}, {Time: 1200, Bytes: 64, Allocs: 2}}}
	r.summarize()
	return &Run{
		Format: RunFormat, ID: id, Start: time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC),
		Duration: Duration(3 * time.Second), Groups: []string{"HS256"}, Config: DefaultConfig(),
		Env: CurrentEnvironment(), Results: []Result{r},
	}
}

func TestStoreSaveLoad(t *testing.T) {
	s := Store{Dir: filepath.Join(t.TempDir(), "runs")}
	if ids, err := s.IDs(); err != nil || len(ids) != 0 {
		t.Fatalf("empty store: %v %v", ids, err)
	}
	if _, err := s.Load("latest"); !errors.Is(err, ErrNoRun) {
		t.Errorf("latest of empty store: %v", err)
	}
	id1, err := NewRunID()
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Millisecond)
	id2, _ := NewRunID()
	if u, _ := uuid.Parse(id1); u.Version() != 7 {
		t.Errorf("run id version %d", u.Version())
	}
	for _, id := range []string{id2, id1} {
		if _, err := s.Save(storageRun(t, id)); err != nil {
			t.Fatal(err)
		}
	}
	ids, err := s.IDs()
	if err != nil || len(ids) != 2 || ids[0] != id1 || ids[1] != id2 {
		t.Fatalf("IDs = %v, %v", ids, err)
	}
	got, err := s.Load("latest")
	if err != nil {
		t.Fatal(err)
	}
	want := storageRun(t, id2)
	// Variant inputs are not stored, only the identity.
	want.Results[0].Variant = Variant{Benchmark: want.Results[0].Benchmark, Groups: want.Results[0].Groups, Subject: want.Results[0].Subject, Params: want.Results[0].Params}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("loaded run differs:\ngot  %+v\nwant %+v", got, want)
	}
	if _, err := s.Load(id1); err != nil {
		t.Error(err)
	}
	// Temporary files are not left behind, other files are ignored.
	os.WriteFile(filepath.Join(s.Dir, "notes.json"), []byte("{}"), 0o644)
	entries, _ := os.ReadDir(s.Dir)
	if len(entries) != 3 {
		t.Errorf("%d files in the store", len(entries))
	}
	if ids, _ := s.IDs(); len(ids) != 2 {
		t.Errorf("IDs = %v", ids)
	}
}

func TestStoreErrors(t *testing.T) {
	dir := t.TempDir()
	s := Store{Dir: dir}
	missing := "0190a000-0000-7000-8000-000000000000"
	if _, err := s.Load(missing); !errors.Is(err, ErrNoRun) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing run: %v", err)
	}
	if _, err := s.Load("../etc/passwd"); err == nil || errors.Is(err, ErrNoRun) {
		t.Errorf("bad id: %v", err)
	}
	if _, err := s.Save(&Run{ID: "x"}); err == nil {
		t.Error("saved a run with a bad id")
	}
	// A file where the storage directory should be.
	blocker := filepath.Join(dir, "file")
	os.WriteFile(blocker, nil, 0o644)
	id, _ := NewRunID()
	if _, err := (Store{Dir: blocker}).Save(storageRun(t, id)); err == nil || !strings.HasPrefix(err.Error(), "bench: cannot create storage") {
		t.Errorf("unwritable storage: %v", err)
	}
	// A corrupt or foreign file.
	os.WriteFile(filepath.Join(dir, missing+".json"), []byte("{"), 0o644)
	if _, err := s.Load(missing); err == nil || !strings.Contains(err.Error(), "not valid") {
		t.Errorf("corrupt run: %v", err)
	}
	os.WriteFile(filepath.Join(dir, missing+".json"), []byte(`{"format": 99}`), 0o644)
	if _, err := s.Load(missing); err == nil || !strings.Contains(err.Error(), "format 99") {
		t.Errorf("foreign format: %v", err)
	}
}

func TestCurrentEnvironment(t *testing.T) {
	e := CurrentEnvironment()
	if e.GoVersion == "" || e.GOOS == "" || e.GOARCH == "" || e.CPU == "" || e.NumCPU < 1 || e.GOMAXPROCS < 1 {
		t.Errorf("environment %+v", e)
	}
}

// TestSummary checks the summary: phpbench's counts (subjects are
// (benchmark, subject) pairs, revs sum the revolutions per iteration of
// each variant), then per subject in suite order the variants, iterations
// kept and rejected, the median and largest rstdev and the fastest and
// slowest variant by median; no mean across variants.
func TestSummary(t *testing.T) {
	mk := func(bench, subject, alg string, revs int, rejects int, times ...float64) Result {
		r := Result{Variant: Variant{Benchmark: bench, Subject: subject, Params: []Param{{"alg", alg}}}, Revs: revs, Rejects: rejects}
		for _, x := range times {
			r.Iterations = append(r.Iterations, Iteration{Time: x})
		}
		r.summarize()
		return r
	}
	s := Summarize([]Result{
		mk("ES256Bench", SubjectRoundTrip, "ES256", 5, 4), // nothing kept
		mk("RS256Bench", SubjectSignature, "RS256", 10, 0, 2_000_000, 4_000_000),
		mk("HS256Bench", SubjectVerification, "HS256", 7, 2, 3000),
		mk("HS256Bench", SubjectSignature, "HS256", 1000, 1, 1000, 1000, 1000),
		mk("HS384Bench", SubjectSignature, "HS384", 900, 0, 1100, 1210, 1000, 990),
	})
	// rstdevs of the signatures: 0 (HS256), 33.3% (RS256), 8.3% (HS384).
	hs384 := stats.Summarize([]float64{1100, 1210, 1000, 990}).RStdev
	want := Summary{Subjects: 5, Variants: 5, Iterations: 10, Revs: 1922, Rejects: 7, BySubject: []SubjectSummary{
		{Subject: SubjectSignature, Variants: 3, Iterations: 9, Rejects: 1, RStdev: hs384, MaxRStdev: 100.0 / 3,
			Fastest: SummaryVariant{"HS256Bench", "alg=HS256", 1000, "HS256Bench"}, Slowest: SummaryVariant{"RS256Bench", "alg=RS256", 3_000_000, "RS256Bench"}},
		{Subject: SubjectVerification, Variants: 1, Iterations: 1, Rejects: 2,
			Fastest: SummaryVariant{"HS256Bench", "alg=HS256", 3000, "HS256Bench"}, Slowest: SummaryVariant{"HS256Bench", "alg=HS256", 3000, "HS256Bench"}},
		{Subject: SubjectRoundTrip, Variants: 1, Rejects: 4},
	}}
	if d := s.BySubject[0].MaxRStdev - 100.0/3; d > 1e-9 || d < -1e-9 {
		t.Errorf("MaxRStdev %v", s.BySubject[0].MaxRStdev)
	}
	s.BySubject[0].MaxRStdev = 100.0 / 3
	if !reflect.DeepEqual(s, want) {
		t.Errorf("got  %+v\nwant %+v", s, want)
	}
	var b strings.Builder
	s.Write(&b, Microseconds)
	wantText := `5 subjects, 5 variants, 10 iterations, 1,922 revs, 7 rejects
subject            variants  its  rejects  rstdev (max)  fastest (μs)      slowest (μs)
benchSignature            3    9        1  8.3% (33.3%)  1.000 HS256Bench  3,000.000 RS256Bench
benchVerification         1    1        2   0.0% (0.0%)  3.000 HS256Bench      3.000 HS256Bench
benchRoundTrip            1    0        4             -      -                     -
`
	if b.String() != wantText {
		t.Errorf("summary text:\n%s\nwant\n%s", b.String(), wantText)
	}
	for _, word := range []string{"mean", "μSD", "μRSD", "best", "worst", "mode"} {
		if strings.Contains(b.String(), word) {
			t.Errorf("the summary gives a %s across variants:\n%s", word, b.String())
		}
	}
	if s := Summarize(nil); !reflect.DeepEqual(s, Summary{}) {
		t.Errorf("empty summary %+v", s)
	}
	b.Reset()
	Summary{}.Write(&b, Microseconds)
	if b.String() != "0 subjects, 0 variants, 0 iterations, 0 revs, 0 rejects\n" {
		t.Errorf("empty summary text %q", b.String())
	}
}

// TestSummaryNames: the fastest and slowest variants are named by their
// benchmark and the parameters that tell them from the subject's other
// variants of it (alg left out), so that a group of one benchmark does not
// say "fastest RSAOAEPBench, slowest RSAOAEPBench"; a table wider than
// 120 columns names them on lines of their own, and the default suite's
// summary keeps to 120 columns in every time unit.
func TestSummaryNames(t *testing.T) {
	vs, err := Select(DefaultConfig().Measure, []string{"RSA-OAEP", "HS256"})
	if err != nil {
		t.Fatal(err)
	}
	var results []Result
	for i, v := range vs {
		if v.Subject != SubjectDecryption && v.Subject != SubjectSignature {
			continue
		}
		r := Result{Variant: v, Revs: 1, Iterations: []Iteration{{Time: float64(1000 + i)}}}
		if v.Param("bits") == "4096" && v.Param("enc") == "A256GCM" {
			r.Iterations[0].Time = 9e6
		}
		r.summarize()
		results = append(results, r)
	}
	s := Summarize(results)
	if len(s.BySubject) != 2 {
		t.Fatalf("%+v", s)
	}
	sig, dec := s.BySubject[0], s.BySubject[1]
	if sig.Fastest.Name != "HS256Bench" || sig.Slowest.Name != "HS256Bench" {
		t.Errorf("one variant: fastest %q, slowest %q", sig.Fastest.Name, sig.Slowest.Name)
	}
	if dec.Fastest.Name != "RSAOAEPBench enc=A128CBC-HS256,bits=2048" || dec.Slowest.Name != "RSAOAEPBench enc=A256GCM,bits=4096" {
		t.Errorf("decryption: fastest %q, slowest %q", dec.Fastest.Name, dec.Slowest.Name)
	}
	var b strings.Builder
	s.Write(&b, Microseconds)
	want := "  fastest: RSAOAEPBench enc=A128CBC-HS256,bits=2048; slowest: RSAOAEPBench enc=A256GCM,bits=4096\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("summary:\n%s\nwant a line %q", b.String(), want)
	}

	// The default suite, each subject's fastest and slowest the variants
	// of the longest names.
	cfg := DefaultConfig()
	cfg.Measure.Payloads = append(cfg.Measure.Payloads, "1048576")
	cfg.Measure.Serializations = []string{"compact", "json"}
	vs, err = Select(cfg.Measure, cfg.Measure.Groups)
	if err != nil {
		t.Fatal(err)
	}
	results = results[:0]
	for _, v := range vs {
		r := Result{Variant: v, Revs: 1, Rejects: 10}
		for range 50 {
			r.Iterations = append(r.Iterations, Iteration{Time: 1e9 * float64(len(v.ID()))})
		}
		r.summarize()
		results = append(results, r)
	}
	for _, unit := range []TimeUnit{Nanoseconds, Microseconds, Milliseconds, Seconds} {
		b.Reset()
		Summarize(results).Write(&b, unit)
		for line := range strings.Lines(b.String()) {
			if n := utf8.RuneCountInString(strings.TrimSuffix(line, "\n")); n > 120 {
				t.Errorf("%s: a line of %d columns:\n%s", unit, n, b.String())
				break
			}
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -12000: "-12,000"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q", n, got)
		}
	}
}

// TestStoreLatestBack checks latest~N: the Nth run before the newest, in
// the order List (and so `josebench log`) gives, incomplete runs counted;
// N beyond the stored runs, or not a count, is a clear error.
func TestStoreLatestBack(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	if _, err := s.Load("latest~1"); !errors.Is(err, ErrNoRun) || !strings.Contains(err.Error(), "holds no runs") {
		t.Errorf("latest~1 of an empty store: %v", err)
	}
	// One run: latest and latest~0 are it, latest~1 is not stored.
	one := Store{Dir: t.TempDir()}
	if _, err := one.Save(&Run{Format: RunFormat, ID: "019ad7a0-0000-7000-8000-000000000001", Config: DefaultConfig()}); err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"latest", "latest~0"} {
		if r, err := one.Load(ref); err != nil || r.ID != "019ad7a0-0000-7000-8000-000000000001" {
			t.Errorf("one run: Load(%s): %v, %v", ref, r, err)
		}
	}
	if _, err := one.Load("latest~1"); !errors.Is(err, ErrNoRun) || !strings.HasSuffix(err.Error(), "latest~1: storage "+one.Dir+" holds 1 run, latest") {
		t.Errorf("one run: Load(latest~1): %v", err)
	}
	ids := []string{"0190a000-0000-7000-8000-000000000001", "0190a000-0000-7000-8000-000000000002", "0190a000-0000-7000-8000-000000000003"}
	for i, id := range ids {
		r := storageRun(t, id)
		r.Incomplete = i == 1
		if i == 0 {
			r.Tag = "latest-2"
		}
		if _, err := s.Save(r); err != nil {
			t.Fatal(err)
		}
	}
	infos, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	for ref, want := range map[string]string{"latest": ids[2], "latest~0": ids[2], "latest~1": ids[1], "latest~2": ids[0], "latest~002": ids[0]} {
		r, err := s.Load(ref)
		if err != nil || r.ID != want {
			t.Errorf("Load(%s) = %v, %v; want %s", ref, r, err, want)
			continue
		}
		// latest~N is the Nth line above the last of the log.
		var n int
		if back, ok := strings.CutPrefix(ref, "latest~"); ok {
			n = int(back[len(back)-1] - '0')
		}
		if infos[len(infos)-1-n].ID != want {
			t.Errorf("%s is not line %d from the end of List", ref, n)
		}
	}
	_, err = s.Load("latest~3")
	if !errors.Is(err, ErrNoRun) || !strings.Contains(err.Error(), "latest~3: storage "+s.Dir+" holds 3 runs, latest to latest~2") {
		t.Errorf("latest~3: %v", err)
	}
	for _, ref := range []string{"latest~", "latest~-1", "latest~1x", "latest~+1", "latest~1234567890"} {
		if _, err := s.Load(ref); err == nil || errors.Is(err, ErrNoRun) || !strings.Contains(err.Error(), "want latest~N") {
			t.Errorf("Load(%s): %v", ref, err)
		}
	}
	// A tag that reads like a reference is still a tag; one not found
	// points to the ~ form.
	if r, err := s.Load("latest-2"); err != nil || r.ID != ids[0] {
		t.Errorf("tag latest-2: %v, %v", r, err)
	}
	if _, err := s.Load("latest-1"); !errors.Is(err, ErrNoRun) || !strings.Contains(err.Error(), "(the run 1 before the latest is latest~1)") {
		t.Errorf("latest-1: %v", err)
	}
}
