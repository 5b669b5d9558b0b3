package bench

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Each group selects the benchmarks it names, each with its subjects and
// parameter sets, with the default inputs: six content encryptions for every
// JWE key algorithm, three RSA encryption key sizes, four ECDH-ES curves.
func TestSelectGroups(t *testing.T) {
	m := DefaultConfig().Measure
	tests := []struct {
		group      string
		benchmarks []string
		variants   int
	}{
		{"JWS", nil, (14 + len(mldsaBenchmarks)) * 3},
		{"hmac", []string{"HS256Bench", "HS384Bench", "HS512Bench"}, 3 * 3},
		{"HS256", []string{"HS256Bench"}, 3},
		{"HS384", []string{"HS384Bench"}, 3},
		{"HS512", []string{"HS512Bench"}, 3},
		{"ECDSA", []string{"ES256Bench", "ES384Bench", "ES512Bench", "ES256KBench"}, 4 * 3},
		{"ES256", []string{"ES256Bench"}, 3},
		{"ES384", []string{"ES384Bench"}, 3},
		{"ES512", []string{"ES512Bench"}, 3},
		{"ES256K", []string{"ES256KBench"}, 3},
		{"EdDSA", []string{"EdDSABench"}, 3},
		{"Ed25519", []string{"EdDSABench"}, 3},
		{"RSASign", []string{"RS256Bench", "RS384Bench", "RS512Bench", "PS256Bench", "PS384Bench", "PS512Bench"}, 6 * 3},
		{"RS256", []string{"RS256Bench"}, 3},
		{"RS384", []string{"RS384Bench"}, 3},
		{"RS512", []string{"RS512Bench"}, 3},
		{"PS256", []string{"PS256Bench"}, 3},
		{"PS384", []string{"PS384Bench"}, 3},
		{"PS512", []string{"PS512Bench"}, 3},
		{"JWEKW", []string{"A128KWBench", "A192KWBench", "A256KWBench"}, 3 * 6 * 3},
		{"KW", []string{"A128KWBench", "A192KWBench", "A256KWBench"}, 3 * 6 * 3},
		{"A128KW", []string{"A128KWBench"}, 6 * 3},
		{"A192KW", []string{"A192KWBench"}, 6 * 3},
		{"A256KW", []string{"A256KWBench"}, 6 * 3},
		{"GCMKW", []string{"A128GCMKWBench", "A192GCMKWBench", "A256GCMKWBench"}, 3 * 6 * 3},
		{"A128GCMKW", []string{"A128GCMKWBench"}, 6 * 3},
		{"A192GCMKW", []string{"A192GCMKWBench"}, 6 * 3},
		{"A256GCMKW", []string{"A256GCMKWBench"}, 6 * 3},
		{"ECDHES", []string{"ECDHESBench", "ECDHESA128KWBench", "ECDHESA192KWBench", "ECDHESA256KWBench"}, 4 * 6 * 4 * 3},
		{"ECDH-ES", []string{"ECDHESBench"}, 6 * 4 * 3},
		{"ECDHESKW", []string{"ECDHESA128KWBench", "ECDHESA192KWBench", "ECDHESA256KWBench"}, 3 * 6 * 4 * 3},
		{"ECDHESA128KW", []string{"ECDHESA128KWBench"}, 6 * 4 * 3},
		{"ECDH-ES+A128KW", []string{"ECDHESA128KWBench"}, 6 * 4 * 3},
		{"ECDHESA192KW", []string{"ECDHESA192KWBench"}, 6 * 4 * 3},
		{"ECDH-ES+A192KW", []string{"ECDHESA192KWBench"}, 6 * 4 * 3},
		{"ECDHESA256KW", []string{"ECDHESA256KWBench"}, 6 * 4 * 3},
		{"ECDH-ES+A256KW", []string{"ECDHESA256KWBench"}, 6 * 4 * 3},
		{"PBES2", []string{"PBES2HS256A128KWBench", "PBES2HS384A192KWBench", "PBES2HS512A256KWBench"}, 3 * 6 * 3},
		{"PBES2HS256A128KW", []string{"PBES2HS256A128KWBench"}, 6 * 3},
		{"PBES2-HS256+A128KW", []string{"PBES2HS256A128KWBench"}, 6 * 3},
		{"PBES2HS384A192KW", []string{"PBES2HS384A192KWBench"}, 6 * 3},
		{"PBES2-HS384+A192KW", []string{"PBES2HS384A192KWBench"}, 6 * 3},
		{"PBES2HS512A256KW", []string{"PBES2HS512A256KWBench"}, 6 * 3},
		{"PBES2-HS512+A256KW", []string{"PBES2HS512A256KWBench"}, 6 * 3},
		{"RSAEnc", []string{"RSA1_5Bench", "RSAOAEPBench", "RSAOAEP256Bench", "RSAOAEP384Bench", "RSAOAEP512Bench"}, 5 * 6 * 3 * 3},
		{"RSA1_5", []string{"RSA1_5Bench"}, 6 * 3 * 3},
		{"RSA-OAEP", []string{"RSAOAEPBench"}, 6 * 3 * 3},
		{"RSA-OAEP-256", []string{"RSAOAEP256Bench"}, 6 * 3 * 3},
		{"RSA-OAEP-384", []string{"RSAOAEP384Bench"}, 6 * 3 * 3},
		{"RSA-OAEP-512", []string{"RSAOAEP512Bench"}, 6 * 3 * 3},
		{"dir", []string{"DirBench"}, 6 * 3},
		{"JWT", []string{"JWTHS256Bench", "JWTRS256Bench", "JWTES256Bench", "JWTEdDSABench", "JWTNestedES256Bench"}, 5 * 3},
		{"JWTSigned", []string{"JWTHS256Bench", "JWTRS256Bench", "JWTES256Bench", "JWTEdDSABench"}, 4 * 3},
		{"JWTHS256", []string{"JWTHS256Bench"}, 3},
		{"JWTRS256", []string{"JWTRS256Bench"}, 3},
		{"JWTES256", []string{"JWTES256Bench"}, 3},
		{"JWTEdDSA", []string{"JWTEdDSABench"}, 3},
		{"JWTNested", []string{"JWTNestedES256Bench"}, 3},
		{"JWTNestedES256", []string{"JWTNestedES256Bench"}, 3},
		{"Bearer", []string{"BearerHS256Bench"}, 2},
		{"BearerHS256", []string{"BearerHS256Bench"}, 2},
		{"DPoP", []string{"DPoPES256Bench", "DPoPEdDSABench", "DPoPPS256Bench"}, 3 * 2 * 2},
		{"DPoPES256", []string{"DPoPES256Bench"}, 2 * 2},
		{"DPoPEdDSA", []string{"DPoPEdDSABench"}, 2 * 2},
		{"DPoPPS256", []string{"DPoPPS256Bench"}, 2 * 2},
		{"JWE", nil, (3+3+4*4+3+5*3+1+6)*6*3 + 6*3},
		{"HPKE", []string{"HPKE0KEBench", "HPKE1KEBench", "HPKE2KEBench", "HPKE3KEBench", "HPKE4KEBench", "HPKE7KEBench", "HPKE0Bench", "HPKE1Bench", "HPKE2Bench", "HPKE3Bench", "HPKE4Bench", "HPKE7Bench"}, 6*6*3 + 6*3},
		{"HPKE-0", []string{"HPKE0Bench"}, 3},
		{"HPKE-1", []string{"HPKE1Bench"}, 3},
		{"HPKE-2", []string{"HPKE2Bench"}, 3},
		{"HPKE-3", []string{"HPKE3Bench"}, 3},
		{"HPKE-4", []string{"HPKE4Bench"}, 3},
		{"HPKE-7", []string{"HPKE7Bench"}, 3},
		{"HPKE-0-KE", []string{"HPKE0KEBench"}, 6 * 3},
		{"HPKE-1-KE", []string{"HPKE1KEBench"}, 6 * 3},
		{"HPKE-2-KE", []string{"HPKE2KEBench"}, 6 * 3},
		{"HPKE-3-KE", []string{"HPKE3KEBench"}, 6 * 3},
		{"HPKE-4-KE", []string{"HPKE4KEBench"}, 6 * 3},
		{"HPKE-7-KE", []string{"HPKE7KEBench"}, 6 * 3},
	}
	if len(mldsaBenchmarks) > 0 { // Go 1.27 and later
		tests = append(tests, []struct {
			group      string
			benchmarks []string
			variants   int
		}{
			{"MLDSA", []string{"MLDSA44Bench", "MLDSA65Bench", "MLDSA87Bench"}, 3 * 3},
			{"ML-DSA-44", []string{"MLDSA44Bench"}, 3},
			{"ML-DSA-65", []string{"MLDSA65Bench"}, 3},
			{"ML-DSA-87", []string{"MLDSA87Bench"}, 3},
		}...)
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.group] = true
		vs, err := Select(m, []string{tt.group})
		if err != nil {
			t.Fatalf("%s: %v", tt.group, err)
		}
		if len(vs) != tt.variants {
			t.Errorf("%s: %d variants, want %d", tt.group, len(vs), tt.variants)
		}
		var got []string
		ids := map[string]bool{}
		for _, v := range vs {
			if !slices.Contains(got, v.Benchmark) {
				got = append(got, v.Benchmark)
			}
			if ids[v.ID()] {
				t.Errorf("%s: %s selected twice", tt.group, v.ID())
			}
			ids[v.ID()] = true
		}
		if tt.benchmarks != nil && !slices.Equal(got, tt.benchmarks) {
			t.Errorf("%s: benchmarks %v, want %v", tt.group, got, tt.benchmarks)
		}
	}
	for _, g := range Groups() {
		if !covered[g] {
			t.Errorf("group %s is not tested", g)
		}
	}
	if len(Groups()) != len(tests) {
		t.Errorf("%d groups, %d tested", len(Groups()), len(tests))
	}
}

