package bench

import (
	"strconv"

	"github.com/josebench/josebench/jose/jwa"
)

// The values of the DPoP group's "ath" parameter: whether the proof
// carries the hash of an access token (RFC 9449 §4.2), as a proof sent to
// a resource server does, or none, as one sent to a token endpoint.
const (
	DPoPWithAth    = "yes"
	DPoPWithoutAth = "no"
)

// DPoPClaims names the claims set of the DPoP variants: a proof's "jti",
// "htm", "htu" and "iat", and "ath" with ath=yes (RFC 9449 §4.2).
const DPoPClaims = "dpop-proof"

// dpopBenchmarks are the DPoP group (package jose/dpop, RFC 9449): the
// client's proof creation (benchIssue) and the server's check of every
// §4.3 rule, replay store included (benchValidate), with the three
// algorithms a client most often holds a key for.
var dpopBenchmarks = []Benchmark{
	dpopBench(jwa.ES256),
	dpopBench(jwa.EdDSA),
	dpopBench(jwa.PS256),
}

func dpopBench(alg jwa.SignatureAlgorithm) Benchmark {
	return Benchmark{Name: "DPoP" + string(alg) + "Bench", Groups: []string{"DPoP", "DPoP" + string(alg)}, Alg: string(alg), DPoP: true}
}

// dpopSubject reports whether subj is measured for the DPoP benchmarks:
// benchIssue makes a proof (RFC 9449 §4.2), benchValidate checks one
// (§4.3).
func dpopSubject(subj string) bool { return subj == SubjectIssue || subj == SubjectValidate }

// dpopVariants expands one DPoP benchmark subject: with and without "ath",
// over the RSA key sizes for PS256.
func dpopVariants(b Benchmark, subj string, m MeasureConfig) []Variant {
	if !dpopSubject(subj) {
		return nil
	}
	bits := []int{0}
	if b.Alg == string(jwa.PS256) {
		bits = m.RSASignBits
	}
	var vs []Variant
	for _, n := range bits {
		for _, ath := range []string{DPoPWithoutAth, DPoPWithAth} {
			v := Variant{
				Benchmark: b.Name, Groups: b.Groups, Subject: subj, Alg: b.Alg, DPoP: true, RSABits: n,
				Payload: DPoPClaims, Serialization: SerializationCompact,
			}
			v.Params = append(v.Params, Param{"alg", b.Alg})
			if n != 0 {
				v.Params = append(v.Params, Param{"bits", strconv.Itoa(n)})
			}
			v.Params = append(v.Params, Param{"ath", ath})
			vs = append(vs, v)
		}
	}
	return vs
}
