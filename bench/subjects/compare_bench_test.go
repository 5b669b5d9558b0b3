package subjects

import (
	"slices"
	"testing"

	"github.com/josebench/josebench/bench"
)

// BenchmarkCompare runs, in one run, the post-quantum and draft algorithms
// beside the classical ones they would replace: ML-DSA-44/65/87 (Go 1.27
// builds) beside EdDSA and ES256 (sign, verify), and HPKE-0-KE, HPKE-3-KE
// (with A128GCM) and HPKE-0, HPKE-3 (Integrated Encryption: P-256 and
// X25519 with AES-128-GCM) beside ECDH-ES (P-256, X25519) and RSA-OAEP
// (2048 bits) with A128GCM (encrypt, decrypt), RFC 7520 payload, compact:
//
//	GOTOOLCHAIN=go1.27.3 go test -run=NONE -bench=Compare -benchtime=200x -count=3 ./bench/subjects
func BenchmarkCompare(b *testing.B) {
	m := bench.DefaultConfig().Measure
	m.Subjects = []string{bench.SubjectSignature, bench.SubjectVerification, bench.SubjectEncryption, bench.SubjectDecryption}
	m.RSAEncBits = []int{2048}
	m.Curves = []string{"P-256", "X25519"}
	groups := []string{"EdDSA", "ES256", "ECDH-ES", "RSA-OAEP", "HPKE-0-KE", "HPKE-3-KE", "HPKE-0", "HPKE-3"}
	if slices.Contains(bench.Groups(), "MLDSA") { // Go 1.27 builds
		groups = append(groups, "MLDSA")
	}
	vs, err := bench.Select(m, groups)
	if err != nil {
		b.Fatal(err)
	}
	for i := range vs {
		v := &vs[i]
		if v.JWE && v.Enc != "A128GCM" && v.Enc != "" { // "": HPKE Integrated Encryption
			continue
		}
		b.Run(v.ID(), func(b *testing.B) {
			op, err := Prepare(v)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := op(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
