package jwe

import (
	"crypto/ecdh"
	"crypto/rand"
	"fmt"
	"testing"

	"github.com/josebench/josebench/jose/jwa"
)

// BenchmarkDHDecrypt decrypts a compact token of the RFC 7520 §4 payload
// with a local key for each Diffie-Hellman algorithm on P-256 and X25519:
// ECDH-ES, ECDH-ES+A128KW, HPKE Key Encryption and HPKE Integrated
// Encryption. It is the decryption path the check of every Diffie-Hellman
// output (jose/jwa dh.go) sits on, measured before and after it with the
// test binaries of both commits run in turn (cpu-ns/op, the CPU time of
// the benchmark's thread, moves much less than ns/op on a shared machine):
//
//	go test -c -o dh.test ./jose/jwe
//	./dh.test -test.run '^$' -test.bench DHDecrypt -test.benchmem -test.count 10
func BenchmarkDHDecrypt(b *testing.B) {
	for _, c := range []struct {
		curve ecdh.Curve
		algs  []jwa.KeyAlgorithm
	}{
		{ecdh.P256(), []jwa.KeyAlgorithm{jwa.ECDHES, jwa.ECDHESA128KW, jwa.HPKE0KE, jwa.HPKE0}},
		{ecdh.X25519(), []jwa.KeyAlgorithm{jwa.ECDHES, jwa.ECDHESA128KW, jwa.HPKE3KE, jwa.HPKE3}},
	} {
		priv, err := c.curve.GenerateKey(rand.Reader)
		if err != nil {
			b.Fatal(err)
		}
		for _, alg := range c.algs {
			enc := jwa.A128GCM
			var encs []jwa.ContentEncryption
			if alg.IsHPKEIntegrated() {
				enc = ""
			} else {
				encs = []jwa.ContentEncryption{enc}
			}
			e, err := NewEncrypter(alg, enc, priv.PublicKey(), nil)
			if err != nil {
				b.Fatal(err)
			}
			tok, err := e.Compact(bnPayload)
			if err != nil {
				b.Fatal(err)
			}
			d, err := NewDecrypter(DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{alg}, ContentEncryptions: encs, Key: priv})
			if err != nil {
				b.Fatal(err)
			}
			b.Run(string(alg)+"/"+fmt.Sprint(c.curve), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(bnPayload)))
				defer bnCPU(b)()
				for b.Loop() {
					if _, err := d.DecryptCompact(tok); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
