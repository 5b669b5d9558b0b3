package jws_test

import (
	"bytes"
	"testing"

	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// BenchmarkOneShot builds a Signer and a Verifier and does one HS256 round
// trip per iteration, as a caller that makes them per request does; its
// ns/op is compared with BenchmarkRoundTripReuse/HS256 of the same run
// (target: at most 2×):
//
//	go test -run '^$' -bench 'OneShot|RoundTripReuse/HS256' -benchtime 200ms -count 3 ./jose/jws/
func BenchmarkOneShot(b *testing.B) {
	key := bytes.Repeat([]byte{0x5a}, 32)
	algs := []jwa.SignatureAlgorithm{jwa.HS256}
	b.ReportAllocs()
	for b.Loop() {
		s, err := jws.NewSigner(jwa.HS256, key, &jws.SignerOptions{KeyID: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		v, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: algs, Key: key})
		if err != nil {
			b.Fatal(err)
		}
		tok, err := s.Compact(benchPayload)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := v.VerifyCompact(tok); err != nil {
			b.Fatal(err)
		}
	}
}
