package dpop

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestNormalizeURI runs the cases of testdata/uri.json.
func TestNormalizeURI(t *testing.T) {
	data, err := os.ReadFile("testdata/uri.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Normalized [][2]string `json:"normalized"`
		Refused    []string    `json:"refused"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Normalized {
		got, err := NormalizeURI(c[0])
		if err != nil || got != c[1] {
			t.Errorf("NormalizeURI(%q) = %q, %v; want %q", c[0], got, err, c[1])
			continue
		}
		if again, err := NormalizeURI(got); err != nil || again != got {
			t.Errorf("NormalizeURI(%q) = %q, %v: not idempotent", got, again, err)
		}
	}
	for _, s := range f.Refused {
		if got, err := NormalizeURI(s); err == nil {
			t.Errorf("NormalizeURI(%q) = %q, want an error", s, got)
		} else if !strings.HasPrefix(err.Error(), "dpop: URI ") {
			t.Errorf("NormalizeURI(%q): error %q", s, err)
		}
	}
}

// TestNormalizeURILinear checks that a long path of dot segments costs
// one pass: no quadratic removal.
func TestNormalizeURILinear(t *testing.T) {
	s := "https://h.test/" + strings.Repeat("a/../", 100000) + "b"
	allocs := testing.AllocsPerRun(3, func() {
		if got, err := NormalizeURI(s); err != nil || got != "https://h.test/b" {
			t.Fatalf("%q, %v", got, err)
		}
	})
	if allocs > 8 {
		t.Errorf("%v allocations", allocs)
	}
}

// TestNormalizeURINoDotSegments: a URI whose path has no dot segment, the
// target of almost every request and its proof's "htu", is normalized
// with one allocation, the builder's: no copy of it to remove nothing.
func TestNormalizeURINoDotSegments(t *testing.T) {
	for _, s := range []string{"https://api.example/orders", "https://API.example/v1/a.b/c.json?x=1", "https://h.test/.well-known/x/..a/b..", "http://h.test"} {
		allocs := testing.AllocsPerRun(10, func() {
			if _, err := normalizeURI(s); err != nil {
				t.Fatal(err)
			}
		})
		if allocs > 1 {
			t.Errorf("%s: %v allocations, want 1", s, allocs)
		}
	}
}

// TestHasDotSegment checks hasDotSegment against the segments of every
// absolute path of up to 8 characters made of "/", "." and "a", and that
// removeDotSegments returns a path without one as it is.
func TestHasDotSegment(t *testing.T) {
	paths := []string{"/"}
	for n := 0; n < 7; n++ {
		for _, p := range paths[len(paths)-pow3(n):] {
			for _, c := range "/.a" {
				paths = append(paths, p+string(c))
			}
		}
	}
	for _, p := range paths {
		want := false
		for _, seg := range strings.Split(p[1:], "/") {
			want = want || seg == "." || seg == ".."
		}
		if got := hasDotSegment(p); got != want {
			t.Errorf("hasDotSegment(%q) = %v, want %v", p, got, want)
		}
		if !want && removeDotSegments(p) != p {
			t.Errorf("removeDotSegments(%q) = %q, a path without dot segments", p, removeDotSegments(p))
		}
	}
}

func pow3(n int) int {
	r := 1
	for range n {
		r *= 3
	}
	return r
}
