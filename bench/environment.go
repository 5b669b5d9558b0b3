package bench

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
)

// Environment describes the machine and build a run was made on.
type Environment struct {
	GoVersion  string `json:"go_version"`
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	CPU        string `json:"cpu"` // model name, "unknown" when not found
	NumCPU     int    `json:"num_cpu"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	Module     string `json:"module"`             // main module path
	Version    string `json:"version"`            // main module version ("(devel)" from a checkout)
	Commit     string `json:"commit,omitempty"`   // vcs.revision of the build, else HEAD of the checkout run in
	Modified   bool   `json:"modified,omitempty"` // vcs.modified (known only with VCS stamping)
}

// CurrentEnvironment describes the running program and machine.
func CurrentEnvironment() Environment {
	e := Environment{
		GoVersion:  runtime.Version(),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		CPU:        cpuModel(),
		NumCPU:     runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		e.Module, e.Version = bi.Main.Path, bi.Main.Version
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				e.Commit = s.Value
			case "vcs.modified":
				e.Modified = s.Value == "true"
			}
		}
	}
	if e.Commit == "" {
		// Built without VCS stamping (go run, -buildvcs=false): read the
		// commit of the checkout the command runs in, if any.
		if wd, err := os.Getwd(); err == nil {
			e.Commit = gitHead(wd)
		}
	}
	return e
}

// gitHead returns the commit that HEAD names in the git checkout holding
// dir, or "" if there is none or it cannot be read.
func gitHead(dir string) string {
	for range 32 {
		gitDir := filepath.Join(dir, ".git")
		if st, err := os.Stat(gitDir); err == nil && st.IsDir() {
			head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
			if err != nil {
				return ""
			}
			ref, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: ")
			if !ok {
				return validCommit(ref)
			}
			if b, err := os.ReadFile(filepath.Join(gitDir, filepath.FromSlash(ref))); err == nil {
				return validCommit(strings.TrimSpace(string(b)))
			}
			packed, err := os.ReadFile(filepath.Join(gitDir, "packed-refs"))
			if err != nil {
				return ""
			}
			for _, line := range strings.Split(string(packed), "\n") {
				if h, r, ok := strings.Cut(line, " "); ok && r == ref {
					return validCommit(h)
				}
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
	return ""
}

// validCommit returns s if it is a hexadecimal object name, else "".
func validCommit(s string) string {
	if len(s) != 40 && len(s) != 64 {
		return ""
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return ""
		}
	}
	return s
}

// cpuModel reads the CPU model name from /proc/cpuinfo on Linux.
func cpuModel() string {
	if runtime.GOOS != "linux" {
		return "unknown"
	}
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}
