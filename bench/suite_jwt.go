package bench

import (
	"strconv"

	"github.com/josebench/josebench/jose/jwa"
)

// The subjects of the JWT group (package jose/jwt, RFC 7519).
const (
	SubjectIssue    = "benchIssue"    // sign (and for nested, encrypt) a JWT's claims (RFC 7519 §7.1)
	SubjectValidate = "benchValidate" // load a JWT and check its claims (RFC 7519 §7.2)
)

// JWTClaims names the claims set every JWT variant issues and validates: a
// typical access token, the seven registered claims of RFC 7519 §4.1 and
// two private ones (scope, client_id).
const JWTClaims = "access-token"

// jwtBenchmarks are the JWT group: signed JWTs with one algorithm of each
// family, and a nested JWT (ES256 inside ECDH-ES+A128KW with A128GCM, RFC
// 7519 §5.2). Their group names start with JWT so that --group HS256
// still selects the JWS benchmark only.
var jwtBenchmarks = []Benchmark{
	jwtBench(jwa.HS256, ""),
	jwtBench(jwa.RS256, ""),
	jwtBench(jwa.ES256, ""),
	jwtBench(jwa.EdDSA, ""),
	jwtBench(jwa.ES256, jwa.ECDHESA128KW),
}

func jwtBench(alg jwa.SignatureAlgorithm, nested jwa.KeyAlgorithm) Benchmark {
	if nested == "" {
		return Benchmark{Name: "JWT" + string(alg) + "Bench", Groups: []string{"JWT", "JWTSigned", "JWT" + string(alg)}, Alg: string(alg), JWT: true}
	}
	return Benchmark{Name: "JWTNested" + string(alg) + "Bench", Groups: []string{"JWT", "JWTNested", "JWTNested" + string(alg)},
		Alg: string(alg), JWT: true, KeyAlg: string(nested), Enc: string(jwa.A128GCM)}
}

// jwtSubject reports whether subj is measured for the JWT benchmarks.
func jwtSubject(subj string) bool {
	return subj == SubjectIssue || subj == SubjectValidate || subj == SubjectRoundTrip
}

// jwtVariants expands one JWT benchmark subject: over the RSA key sizes
// for RS256; the claims set, serialization (compact, RFC 7519 §1) and
// nested curve (P-256) are fixed.
func jwtVariants(b Benchmark, subj string, m MeasureConfig) []Variant {
	bits := []int{0}
	if b.Alg == string(jwa.RS256) {
		bits = m.RSASignBits
	}
	var vs []Variant
	for _, n := range bits {
		v := Variant{
			Benchmark: b.Name, Groups: b.Groups, Subject: subj,
			Alg: b.Alg, JWT: true, KeyAlg: b.KeyAlg, Enc: b.Enc, RSABits: n,
			Payload: JWTClaims, Serialization: SerializationCompact,
		}
		v.Params = append(v.Params, Param{"alg", b.Alg})
		if b.KeyAlg != "" {
			v.Curve = "P-256"
			v.Params = append(v.Params, Param{"kw", b.KeyAlg}, Param{"enc", b.Enc}, Param{"crv", v.Curve})
		}
		if n != 0 {
			v.Params = append(v.Params, Param{"bits", strconv.Itoa(n)})
		}
		vs = append(vs, v)
	}
	return vs
}
