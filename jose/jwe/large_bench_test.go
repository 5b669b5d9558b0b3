package jwe

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"fmt"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/jwa"
)

// largeSizes are the plaintext sizes of BenchmarkLargePayload.
var largeSizes = []int{1 << 10, 16 << 10, 64 << 10, 512 << 10}

// BenchmarkLargePayload compares, for each size, a dir+A256GCM compact
// round trip with reused buffers (AppendCompact then DecryptCompactInto:
// "jwe") with its physical floor ("floor"): AES-256-GCM seal and open of
// the same bytes plus one base64url encoding and one decoding of the
// ciphertext, with jose's codec. The target is jwe within 1.15× of floor,
// with no allocation beyond the token and the plaintext (none when both are
// reused):
//
//	go test -run '^$' -bench LargePayload -benchtime 100x -count 3 ./jose/jwe/
func BenchmarkLargePayload(b *testing.B) {
	key := bytes.Repeat([]byte{0x42}, 32)
	for _, n := range largeSizes {
		pt := make([]byte, n)
		rand.Read(pt)
		b.Run(fmt.Sprintf("%dKiB/jwe", n>>10), func(b *testing.B) {
			e, err := NewEncrypter(jwa.Direct, jwa.A256GCM, key, nil)
			if err != nil {
				b.Fatal(err)
			}
			d, err := NewDecrypter(DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.Direct}, ContentEncryptions: []jwa.ContentEncryption{jwa.A256GCM}, Key: key})
			if err != nil {
				b.Fatal(err)
			}
			var tok []byte
			var m Message
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				if tok, err = e.AppendCompact(tok[:0], pt); err != nil {
					b.Fatal(err)
				}
				if err := d.DecryptCompactInto(&m, tok); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("%dKiB/floor", n>>10), func(b *testing.B) {
			block, _ := aes.NewCipher(key)
			aead, _ := cipher.NewGCM(block)
			iv := make([]byte, 12)
			aad := []byte("eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0")
			ct := make([]byte, 0, n+16)
			enc := make([]byte, 0, b64enc.EncodedLen(n+16))
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				rand.Read(iv)
				ct = aead.Seal(ct[:0], iv, pt, aad)
				enc = b64enc.Append(enc[:0], ct)
				dec, err := b64enc.AppendDecode(ct[:0], enc, jose.ErrMalformed)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := aead.Open(dec[:0], iv, dec, aad); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
