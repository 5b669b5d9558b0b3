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
		// A build inside the repository (Go 1.24 and later): the
		// pseudo-version holds the revision, its time and +dirty, which
		// are not said again.
		{"pseudo", stamped("v0.0.0-20261201120000-0123456789ab+dirty", "2026-12-01T12:00:00Z", true), "v0.0.0-20261201120000-0123456789ab+dirty go1.26.1"},
		{"pseudo clean", stamped("v0.0.0-20261201120000-0123456789ab", "2026-12-01T12:00:00Z", false), "v0.0.0-20261201120000-0123456789ab go1.26.1"},
		{"pseudo after tag", stamped("v1.2.1-0.20261201120000-0123456789ab", "2026-12-01T13:00:00+01:00", false), "v1.2.1-0.20261201120000-0123456789ab go1.26.1"},
		{"pseudo pre-release", stamped("v1.3.0-rc.1.0.20261201120000-0123456789ab+dirty", "2026-12-01T12:00:00Z", true), "v1.3.0-rc.1.0.20261201120000-0123456789ab+dirty go1.26.1"},
		// What the pseudo-version does not say is said once.
		{"pseudo modified, no +dirty", stamped("v0.0.0-20261201120000-0123456789ab", "2026-12-01T12:00:00Z", true), "v0.0.0-20261201120000-0123456789ab (modified) go1.26.1"},
		{"pseudo of another commit", stamped("v0.0.0-20261130120000-aaaaaaaaaaaa", "2026-12-01T12:00:00Z", false), "v0.0.0-20261130120000-aaaaaaaaaaaa (revision 0123456789ab, 2026-12-01T12:00:00Z) go1.26.1"},
		// A tag that only looks like part of a pseudo-version.
		{"tag with hyphen", stamped("v1.2.0-rc.1", "2026-12-01T12:00:00Z", false), "v1.2.0-rc.1 (revision 0123456789ab, 2026-12-01T12:00:00Z) go1.26.1"},
		{"no vcs", &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Version: "(devel)"}}, "(devel) go1.26.1"},
		{"nothing", &debug.BuildInfo{}, "unknown " + runtime.Version()},
	} {
		if got := fromBuildInfo(tt.bi).String(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// stamped is the build information of a binary built at the revision
// 0123456789abcdef... of time t, with the main module's version v.
func stamped(v, t string, modified bool) *debug.BuildInfo {
	m := "false"
	if modified {
		m = "true"
	}
	return &debug.BuildInfo{
		GoVersion: "go1.26.1",
		Main:      debug.Module{Path: "github.com/josebench/josebench", Version: v},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: t},
			{Key: "vcs.modified", Value: m},
		},
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
