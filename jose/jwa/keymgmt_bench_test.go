package jwa

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"hash"
	"testing"

	"github.com/josebench/josebench/jose/internal/vectortest"
)

// Benchmarks of key management and content encryption, each beside the
// bare standard-library primitive it is built on (suffix "bare"), so the
// overhead of this package shows as a ratio within one run.

// benchPayload is a 167-byte payload, the size the harness encrypts.
var benchPayload = bytes.Repeat([]byte("JOSE bench payload."), 9)[:167]

const benchPBES2Count = 1000 // DefaultPBES2MinCount; PBKDF2 time is linear in it

func BenchmarkContentEncryption(b *testing.B) {
	aad := []byte("eyJhbGciOiJkaXIiLCJlbmMiOiJBMTI4R0NNIn0")
	for _, enc := range ContentEncryptions() {
		key := bytes.Repeat([]byte{0x11}, enc.KeySize())
		iv := make([]byte, enc.IVSize())
		aead, _ := NewContentCipher(enc, key)
		sealed := aead.Seal(nil, iv, benchPayload, aad)
		bare := benchBareAEAD(enc, key)
		b.Run(string(enc)+"/seal", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(benchPayload)))
			dst := make([]byte, 0, len(sealed))
			for b.Loop() {
				dst = aead.Seal(dst[:0], iv, benchPayload, aad)
			}
		})
		b.Run(string(enc)+"/seal-bare", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(benchPayload)))
			dst := make([]byte, 0, len(sealed))
			for b.Loop() {
				dst = bare.seal(dst[:0], iv, benchPayload, aad)
			}
		})
		b.Run(string(enc)+"/open", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(benchPayload)))
			dst := make([]byte, 0, len(sealed))
			for b.Loop() {
				if _, err := aead.Open(dst[:0], iv, sealed, aad); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(string(enc)+"/open-bare", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(benchPayload)))
			dst := make([]byte, 0, len(sealed))
			for b.Loop() {
				if _, ok := bare.open(dst[:0], iv, sealed, aad); !ok {
					b.Fatal("bare open failed")
				}
			}
		})
		// Per token: the CEK is new each time, so the key setup is paid.
		b.Run(string(enc)+"/new+seal", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				a, _ := NewContentCipher(enc, key)
				a.Seal(nil, iv, benchPayload, aad)
			}
		})
		b.Run(string(enc)+"/new+seal-bare", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				benchBareAEAD(enc, key).seal(nil, iv, benchPayload, aad)
			}
		})
	}
}

// benchBare is the content encryption written directly on crypto/aes,
// crypto/cipher and crypto/hmac, without checks beyond the MAC.
type benchBare struct {
	gcm    cipher.AEAD
	block  cipher.Block
	macKey []byte
	h      func() hash.Hash
	tagLen int
}

func benchBareAEAD(enc ContentEncryption, key []byte) *benchBare {
	if enc.IVSize() == 12 {
		blk, _ := aes.NewCipher(key)
		g, _ := cipher.NewGCM(blk)
		return &benchBare{gcm: g}
	}
	n := len(key) / 2
	blk, _ := aes.NewCipher(key[n:])
	h := sha256.New
	switch n {
	case 24:
		h = sha512.New384
	case 32:
		h = sha512.New
	}
	return &benchBare{block: blk, macKey: key[:n], h: h, tagLen: n}
}

func (bb *benchBare) mac(iv, ct, aad []byte) []byte {
	m := hmac.New(bb.h, bb.macKey)
	m.Write(aad)
	m.Write(iv)
	m.Write(ct)
	var al [8]byte
	al[6], al[7] = byte(len(aad)*8>>8), byte(len(aad)*8)
	m.Write(al[:])
	return m.Sum(nil)[:bb.tagLen]
}

func (bb *benchBare) seal(dst, iv, pt, aad []byte) []byte {
	if bb.gcm != nil {
		return bb.gcm.Seal(dst, iv, pt, aad)
	}
	pad := 16 - len(pt)%16
	out := append(dst, pt...)
	for range pad {
		out = append(out, byte(pad))
	}
	ct := out[len(dst):]
	cipher.NewCBCEncrypter(bb.block, iv).CryptBlocks(ct, ct)
	return append(out, bb.mac(iv, ct, aad)...)
}

func (bb *benchBare) open(dst, iv, sealed, aad []byte) ([]byte, bool) {
	if bb.gcm != nil {
		out, err := bb.gcm.Open(dst, iv, sealed, aad)
		return out, err == nil
	}
	ct := sealed[:len(sealed)-bb.tagLen]
	if !hmac.Equal(bb.mac(iv, ct, aad), sealed[len(ct):]) {
		return nil, false
	}
	out := append(dst, ct...)
	pt := out[len(dst):]
	cipher.NewCBCDecrypter(bb.block, iv).CryptBlocks(pt, pt)
	return out[:len(out)-int(pt[len(pt)-1])], true
}

