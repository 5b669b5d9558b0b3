//go:build go1.27

package bench

import "github.com/josebench/josebench/jose/jwa"

// mldsaBenchmarks are the ML-DSA signature benchmarks (RFC 9964), in a
// family group MLDSA and one group per algorithm name.
var mldsaBenchmarks = []Benchmark{
	{Name: "MLDSA44Bench", Groups: []string{"JWS", "MLDSA", string(jwa.MLDSA44)}, Alg: string(jwa.MLDSA44)},
	{Name: "MLDSA65Bench", Groups: []string{"JWS", "MLDSA", string(jwa.MLDSA65)}, Alg: string(jwa.MLDSA65)},
	{Name: "MLDSA87Bench", Groups: []string{"JWS", "MLDSA", string(jwa.MLDSA87)}, Alg: string(jwa.MLDSA87)},
}
