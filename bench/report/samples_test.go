package report

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strings"
	"testing"

	"github.com/josebench/josebench/bench"
)

// A run of one round of five iterations kept 1 of 1 rounds: the rounds
// column and the gobench comment say so (they said 5 of 1).
func TestRoundsColumnOneRound(t *testing.T) {
	run := reportRun(t, reportRunID, 1, false)
	run.Config.Runner.Rounds, run.Config.Runner.Iterations = 1, 6
	for i := range run.Results {
		for k := range run.Results[i].Iterations {
			run.Results[i].Iterations[k].Round = 0
		}
	}
	tb, err := Build(run, Options{Report: bench.ReportAggregate})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range tb.Rows {
		for j, c := range tb.Columns {
			if c == "rounds" && row[j].Format(tb.Unit) != "1" {
				t.Errorf("rounds %s, want 1", row[j].Format(tb.Unit))
			}
		}
	}
	var b bytes.Buffer
	if err := Write(&b, run, "gobench", Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), ": kept 1 of 1 rounds, 6 of 6 iterations; 0 rejected\n") {
		t.Errorf("gobench:\n%s", b.String())
	}
}

// The sample warnings reach csv in every report, the default one (a row
// per iteration) too, and json's notes.
func TestSampleWarningEveryReport(t *testing.T) {
	run := reportRun(t, reportRunID, 1, true) // ECDH-ES: 2 of 8 rejected
	for _, report := range []string{"simple", "default", "aggregate"} {
		rows := csvRows(t, run, Options{Report: report})
		j := slices.Index(rows[0], "sample_warning")
		if j < 0 {
			t.Errorf("%s: csv has no sample_warning: %q", report, rows[0])
			continue
		}
		warned := 0
		for _, row := range rows[1:] {
			switch {
			case row[j] == "25% rejected" && strings.HasPrefix(row[0], "ECDHESBench"):
				warned++
			case row[j] != "":
				t.Errorf("%s: %s warned: %q", report, row[0], row[j])
			}
		}
		if want := map[bool]int{true: 6, false: 1}[report == "default"]; warned != want {
			t.Errorf("%s: %d rows warned, want %d", report, warned, want)
		}
		var b bytes.Buffer
		if err := Write(&b, run, "json", Options{Report: report}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), `"Warning: 1 of 4 variants rejected more than 20%`) {
			t.Errorf("%s: json notes lack the warning", report)
		}
	}
}

// The sample_warning cell names retry_limit only for a variant that
// kept more than warn_rejects_above percent of its iterations still
// deviating, with the count, and says when they deviate in wall time
// alone (the machine was busy); the console warnings say the same.
func TestSampleWarningRetryLimit(t *testing.T) {
	run := reportRun(t, reportRunID, 1, true)
	run.Config.Runner.RetryLimit = 1
	// Every iteration of reportRun waited: wall time 11% above CPU time.
	// HS256 signing: at the limit, 1 of 6 (17%) still deviating, in wall
	// time alone (its CPU time 9.5% below the median).
	sig := &run.Results[0]
	sig.Rejects = 1
	for k := range sig.Iterations[1:] {
		sig.Iterations[k+1].CPU = sig.Iterations[k+1].Time
	}
	// HS256 verification: its thread CPU time too, half of it in every
	// other iteration: all 6 deviate from the median.
	ver := &run.Results[1]
	for k := range ver.Iterations {
		if k%2 == 1 {
			ver.Iterations[k].CPU = 0.5 * ver.Iterations[k].Time
		}
	}
	want := map[string]string{
		"HS256Bench/benchSignature/alg=HS256":                          "",
		"HS256Bench/benchVerification/alg=HS256":                       "retry_limit reached, 6 of 6 kept deviate",
		"RSA1_5Bench/benchDecryption/alg=RSA1_5,enc=A128GCM,bits=2048": "",
		// Rejects at the limit are no reject share (Samples.ShareWarns):
		// the cells say what the variants kept.
		"ECDHESBench/benchRoundTrip/alg=ECDH-ES,enc=A256GCM,crv=X25519": "retry_limit reached, 6 of 6 kept deviate, 6 in wall time alone",
	}
	for _, share := range []float64{20, 10} {
		run.Config.Runner.WarnRejectsAbove = share
		if share == 10 { // 17% is above 10: now HS256 signing is named too
			want["HS256Bench/benchSignature/alg=HS256"] = "retry_limit reached, 1 of 6 kept deviate, 1 in wall time alone"
		}
		var lines []string
		for _, w := range run.SampleWarnings() {
			if strings.Contains(w, "retry_limit") {
				lines = append(lines, w)
			}
		}
		if len(lines) != 2 || !strings.HasSuffix(lines[0], "HS256Bench/benchVerification/alg=HS256 6 of 6 kept deviate") ||
			!strings.Contains(lines[1], "the machine was busy") || !strings.Contains(lines[1], "ECDHESBench/benchRoundTrip/alg=ECDH-ES/enc=A256GCM/crv=X25519 6 of 6 kept deviate, 6 in wall time alone") {
			t.Errorf("share %g: warnings %q", share, lines)
		}
		rows := csvRows(t, run, Options{Report: "aggregate"})
		j := slices.Index(rows[0], "sample_warning")
		if j < 0 {
			t.Fatalf("share %g: csv has no sample_warning: %q", share, rows[0])
		}
		for _, row := range rows[1:] {
			name := row[0] + "/" + row[2] + "/" + row[3] // benchmark/subject/set
			if w, ok := want[name]; !ok || row[j] != w {
				t.Errorf("share %g: %s: sample_warning %q, want %q", share, name, row[j], w)
			}
		}
	}
}

