package dpop

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// BenchmarkCheck measures Verifier.Check on an accepted proof and on the
// refusals, worst first. The costliest refusals are those that reach the
// signature verification and fail there, since every check before it is
// cheap and the claims are read only once it verifies:
//
//   - accepted: an ES256 proof with "ath", its replay entry written: the
//     reference. Each check needs a fresh proof (a replay is refused), so
//     proofs are made in batches with the timer stopped;
//   - other-key: an ES256 proof whose signature is well-formed and valid,
//     but by another P-256 key than its "jwk": one full verification,
//     refused;
//   - ps256-4096 and ps256-4096-e2147483647: a PS256 proof with the
//     largest RSA "jwk" accepted (DefaultMaxRSABits), of public exponent
//     65537 and of 2^31-1 (the largest crypto/rsa takes, 31 bits: the
//     costliest verification), its signature changed in one bit: one full
//     RSA verification, refused;
//   - rsa8192: a PS256 proof with an 8192-bit "jwk" of exponent 2^31-1,
//     refused at the key's size before its signature is verified;
//   - zero-signature: an ES256 signature of all "A" (r = 0), refused
//     before the curve arithmetic;
//   - too-large: one byte over MaxProofSize, refused unread.
//
// On Linux each case also reports the CPU time of its thread per check
// ("cpu-ns/op": a shared machine's load inflates the wall time, not this;
// it leaves out the GC's background work, which the allocations show),
// and each refusal its time as a multiple of accepted's in the same run
// ("x-accepted", by CPU time where measured, else by wall time), when
// accepted ran before it (not with a -bench pattern that leaves it out).
// The RSA keys are fixed ones of testdata/keys.
func BenchmarkCheck(b *testing.B) {
	const uri = "https://api.example/orders"
	ctx := context.Background()
	ecKey := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			b.Fatal(err)
		}
		return k
	}
	prover := func(alg jwa.SignatureAlgorithm, key any) *Prover {
		p, err := NewProver(alg, key)
		if err != nil {
			b.Fatal(err)
		}
		return p
	}
	proof := func(p *Prover) string {
		s, err := p.Proof("GET", uri, &ProofOptions{AccessToken: "tok"})
		if err != nil {
			b.Fatal(err)
		}
		return s
	}
	v, err := NewVerifier(VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256, jwa.PS256}})
	if err != nil {
		b.Fatal(err)
	}
	es := prover(jwa.ES256, ecKey())

	var acceptedNs float64 // ns per accepted check, once accepted ran
	// timed runs loop on one thread and returns the ns per check, by CPU
	// time where measured, less the CPU time *untimed the loop spent with
	// the timer stopped.
	timed := func(b *testing.B, untimed *int64, loop func()) float64 {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		cpu0, ok := threadCPU()
		loop()
		cpu1, _ := threadCPU()
		if ok {
			ns := float64(cpu1-cpu0-*untimed) / float64(b.N)
			b.ReportMetric(ns, "cpu-ns/op")
			return ns
		}
		return float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	}
	b.Run("accepted", func(b *testing.B) {
		b.ReportAllocs()
		var batch []string
		var making int64 // CPU time spent making proofs, the timer stopped
		acceptedNs = timed(b, &making, func() {
			for b.Loop() {
				if len(batch) == 0 {
					b.StopTimer()
					c0, _ := threadCPU()
					for range 256 {
						batch = append(batch, proof(es))
					}
					c1, _ := threadCPU()
					making += c1 - c0
					b.StartTimer()
				}
				if _, err := v.Check(ctx, batch[:1], "GET", uri, "tok"); err != nil {
					b.Fatal(err)
				}
				batch = batch[1:]
			}
		})
	})

	refused := func(name, proof string, sentinel error) {
		// The proof is refused with sentinel, and only for it: a replay
		// entry is never written for a refused proof, so it may be
		// checked again and again.
		if _, err := v.Check(ctx, []string{proof}, "GET", uri, "tok"); !errors.Is(err, sentinel) {
			b.Fatalf("%s: %v, want %v", name, err, sentinel)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			proofs := []string{proof}
			var none int64
			ns := timed(b, &none, func() {
				for b.Loop() {
					if _, err := v.Check(ctx, proofs, "GET", uri, "tok"); err == nil {
						b.Fatal("refused proof accepted")
					}
				}
			})
			if acceptedNs > 0 {
				b.ReportMetric(ns/acceptedNs, "x-accepted")
			}
		})
	}

	// other-key: the proof's signing input, signed by another key.
	good := proof(es)
	in := good[:strings.LastIndexByte(good, '.')]
	s, err := jwa.NewSigner(jwa.ES256, ecKey())
	if err != nil {
		b.Fatal(err)
	}
	sig, err := s.Sign(nil, []byte(in))
	if err != nil {
		b.Fatal(err)
	}
	refused("other-key", in+"."+jose.Base64URLEncode(sig), ErrSignature)

	// flipped changes one bit of the last byte of the signature: a
	// signature value below the modulus (its top byte is untouched) that
	// fails the PSS check after the RSA operation.
	flipped := func(p string) string {
		i := strings.LastIndexByte(p, '.') + 1
		sig, err := jose.Base64URLDecode(p[i:])
		if err != nil {
			b.Fatal(err)
		}
		sig[len(sig)-1] ^= 1
		return p[:i] + jose.Base64URLEncode(sig)
	}
	for _, k := range []struct{ name, file string }{
		{"ps256-4096", "rsa4096.pem"},
		{"ps256-4096-e2147483647", "rsa4096-e2147483647.pem"},
	} {
		p := proof(prover(jwa.PS256, rsaKey(b, k.file)))
		if _, err := v.Check(ctx, []string{p}, "GET", uri, "tok"); err != nil {
			b.Fatalf("%s: the unchanged proof: %v", k.name, err)
		}
		refused(k.name, flipped(p), ErrSignature)
	}
	refused("rsa8192", proof(prover(jwa.PS256, rsaKey(b, "rsa8192-e2147483647.pem"))), ErrKey)

	refused("zero-signature", good[:strings.LastIndexByte(good, '.')+1]+strings.Repeat("A", 86), ErrSignature)
	refused("too-large", strings.Repeat("A", DefaultMaxProofSize+1), ErrProofTooLarge)
}
