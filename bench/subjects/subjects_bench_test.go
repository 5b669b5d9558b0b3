package subjects

import (
	"testing"

	"github.com/josebench/josebench/bench"
)

// BenchmarkSuite runs the suite's variants under `go test -bench`, named as
// josebench's gobench output names them, so that either can feed benchstat:
//
//	go test -run=NONE -bench='Suite/^HS256Bench$' -benchtime=2000x ./bench/subjects
func BenchmarkSuite(b *testing.B) {
	vs, err := bench.Select(bench.DefaultConfig().Measure, []string{"JWS", "JWE", "JWT"})
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
