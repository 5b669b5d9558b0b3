package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"
)

// Environment describes the machine and build a run was made on.
type Environment struct {
	GoVersion  string `json:"go_version"`
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	CPU        string `json:"cpu"` // model name, "unknown" when not found
	NumCPU     int    `json:"num_cpu"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	Module     string `json:"module"`  // main module path
	Version    string `json:"version"` // main module version ("(devel)" from a checkout)
	// Commit is the commit the binary was built from and Modified whether
	// its tree had changes not committed (untracked files included, as
	// Go's VCS stamping counts them); CommitFrom says where they come
	// from: [CommitFromBuild] or [CommitFromGit], "" when neither knew
	// (or in runs stored before it was recorded).
	Commit     string `json:"commit,omitempty"`
	Modified   bool   `json:"modified,omitempty"`
	CommitFrom string `json:"commit_from,omitempty"`
}

// Where an [Environment]'s Commit and Modified come from.
const (
	// CommitFromBuild is the binary's VCS stamping (vcs.revision and
	// vcs.modified of runtime/debug.BuildInfo): the state of the tree when
	// it was built.
	CommitFromBuild = "build"
	// CommitFromGit is git, asked when the binary starts (git rev-parse
	// HEAD, git status --porcelain) in the directory its source was
	// compiled from, for a binary of this module without VCS stamping (go
	// run, go test, GOFLAGS=-buildvcs=false) built from a directory that
	// still holds the module (not a module version from the module cache;
	// see gitSourceDir), whatever GIT_DIR and its kin say: the state of
	// that tree now, which a change since the build (a checkout of another
	// commit) makes differ from the binary's.
	CommitFromGit = "git"
)

// Revision returns the commit followed by "+" when the tree was modified,
// or "" when the commit is not known.
func (e Environment) Revision() string {
	if e.Commit != "" && e.Modified {
		return e.Commit + "+"
	}
	return e.Commit
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
	bi, ok := debug.ReadBuildInfo()
	if ok {
		e.Module, e.Version = bi.Main.Path, bi.Main.Version
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				e.Commit, e.CommitFrom = s.Value, CommitFromBuild
			case "vcs.modified":
				e.Modified = s.Value == "true"
			}
		}
	}
	if e.Commit == "" && ok {
		if dir := gitSourceDir(bi, sourceDir()); dir != "" {
			if commit, modified, err := gitState(dir); err == nil {
				e.Commit, e.Modified, e.CommitFrom = commit, modified, CommitFromGit
			}
		}
	}
	return e
}

// sourceDir returns the root of the module that this package was compiled
// from, as the compiler recorded the path of this file, or "" when the
// path is not absolute (go build -trimpath).
func sourceDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	return filepath.Dir(filepath.Dir(file)) // <module>/bench/environment.go
}

// thisModule returns the path of the module that holds this package.
func thisModule() string {
	return path.Dir(reflect.TypeFor[Environment]().PkgPath()) // <module>/bench
}

// gitSourceDir returns dir, the root of this module's source as it was
// compiled (see sourceDir), if git may describe the build bi from it: this
// module is the main one (a program importing package bench is described
// by its own stamping), without a version (go install of a version builds
// from the module cache, which may lie inside some other checkout), and
// dir still holds its go.mod. Otherwise, or when dir is "", it returns "".
func gitSourceDir(bi *debug.BuildInfo, dir string) string {
	mod := thisModule()
	if dir == "" || bi.Main.Path != mod || (bi.Main.Version != "" && bi.Main.Version != "(devel)") {
		return ""
	}
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return ""
	}
	for line := range strings.Lines(string(data)) {
		if line, _, _ = strings.Cut(line, "//"); strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "module" && strings.Trim(f[1], `"`) == mod {
			return dir
		}
		return "" // the module directive comes first
	}
	return ""
}

// gitLocalEnv lists the variables that point git at a repository other
// than the one its directory discovers (as `git rev-parse
// --local-env-vars` prints them): git hooks set some, and a user may
// export GIT_DIR.
var gitLocalEnv = []string{
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
	"GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE",
	"GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_PREFIX",
	"GIT_INTERNAL_SUPER_PREFIX", "GIT_SHALLOW_FILE", "GIT_COMMON_DIR",
}

// gitEnv returns the environment for git commands about the repository
// of a directory: the process's without gitLocalEnv.
func gitEnv() []string {
	env := os.Environ()
	return slices.DeleteFunc(env, func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.Contains(gitLocalEnv, k)
	})
}

// gitTimeout bounds each git command of gitState.
const gitTimeout = 2 * time.Second

// gitState asks git for the commit that HEAD names in the checkout holding
// dir and whether its tree differs from it (git status --porcelain prints
// anything, as Go's VCS stamping decides vcs.modified). A missing git, a
// directory outside a checkout, a checkout without commits and a git
// slower than gitTimeout are errors.
func gitState(dir string) (commit string, modified bool, err error) {
	run := func(args ...string) ([]byte, error) {
		ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
		// Take no optional lock: a run must not disturb the git commands
		// of whoever works in the tree.
		cmd.Env = append(gitEnv(), "GIT_OPTIONAL_LOCKS=0")
		cmd.WaitDelay = gitTimeout
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("bench: git %s in %s: %w", args[0], dir, err)
		}
		return out, nil
	}
	out, err := run("rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return "", false, err
	}
	commit = validCommit(strings.TrimSpace(string(out)))
	if commit == "" {
		return "", false, fmt.Errorf("bench: git rev-parse in %s: not a commit: %q", dir, out)
	}
	if out, err = run("status", "--porcelain"); err != nil {
		return "", false, err
	}
	return commit, len(bytes.TrimSpace(out)) > 0, nil
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
