package jws_test

// Benchmarks of the JOSE layer beside the bare primitives it uses, on the
// same signing input, so that one run shows the overhead:
//
//	go test -run '^$' -bench . -benchtime 200ms ./jose/jws/
//
// BenchmarkRoundTrip/<alg> is Compact + VerifyCompact,
// BenchmarkRoundTripReuse/<alg> AppendCompact + VerifyCompactInto with
// reused buffers; BenchmarkBare/<alg>
// is the matching primitive pair (sign and verify) on the signing input
// Compact produces. BenchmarkBare/HS256 creates its two HMACs per operation
// as a hand-written implementation would; BenchmarkBare/HS256-reused keeps
// one keyed HMAC and only resets it, the least work possible.

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// benchPayload is the payload of RFC 7520 §4 (167 bytes).
var benchPayload = []byte("It\u2019s a dangerous business, Frodo, going out your door. You step onto the road, and if you don't keep your feet, there\u2019s no knowing where you might be swept off to.")

type benchCase struct {
	alg  jwa.SignatureAlgorithm
	priv any
	pub  any
}

func benchCases(b *testing.B) []benchCase {
	if len(benchPayload) != 167 {
		b.Fatalf("payload of %d bytes", len(benchPayload))
	}
	r := vectortest.RSAKey(b, 2048)
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	ed := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
	hk := bytes.Repeat([]byte{0x5a}, 32)
	return []benchCase{
		{jwa.HS256, hk, hk},
		{jwa.RS256, r, &r.PublicKey},
		{jwa.PS256, r, &r.PublicKey},
		{jwa.ES256, ec, &ec.PublicKey},
		{jwa.EdDSA, ed, ed.Public()},
	}
}

func benchSetup(b *testing.B, c benchCase) (*jws.Signer, *jws.Verifier, []byte) {
	s, err := jws.NewSigner(c.alg, c.priv, &jws.SignerOptions{KeyID: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	v, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{c.alg}, Key: c.pub})
	if err != nil {
		b.Fatal(err)
	}
	tok, err := s.Compact(benchPayload)
	if err != nil {
		b.Fatal(err)
	}
	return s, v, tok
}

func BenchmarkRoundTrip(b *testing.B) {
	for _, c := range benchCases(b) {
		b.Run(string(c.alg), func(b *testing.B) {
			s, v, _ := benchSetup(b, c)
			b.ReportAllocs()
			for b.Loop() {
				tok, err := s.Compact(benchPayload)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := v.VerifyCompact(tok); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRoundTripReuse is BenchmarkRoundTrip with the token buffer and
// the Message reused: AppendCompact + VerifyCompactInto.
func BenchmarkRoundTripReuse(b *testing.B) {
	for _, c := range benchCases(b) {
		b.Run(string(c.alg), func(b *testing.B) {
			s, v, tok := benchSetup(b, c)
			var m jws.Message
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if tok, err = s.AppendCompact(tok[:0], benchPayload); err != nil {
					b.Fatal(err)
				}
				if err := v.VerifyCompactInto(&m, tok); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSign(b *testing.B) {
	for _, c := range benchCases(b) {
		b.Run(string(c.alg), func(b *testing.B) {
			s, _, _ := benchSetup(b, c)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Compact(benchPayload); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkVerify(b *testing.B) {
	for _, c := range benchCases(b) {
		b.Run(string(c.alg), func(b *testing.B) {
			_, v, tok := benchSetup(b, c)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := v.VerifyCompact(tok); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBare signs and verifies the same signing input with the
// standard library directly.
func BenchmarkBare(b *testing.B) {
	for _, c := range benchCases(b) {
		_, _, tok := benchSetup(b, c)
		input := tok[:bytes.LastIndexByte(tok, '.')]
		switch c.alg {
		case jwa.HS256:
			key := c.priv.([]byte)
			b.Run("HS256", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					m := hmac.New(sha256.New, key)
					m.Write(input)
					sig := m.Sum(nil)
					m2 := hmac.New(sha256.New, key)
					m2.Write(input)
					if !hmac.Equal(m2.Sum(nil), sig) {
						b.Fatal("mismatch")
					}
				}
			})
			b.Run("HS256-reused", func(b *testing.B) {
				m := hmac.New(sha256.New, key)
				var s1, s2 [32]byte
				b.ReportAllocs()
				for b.Loop() {
					m.Reset()
					m.Write(input)
					sig := m.Sum(s1[:0])
					m.Reset()
					m.Write(input)
					if !hmac.Equal(m.Sum(s2[:0]), sig) {
						b.Fatal("mismatch")
					}
				}
			})
		case jwa.RS256:
			k := c.priv.(*rsa.PrivateKey)
			b.Run("RS256", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					h := sha256.Sum256(input)
					sig, err := rsa.SignPKCS1v15(nil, k, crypto.SHA256, h[:])
					if err != nil {
						b.Fatal(err)
					}
					h2 := sha256.Sum256(input)
					if err := rsa.VerifyPKCS1v15(&k.PublicKey, crypto.SHA256, h2[:], sig); err != nil {
						b.Fatal(err)
					}
				}
			})
		case jwa.PS256:
			k := c.priv.(*rsa.PrivateKey)
			opts := &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash, Hash: crypto.SHA256}
			b.Run("PS256", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					h := sha256.Sum256(input)
					sig, err := rsa.SignPSS(rand.Reader, k, crypto.SHA256, h[:], opts)
					if err != nil {
						b.Fatal(err)
					}
					h2 := sha256.Sum256(input)
					if err := rsa.VerifyPSS(&k.PublicKey, crypto.SHA256, h2[:], sig, opts); err != nil {
						b.Fatal(err)
					}
				}
			})
		case jwa.ES256:
			k := c.priv.(*ecdsa.PrivateKey)
			b.Run("ES256", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					h := sha256.Sum256(input)
					sig, err := ecdsa.SignASN1(rand.Reader, k, h[:])
					if err != nil {
						b.Fatal(err)
					}
					h2 := sha256.Sum256(input)
					if !ecdsa.VerifyASN1(&k.PublicKey, h2[:], sig) {
						b.Fatal("mismatch")
					}
				}
			})
		case jwa.EdDSA:
			k := c.priv.(ed25519.PrivateKey)
			pub := k.Public().(ed25519.PublicKey)
			b.Run("EdDSA", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sig := ed25519.Sign(k, input)
					if !ed25519.Verify(pub, input, sig) {
						b.Fatal("mismatch")
					}
				}
			})
		}
	}
}

// TestRoundTripAllocs bounds the allocations of an HS256 compact round
// trip (Compact + VerifyCompact), the hot path of most JWT users.
func TestRoundTripAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation count")
	}
	hk := bytes.Repeat([]byte{0x5a}, 32)
	s, _ := jws.NewSigner(jwa.HS256, hk, &jws.SignerOptions{KeyID: "bench"})
	v, _ := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: hk})
	n := testing.AllocsPerRun(100, func() {
		tok, err := s.Compact(benchPayload)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := v.VerifyCompact(tok); err != nil {
			t.Fatal(err)
		}
	})
	if n > 10 {
		t.Fatalf("HS256 round trip: %v allocations, want at most 10", n)
	}
	t.Logf("HS256 round trip: %v allocations", n)
	_ = jose.ErrMalformed
}
