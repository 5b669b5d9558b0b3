package jwe

import (
	"bytes"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
)

// TestDecrypterCacheRenews checks that the prepared-key cache renews itself
// instead of filling up for good: a KeyFunc that returns, for each new key,
// a set holding a new *jose.JWK (a rotating remote set) goes through more
// than maxCached keys; then a key met before the cap filled and two keys
// first met after it, used in turn (so that the most recent entry does not
// serve them), are each decrypted from the cache again, without
// allocating; the entries never exceed maxCached.
func TestDecrypterCacheRenews(t *testing.T) {
	type sealed struct {
		set *jose.Set
		tok []byte
	}
	mk := func(i int) sealed {
		key := bytes.Repeat([]byte{byte(i), byte(i >> 8)}, 8)
		e, err := NewEncrypter(jwa.Direct, jwa.A128GCM, key, nil) // one header for all: the header cache stays warm
		if err != nil {
			t.Fatal(err)
		}
		tok, err := e.Compact([]byte("plaintext"))
		if err != nil {
			t.Fatal(err)
		}
		return sealed{&jose.Set{Keys: []*jose.JWK{{Key: key}}}, tok}
	}
	var cur *jose.Set
	d, err := NewDecrypter(DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.Direct},
		ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM},
		KeyFunc:            func(*jose.Header) (any, error) { return cur, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	var m Message
	decrypt := func(s sealed) error {
		cur = s.set
		return d.DecryptCompactInto(&m, s.tok)
	}
	old := mk(0) // in use all along
	for i := 1; i <= maxCached+maxCached/2; i++ {
		for _, s := range []sealed{mk(i), old} {
			if err := decrypt(s); err != nil {
				t.Fatalf("key %d: %v", i, err)
			}
		}
		if n := d.cache.Len(); n > maxCached {
			t.Fatalf("%d prepared keys cached after %d keys, cap %d", n, i, maxCached)
		}
	}
	a, b := mk(maxCached*2), mk(maxCached*2+1) // first met after the cap
	for _, s := range []sealed{old, a, b} {
		if err := decrypt(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := vectortest.ZeroAllocs(t, "decryption with cached keys in turn", 100, func() error {
		for _, s := range []sealed{old, a, b} {
			if err := decrypt(s); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