// BenchmarkKeyManagement encrypts and decrypts a CEK for A128GCM (16
// bytes) with each key algorithm, beside the bare primitive.
func BenchmarkKeyManagement(b *testing.B) {
	const enc = A128GCM
	rsaKey := vectortest.RSAKey(b, 2048)
	run := func(name string, f func() error) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := f(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	cek16 := bytes.Repeat([]byte{0x22}, 16)

	// AES Key Wrap: bare is the 12 AES block encryptions RFC 3394 makes
	// for a 16-byte key, on a preexpanded key, plus the random CEK and the
	// output buffer.
	for _, alg := range []KeyAlgorithm{A128KW, A192KW, A256KW} {
		kek := bytes.Repeat([]byte{1}, alg.KeyWrapSize())
		e, _ := NewKeyEncrypter(alg, kek)
		d, _ := NewKeyDecrypter(alg, kek)
		_, ek, _ := e.EncryptKey(nil, enc, nil)
		blk, _ := aes.NewCipher(kek)
		run(string(alg)+"/encrypt", func() error { _, _, err := e.EncryptKey(nil, enc, nil); return err })
		run(string(alg)+"/decrypt", func() error { _, err := d.DecryptKey(ek, enc, nil); return err })
		var buf [16]byte
		run(string(alg)+"/wrap-bare", func() error {
			cek := make([]byte, 16)
			rand.Read(cek)
			out := make([]byte, 24)
			for range 12 {
				blk.Encrypt(buf[:], buf[:])
			}
			copy(out, buf[:])
			return nil
		})
	}

	// AES GCM key wrap: bare is cipher.AEAD.Seal/Open of 16 bytes.
	for _, alg := range []KeyAlgorithm{A128GCMKW, A192GCMKW, A256GCMKW} {
		kek := bytes.Repeat([]byte{1}, alg.KeyWrapSize())
		e, _ := NewKeyEncrypter(alg, kek)
		d, _ := NewKeyDecrypter(alg, kek)
		p := &KeyParams{}
		_, ek, _ := e.EncryptKey(nil, enc, p)
		blk, _ := aes.NewCipher(kek)
		g, _ := cipher.NewGCM(blk)
		sealed := g.Seal(nil, p.IV, cek16, nil)
		run(string(alg)+"/encrypt", func() error { _, _, err := e.EncryptKey(nil, enc, &KeyParams{}); return err })
		run(string(alg)+"/encrypt-bare", func() error {
			cek := make([]byte, 16)
			rand.Read(cek)
			iv := make([]byte, 12)
			rand.Read(iv)
			g.Seal(nil, iv, cek, nil)
			return nil
		})
		run(string(alg)+"/decrypt", func() error { _, err := d.DecryptKey(ek, enc, p); return err })
		run(string(alg)+"/decrypt-bare", func() error { _, err := g.Open(nil, p.IV, sealed, nil); return err })
	}

	// dir: bare is a copy of the key.
	{
		e, _ := NewKeyEncrypter(Direct, cek16)
		d, _ := NewKeyDecrypter(Direct, cek16)
		run("dir/encrypt", func() error { _, _, err := e.EncryptKey(nil, enc, nil); return err })
		run("dir/decrypt", func() error { _, err := d.DecryptKey(nil, enc, nil); return err })
		run("dir/copy-bare", func() error { _ = bytes.Clone(cek16); return nil })
	}

	// RSA: bare is crypto/rsa.
	for _, alg := range []KeyAlgorithm{RSA1_5, RSAOAEP, RSAOAEP256} {
		e, _ := NewKeyEncrypter(alg, &rsaKey.PublicKey)
		d, _ := NewKeyDecrypter(alg, rsaKey)
		_, ek, _ := e.EncryptKey(nil, enc, nil)
		run(string(alg)+"/encrypt", func() error { _, _, err := e.EncryptKey(nil, enc, nil); return err })
		run(string(alg)+"/decrypt", func() error { _, err := d.DecryptKey(ek, enc, nil); return err })
		switch alg {
		case RSA1_5:
			run(string(alg)+"/encrypt-bare", func() error { _, err := rsa.EncryptPKCS1v15(rand.Reader, &rsaKey.PublicKey, cek16); return err })
			run(string(alg)+"/decrypt-bare", func() error {
				k := make([]byte, 16)
				return rsa.DecryptPKCS1v15SessionKey(nil, rsaKey, ek, k)
			})
		default:
			h := func() hash.Hash { return sha256.New() }
			if alg == RSAOAEP {
				h = func() hash.Hash { return sha1.New() }
			}
			run(string(alg)+"/encrypt-bare", func() error { _, err := rsa.EncryptOAEP(h(), rand.Reader, &rsaKey.PublicKey, cek16, nil); return err })
			run(string(alg)+"/decrypt-bare", func() error { _, err := rsa.DecryptOAEP(h(), nil, rsaKey, ek, nil); return err })
		}
	}

	// ECDH-ES: bare is crypto/ecdh (an ephemeral key and an agreement to
	// encrypt, an agreement to decrypt).
	for _, crv := range []struct {
		name  string
		curve ecdh.Curve
	}{{"P-256", ecdh.P256()}, {"P-384", ecdh.P384()}, {"P-521", ecdh.P521()}, {"X25519", ecdh.X25519()}} {
		priv, _ := crv.curve.GenerateKey(rand.Reader)
		for _, alg := range []KeyAlgorithm{ECDHES, ECDHESA128KW, ECDHESA192KW, ECDHESA256KW} {
			e, _ := NewKeyEncrypter(alg, priv.PublicKey())
			d, _ := NewKeyDecrypter(alg, priv)
			p := &KeyParams{}
			_, ek, _ := e.EncryptKey(nil, enc, p)
			run(string(alg)+"/"+crv.name+"/encrypt", func() error { _, _, err := e.EncryptKey(nil, enc, &KeyParams{}); return err })
			run(string(alg)+"/"+crv.name+"/decrypt", func() error { _, err := d.DecryptKey(ek, enc, p); return err })
		}
		pub := priv.PublicKey()
		run("ECDH/"+crv.name+"/generate+agree-bare", func() error {
			eph, err := crv.curve.GenerateKey(rand.Reader)
			if err != nil {
				return err
			}
			_, err = eph.ECDH(pub)
			return err
		})
		eph, _ := crv.curve.GenerateKey(rand.Reader)
		epk := eph.PublicKey()
		run("ECDH/"+crv.name+"/agree-bare", func() error { _, err := priv.ECDH(epk); return err })
	}

	// PBES2: bare is crypto/pbkdf2 with the same count.
	for _, alg := range []KeyAlgorithm{PBES2HS256A128KW, PBES2HS384A192KW, PBES2HS512A256KW} {
		pw := []byte("Thus from my lips, by yours, my sin is purged.")
		e, _ := NewPBES2Encrypter(alg, pw, benchPBES2Count)
		d, _ := NewPBES2Decrypter(alg, pw, 0, 0)
		p := &KeyParams{}
		_, ek, _ := e.EncryptKey(nil, enc, p)
		run(string(alg)+"/encrypt", func() error { _, _, err := e.EncryptKey(nil, enc, &KeyParams{}); return err })
		run(string(alg)+"/decrypt", func() error { _, err := d.DecryptKey(ek, enc, p); return err })
		salt := append([]byte(string(alg)+"\x00"), p.P2S...)
		run(string(alg)+"/pbkdf2-bare", func() error {
			var err error
			switch alg {
			case PBES2HS256A128KW:
				_, err = pbkdf2.Key(sha256.New, string(pw), salt, benchPBES2Count, 16)
			case PBES2HS384A192KW:
				_, err = pbkdf2.Key(sha512.New384, string(pw), salt, benchPBES2Count, 24)
			default:
				_, err = pbkdf2.Key(sha512.New, string(pw), salt, benchPBES2Count, 32)
			}
			return err
		})
	}
}

// BenchmarkRSA1_5Decrypt compares RSA1_5 key decryption of a valid
// encrypted key with one whose padding is invalid: the RFC 7516 §11.5
// countermeasure should make them take the same time.
func BenchmarkRSA1_5Decrypt(b *testing.B) {
	key := vectortest.RSAKey(b, 2048)
	d, _ := NewKeyDecrypter(RSA1_5, key)
	valid, _ := rsa.EncryptPKCS1v15(rand.Reader, &key.PublicKey, bytes.Repeat([]byte{7}, 32))
	// Raw RSA of a block that does not start 00 02: invalid padding.
	em := bytes.Repeat([]byte{0x42}, key.Size())
	em[0] = 0
	invalid := rsaRawEncrypt(&key.PublicKey, em)
	for _, tc := range []struct {
		name string
		ek   []byte
	}{{"valid", valid}, {"invalid-padding", invalid}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := d.DecryptKey(tc.ek, A128CBCHS256, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
