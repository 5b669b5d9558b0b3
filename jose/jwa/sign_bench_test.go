package jwa

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	dcrecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
)

// The signature benchmarks sign and verify the JWS Signing Input of
// RFC 7520 §4.1 (the 167-byte payload with a protected header), with this
// package (BenchmarkSign, BenchmarkVerify) and with the bare primitive of
// the standard library, or of decred's secp256k1 for ES256K
// (BenchmarkBareSign, BenchmarkBareVerify), so one run shows the cost of
// the jwa layer:
//
//	go test -run '^$' -bench 'Sign|Verify' -benchtime 200ms ./jose/jwa

// sigBenchCase is an algorithm with its key and the bare primitive.
type sigBenchCase struct {
	alg        SignatureAlgorithm
	key        any
	bareSign   func(input []byte) []byte
	bareVerify func(input, sig []byte) bool
}

func sigBenchCases(b *testing.B) []sigBenchCase {
	k := sigKeys(b)
	hmacCase := func(alg SignatureAlgorithm) sigBenchCase {
		h := alg.Hash()
		key := k.hmac[:h.Size()]
		mac := func(input []byte) []byte {
			m := hmac.New(h.New, key)
			m.Write(input)
			return m.Sum(nil)
		}
		return sigBenchCase{alg, key, mac, func(input, sig []byte) bool { return hmac.Equal(mac(input), sig) }}
	}
	ecCase := func(alg SignatureAlgorithm, key *ecdsa.PrivateKey) sigBenchCase {
		h := alg.Hash()
		return sigBenchCase{alg, key,
			func(input []byte) []byte {
				var buf [sha512.Size]byte
				sig, err := ecdsa.SignASN1(rand.Reader, key, sigDigest(h, input, &buf))
				if err != nil {
					b.Fatal(err)
				}
				return sig
			},
			func(input, sig []byte) bool {
				var buf [sha512.Size]byte
				return ecdsa.VerifyASN1(&key.PublicKey, sigDigest(h, input, &buf), sig)
			}}
	}
	rsaKey := k.rsa2048 // precomputed by x509.ParsePKCS8PrivateKey
	pssOpts := &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash}
	return []sigBenchCase{
		hmacCase(HS256), hmacCase(HS384), hmacCase(HS512),
		{RS256, rsaKey,
			func(input []byte) []byte {
				var buf [sha512.Size]byte
				sig, err := rsa.SignPKCS1v15(nil, rsaKey, crypto.SHA256, sigDigest(crypto.SHA256, input, &buf))
				if err != nil {
					b.Fatal(err)
				}
				return sig
			},
			func(input, sig []byte) bool {
				var buf [sha512.Size]byte
				return rsa.VerifyPKCS1v15(&rsaKey.PublicKey, crypto.SHA256, sigDigest(crypto.SHA256, input, &buf), sig) == nil
			}},
		{PS256, rsaKey,
			func(input []byte) []byte {
				var buf [sha512.Size]byte
				sig, err := rsa.SignPSS(rand.Reader, rsaKey, crypto.SHA256, sigDigest(crypto.SHA256, input, &buf), pssOpts)
				if err != nil {
					b.Fatal(err)
				}
				return sig
			},
			func(input, sig []byte) bool {
				var buf [sha512.Size]byte
				return rsa.VerifyPSS(&rsaKey.PublicKey, crypto.SHA256, sigDigest(crypto.SHA256, input, &buf), sig, pssOpts) == nil
			}},
		ecCase(ES256, k.p256), ecCase(ES384, k.p384), ecCase(ES512, k.p521),
		{EdDSA, k.ed,
			func(input []byte) []byte { return ed25519.Sign(k.ed, input) },
			func(input, sig []byte) bool { return ed25519.Verify(k.ed.Public().(ed25519.PublicKey), input, sig) }},
		es256kBareCase(sigSecp256k1(b, "a")),
	}
}

// es256kBareCase is ES256K against the bare calls of
// github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa: Sign and Verify, with
// the SHA-256 digest and the R||S bytes that any caller needs.
func es256kBareCase(key *Secp256k1PrivateKey) sigBenchCase {
	return sigBenchCase{ES256K, key,
		func(input []byte) []byte {
			d := sha256.Sum256(input)
			sig := dcrecdsa.Sign(&key.d, d[:])
			var rs [64]byte
			r, s := sig.R(), sig.S()
			r.PutBytesUnchecked(rs[:32])
			s.PutBytesUnchecked(rs[32:])
			return rs[:]
		},
		func(input, sig []byte) bool {
			d := sha256.Sum256(input)
			var r, s secp256k1.ModNScalar
			r.SetByteSlice(sig[:32])
			s.SetByteSlice(sig[32:])
			return dcrecdsa.NewSignature(&r, &s).Verify(d[:], &key.pub.k)
		}}
}

func BenchmarkSign(b *testing.B) {
	input := sigTestInput(b)
	for _, c := range sigBenchCases(b) {
		b.Run(string(c.alg), func(b *testing.B) {
			s, err := NewSigner(c.alg, c.key)
			if err != nil {
				b.Fatal(err)
			}
			dst := make([]byte, 0, 512)
			b.ReportAllocs()
			b.SetBytes(int64(len(input)))
			for b.Loop() {
				if _, err := s.Sign(dst, input); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkBareSign(b *testing.B) {
	input := sigTestInput(b)
	for _, c := range sigBenchCases(b) {
		b.Run(string(c.alg), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(input)))
			for b.Loop() {
				c.bareSign(input)
			}
		})
	}
}

func BenchmarkVerify(b *testing.B) {
	input := sigTestInput(b)
	for _, c := range sigBenchCases(b) {
		b.Run(string(c.alg), func(b *testing.B) {
			s, err := NewSigner(c.alg, c.key)
			if err != nil {
				b.Fatal(err)
			}
			sig, err := s.Sign(nil, input)
			if err != nil {
				b.Fatal(err)
			}
			v, err := NewVerifier(c.alg, sigPublicKey(c.key))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(input)))
			for b.Loop() {
				if err := v.Verify(input, sig); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkBareVerify(b *testing.B) {
	input := sigTestInput(b)
	for _, c := range sigBenchCases(b) {
		b.Run(string(c.alg), func(b *testing.B) {
			sig := c.bareSign(input)
			if !c.bareVerify(input, sig) {
				b.Fatal("bare signature does not verify")
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(input)))
			for b.Loop() {
				if !c.bareVerify(input, sig) {
					b.Fatal("verification failed")
				}
			}
		})
	}
}

// BenchmarkNewVerifier measures key setup, which callers that verify with
// keys from a JWK Set may pay per token.
func BenchmarkNewVerifier(b *testing.B) {
	for _, c := range sigBenchCases(b) {
		b.Run(string(c.alg), func(b *testing.B) {
			pub := sigPublicKey(c.key)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := NewVerifier(c.alg, pub); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
