package jwe

import (
	"crypto/ecdh"
	"crypto/rand"
	"testing"

	"github.com/josebench/josebench/jose/jwa"
)

// BenchmarkHPKE encrypts and decrypts the RFC 7520 §4 payload in compact
// form with HPKE-0-KE and, beside it, ECDH-ES on the same P-256 key: both
// do one ephemeral key agreement per message, so the difference is what
// the layer costs. The bare crypto/hpke calls are in jose/jwa's
// BenchmarkHPKE0KE:
//
//	go test -run '^$' -bench HPKE -benchmem -count 3 ./jose/jwa ./jose/jwe
func BenchmarkHPKE(b *testing.B) {
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	for _, alg := range []jwa.KeyAlgorithm{jwa.HPKE0KE, jwa.ECDHES} {
		e, err := NewEncrypter(alg, jwa.A128GCM, priv.PublicKey(), nil)
		if err != nil {
			b.Fatal(err)
		}
		d, err := NewDecrypter(DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{alg}, ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM}, Key: priv})
		if err != nil {
			b.Fatal(err)
		}
		tok, err := e.Compact(bnPayload)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(string(alg)+"/Encrypt", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bnPayload)))
			for b.Loop() {
				if _, err := e.Compact(bnPayload); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(string(alg)+"/Decrypt", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bnPayload)))
			for b.Loop() {
				if _, err := d.DecryptCompact(tok); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