// RSA1_5 selects 6 content encryptions x 3 key sizes, each with the
// encryption, decryption and round-trip subjects, exactly once.
func TestSelectRSA15Variants(t *testing.T) {
	vs, err := Select(DefaultConfig().Measure, []string{"RSA1_5"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, subj := range []string{SubjectEncryption, SubjectDecryption, SubjectRoundTrip} {
		for _, enc := range ContentEncryptions {
			for _, bits := range []int{2048, 3072, 4096} {
				want[fmt.Sprintf("RSA1_5Bench/%s/alg=RSA1_5/enc=%s/bits=%d", subj, enc, bits)] = true
			}
		}
	}
	for _, v := range vs {
		if !want[v.ID()] {
			t.Errorf("unexpected variant %s", v.ID())
		}
		delete(want, v.ID())
		if !v.JWE || v.Alg != "RSA1_5" || v.RSABits == 0 || v.Enc == "" || v.Payload != PayloadRFC7520 || v.Serialization != SerializationCompact {
			t.Errorf("%s: inputs %+v", v.ID(), v)
		}
		if !slices.Equal(v.Groups, []string{"JWE", "RSAEnc", "RSA1_5"}) {
			t.Errorf("%s: groups %v", v.ID(), v.Groups)
		}
	}
	for id := range want {
		t.Errorf("missing variant %s", id)
	}
}

func TestSelectParams(t *testing.T) {
	m := DefaultConfig().Measure
	m.Payloads = []string{PayloadRFC7520, "4096"}
	m.Serializations = []string{SerializationCompact, SerializationJSON}
	m.Subjects = []string{SubjectRoundTrip}
	vs, err := Select(m, []string{"PBES2-HS256+A128KW", "HS256", "HS256"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range vs {
		ids = append(ids, v.ID())
	}
	want := []string{
		"HS256Bench/benchRoundTrip/alg=HS256",
		"HS256Bench/benchRoundTrip/alg=HS256/ser=json",
		"HS256Bench/benchRoundTrip/alg=HS256/payload=4096",
		"HS256Bench/benchRoundTrip/alg=HS256/payload=4096/ser=json",
	}
	if !slices.Equal(ids[:4], want) {
		t.Errorf("HS256 variants %v, want %v", ids[:4], want)
	}
	if got := ids[4]; got != "PBES2HS256A128KWBench/benchRoundTrip/alg=PBES2-HS256+A128KW/enc=A128CBC-HS256/p2c=4096" {
		t.Errorf("first PBES2 variant %s", got)
	}
	if len(vs) != 4+6*4 {
		t.Errorf("%d variants", len(vs))
	}
	if s := vs[1].Set(); s != "alg=HS256,ser=json" {
		t.Errorf("Set() = %q", s)
	}
	if p := vs[4].Param("p2c"); p != "4096" || vs[4].P2C != 4096 {
		t.Errorf("p2c param %q, input %d", p, vs[4].P2C)
	}
	if p := vs[4].Param("nope"); p != "" {
		t.Errorf("Param(nope) = %q", p)
	}
}

func TestSelectUnknownGroup(t *testing.T) {
	_, err := Select(DefaultConfig().Measure, []string{"HS256", "HS257"})
	var ug *UnknownGroupError
	if !errors.As(err, &ug) || ug.Group != "HS257" {
		t.Fatalf("got %v", err)
	}
	// A short hint, not the list of every group.
	want := `bench: unknown group "HS257" (did you mean HS256? "josebench list" lists the groups)`
	if err.Error() != want {
		t.Errorf("error %q\nwant  %q", err, want)
	}
}

// TestSelectGroupCase checks that --group's names are matched with case
// ignored: hs256 selects HS256's variants, once however it is spelled, and
// the variants carry the groups' own spelling.
func TestSelectGroupCase(t *testing.T) {
	m := DefaultConfig().Measure
	want, err := Select(m, []string{"HS256"})
	if err != nil || len(want) == 0 {
		t.Fatalf("HS256: %d variants, %v", len(want), err)
	}
	for _, groups := range [][]string{{"hs256"}, {"Hs256", "HS256", "hs256"}} {
		got, err := Select(m, groups)
		if err != nil {
			t.Fatalf("%v: %v", groups, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%v: %d variants, want %d", groups, len(got), len(want))
		}
		for i := range got {
			if got[i].ID() != want[i].ID() {
				t.Errorf("%v: variant %d is %s, want %s", groups, i, got[i].ID(), want[i].ID())
			}
		}
	}
	// A family spelled in lower case by the PHP suite (hmac), in upper case.
	if vs, err := Select(m, []string{"HMAC"}); err != nil || len(vs) != 3*3 {
		t.Errorf("HMAC: %d variants, %v", len(vs), err)
	}
}

func TestPayload(t *testing.T) {
	p, err := Payload(PayloadRFC7520)
	if err != nil || len(p) != 167 || string(p) != RFC7520Payload {
		t.Errorf("rfc7520 payload: %d bytes, %v", len(p), err)
	}
	p, err = Payload("400")
	if err != nil || len(p) != 400 || string(p[:167]) != RFC7520Payload || string(p[167:334]) != RFC7520Payload {
		t.Errorf("400-byte payload: %d bytes, %v", len(p), err)
	}
	if _, err := Payload("x"); err == nil || !strings.HasPrefix(err.Error(), "bench: ") {
		t.Errorf("bad payload: %v", err)
	}
}
