package bench

import "github.com/josebench/josebench/jose/jwa"

// hpkeBenchmarks are the HPKE Key Encryption benchmarks
// (draft-ietf-jose-hpke-encrypt-20 §6.2, a draft: the names may change), in
// a family group HPKE and one group per algorithm name. Each algorithm has
// its own KEM curve, so they do not multiply by measure.curves.
var hpkeBenchmarks = []Benchmark{
	jweBench("HPKE0KEBench", jwa.HPKE0KE, "HPKE", string(jwa.HPKE0KE)),
	jweBench("HPKE1KEBench", jwa.HPKE1KE, "HPKE", string(jwa.HPKE1KE)),
	jweBench("HPKE2KEBench", jwa.HPKE2KE, "HPKE", string(jwa.HPKE2KE)),
	jweBench("HPKE3KEBench", jwa.HPKE3KE, "HPKE", string(jwa.HPKE3KE)),
	jweBench("HPKE4KEBench", jwa.HPKE4KE, "HPKE", string(jwa.HPKE4KE)),
	jweBench("HPKE7KEBench", jwa.HPKE7KE, "HPKE", string(jwa.HPKE7KE)),
}
