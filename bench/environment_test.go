package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// git runs git in dir with a fixed identity and no user configuration,
// failing the test on an error.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=josebench", "-c", "user.email=josebench@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
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
	head, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("SKIPPED: %s is not a git checkout: %v", dir, err)
	}
	status, err := exec.Command("git", "-C", dir, "status", "--porcelain").Output()
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
