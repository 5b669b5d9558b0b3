package version

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	for _, tt := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"stamped", &debug.BuildInfo{
			GoVersion: "go1.26.1",
			Main:      debug.Module{Path: "github.com/josebench/josebench", Version: "v1.2.0"},
			Settings: []debug.BuildSetting{
				{Key: "vcs", Value: "git"},
				{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
				{Key: "vcs.time", Value: "2026-12-01T12:00:00Z"},
				{Key: "vcs.modified", Value: "true"},
			},
		}, "v1.2.0 (revision 0123456789ab, 2026-12-01T12:00:00Z, modified) go1.26.1"},
		{"clean", &debug.BuildInfo{
			GoVersion: "go1.26.1",
			Main:      debug.Module{Version: "(devel)"},
			Settings:  []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}},
		}, "(devel) (revision abc) go1.26.1"},
		{"no vcs", &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Version: "(devel)"}}, "(devel) go1.26.1"},
		{"nothing", &debug.BuildInfo{}, "unknown " + runtime.Version()},
	} {
		if got := fromBuildInfo(tt.bi).String(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestRead: a test binary has build information; without VCS stamping
// (GOFLAGS=-buildvcs=false, as in this repository's CI) the line still
// names the toolchain.
func TestRead(t *testing.T) {
	line := Line("jose")
	if !strings.HasPrefix(line, "jose ") || !strings.HasSuffix(line, " "+runtime.Version()) {
		t.Errorf("Line: %q", line)
	}
	if strings.Count(line, "\n") != 0 {
		t.Errorf("Line: %q is more than one line", line)
	}
}
