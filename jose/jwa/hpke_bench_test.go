package jwa

import (
	"crypto/ecdh"
	"crypto/hpke"
	"crypto/rand"
	"testing"
)

// BenchmarkHPKE0KE compares HPKE-0-KE key encryption and decryption of an
// A128GCM CEK with the bare crypto/hpke calls they make (NewSender and
// Seal, NewRecipient and Open, with the same info), in one run:
//
//	go test -run=NONE -bench=HPKE0KE -count=5 ./jose/jwa
func BenchmarkHPKE0KE(b *testing.B) {
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	e, err := NewKeyEncrypter(HPKE0KE, priv.PublicKey())
	if err != nil {
		b.Fatal(err)
	}
	d, err := NewKeyDecrypter(HPKE0KE, priv)
	if err != nil {
		b.Fatal(err)
	}
	var params KeyParams
	cek, ek, err := e.EncryptKey(nil, A128GCM, &params)
	if err != nil {
		b.Fatal(err)
	}
	pk, _ := hpke.NewDHKEMPublicKey(priv.PublicKey())
	sk, _ := hpke.NewDHKEMPrivateKey(priv)
	info := hpkeInfo(A128GCM)
	b.Run("primitive/seal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, s, err := hpke.NewSender(pk, hpke.HKDFSHA256(), hpke.AES128GCM(), info)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.Seal(nil, cek); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("jwa/EncryptKey", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var p KeyParams
			if _, _, err := e.EncryptKey(nil, A128GCM, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("primitive/open", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r, err := hpke.NewRecipient(params.EK, sk, hpke.HKDFSHA256(), hpke.AES128GCM(), info)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := r.Open(nil, ek); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("jwa/DecryptKey", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := d.DecryptKey(ek, A128GCM, &params); err != nil {
				b.Fatal(err)
			}
		}
	})
}
