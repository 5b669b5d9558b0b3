package dpop

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose/jwa"
)

// BenchmarkCheck: a proof accepted (its replay entry written), a proof
// whose signature is all "A" (r = 0: refused at the signature without the
// curve arithmetic, so cheaper than the worst refusal, a well-formed
// signature by another key, which costs one full verification), and a
// proof one byte over MaxProofSize (refused at its size, unread).
func BenchmarkCheck(b *testing.B) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	p, err := NewProver(jwa.ES256, key)
	if err != nil {
		b.Fatal(err)
	}
	v, err := NewVerifier(VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}})
	if err != nil {
		b.Fatal(err)
	}
	const uri = "https://api.example/orders"
	ctx := context.Background()
	b.Run("accepted", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			proof, err := p.Proof("GET", uri, &ProofOptions{AccessToken: "tok"})
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if _, err := v.Check(ctx, []string{proof}, "GET", uri, "tok"); err != nil {
				b.Fatal(err)
			}
		}
	})
	proof, err := p.Proof("GET", uri, &ProofOptions{AccessToken: "tok"})
	if err != nil {
		b.Fatal(err)
	}
	forged := proof[:strings.LastIndexByte(proof, '.')+1] + strings.Repeat("A", 86)
	b.Run("zero-signature", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := v.Check(ctx, []string{forged}, "GET", uri, "tok"); err == nil {
				b.Fatal("forged proof accepted")
			}
		}
	})
	huge := strings.Repeat("A", DefaultMaxProofSize+1)
	b.Run("too-large", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := v.Check(ctx, []string{huge}, "GET", uri, "tok"); err == nil {
				b.Fatal("huge proof accepted")
			}
		}
	})
}
