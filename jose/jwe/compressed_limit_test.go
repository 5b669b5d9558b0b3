package jwe

import (
	"bytes"
	"crypto/rand"
	"errors"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// TestCompressedSizeLimitJSON: Limits.MaxCompressedSize holds for the
// flattened and the general JSON serializations, the latter with two
// recipients (who share the one ciphertext): DEFLATE a byte over the limit
// is ErrLimitExceeded before any key function call, DEFLATE of exactly the
// limit decrypts.
func TestCompressedSizeLimitJSON(t *testing.T) {
	plaintextFor := plaintextDeflatingTo(t)
	k128, k256 := bytes.Repeat([]byte{1}, 16), bytes.Repeat([]byte{2}, 32)
	calls := 0
	d, err := NewDecrypter(DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.A128KW, jwa.A256KW},
		ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM},
		KeyFunc: func(h *jose.Header) (any, error) {
			calls++
			if h.Algorithm == string(jwa.A128KW) {
				return k128, nil
			}
			return k256, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEncrypter(jwa.A256KW, jwa.A128GCM, k256, &EncrypterOptions{Compress: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, over := range []int{0, 1} {
		pt := plaintextFor(jose.DefaultMaxCompressedSize + over)
		flat, err := e.Flattened(pt, nil)
		if err != nil {
			t.Fatal(err)
		}
		general, err := EncryptGeneral(jwa.A128GCM, pt, nil, &EncrypterOptions{Compress: true},
			Recipient{Algorithm: jwa.A128KW, Key: k128}, Recipient{Algorithm: jwa.A256KW, Key: k256})
		if err != nil {
			t.Fatal(err)
		}
		for name, tok := range map[string][]byte{"flattened": flat, "general": general} {
			calls = 0
			m, err := d.DecryptJSON(tok)
			switch {
			case over == 0 && (err != nil || !bytes.Equal(m.Plaintext, pt)):
				t.Errorf("%s: DEFLATE of the limit: %v", name, err)
			case over == 1 && !errors.Is(err, jose.ErrLimitExceeded):
				t.Errorf("%s: DEFLATE a byte over the limit: %v, want ErrLimitExceeded", name, err)
			case over == 1 && calls != 0:
				t.Errorf("%s: DEFLATE a byte over the limit: %d key function calls, want 0", name, calls)
			}
		}
	}
}

// plaintextDeflatingTo returns a function giving random bytes whose
// DEFLATE is exactly n bytes, for n up to DefaultMaxCompressedSize+960.
func plaintextDeflatingTo(t *testing.T) func(n int) []byte {
	random := make([]byte, jose.DefaultMaxCompressedSize+1024)
	rand.Read(random)
	return func(n int) []byte {
		for l := n - 64; l < n+64; l++ {
			if len(deflate(random[:l])) == n {
				return random[:l]
			}
		}
		t.Fatalf("no plaintext deflates to %d bytes", n)
		return nil
	}
}
