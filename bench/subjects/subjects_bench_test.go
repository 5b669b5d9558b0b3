package subjects

import (
	"testing"

	"github.com/josebench/josebench/bench"
)

// BenchmarkSuite runs the suite's variants under `go test -bench`, named
// and configured as josebench's gobench output names them (see
// TestGobenchMatchesGoTest), so that benchstat pairs either with the other:
//
//	go test -run=NONE -bench='Suite/^HS256Bench$' -count=10 ./bench/subjects > gotest.txt
//	josebench run --group HS256 --store && josebench report --uuid latest --output gobench > josebench.txt
//	benchstat gotest.txt josebench.txt
func BenchmarkSuite(b *testing.B) {
	vs, err := bench.Select(bench.DefaultConfig().Measure, bench.DefaultConfig().Measure.Groups)
	if err != nil {
		b.Fatal(err)
	}
	for i := range vs {
		v := &vs[i]
		b.Run(v.ID(), func(b *testing.B) {
			op, err := Prepare(v)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := op(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
