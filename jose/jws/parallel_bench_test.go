package jws_test

import (
	"testing"

	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// BenchmarkRoundTripParallel is BenchmarkRoundTripReuse run by every P at
// once on one shared Signer and Verifier: nothing on the sign and verify
// paths is a shared lock, so ns/op should halve from -cpu 1 to -cpu 2 on
// two idle cores:
//
//	go test -run '^$' -bench RoundTripParallel -cpu 1,2 -benchtime 200ms ./jose/jws/
func BenchmarkRoundTripParallel(b *testing.B) {
	for _, c := range benchCases(b) {
		if c.alg != jwa.HS256 && c.alg != jwa.ES256 {
			continue
		}
		b.Run(string(c.alg), func(b *testing.B) {
			s, v, _ := benchSetup(b, c)
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				var tok []byte
				var m jws.Message
				for pb.Next() {
					var err error
					if tok, err = s.AppendCompact(tok[:0], benchPayload); err != nil {
						b.Error(err)
						return
					}
					if err := v.VerifyCompactInto(&m, tok); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
