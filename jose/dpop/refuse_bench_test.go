package dpop

import (
	"context"
	"encoding/base64"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// BenchmarkRefuse measures the refusals an attacker chooses the key of,
// each next to the ES256 verification a proof costs, in one run:
//
//   - es256: an ES256 proof whose signature is another key's, refused
//     after one full verification;
//   - es256-claims-nested: the same with claims that cost jsonx the most
//     (hostileClaims), which the reading before the signature leaves
//     alone (preLimits);
//   - rsa4096-e65537 and rsa4096-e2147483647: an RS256 proof with a
//     4096-bit jwk (DefaultMaxRSABits) and a tampered signature, refused
//     after one full verification, whose cost grows with the public
//     exponent: e = 2^31-1, the largest jwa accepts, takes 31 squarings
//     where 65537 takes 17;
//   - rsa8192-refused: a jwk beyond DefaultMaxRSABits, refused before its
//     signature, after jose parsed the key;
//   - x5c-refused: an ES256 proof whose jwk carries as many certificates
//     as fit in DefaultMaxProofSize, refused before jws reads the header;
//   - x5c-parse: what reading that jwk costs jose (jose.ParseKey, every
//     certificate parsed), which the refusal above avoids.
//
// The RSA keys are the fixed keys of testdata/keys. Beside ns/op, each
// reports cpu-ns/op, the process's CPU time, for a loaded machine.
func BenchmarkRefuse(b *testing.B) {
	ctx := context.Background()
	v := newVerifier(b, VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256, jwa.RS256}})
	ec, other := ecKey(b), ecKey(b)
	refused := func(name, proof string) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			c0, ok := processCPU()
			for b.Loop() {
				if _, err := v.Check(ctx, []string{proof}, "GET", testURI, ""); err == nil {
					b.Fatal("accepted")
				}
			}
			reportCPU(b, c0, ok)
		})
	}
	refused("es256", forge(b, jwa.ES256, other, goodHeader(b, ec, "ES256"), goodClaims("b")))
	refused("es256-claims-nested", hostileClaims(b, "nested", func(p string) string { return signRaw(b, other, goodHeader(b, ec, "ES256"), p) }))
	for _, k := range []string{"rsa4096", "rsa4096-e2147483647"} {
		name := "rsa4096-e65537"
		if k != "rsa4096" {
			name = k
		}
		key := rsaKey(b, k+".pem")
		refused(name, tamper(forge(b, jwa.RS256, key, goodHeader(b, key, "RS256"), goodClaims("b"))))
	}
	big := rsaKey(b, "rsa8192-e2147483647.pem")
	refused("rsa8192-refused", forge(b, jwa.RS256, big, goodHeader(b, big, "RS256"), goodClaims("b")))

	cert := base64.StdEncoding.EncodeToString(selfSigned(b, ec))
	var chain []string
	var jwk []byte
	var proof string
	for {
		next := jwkWith(b, ec, map[string]any{"x5c": append(chain, cert)})
		h := goodHeader(b, ec, "ES256")
		h["jwk"] = next
		p := forge(b, jwa.ES256, ec, h, goodClaims("b"))
		if len(p) > DefaultMaxProofSize || len(chain) == jose.MaxCertificates {
			break
		}
		chain, jwk, proof = append(chain, cert), next, p
	}
	k, err := jose.ParseKey(jwk)
	if err != nil || len(k.Certificates) != len(chain) {
		b.Fatalf("jose.ParseKey of %d certificates: %v", len(chain), err)
	}
	b.Logf("x5c of %d certificates, a proof of %d bytes", len(chain), len(proof))
	refused("x5c-refused", proof)
	b.Run("x5c-parse", func(b *testing.B) {
		b.ReportAllocs()
		c0, ok := processCPU()
		for b.Loop() {
			if _, err := jose.ParseKey(jwk); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, c0, ok)
	})
}

// reportCPU reports the process's CPU time per iteration since c0 as
// cpu-ns/op, steadier than ns/op on a loaded machine (GC work included).
func reportCPU(b *testing.B, c0 time.Duration, ok bool) {
	if c1, ok1 := processCPU(); ok && ok1 && b.N > 0 {
		b.ReportMetric(float64(c1-c0)/float64(b.N), "cpu-ns/op")
	}
}