// The sample_warning cell and the console lines count what they say: a
// variant named for its thread CPU time the iterations deviating in it,
// one in the busy line those deviating in wall time alone, of all those
// deviating.
func TestSampleWarningRetryLimitCounts(t *testing.T) {
	run := reportRun(t, reportRunID, 1, false)
	run.Config.Runner.RetryLimit, run.Config.Runner.WarnRejectsAbove = 1, 20
	// Every iteration of reportRun waited (wall time 11% above CPU
	// time): all 6 of each variant deviate. HS256 signing: 2 of them in
	// thread CPU time too (33%: named); RSA1_5: 1 (17%: busy); HS256
	// verification: none (busy).
	cpu := map[int][]int{0: {0, 1}, 2: {0}}
	for i := range run.Results {
		r := &run.Results[i]
		r.Rejects = 1
		for _, k := range cpu[i] {
			r.Iterations[k].CPU = 0.6 * r.Iterations[k].Time
		}
	}
	want := map[string]string{
		"HS256Bench/benchSignature/alg=HS256":                          "retry_limit reached, 2 of 6 kept deviate",
		"HS256Bench/benchVerification/alg=HS256":                       "retry_limit reached, 6 of 6 kept deviate, 6 in wall time alone",
		"RSA1_5Bench/benchDecryption/alg=RSA1_5,enc=A128GCM,bits=2048": "retry_limit reached, 6 of 6 kept deviate, 5 in wall time alone",
	}
	rows := csvRows(t, run, Options{Report: "aggregate"})
	j := slices.Index(rows[0], "sample_warning")
	if j < 0 {
		t.Fatalf("csv has no sample_warning: %q", rows[0])
	}
	for _, row := range rows[1:] {
		name := row[0] + "/" + row[2] + "/" + row[3]
		if w, ok := want[name]; !ok || row[j] != w {
			t.Errorf("%s: sample_warning %q, want %q", name, row[j], w)
		}
	}
	var named, busy []string
	for _, w := range run.SampleWarnings() {
		switch {
		case strings.Contains(w, "in thread CPU time (runner.warn_rejects_above)"):
			named = append(named, w)
		case strings.Contains(w, "the machine was busy"):
			busy = append(busy, w)
		}
	}
	if len(named) != 1 || !strings.HasSuffix(named[0], ": HS256Bench/benchSignature/alg=HS256 2 of 6 kept deviate") {
		t.Errorf("retry_limit warning %q", named)
	}
	if len(busy) != 1 || !strings.HasSuffix(busy[0], ": HS256Bench/benchVerification/alg=HS256 6 of 6 kept deviate, 6 in wall time alone; RSA1_5Bench/benchDecryption/alg=RSA1_5/enc=A128GCM/bits=2048 6 of 6 kept deviate, 5 in wall time alone") {
		t.Errorf("busy warning %q", busy)
	}
}

// csvRows returns the records of run's report as csv, header first.
func csvRows(t *testing.T, run *bench.Run, opts Options) [][]string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, run, "csv", opts); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
