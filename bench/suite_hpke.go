package bench

import "github.com/josebench/josebench/jose/jwa"

// hpkeBenchmarks are the HPKE Key Encryption benchmarks and the Integrated
// Encryption ones (draft-ietf-jose-hpke-encrypt-20 §6.2, §5.1, a draft: the
// names may change), in a family group HPKE and one group per algorithm
// name. Each algorithm has its own KEM curve, so they do not multiply by
// measure.curves; the Integrated ones have no enc.
var hpkeBenchmarks = []Benchmark{
	jweBench("HPKE0KEBench", jwa.HPKE0KE, "HPKE", string(jwa.HPKE0KE)),
	jweBench("HPKE1KEBench", jwa.HPKE1KE, "HPKE", string(jwa.HPKE1KE)),
	jweBench("HPKE2KEBench", jwa.HPKE2KE, "HPKE", string(jwa.HPKE2KE)),
	jweBench("HPKE3KEBench", jwa.HPKE3KE, "HPKE", string(jwa.HPKE3KE)),
	jweBench("HPKE4KEBench", jwa.HPKE4KE, "HPKE", string(jwa.HPKE4KE)),
	jweBench("HPKE7KEBench", jwa.HPKE7KE, "HPKE", string(jwa.HPKE7KE)),
	jweBench("HPKE0Bench", jwa.HPKE0, "HPKE", string(jwa.HPKE0)),
	jweBench("HPKE1Bench", jwa.HPKE1, "HPKE", string(jwa.HPKE1)),
	jweBench("HPKE2Bench", jwa.HPKE2, "HPKE", string(jwa.HPKE2)),
	jweBench("HPKE3Bench", jwa.HPKE3, "HPKE", string(jwa.HPKE3)),
	jweBench("HPKE4Bench", jwa.HPKE4, "HPKE", string(jwa.HPKE4)),
	jweBench("HPKE7Bench", jwa.HPKE7, "HPKE", string(jwa.HPKE7)),
}
