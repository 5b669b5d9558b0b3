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
