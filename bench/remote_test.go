//go:build unix

package bench

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
