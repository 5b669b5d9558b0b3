package bench_test

import (
	"fmt"

	"github.com/josebench/josebench/bench"
)

// The variants a group selects with the default inputs.
func ExampleSelect() {
	m := bench.DefaultConfig().Measure
	m.Subjects = []string{bench.SubjectRoundTrip}
	vs, err := bench.Select(m, []string{"ECDH-ES+A128KW"})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(vs), "variants, the first:")
	for _, v := range vs[:4] {
		fmt.Println(v.ID())
	}
	// Output:
	// 24 variants, the first:
	// ECDHESA128KWBench/benchRoundTrip/alg=ECDH-ES+A128KW/enc=A128CBC-HS256/crv=P-256
	// ECDHESA128KWBench/benchRoundTrip/alg=ECDH-ES+A128KW/enc=A128CBC-HS256/crv=P-384
	// ECDHESA128KWBench/benchRoundTrip/alg=ECDH-ES+A128KW/enc=A128CBC-HS256/crv=P-521
	// ECDHESA128KWBench/benchRoundTrip/alg=ECDH-ES+A128KW/enc=A128CBC-HS256/crv=X25519
}

func ExampleParseConfig() {
	_, err := bench.ParseConfig("bench.yaml", []byte("runner:\n  revs: 1000\n  iterations: 0\n"))
	fmt.Println(err)
	cfg, err := bench.ParseConfig("bench.yaml", []byte("runner:\n  revs: 1000\n"))
	fmt.Println(cfg.Runner.Revs, cfg.Runner.Rounds, cfg.Runner.Iterations, err)
	// Output:
	// bench: bench.yaml:3: runner.iterations: must be at least 1
	// 1000 50 1 <nil>
}
