//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/bench/subjects"
)

// Ctrl-C keeps what was measured: the variants done are summarized,
// reported, and stored marked incomplete; the exit status is 1.
func TestRunInterrupt(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir)
	withPrepare(t, func(v *bench.Variant) (bench.Op, error) {
		if v.Subject == bench.SubjectVerification {
			// The run's signal handler is installed: the interrupt
			// reaches it, not the test process.
			syscall.Kill(os.Getpid(), syscall.SIGINT)
			time.Sleep(300 * time.Millisecond)
		}
		return subjects.Prepare(v)
	})
	code, out, errs := runCLI(t, "run", "--config", cfg, "--group", "HS256", "--store", "--report", "simple")
	if code != 1 || !strings.Contains(errs, "josebench: interrupted after 1 of 3 variants") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if !strings.HasPrefix(out, "1 subjects, 1 variants, 2 iterations, 3 revs, ") || !strings.Contains(out, "Storing results ... OK (incomplete: 1 of 3 variants)\n") ||
		!strings.Contains(out, "\nHS256Bench  JWS,hmac,HS256  benchSignature  -    ") {
		t.Errorf("stdout:\n%s", out)
	}
	ids := storedIDs(t, dir)
	if len(ids) != 1 {
		t.Fatalf("stored %v", ids)
	}
	r, err := bench.Store{Dir: filepath.Join(dir, "runs")}.Load(ids[0])
	if err != nil || !r.Incomplete || len(r.Results) != 1 {
		t.Errorf("stored run: %v, incomplete %v, %d results", err, r != nil && r.Incomplete, len(r.Results))
	}
	code, out, _ = runCLI(t, "log", "--config", cfg)
	if code != 0 || !strings.HasSuffix(strings.TrimSpace(out), "incomplete") {
		t.Errorf("log:\n%s", out)
	}
}
