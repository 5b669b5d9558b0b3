// Package bench is josebench's benchmark harness, the Go counterpart of the
// PHP web-token/jwt-framework suite that runs on phpbench.
//
// The suite ([Benchmarks]) is a list of benchmark classes named as the PHP
// ones (HS256Bench, RSAOAEP256Bench, ...), each in groups ([Groups]) that
// --group selects. [Select] expands the selected benchmarks into variants:
// a subject (benchSignature, benchVerification, benchEncryption,
// benchDecryption, benchIssue, benchValidate, benchRoundTrip) and a
// parameter set (alg, enc, key size or curve, PBES2 count, payload,
// serialization). A [Runner] measures the variants with the settings of a
// [Config] (bench.yaml): in rounds, each visiting every variant in a
// shuffled order ([RoundOrder]) for a few iterations of revs revolutions,
// rejecting deviant iterations as
// phpbench's retry_threshold does; package stats computes the statistics,
// a [Store] keeps runs as JSON files and package report renders them. A
// [Remote] drives another josebench binary ([WorkerProtocol]) for A/B
// comparisons between builds.
//
// The operations themselves (package subjects) are full creations and
// loadings of tokens through the public jws, jwe and jwt APIs, checked both
// ways before they are timed: the good token loads, tampered tokens and
// tokens under another key are refused (for JWTs also an expired and a
// wrong-audience token, each with its sentinel; for the Bearer group, the
// bearer middleware's answers to no token, a forged, an expired and an
// under-scoped one; for the DPoP group, a replayed proof, a forged one and
// proofs for another method, URI or access token).
package bench
