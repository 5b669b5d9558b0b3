package jwe

import (
	"bytes"
	"encoding/base64"
	"testing"

	"github.com/josebench/josebench/jose/jwa"
)

// TestAppendCompactReference compares AppendCompact, which seals into the
// token and encodes the ciphertext in place, with a token assembled the
// plain way (the AEAD's output in a buffer of its own, each part encoded
// with encoding/base64), for every plaintext length to 100 and lengths
// around the block sizes and 16, 64 and 512 KiB, every content encryption,
// dir and A128KW, with and without compression, and for dst nil, dst with
// content and no spare room, and dst with content and spare room full of
// garbage.
func TestAppendCompactReference(t *testing.T) {
	var lengths []int
	for n := range 101 {
		lengths = append(lengths, n)
	}
	for _, b := range []int{1 << 10, 16 << 10, 64 << 10, 512 << 10} {
		for d := -4; d <= 4; d++ {
			lengths = append(lengths, b+d)
		}
	}
	kek := bytes.Repeat([]byte{7}, 16)
	seed := bytes.Repeat([]byte{0x5a, 0xc3, 0x11}, 30)
	for _, enc := range jwa.ContentEncryptions() {
		for _, alg := range []jwa.KeyAlgorithm{jwa.Direct, jwa.A128KW} {
			for _, zip := range []bool{false, true} {
				key := kek
				if alg == jwa.Direct {
					key = seed[:enc.KeySize()]
				}
				e, err := NewEncrypter(alg, enc, key, &EncrypterOptions{Compress: zip})
				if err != nil {
					t.Fatal(err)
				}
				for i, n := range lengths {
					if zip && i%7 != 0 {
						continue
					}
					pt := make([]byte, n)
					for j := range pt {
						pt[j] = byte(j*31 + n)
					}
					ptCopy := bytes.Clone(pt)
					random := append(bytes.Clone(seed[:enc.KeySize()]), seed[50:50+enc.IVSize()]...)
					if alg == jwa.Direct {
						random = random[enc.KeySize():]
					}
					want := referenceCompact(t, e, alg, enc, key, random, pt)
					for _, dst := range [][]byte{nil, []byte("prefix."), append(bytes.Repeat([]byte{0xff}, 9000)[:5], "abc"...)} {
						if alg == jwa.Direct && n > 1024 && len(dst) != 0 {
							continue // the three cases of large lengths with A128KW suffice
						}
						prefix := bytes.Clone(dst)
						tok, err := e.encryptCompact(bytes.NewReader(random), dst, pt) // AppendCompact's path, chosen bytes
						if err != nil {
							t.Fatal(err)
						}
						if !bytes.Equal(pt, ptCopy) {
							t.Fatalf("%s %s zip=%v n=%d: plaintext modified", alg, enc, zip, n)
						}
						if !bytes.HasPrefix(tok, prefix) || !bytes.Equal(tok[len(prefix):], want) {
							t.Fatalf("%s %s zip=%v n=%d, dst of %d/%d bytes: token differs from the reference\n got %.200s\nwant %.200s",
								alg, enc, zip, n, len(dst), cap(dst), tok, append(prefix, want...))
						}
					}
				}
			}
		}
	}
}

// referenceCompact assembles the token e makes with the random bytes
// random (CEK, then IV) for pt, in separate buffers.
func referenceCompact(t *testing.T, e *Encrypter, alg jwa.KeyAlgorithm, enc jwa.ContentEncryption, key, random, pt []byte) []byte {
	t.Helper()
	var cek, ek []byte
	iv := random
	if alg == jwa.Direct {
		cek = key
	} else {
		cek, iv = random[:enc.KeySize()], random[enc.KeySize():]
		ke, err := jwa.NewKeyEncrypter(alg, key)
		if err != nil {
			t.Fatal(err)
		}
		if _, ek, err = ke.EncryptKey(cek, enc, &jwa.KeyParams{}); err != nil {
			t.Fatal(err)
		}
	}
	aead, err := jwa.NewContentCipher(enc, cek)
	if err != nil {
		t.Fatal(err)
	}
	if e.zip {
		pt = deflate(pt)
	}
	hdr := e.fixedHeader
	if hdr == nil {
		t.Fatalf("%s: no fixed header", alg)
	}
	raw := aead.Seal(nil, iv, pt, hdr)
	ct, tag := raw[:len(raw)-enc.TagSize()], raw[len(raw)-enc.TagSize():]
	var b []byte
	for i, part := range [][]byte{nil, ek, iv, ct, tag} {
		if i == 0 {
			b = append(b, hdr...)
			continue
		}
		b = append(b, '.')
		b = base64.RawURLEncoding.AppendEncode(b, part)
	}
	return b
}
