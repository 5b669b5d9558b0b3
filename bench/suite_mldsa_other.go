//go:build !go1.27

package bench

// mldsaBenchmarks is empty: ML-DSA needs Go 1.27 (crypto/mldsa).
var mldsaBenchmarks []Benchmark
