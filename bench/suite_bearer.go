package bench

import "github.com/josebench/josebench/jose/jwa"

// The ways the Bearer group validates a token, its "via" parameter.
const (
	// ViaMiddleware: a request whose Authorization header carries the
	// token, through the jose/bearer middleware (RFC 6750 §2.1) into an
	// httptest.ResponseRecorder, to a handler that reads the claims.
	ViaMiddleware = "middleware"
	// ViaValidator: the same token and claims through the jwt.Validator
	// alone, the middleware's baseline.
	ViaValidator = "validator"
)

// bearerBenchmarks are the Bearer group: the middleware's cost beyond the
// Validator's, as two variants of benchValidate side by side (via=middleware
// and via=validator) for an HS256 access token, where the middleware's
// share is largest.
var bearerBenchmarks = []Benchmark{
	{Name: "BearerHS256Bench", Groups: []string{"Bearer", "BearerHS256"}, Alg: string(jwa.HS256), Bearer: true},
}

// bearerVariants expands a Bearer benchmark: benchValidate only, via the
// middleware and via the Validator alone, with the claims of the JWT group
// in the compact serialization.
func bearerVariants(b Benchmark, subj string) []Variant {
	if subj != SubjectValidate {
		return nil
	}
	var vs []Variant
	for _, via := range []string{ViaMiddleware, ViaValidator} {
		vs = append(vs, Variant{
			Benchmark: b.Name, Groups: b.Groups, Subject: subj, Alg: b.Alg, Bearer: true,
			Payload: JWTClaims, Serialization: SerializationCompact,
			Params: []Param{{"alg", b.Alg}, {"via", via}},
		})
	}
	return vs
}
