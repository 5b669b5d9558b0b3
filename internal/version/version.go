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
// name: the version, then the revision (12 hex digits), its time and
// "modified" when the build knows them, and the toolchain:
//
//	v1.2.0 (revision 0123456789ab, 2026-12-01T12:00:00Z, modified) go1.26.1
//	(devel) go1.26.1
//	unknown go1.26.1
func (in Info) String() string {
	var b strings.Builder
	v := in.Version
	if v == "" {
		v = "unknown"
	}
	b.WriteString(v)
	var vcs []string
	if in.Revision != "" {
		r := in.Revision
		if len(r) > 12 {
			r = r[:12]
		}
		vcs = append(vcs, "revision "+r)
	}
	if in.Time != "" {
		vcs = append(vcs, in.Time)
	}
	if in.Modified {
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

// Line is the whole --version line of the command name, such as "jose
// v1.2.0 (revision 0123456789ab, 2026-12-01T12:00:00Z) go1.26.1".
func Line(name string) string { return name + " " + Read().String() }
