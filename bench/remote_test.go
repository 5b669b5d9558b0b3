//go:build unix

package bench

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeWorker writes a shell script standing in for another josebench
// and returns its path.
func fakeWorker(t *testing.T, script string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "worker")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// The driver side of the worker protocol refuses a worker that is not
// one, names the worker (this build's own or the other build's) in every
// error, says when a worker died (with its exit status, not as a protocol
// mismatch), and refuses measurements that cannot be times: a driver
// must not compare against garbage.
func TestRemoteRobust(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Measure.Groups = []string{"HS256"}
	vs, _ := Select(cfg.Measure, cfg.Measure.Groups)
	env := `{"env":{"go_version":"go1.26.0"}}`
	for _, tt := range []struct {
		name, script string
		startErr     string // StartRemote's error, or "" if it starts
		measureErr   string // Measure's error
	}{
		{"garbage", `read x; echo 'hello, world'`, "does not speak josebench-worker/1", ""},
		{"silent", `exit 0`, "does not speak josebench-worker/1", ""},
		{"dies", `read x; echo '` + env + `'; read y; echo 'worker crashed' >&2; exit 3`, "", "ended (exit status 3)"},
		{"negative", `read x; echo '` + env + `'; read y; echo '{"iterations":[{"time":-5,"bytes":1,"allocs":1}]}'`, "", "an iteration that cannot be a measurement"},
		{"zero", `read x; echo '` + env + `'; read y; echo '{"iterations":[{"time":0}]}'`, "", "an iteration that cannot be a measurement"},
		{"negative bytes", `read x; echo '` + env + `'; read y; echo '{"iterations":[{"time":5,"bytes":-1}]}'`, "", "an iteration that cannot be a measurement"},
		{"too many", `read x; echo '` + env + `'; read y; echo '{"iterations":[{"time":5},{"time":5}]}'`, "", "sent 2 iterations, want 1"},
		{"good", `read x; echo '` + env + `'; read y; echo '{"iterations":[{"time":5,"cpu":4,"bytes":1,"allocs":1}]}'`, "", ""},
	} {
		var stderr bytes.Buffer
		path := fakeWorker(t, tt.script)
		r, err := StartRemote(context.Background(), path, cfg, vs, &stderr)
		if tt.startErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.startErr) || !strings.Contains(err.Error(), "worker "+path) {
				t.Errorf("%s: StartRemote: %v, want %q", tt.name, err, tt.startErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: StartRemote: %v", tt.name, err)
			continue
		}
		its, err := r.Measure(0, 10, 1)
		switch {
		case tt.measureErr == "" && (err != nil || len(its) != 1 || its[0].Time != 5):
			t.Errorf("%s: Measure = %+v, %v", tt.name, its, err)
		case tt.measureErr != "" && (err == nil || !strings.Contains(err.Error(), tt.measureErr) || !strings.Contains(err.Error(), "worker "+path)):
			t.Errorf("%s: Measure: %v, want %q", tt.name, err, tt.measureErr)
		}
		r.Close()
		if tt.name == "dies" && !strings.Contains(stderr.String(), "worker crashed") {
			t.Errorf("dies: the worker's stderr %q is not passed on", stderr.String())
		}
	}
}

