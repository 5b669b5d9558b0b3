package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// git runs git in dir with a fixed identity and no user configuration,
// failing the test on an error.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=josebench", "-c", "user.email=josebench@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	// Without gitEnv, a GIT_DIR or GIT_INDEX_FILE in the environment (a
	// git hook running go test sets them) would point these commands at
	// the developer's own repository: "init" would rewrite its config and
	// "add ." and "commit" replace its index and branch.
	cmd.Env = append(gitEnv(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// A binary without VCS stamping asks git: the commit of HEAD, and whether
// the tree differs from it, untracked files included (as vcs.modified
// counts them); outside a checkout, before the first commit and without
// git, nothing is known.
func TestGitState(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIPPED: git not found: the provenance of unstamped builds was not checked")
	}
	dir := t.TempDir()
	if c, _, err := gitState(dir); err == nil {
		t.Errorf("not a checkout: commit %q, no error", c)
	}
	git(t, dir, "init", "-q")
	if c, _, err := gitState(dir); err == nil {
		t.Errorf("no commit yet: commit %q, no error", c)
	}
	file := filepath.Join(dir, "a.go")
	os.WriteFile(file, []byte("package a\n"), 0o644)
	git(t, dir, "add", "a.go")
	git(t, dir, "commit", "-q", "-m", "a")
	head := git(t, dir, "rev-parse", "HEAD")
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	for _, d := range []string{dir, sub} {
		if c, m, err := gitState(d); err != nil || c != head || m {
			t.Errorf("clean tree, in %s: %q, modified %v, %v; want %s, clean", d, c, m, err, head)
		}
	}
	os.WriteFile(file, []byte("package a // changed\n"), 0o644)
	if c, m, err := gitState(dir); err != nil || c != head || !m {
		t.Errorf("changed file: %q, modified %v, %v; want %s, modified", c, m, err, head)
	}
	git(t, dir, "checkout", "-q", "--", "a.go")
	os.WriteFile(filepath.Join(sub, "new.go"), []byte("package sub\n"), 0o644)
	if c, m, err := gitState(dir); err != nil || c != head || !m {
		t.Errorf("untracked file: %q, modified %v, %v; want %s, modified", c, m, err, head)
	}
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "b")
	if c, m, err := gitState(dir); err != nil || c == head || c != git(t, dir, "rev-parse", "HEAD") || m {
		t.Errorf("after a second commit: %q, modified %v, %v", c, m, err)
	}
	t.Setenv("PATH", t.TempDir())
	if c, _, err := gitState(dir); err == nil {
		t.Errorf("without git: commit %q, no error", c)
	}
}

// A test binary has no VCS stamping: its environment names the commit of
// the checkout it was compiled from, from git, and the module root is
// that checkout's (it holds go.mod).
func TestCurrentEnvironmentFromGit(t *testing.T) {
	dir := sourceDir()
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("sourceDir %q is not the module root: %v", dir, err)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIPPED: git not found")
	}
	oracle := func(args ...string) ([]byte, error) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = gitEnv()
		return cmd.Output()
	}
	head, err := oracle("rev-parse", "HEAD")
	if err != nil {
		t.Skipf("SKIPPED: %s is not a git checkout: %v", dir, err)
	}
	status, err := oracle("status", "--porcelain")
	if err != nil {
		t.Fatal(err)
	}
	e := CurrentEnvironment()
	if e.CommitFrom != CommitFromGit || e.Commit != strings.TrimSpace(string(head)) || e.Modified != (len(status) > 0) {
		t.Errorf("environment commit %q modified %v from %q; git: %s, status %q", e.Commit, e.Modified, e.CommitFrom, head, status)
	}
	if rev := e.Revision(); rev != e.Commit+map[bool]string{true: "+"}[e.Modified] {
		t.Errorf("Revision() = %q", rev)
	}
}

// The repository asked is the one holding the directory, whatever the
// environment says: a GIT_DIR, GIT_WORK_TREE or GIT_INDEX_FILE (which git
// hooks set, and a user may export) would otherwise name another one.
func TestGitStateIgnoresGitEnv(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIPPED: git not found: the provenance of unstamped builds was not checked")
	}
	dir, decoy := t.TempDir(), t.TempDir()
	for _, d := range []string{dir, decoy} {
		git(t, d, "init", "-q")
		os.WriteFile(filepath.Join(d, "a.go"), []byte("package a // "+d+"\n"), 0o644)
		git(t, d, "add", "a.go")
		git(t, d, "commit", "-q", "-m", "a")
	}
	os.WriteFile(filepath.Join(decoy, "b.go"), []byte("package a\n"), 0o644) // the decoy is modified
	head, decoyHead := git(t, dir, "rev-parse", "HEAD"), git(t, decoy, "rev-parse", "HEAD")
	decoyGit := filepath.Join(decoy, ".git")
	for _, kv := range [][2]string{
		{"GIT_DIR", decoyGit},
		{"GIT_WORK_TREE", decoy},
		{"GIT_INDEX_FILE", filepath.Join(decoyGit, "index")},
		{"GIT_COMMON_DIR", decoyGit},
		{"GIT_OBJECT_DIRECTORY", filepath.Join(decoyGit, "objects")},
	} {
		t.Setenv(kv[0], kv[1])
	}
	if c, m, err := gitState(dir); err != nil || c != head || m {
		t.Errorf("with GIT_DIR etc. naming another repository: %q, modified %v, %v; want %s (not %s), clean", c, m, err, head, decoyHead)
	}
}

// Git is asked only for a binary of this module built from a directory
// that still holds it: not when another module is the main one (a program
// importing package bench: its own stamping, or nothing, describes it), not
// for a module version (go install ...@v1.2.3 builds from the module
// cache, which may sit inside some other checkout), and not when the
// directory the source was compiled from now holds something else.
func TestGitSourceDir(t *testing.T) {
	self := sourceDir()
	if self == "" {
		t.Skip("SKIPPED: built with -trimpath")
	}
	path := thisModule()
	if path != "github.com/josebench/josebench" {
		t.Errorf("thisModule() = %q", path)
	}
	for _, tt := range []struct {
		main debug.Module
		want string
	}{
		{debug.Module{Path: path, Version: "(devel)"}, self},
		{debug.Module{Path: path}, self},
		{debug.Module{Path: path, Version: "v1.2.3"}, ""},
		{debug.Module{Path: path, Version: "v0.0.0-20261201060000-0123456789ab"}, ""},
		{debug.Module{Path: "example.com/other", Version: "(devel)"}, ""},
	} {
		if got := gitSourceDir(&debug.BuildInfo{Main: tt.main}, self); got != tt.want {
			t.Errorf("main module %+v: %q, want %q", tt.main, got, tt.want)
		}
	}
	other := t.TempDir()
	main := &debug.BuildInfo{Main: debug.Module{Path: path, Version: "(devel)"}}
	if got := gitSourceDir(main, other); got != "" {
		t.Errorf("no go.mod: %q", got)
	}
	os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/other\n\ngo 1.26\n"), 0o644)
	if got := gitSourceDir(main, other); got != "" {
		t.Errorf("another module's go.mod: %q", got)
	}
	os.WriteFile(filepath.Join(other, "go.mod"), []byte("// a comment\nmodule \""+path+"\" // quoted\n\ngo 1.26\n"), 0o644)
	if got := gitSourceDir(main, other); got != other {
		t.Errorf("this module's go.mod: %q, want %q", got, other)
	}
}
