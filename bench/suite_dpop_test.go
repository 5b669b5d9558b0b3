package bench

import (
	"slices"
	"testing"
)

// The DPoP group measures benchIssue and benchValidate, each with and
// without "ath", PS256 over the RSA sizes; no other group gets its
// variants.
func TestSelectDPoP(t *testing.T) {
	m := DefaultConfig().Measure
	m.Payloads = []string{PayloadRFC7520, "1000"}
	m.Serializations = Serializations
	m.RSASignBits = []int{2048, 4096}
	vs, err := Select(m, []string{"DPoP"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range vs {
		ids = append(ids, v.ID())
		if !v.DPoP || v.JWT || v.Bearer || v.Payload != DPoPClaims || v.Serialization != SerializationCompact {
			t.Errorf("%s: %+v", v.ID(), v)
		}
		if (v.Alg == "PS256") != (v.RSABits != 0) {
			t.Errorf("%s: RSABits %d", v.ID(), v.RSABits)
		}
	}
	want := []string{
		"DPoPES256Bench/benchIssue/alg=ES256/ath=no", "DPoPES256Bench/benchIssue/alg=ES256/ath=yes",
		"DPoPES256Bench/benchValidate/alg=ES256/ath=no", "DPoPES256Bench/benchValidate/alg=ES256/ath=yes",
		"DPoPEdDSABench/benchIssue/alg=EdDSA/ath=no", "DPoPEdDSABench/benchIssue/alg=EdDSA/ath=yes",
		"DPoPEdDSABench/benchValidate/alg=EdDSA/ath=no", "DPoPEdDSABench/benchValidate/alg=EdDSA/ath=yes",
		"DPoPPS256Bench/benchIssue/alg=PS256/bits=2048/ath=no", "DPoPPS256Bench/benchIssue/alg=PS256/bits=2048/ath=yes",
		"DPoPPS256Bench/benchIssue/alg=PS256/bits=4096/ath=no", "DPoPPS256Bench/benchIssue/alg=PS256/bits=4096/ath=yes",
		"DPoPPS256Bench/benchValidate/alg=PS256/bits=2048/ath=no", "DPoPPS256Bench/benchValidate/alg=PS256/bits=2048/ath=yes",
		"DPoPPS256Bench/benchValidate/alg=PS256/bits=4096/ath=no", "DPoPPS256Bench/benchValidate/alg=PS256/bits=4096/ath=yes",
	}
	if !slices.Equal(ids, want) {
		t.Errorf("ids\n%q\nwant\n%q", ids, want)
	}
	m.Subjects = []string{SubjectRoundTrip, SubjectSignature, SubjectVerification}
	if vs, err := Select(m, []string{"DPoP"}); err != nil || len(vs) != 0 {
		t.Errorf("other subjects: %d variants, %v", len(vs), err)
	}
	m.Subjects = []string{SubjectValidate}
	if vs, err := Select(m, []string{"DPoPES256"}); err != nil || len(vs) != 2 || vs[0].Subject != SubjectValidate {
		t.Errorf("benchValidate only: %d variants, %v", len(vs), err)
	}
	all, err := Select(DefaultConfig().Measure, []string{"JWS", "JWE", "JWT", "Bearer"})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range all {
		if v.DPoP {
			t.Fatalf("%s in JWS/JWE/JWT/Bearer", v.ID())
		}
	}
}
