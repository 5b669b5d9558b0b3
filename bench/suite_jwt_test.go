package bench

import (
	"slices"
	"testing"
)

// The JWT group measures benchIssue, benchValidate and benchRoundTrip only,
// RS256 over the configured key sizes, every variant in the compact
// serialization with the access-token claims whatever the payload and
// serialization settings; the other groups never get the JWT subjects.
func TestSelectJWT(t *testing.T) {
	m := DefaultConfig().Measure
	m.RSASignBits = []int{2048, 4096}
	m.Payloads = []string{PayloadRFC7520, "1000"}
	m.Serializations = Serializations
	vs, err := Select(m, []string{"JWT"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != (4+2)*3 {
		t.Fatalf("%d variants", len(vs))
	}
	for _, v := range vs {
		if !v.JWT || v.Payload != JWTClaims || v.Serialization != SerializationCompact || !jwtSubject(v.Subject) {
			t.Errorf("%s: %+v", v.ID(), v)
		}
		if (v.Alg == "RS256") != (v.RSABits != 0) || (v.KeyAlg != "") != (v.Benchmark == "JWTNestedES256Bench") {
			t.Errorf("%s: bits %d kw %q", v.ID(), v.RSABits, v.KeyAlg)
		}
	}
	if got := vs[len(vs)-1].ID(); got != "JWTNestedES256Bench/benchRoundTrip/alg=ES256/kw=ECDH-ES+A128KW/enc=A128GCM/crv=P-256" {
		t.Errorf("last variant %s", got)
	}
	all, err := Select(m, []string{"JWS", "JWE"})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range all {
		if v.JWT || v.Subject == SubjectIssue || v.Subject == SubjectValidate {
			t.Fatalf("%s in JWS/JWE", v.ID())
		}
	}
	m.Subjects = []string{SubjectSignature, SubjectValidate}
	vs, err = Select(m, []string{"JWTHS256", "HS256"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range vs {
		ids = append(ids, v.ID())
	}
	if !slices.Equal(ids, []string{"HS256Bench/benchSignature/alg=HS256", "HS256Bench/benchSignature/alg=HS256/ser=json",
		"HS256Bench/benchSignature/alg=HS256/payload=1000", "HS256Bench/benchSignature/alg=HS256/payload=1000/ser=json",
		"JWTHS256Bench/benchValidate/alg=HS256"}) {
		t.Errorf("ids %q", ids)
	}
}
