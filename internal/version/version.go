// Package version describes the build of a command for its --version flag:
// the module version and the version control information the go command
// stamps into the binary (runtime/debug.ReadBuildInfo).
//
// Every part is optional. A binary built with -buildvcs=false (or outside
// a repository) has no revision, one built inside the module ("go build",
// "go run") has the module version "(devel)", and one built without module
// support has no build information at all: the text then says "unknown"
// instead of failing.
package version

import (
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// Info is what the build says about itself.
type Info struct {
	// Module is the main module's path, such as
	// github.com/josebench/josebench; empty when unknown.
	Module string
	// Version is the main module's version: a tag such as v1.2.0 for "go
	// install module@version", a pseudo-version, or "(devel)" for a
	// build inside the module; empty when unknown.
	Version string
	// Revision, Time and Modified are the vcs.revision, vcs.time and
	// vcs.modified build settings: the commit, its time (RFC 3339), and
	// whether the work tree had changes. Empty and false when the build
	// was not stamped (-buildvcs=false, or no repository).
	Revision string
	Time     string
	Modified bool
	// GoVersion is the toolchain that built the binary, such as go1.26.1.
	GoVersion string
}

// Read returns the Info of the running binary.
func Read() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{GoVersion: runtime.Version()}
	}
	return fromBuildInfo(bi)
}

// fromBuildInfo is Read for the build information bi.
func fromBuildInfo(bi *debug.BuildInfo) Info {
	in := Info{Module: bi.Main.Path, Version: bi.Main.Version, GoVersion: bi.GoVersion}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		}
	}
	if in.GoVersion == "" {
		in.GoVersion = runtime.Version()
	}
	return in
}

// String is the one line a --version flag prints, after the command's
// name: the version, then what the build knows and the version does not
// already say: the revision (12 hex digits), its time and "modified", then
// the toolchain:
//
//	v1.2.0 (revision 0123456789ab, 2026-12-01T12:00:00Z, modified) go1.26.1
//	v0.0.0-20261201120000-0123456789ab+dirty go1.26.1
//	(devel) go1.26.1
//	unknown go1.26.1
//
// A pseudo-version (the go command stamps one for a build inside a
// repository since Go 1.24, and go install module@commit makes one)
// already holds the revision's first 12 digits, its time in UTC, and
// "+dirty" for a modified work tree: those are not said twice.
func (in Info) String() string {
	var b strings.Builder
	v := in.Version
	if v == "" {
		v = "unknown"
	}
	b.WriteString(v)
	pv, ok := parsePseudo(v)
	var vcs []string
	if r := in.Revision; r != "" {
		if len(r) > 12 {
			r = r[:12]
		}
		if !ok || pv.rev != r {
			vcs = append(vcs, "revision "+r)
		}
	}
	if in.Time != "" && (!ok || pv.time != compactTime(in.Time)) {
		vcs = append(vcs, in.Time)
	}
	if in.Modified && !strings.HasSuffix(v, "+dirty") {
		vcs = append(vcs, "modified")
	}
	if len(vcs) > 0 {
		b.WriteString(" (" + strings.Join(vcs, ", ") + ")")
	}
	if in.GoVersion != "" {
		b.WriteString(" " + in.GoVersion)
	}
	return b.String()
}

// pseudo is what a pseudo-version says about its commit.
type pseudo struct {
	time string // yyyymmddhhmmss, UTC
	rev  string // the first 12 hex digits of the revision
}

// parsePseudo reads the pseudo-version v (golang.org/x/mod/module's three
// forms: vX.0.0-yyyymmddhhmmss-abcdefabcdef, vX.Y.Z-pre.0.yyyymmddhhmmss-
// abcdefabcdef and vX.Y.(Z+1)-0.yyyymmddhhmmss-abcdefabcdef, each with an
// optional +build suffix such as +dirty). ok is false for anything else.
func parsePseudo(v string) (p pseudo, ok bool) {
	if i := strings.IndexByte(v, '+'); i >= 0 {
		v = v[:i]
	}
	i := strings.LastIndexByte(v, '-')
	if i < 0 || !strings.HasPrefix(v, "v") {
		return p, false
	}
	p.rev, v = v[i+1:], v[:i]
	if len(p.rev) != 12 || strings.Trim(p.rev, "0123456789abcdef") != "" || len(v) < 15 {
		return p, false
	}
	p.time = v[len(v)-14:]
	if strings.Trim(p.time, "0123456789") != "" || !strings.ContainsRune("-.", rune(v[len(v)-15])) {
		return p, false
	}
	return p, true
}

// compactTime is the RFC 3339 time t as a pseudo-version writes it,
// yyyymmddhhmmss in UTC, or "" when t is not RFC 3339.
func compactTime(t string) string {
	tt, err := time.Parse(time.RFC3339, t)
	if err != nil {
		return ""
	}
	return tt.UTC().Format("20060102150405")
}

// Line is the whole --version line of the command name, such as "jose
// v1.2.0 (revision 0123456789ab, 2026-12-01T12:00:00Z) go1.26.1".
func Line(name string) string { return name + " " + Read().String() }
