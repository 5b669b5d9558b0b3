package jwe

import (
	"crypto/cipher"
	"crypto/rand"
	"testing"

	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
)

// bnCPU reports the benchmark's cpu-ns/op (vectortest.MeasureCPU).
var bnCPU = vectortest.MeasureCPU

// bnPayload is the RFC 7520 §4 payload (167 bytes).
var bnPayload = []byte("It\u2019s a dangerous business, Frodo, going out your door. You step onto the road, and if you don't keep your feet, there\u2019s no knowing where you might be swept off to.")

type bnCase struct {
	name string
	alg  jwa.KeyAlgorithm
	enc  jwa.ContentEncryption
}

var bnCases = []bnCase{
	{"dir+A128GCM", jwa.Direct, jwa.A128GCM},
	{"A128KW+A128CBC-HS256", jwa.A128KW, jwa.A128CBCHS256},
	{"RSA-OAEP+A128GCM", jwa.RSAOAEP, jwa.A128GCM},
	{"ECDH-ES+A128KW+A128GCM", jwa.ECDHESA128KW, jwa.A128GCM},
}

func bnSetup(b *testing.B, c bnCase) (*Encrypter, *Decrypter) {
	ek, dk := rtKeys(b, c.alg, c.enc, "P-256")
	e, err := NewEncrypter(c.alg, c.enc, ek, nil)
	if err != nil {
		b.Fatal(err)
	}
	return e, rtDecrypter(b, c.alg, c.enc, dk)
}

// BenchmarkRoundTrip: Compact then DecryptCompact of the RFC 7520 §4
// payload.
func BenchmarkRoundTrip(b *testing.B) {
	for _, c := range bnCases {
		b.Run(c.name, func(b *testing.B) {
			e, d := bnSetup(b, c)
			b.ReportAllocs()
			b.SetBytes(int64(len(bnPayload)))
			defer vectortest.MeasureCPU(b)()
			for b.Loop() {
				tok, err := e.Compact(bnPayload)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := d.DecryptCompact(tok); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRoundTripReuse is BenchmarkRoundTrip with the token buffer and
// the Message reused: AppendCompact then DecryptCompactInto.
func BenchmarkRoundTripReuse(b *testing.B) {
	for _, c := range bnCases {
		b.Run(c.name, func(b *testing.B) {
			e, d := bnSetup(b, c)
			var tok []byte
			var m Message
			b.ReportAllocs()
			b.SetBytes(int64(len(bnPayload)))
			defer vectortest.MeasureCPU(b)()
			for b.Loop() {
				var err error
				if tok, err = e.AppendCompact(tok[:0], bnPayload); err != nil {
					b.Fatal(err)
				}
				if err := d.DecryptCompactInto(&m, tok); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEncrypt(b *testing.B) {
	for _, c := range bnCases {
		b.Run(c.name, func(b *testing.B) {
			e, _ := bnSetup(b, c)
			b.ReportAllocs()
			b.SetBytes(int64(len(bnPayload)))
			defer vectortest.MeasureCPU(b)()
			for b.Loop() {
				if _, err := e.Compact(bnPayload); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecrypt(b *testing.B) {
	for _, c := range bnCases {
		b.Run(c.name, func(b *testing.B) {
			e, d := bnSetup(b, c)
			tok, _ := e.Compact(bnPayload)
			b.ReportAllocs()
			b.SetBytes(int64(len(bnPayload)))
			defer vectortest.MeasureCPU(b)()
			for b.Loop() {
				if _, err := d.DecryptCompact(tok); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBare is the primitive work of one round trip without JOSE: a
// random IV (and CEK), key management through jwa (prepared once, as the
// Encrypter and Decrypter do; for ECDH-ES with the receiver decoding the
// ephemeral point), the content cipher for the CEK, and seal and open of
// the payload with the encoded protected header as AAD. For dir the content
// cipher is made once.
func BenchmarkBare(b *testing.B) {
	for _, c := range bnCases {
		b.Run(c.name, func(b *testing.B) {
			ek, dk := rtKeys(b, c.alg, c.enc, "P-256")
			ke, err := jwa.NewKeyEncrypter(c.alg, ek)
			if err != nil {
				b.Fatal(err)
			}
			kd, err := jwa.NewKeyDecrypter(c.alg, dk)
			if err != nil {
				b.Fatal(err)
			}
			e, _ := bnSetup(b, c)
			_, _, p, err := e.contentKey(nil)
			if err != nil {
				b.Fatal(err)
			}
			aad, err := e.encodedHeader(p)
			if err != nil {
				b.Fatal(err)
			}
			var dirAEAD cipher.AEAD
			if c.alg == jwa.Direct {
				cek, _, _ := ke.EncryptKey(nil, c.enc, &jwa.KeyParams{})
				dirAEAD, _ = jwa.NewContentCipher(c.enc, cek)
			}
			iv := make([]byte, c.enc.IVSize())
			cek := make([]byte, c.enc.KeySize())
			buf := make([]byte, 0, len(bnPayload)+64)
			b.ReportAllocs()
			b.SetBytes(int64(len(bnPayload)))
			defer vectortest.MeasureCPU(b)()
			for b.Loop() {
				rand.Read(iv)
				sealer, opener := dirAEAD, dirAEAD
				if dirAEAD == nil {
					rand.Read(cek)
					var p jwa.KeyParams
					cekOut, wrapped, err := ke.EncryptKey(cek, c.enc, &p)
					if err != nil {
						b.Fatal(err)
					}
					if sealer, err = jwa.NewContentCipher(c.enc, cekOut); err != nil {
						b.Fatal(err)
					}
					if p.EPK != nil {
						// The receiver decodes and checks the sender's point.
						if p.EPK, err = p.EPK.Curve().NewPublicKey(p.EPK.Bytes()); err != nil {
							b.Fatal(err)
						}
					}
					cek2, err := kd.DecryptKey(wrapped, c.enc, &p)
					if err != nil {
						b.Fatal(err)
					}
					if opener, err = jwa.NewContentCipher(c.enc, cek2); err != nil {
						b.Fatal(err)
					}
				}
				ct := sealer.Seal(buf[:0], iv, bnPayload, aad)
				if _, err := opener.Open(ct[:0], iv, ct, aad); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
