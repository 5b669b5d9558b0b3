//go:build !race

package subjects

// The race detector makes sync.Pool drop items at random: allocation
// counts mean nothing there.

import (
	"testing"

	"github.com/josebench/josebench/bench"
)

// TestBearerAllocs: the via=middleware op allocates what the middleware
// does beyond the Validator (at most 3, bearer.TestAllocs), nothing of its
// own per call: its request and recorder are reused, one per goroutine.
func TestBearerAllocs(t *testing.T) {
	vs, err := bench.Select(bench.DefaultConfig().Measure, []string{"Bearer"})
	if err != nil || len(vs) != 2 {
		t.Fatal(len(vs), err)
	}
	allocs := map[string]float64{}
	for i := range vs {
		op, err := Prepare(&vs[i])
		if err != nil {
			t.Fatal(err)
		}
		allocs[vs[i].Param("via")] = testing.AllocsPerRun(100, func() {
			if err := op(); err != nil {
				t.Fatal(err)
			}
		})
	}
	mw, val := allocs[bench.ViaMiddleware], allocs[bench.ViaValidator]
	if mw-val > 3 {
		t.Errorf("via=middleware allocates %v times per op, via=validator %v: want at most 3 more", mw, val)
	}
	t.Logf("allocations per op: %v via the middleware, %v via the Validator", mw, val)
}
