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
	"time"

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
// ("cpu-ns/op": a shared machine's load inflates the wall time much more
// than this; it leaves out the GC's background work, which the
// allocations show). Each refusal also reports its cost as a multiple of
// an accepted check's ("x-accepted", by CPU time where measured, else by
// wall time), measured in the same loop: every 16 refusals (more for a
// cheap refusal, about 0.4 ms of them), 4 accepted checks of fresh proofs
// with the timer stopped, so that both see the same load. The RSA keys
// are fixed ones of testdata/keys.
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

	// clock is the thread's CPU time where measured, else the wall time.
	_, cpuOK := threadCPU()
	clock := func() int64 {
		if t, ok := threadCPU(); ok {
			return t
		}
		return time.Now().UnixNano()
	}
	// timed runs loop locked to one thread and returns the ns per check,
	// by clock, less the *untimed ns the loop spent with the timer
	// stopped.
	timed := func(b *testing.B, untimed *int64, loop func()) float64 {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		t0 := clock()
		loop()
		ns := float64(clock()-t0-*untimed) / float64(b.N)
		if cpuOK {
			b.ReportMetric(ns, "cpu-ns/op")
		}
		return ns
	}
	// accept checks n fresh proofs, made first, and returns the ns of the
	// checks, by clock.
	var batch []string
	accept := func(b *testing.B, n int) int64 {
		batch = batch[:0]
		for range n {
			batch = append(batch, proof(es))
		}
		t0 := clock()
		for _, p := range batch {
			if _, err := v.Check(ctx, []string{p}, "GET", uri, "tok"); err != nil {
				b.Fatal(err)
			}
		}
		return clock() - t0
	}
	b.Run("accepted", func(b *testing.B) {
		b.ReportAllocs()
		var untimed int64 // making the proofs, the timer stopped
		var n int
		timed(b, &untimed, func() {
			for b.Loop() {
				if n%256 == 0 {
					t0 := clock()
					b.StopTimer()
					batch = batch[:0]
					for range 256 {
						batch = append(batch, proof(es))
					}
					b.StartTimer()
					untimed += clock() - t0
				}
				if _, err := v.Check(ctx, batch[n%256:n%256+1], "GET", uri, "tok"); err != nil {
					b.Fatal(err)
				}
				n++
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
		proofs := []string{proof}
		// Every period refusals, 4 accepted checks with the timer
		// stopped: the reference of x-accepted, measured under the same
		// load. period is at least 16, and more for a cheap refusal, so
		// that its refusals take about as long as the 4 checks (the
		// stopped timer and the accepted checks' use of the caches
		// would otherwise weigh on it).
		runtime.LockOSThread() // a thread's CPU time, not several's
		t0 := clock()
		for range 64 {
			v.Check(ctx, proofs, "GET", uri, "tok")
		}
		period := max(16, int(400_000*64/max(clock()-t0, 1)))
		runtime.UnlockOSThread()
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var untimed, acc, accN int64
			var n int
			ns := timed(b, &untimed, func() {
				for b.Loop() {
					if n%period == 0 {
						t0 := clock()
						b.StopTimer()
						checks := accept(b, 4)
						b.StartTimer()
						acc, accN, untimed = acc+checks, accN+4, untimed+clock()-t0
					}
					n++
					if _, err := v.Check(ctx, proofs, "GET", uri, "tok"); err == nil {
						b.Fatal("refused proof accepted")
					}
				}
			})
			b.ReportMetric(ns/(float64(acc)/float64(accN)), "x-accepted")
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
