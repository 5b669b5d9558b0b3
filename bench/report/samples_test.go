package report

import (
	"bytes"
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
