package jwe

import (
	"testing"

	"github.com/josebench/josebench/jose/jwa"
)

// BenchmarkRoundTripParallel is BenchmarkRoundTripReuse run by every P at
// once on one shared Encrypter and Decrypter (whose "dir" content cipher
// is made once and shared): nothing on the encrypt and decrypt paths is a
// shared lock, so ns/op should halve from -cpu 1 to -cpu 2 on two idle
// cores:
//
//	go test -run '^$' -bench RoundTripParallel -cpu 1,2 -benchtime 200ms ./jose/jwe/
func BenchmarkRoundTripParallel(b *testing.B) {
	for _, c := range []bnCase{
		{"dir+A128GCM", jwa.Direct, jwa.A128GCM},
		{"dir+A128CBC-HS256", jwa.Direct, jwa.A128CBCHS256},
	} {
		b.Run(c.name, func(b *testing.B) {
			e, d := bnSetup(b, c)
			b.ReportAllocs()
			b.SetBytes(int64(len(bnPayload)))
			b.RunParallel(func(pb *testing.PB) {
				var tok []byte
				var m Message
				for pb.Next() {
					var err error
					if tok, err = e.AppendCompact(tok[:0], bnPayload); err != nil {
						b.Error(err)
						return
					}
					if err := d.DecryptCompactInto(&m, tok); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
