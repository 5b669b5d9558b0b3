package main

import (
	"runtime"
	"strings"
	"testing"
)

// TestVersion: --version prints one line, the command's name, the module
// version and the toolchain, on standard output.
func TestVersion(t *testing.T) {
	for _, flag := range []string{"--version", "-version"} {
		code, out, errs := runCLI(t, flag)
		if code != 0 || errs != "" || !strings.HasPrefix(out, "josebench ") || !strings.HasSuffix(out, " "+runtime.Version()+"\n") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", flag, code, out, errs)
		}
	}
}
