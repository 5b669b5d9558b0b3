package bench

import (
	"slices"
	"testing"
)

// The Bearer group measures benchValidate only, via the middleware and via
// the Validator alone, side by side; no other group gets its variants.
func TestSelectBearer(t *testing.T) {
	m := DefaultConfig().Measure
	m.Payloads = []string{PayloadRFC7520, "1000"}
	m.Serializations = Serializations
	vs, err := Select(m, []string{"Bearer"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range vs {
		ids = append(ids, v.ID())
		if !v.Bearer || v.JWT || v.Payload != JWTClaims || v.Serialization != SerializationCompact {
			t.Errorf("%s: %+v", v.ID(), v)
		}
	}
	if !slices.Equal(ids, []string{"BearerHS256Bench/benchValidate/alg=HS256/via=middleware", "BearerHS256Bench/benchValidate/alg=HS256/via=validator"}) {
		t.Errorf("ids %q", ids)
	}
	m.Subjects = []string{SubjectRoundTrip, SubjectIssue}
	if vs, err := Select(m, []string{"Bearer"}); err != nil || len(vs) != 0 {
		t.Errorf("other subjects: %d variants, %v", len(vs), err)
	}
	all, err := Select(DefaultConfig().Measure, []string{"JWS", "JWE", "JWT"})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range all {
		if v.Bearer {
			t.Fatalf("%s in JWS/JWE/JWT", v.ID())
		}
	}
}
