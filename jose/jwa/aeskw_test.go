package jwa

import (
	"bytes"
	"crypto/aes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"testing"
)

// kwVector is one RFC 3394 §4 test vector from testdata/rfc3394.json.
type kwVector struct {
	Name    string `json:"name"`
	KEK     string `json:"kek"`
	Key     string `json:"key"`
	Wrapped string `json:"wrapped"`
}

func kwLoadVectors(t testing.TB) []kwVector {
	t.Helper()
	data, err := os.ReadFile("testdata/rfc3394.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Tests []kwVector `json:"tests"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Tests) != 6 {
		t.Fatalf("testdata/rfc3394.json: %d vectors, want 6", len(f.Tests))
	}
	return f.Tests
}

func kwHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestAESKeyWrapRFC3394(t *testing.T) {
	for _, v := range kwLoadVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			block, err := aes.NewCipher(kwHex(t, v.KEK))
			if err != nil {
				t.Fatal(err)
			}
			key, want := kwHex(t, v.Key), kwHex(t, v.Wrapped)
			got, err := WrapKey(nil, block, key)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("WrapKey = %x, %v; want %x", got, err, want)
			}
			// Append semantics: the prefix is kept.
			got, err = WrapKey([]byte("prefix"), block, key)
			if err != nil || !bytes.Equal(got, append([]byte("prefix"), want...)) {
				t.Fatalf("WrapKey(prefix) = %x, %v", got, err)
			}
			unwrapped, err := UnwrapKey(nil, block, want)
			if err != nil || !bytes.Equal(unwrapped, key) {
				t.Fatalf("UnwrapKey = %x, %v; want %x", unwrapped, err, key)
			}
			for i := range len(want) * 8 {
				bad := bytes.Clone(want)
				bad[i/8] ^= 1 << (i % 8)
				dst := make([]byte, 2, 64)
				out, err := UnwrapKey(dst, block, bad)
				if !errors.Is(err, ErrDecryption) {
					t.Fatalf("bit %d flipped: UnwrapKey err = %v, want ErrDecryption", i, err)
				}
				if len(out) != 2 || !bytes.Equal(dst[:cap(dst)], make([]byte, cap(dst))) {
					t.Fatalf("bit %d flipped: output not cleared or dst extended: %x", i, dst[:cap(dst)])
				}
			}
		})
	}
}

func TestAESKeyWrapBadLengths(t *testing.T) {
	block, _ := aes.NewCipher(make([]byte, 16))
	for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 23, 25, 31, 33} {
		if _, err := UnwrapKey(nil, block, make([]byte, n)); !errors.Is(err, ErrDecryption) {
			t.Errorf("UnwrapKey(%d bytes) err = %v, want ErrDecryption", n, err)
		}
	}
	for _, n := range []int{0, 1, 7, 8, 9, 15, 17, 23} {
		if out, err := WrapKey(nil, block, make([]byte, n)); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("WrapKey(%d bytes) = %x, want an error", n, out)
		}
	}
	// 24 zero bytes are well formed but fail the integrity check.
	if _, err := UnwrapKey(nil, block, make([]byte, 24)); !errors.Is(err, ErrDecryption) {
		t.Errorf("UnwrapKey(zeros) err = %v", err)
	}
}

func TestAESKeyWrapRoundTripSizes(t *testing.T) {
	for _, kekSize := range []int{16, 24, 32} {
		block, _ := aes.NewCipher(bytes.Repeat([]byte{byte(kekSize)}, kekSize))
		other, _ := aes.NewCipher(bytes.Repeat([]byte{0x55}, kekSize))
		for n := 16; n <= 80; n += 8 {
			key := make([]byte, n)
			for i := range key {
				key[i] = byte(i * 7)
			}
			w, err := WrapKey(nil, block, key)
			if err != nil || len(w) != n+8 {
				t.Fatalf("kek %d key %d: WrapKey len %d err %v", kekSize, n, len(w), err)
			}
			u, err := UnwrapKey(nil, block, w)
			if err != nil || !bytes.Equal(u, key) {
				t.Fatalf("kek %d key %d: round trip %x, %v", kekSize, n, u, err)
			}
			if _, err := UnwrapKey(nil, other, w); !errors.Is(err, ErrDecryption) {
				t.Fatalf("kek %d key %d: wrong KEK err = %v", kekSize, n, err)
			}
		}
	}
}

func TestAESKeyWrapPanicsOnNonAESBlock(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for an 8-byte block cipher")
		}
	}()
	WrapKey(nil, kwFakeBlock{}, make([]byte, 16))
}

type kwFakeBlock struct{}

func (kwFakeBlock) BlockSize() int          { return 8 }
func (kwFakeBlock) Encrypt(dst, src []byte) {}
func (kwFakeBlock) Decrypt(dst, src []byte) {}
