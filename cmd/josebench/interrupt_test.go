//go:build unix

package main

import (
	"bytes"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/bench/subjects"
)

// interruptRun sends the process SIGINT, as Ctrl-C does, from an op of
// the run, and returns once the run's context is cancelled, so that the
// run stops after the current iteration (a sleep instead let a loaded
// machine finish the run before the signal was handled): the signal has
// reached a channel of its own (the runtime gives it to every channel
// notified of it at once), and the goroutine of signal.NotifyContext
// that cancels the run's context on it has returned.
func interruptRun(t *testing.T) {
	const bound = 2 * time.Minute
	buf := make([]byte, 1<<20)
	waiting := func() bool { return bytes.Contains(buf[:runtime.Stack(buf, true)], []byte("os/signal.NotifyContext")) }
	if !waiting() {
		// Another Go may name it otherwise: fail rather than race.
		t.Errorf("no goroutine of signal.NotifyContext is waiting for the signal")
		return
	}
	got := make(chan os.Signal, 1)
	signal.Notify(got, os.Interrupt)
	defer signal.Stop(got)
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	deadline := time.Now().Add(bound)
	select {
	case <-got:
	case <-time.After(bound):
		t.Errorf("SIGINT not received within %v", bound)
		return
	}
	for time.Now().Before(deadline) {
		if !waiting() {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Errorf("signal.NotifyContext did not cancel the run's context within %v", bound)
}

// Ctrl-C keeps what was measured: the rounds that every variant
// completed are summarized, reported, and stored marked incomplete; the
// exit status is 1.
func TestRunInterrupt(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir) // 2 rounds of 1 iteration of 3 revs
	var calls atomic.Int64
	withPrepare(t, func(v *bench.Variant) (bench.Op, error) {
		op, err := subjects.Prepare(v)
		if err != nil {
			return nil, err
		}
		return func() error {
			// The first revolution of the second round (3 variants ×
			// 3 revs in the first): the run's signal handler is
			// installed, so the interrupt reaches it, not the test.
			if calls.Add(1) == 10 {
				interruptRun(t)
			}
			return op()
		}, nil
	})
	code, out, errs := runCLI(t, "run", "--config", cfg, "--group", "HS256", "--store", "--report", "simple")
	if code != 1 || !strings.Contains(errs, "josebench: interrupted after 1 of 2 rounds") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if !strings.HasPrefix(out, "3 subjects, 3 variants, 3 iterations, 9 revs, ") || !strings.Contains(out, "Storing results ... OK (incomplete: 1 of 2 rounds)\n") ||
		!strings.Contains(out, "\nHS256Bench  JWS,hmac,HS256  benchSignature     -  ") || !strings.Contains(out, "\nHS256Bench  JWS,hmac,HS256  benchRoundTrip     ") {
		t.Errorf("stdout:\n%s", out)
	}
	ids := storedIDs(t, dir)
	if len(ids) != 1 {
		t.Fatalf("stored %v", ids)
	}
	r, err := bench.Store{Dir: filepath.Join(dir, "runs")}.Load(ids[0])
	if err != nil || !r.Incomplete || len(r.Results) != 3 || len(r.Results[0].Iterations) != 1 {
		t.Errorf("stored run: %v, incomplete %v, %d results", err, r != nil && r.Incomplete, len(r.Results))
	}
	code, out, _ = runCLI(t, "log", "--config", cfg)
	if code != 0 || !strings.HasSuffix(strings.TrimSpace(out), "incomplete") {
		t.Errorf("log:\n%s", out)
	}
}

// Ctrl-C during the retries that follow the last round interrupts the
// run as it does in the rounds: exit 1, the message, stored incomplete.
func TestRunInterruptRetry(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir) // 2 rounds of 1 iteration of 3 revs
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(cfg, []byte(strings.Replace(string(data), "retry_threshold: 0", "retry_threshold: 5\n  retry_limit: 3", 1)), 0o644)
	var calls atomic.Int64
	withPrepare(t, func(v *bench.Variant) (bench.Op, error) {
		op, err := subjects.Prepare(v)
		if err != nil {
			return nil, err
		}
		return func() error {
			switch calls.Add(1) {
			case 4: // the second iteration of the rounds waits: deviant, so retried
				time.Sleep(20 * time.Millisecond)
			case 2*3*3 + 1: // the first revolution of the retries
				interruptRun(t)
			}
			return op()
		}, nil
	})
	code, out, errs := runCLI(t, "run", "--config", cfg, "--group", "HS256", "--store", "--report", "simple")
	if calls.Load() <= 2*3*3 {
		t.Fatalf("no retry ran (%d revolutions)", calls.Load())
	}
	if code != 1 || !strings.Contains(errs, "josebench: interrupted during the retries, after 2 of 2 rounds") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "Storing results ... OK (incomplete: retries interrupted)\n") {
		t.Errorf("stdout:\n%s", out)
	}
	ids := storedIDs(t, dir)
	if len(ids) != 1 {
		t.Fatalf("stored %v", ids)
	}
	r, err := bench.Store{Dir: filepath.Join(dir, "runs")}.Load(ids[0])
	if err != nil || !r.Incomplete || len(r.Results) != 3 || len(r.Results[0].Iterations) != 2 {
		t.Errorf("stored run: %v, incomplete %v", err, r != nil && r.Incomplete)
	}
}
