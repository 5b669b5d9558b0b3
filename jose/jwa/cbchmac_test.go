package jwa

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"hash"
	"testing"
)

// TestCBCHMACOneMessageAllocs pins the cost of an AES_CBC_HMAC_SHA2 AEAD
// made for one message, as every token with a wrapped, agreed or derived
// CEK makes it: its primitives (an AES cipher, a keyed crypto/hmac, one
// CBC mode), made alone, and three more (the AEAD, and the HMAC and mode
// kept in it, which then escape): 10 allocations with Go 1.26. Its one
// Seal or Open must not go through a sync.Pool of its own, whose first
// use takes the runtime's global pool lock and allocates a cache per P
// (14 allocations, more bytes with every P).
func TestCBCHMACOneMessageAllocs(t *testing.T) {
	if testing.CoverMode() != "" || sigRaceEnabled {
		t.Skip("coverage instrumentation and the race detector allocate")
	}
	hashes := map[ContentEncryption]func() hash.Hash{A128CBCHS256: sha256.New, A256CBCHS512: sha512.New}
	for enc, h := range hashes {
		key := make([]byte, enc.KeySize())
		iv := make([]byte, enc.IVSize())
		pt := make([]byte, 167)
		a, _ := NewContentCipher(enc, key)
		sealed := a.Seal(nil, iv, pt, nil)
		buf := make([]byte, 0, len(sealed))
		floor := testing.AllocsPerRun(100, func() {
			b, _ := aes.NewCipher(key[len(key)/2:])
			m := hmac.New(h, key[:len(key)/2])
			m.Write(pt)
			cipher.NewCBCEncrypter(b, iv).CryptBlocks(buf[:16], pt[:16])
		})
		for name, f := range map[string]func(){
			"Seal": func() {
				a, _ := NewContentCipher(enc, key)
				a.Seal(buf[:0], iv, pt, nil)
			},
			"Open": func() {
				a, _ := NewContentCipher(enc, key)
				a.Open(buf[:0], iv, sealed, nil)
			},
		} {
			if n := testing.AllocsPerRun(100, f); n > floor+3 {
				t.Errorf("%s: new AEAD and one %s: %v allocations, its primitives %v", enc, name, n, floor)
			}
		}
	}
}
