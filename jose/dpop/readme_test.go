package dpop_test

import (
	"os"
	"strings"
	"testing"
)

// The Go snippets of the README's DPoP section are lines of the runnable
// examples (example_http_test.go), so that they compile and do what the
// examples' output shows: every line of a snippet, trimmed, is a line of
// the examples, and an import a snippet names is imported there.
func TestREADMEDPoPSnippets(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("example_http_test.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]bool{}
	for l := range strings.Lines(string(src)) {
		lines[strings.TrimSpace(l)] = true
	}
	_, section, ok := strings.Cut(string(readme), "\n## DPoP: access tokens bound to a key\n")
	if !ok {
		t.Fatal("README.md has no DPoP section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var checked int
	for rest := section; ; {
		_, after, ok := strings.Cut(rest, "```go\n")
		if !ok {
			break
		}
		block, tail, ok := strings.Cut(after, "```\n")
		if !ok {
			t.Fatal("a Go snippet of the DPoP section does not end")
		}
		rest = tail
		for l := range strings.Lines(block) {
			l = strings.TrimSpace(l)
			if path, ok := strings.CutPrefix(l, "import "); ok {
				l = path
			}
			if l == "" {
				continue
			}
			checked++
			if !lines[l] {
				t.Errorf("README line not in the examples: %s", l)
			}
		}
	}
	if checked < 10 {
		t.Errorf("%d snippet lines checked: the section lost its snippets?", checked)
	}
}
