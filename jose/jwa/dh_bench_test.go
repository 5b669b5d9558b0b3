package jwa

import (
	"crypto/ecdh"
	"crypto/rand"
	"fmt"
	"testing"

	"github.com/josebench/josebench/jose/internal/vectortest"
)

// BenchmarkAgree compares, on each curve, the checked agreement every
// ECDH-ES and HPKE decryption goes through (agree, dh.go: the peer's
// curve, X25519 points of small order, the secret's size and all-zero
// test) with the bare crypto/ecdh agreement it wraps, in one run; and
// measures the check alone, around a key that answers a fixed secret at
// no cost ("check-only"):
//
//	go test -run '^$' -bench Agree -benchmem -count 10 ./jose/jwa
func BenchmarkAgree(b *testing.B) {
	for _, c := range []ecdh.Curve{ecdh.P256(), ecdh.P384(), ecdh.P521(), ecdh.X25519()} {
		priv, err := c.GenerateKey(rand.Reader)
		if err != nil {
			b.Fatal(err)
		}
		eph, err := c.GenerateKey(rand.Reader)
		if err != nil {
			b.Fatal(err)
		}
		peer := eph.PublicKey()
		key := &dhKey{k: priv, pub: priv.PublicKey()}
		b.Run(fmt.Sprint(c)+"/bare", func(b *testing.B) {
			b.ReportAllocs()
			defer vectortest.MeasureCPU(b)()
			for b.Loop() {
				if _, err := priv.ECDH(peer); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprint(c)+"/checked", func(b *testing.B) {
			b.ReportAllocs()
			defer vectortest.MeasureCPU(b)()
			for b.Loop() {
				if _, err := key.ECDH(peer); err != nil {
					b.Fatal(err)
				}
			}
		})
		z, _ := priv.ECDH(peer)
		free := &dhKey{k: dhFixed{priv, z}, pub: priv.PublicKey(), opaque: true}
		b.Run(fmt.Sprint(c)+"/check-only", func(b *testing.B) {
			b.ReportAllocs()
			defer vectortest.MeasureCPU(b)()
			for b.Loop() {
				if _, err := free.ECDH(peer); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// dhFixed is a key that answers z to every peer, at no cost.
type dhFixed struct {
	*ecdh.PrivateKey
	z []byte
}

func (k dhFixed) ECDH(*ecdh.PublicKey) ([]byte, error) { return k.z, nil }
