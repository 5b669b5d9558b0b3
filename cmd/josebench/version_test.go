package main

import (
	"runtime"
	"strings"
	"testing"

	"github.com/josebench/josebench/internal/version"
)

// TestVersion: "josebench version", --version and -version print the same
// one line, the command's name and the line of internal/version (module
// version, VCS facts, toolchain), on standard output; an argument after
// them is refused.
func TestVersion(t *testing.T) {
	want := version.Line("josebench") + "\n"
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		code, out, errs := runCLI(t, args...)
		if code != exitOK || errs != "" || out != want || !strings.HasPrefix(out, "josebench ") || !strings.HasSuffix(out, " "+runtime.Version()+"\n") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	for _, args := range [][]string{{"version", "x"}, {"--version", "x"}} {
		if code, out, errs := runCLI(t, args...); code != exitUsage || out != "" || !strings.Contains(errs, `unexpected argument "x"`) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}
