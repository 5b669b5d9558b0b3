package jwe

import (
	"bytes"
	"testing"

	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
)

// BenchmarkOneShot builds an Encrypter and a Decrypter and does one
// dir+A128GCM round trip per iteration, as a caller that makes them per
// token does; its ns/op is compared with
// BenchmarkRoundTripReuse/dir+A128GCM of the same run (target: at most 2×):
//
//	go test -run '^$' -bench 'OneShot|RoundTripReuse/dir\+A128GCM' -benchtime 200ms -count 3 ./jose/jwe/
func BenchmarkOneShot(b *testing.B) {
	key := bytes.Repeat([]byte{0x5a}, 16)
	opts := DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.Direct}, ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM}, Key: key}
	b.ReportAllocs()
	b.SetBytes(int64(len(bnPayload)))
	defer vectortest.MeasureCPU(b)()
	for b.Loop() {
		e, err := NewEncrypter(jwa.Direct, jwa.A128GCM, key, nil)
		if err != nil {
			b.Fatal(err)
		}
		d, err := NewDecrypter(opts)
		if err != nil {
			b.Fatal(err)
		}
		tok, err := e.Compact(bnPayload)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := d.DecryptCompact(tok); err != nil {
			b.Fatal(err)
		}
	}
}