// A worker that stops answering is killed once its deadline has passed
// (here lowered to a second), and the error names it: at the hello, in a
// request, and in a run of rounds, which fails instead of waiting
// forever. The scripts leave a child holding the pipes, as a hung process
// tree would. The workers that do answer must do so within the deadline
// too (the hello within 1.6 s, from the start of bash): 300 ms left a
// loaded machine too little.
func TestRemoteDeadline(t *testing.T) {
	defer func(d time.Duration) { workerDeadlineFloor = d }(workerDeadlineFloor)
	workerDeadlineFloor = time.Second
	cfg := DefaultConfig()
	cfg.Measure.Groups = []string{"HS256"}
	cfg.Runner.Revs, cfg.Runner.Iterations, cfg.Runner.Rounds, cfg.Runner.Warmup, cfg.Runner.RetryThreshold = 1, 1, 2, 0, 0
	vs, _ := Select(cfg.Measure, cfg.Measure.Groups)
	env := `{"env":{"go_version":"go1.26.0"}}`
	it := `{"iterations":[{"time":5,"cpu":4}]}`
	// Each worker's hang is 60 s and its deadline 1 s: a worker refused
	// by its exit rather than by the deadline makes the test take a
	// minute, whatever the machine's load makes of the three deadlines.
	const hang = `sleep 60`
	start := time.Now()
	path := fakeWorker(t, `read x; `+hang)
	var stderr bytes.Buffer
	if _, err := StartRemote(context.Background(), path, cfg, vs, &stderr); err == nil || !strings.Contains(err.Error(), "worker "+path+" did not answer within") {
		t.Errorf("hung at the hello: %v", err)
	}
	path = fakeWorker(t, `read x; echo '`+env+`'; read y; `+hang)
	r, err := StartRemote(context.Background(), path, cfg, vs, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Measure(0, 1, 1); err == nil || !strings.Contains(err.Error(), "worker "+path+" did not answer within") {
		t.Errorf("hung in a request: %v", err)
	}
	r.Close()
	// A run of rounds against a worker that hangs in the second round.
	path = fakeWorker(t, `read x; echo '`+env+`'; for i in 1 2 3 4 5 6 7 8 9; do read y; echo '`+it+`'; done; `+hang)
	if r, err = StartRemote(context.Background(), path, cfg, vs, &stderr); err != nil {
		t.Fatal(err)
	}
	run := &Runner{Config: cfg.Runner, Seed: 1, Against: r, Prepare: func(*Variant) (Op, error) { return func() error { return nil }, nil }}
	out, err := run.Run(context.Background(), vs)
	if err == nil || out != nil || !strings.Contains(err.Error(), "the other build: bench: worker "+path+" did not answer within") {
		t.Errorf("run against a worker that hangs: %v, %v", out, err)
	}
	r.Close()
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("hung workers took %v to be refused: one waited for its exit, not its deadline", d)
	}
}

// An interrupt while a worker hangs ends the wait at once and keeps the
// rounds completed (the Ctrl-C path of a run), well before the deadline.
func TestRemoteInterruptedWhileHung(t *testing.T) {
	defer func(d time.Duration) { workerDeadlineFloor = d }(workerDeadlineFloor)
	workerDeadlineFloor = 5 * time.Second // the interrupt comes first
	cfg := DefaultConfig()
	cfg.Measure.Groups = []string{"HS256"}
	cfg.Runner.Revs, cfg.Runner.Iterations, cfg.Runner.Rounds, cfg.Runner.Warmup, cfg.Runner.RetryThreshold = 1, 1, 2, 0, 0
	vs, _ := Select(cfg.Measure, cfg.Measure.Groups)
	env := `{"env":{"go_version":"go1.26.0"}}`
	it := `{"iterations":[{"time":5,"cpu":4}]}`
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// One round: 3 variants, abIterations requests each.
	path := fakeWorker(t, `read x; echo '`+env+`'; for i in 1 2 3 4 5 6 7 8 9; do read y; echo '`+it+`'; done; sleep 30`)
	var stderr bytes.Buffer
	r, err := StartRemote(ctx, path, cfg, vs, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// The interrupt comes once the first round is done (step 2n: n
	// preparations, n visits), a moment after the second round's first
	// request went to the worker, which hangs: not after a fixed time, which
	// a loaded machine (the whole module's tests on two cores) did not
	// finish the first round in.
	var start time.Time
	cancelAt := &cancelProgress{step: 2 * len(vs), f: func() {
		start = time.Now()
		time.AfterFunc(100*time.Millisecond, cancel)
	}}
	run := &Runner{Config: cfg.Runner, Seed: 1, Against: r, Progress: cancelAt, Prepare: func(*Variant) (Op, error) { return func() error { return nil }, nil }}
	out, err := run.Run(ctx, vs)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted after 1 of 2 rounds") || out == nil || len(out.Against) != len(vs) {
		t.Fatalf("interrupted while the worker hangs: %v, %+v", err, out)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the interrupt took %v to end the wait", d)
	}
}

// cancelProgress calls f when the runner starts step step.
type cancelProgress struct {
	step int
	f    func()
}

func (p *cancelProgress) Start(int) {}
func (p *cancelProgress) Variant(i int, _ *Variant) {
	if i == p.step {
		p.f()
	}
}
func (p *cancelProgress) Done(int, *Result) {}
func (p *cancelProgress) Finish()           {}
