package jwe

import (
	"bytes"
	"errors"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// TestKeyFuncSet checks that a *jose.Set returned by KeyFunc is selected
// from exactly as DecryptOptions.Keys is: the same outcome through both,
// and its JWKs prepared once.
func TestKeyFuncSet(t *testing.T) {
	kek := bytes.Repeat([]byte{1}, 16)
	wrong := bytes.Repeat([]byte{2}, 16)
	seal := func(kid string) []byte {
		e, err := NewEncrypter(jwa.A128KW, jwa.A128GCM, kek, &EncrypterOptions{KeyID: kid})
		if err != nil {
			t.Fatal(err)
		}
		tok, err := e.Compact([]byte("plaintext"))
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	many := &jose.Set{}
	for range MaxKeyCandidates {
		many.Keys = append(many.Keys, &jose.JWK{Key: wrong})
	}
	many.Keys = append(many.Keys, &jose.JWK{Key: kek})
	cases := []struct {
		name string
		set  *jose.Set
		tok  []byte
		want error // nil: decrypts
	}{
		{"kid", &jose.Set{Keys: []*jose.JWK{{Key: wrong, KeyID: "w"}, {Key: kek, KeyID: "k"}}}, seal("k"), nil},
		{"unknown kid", &jose.Set{Keys: []*jose.JWK{{Key: kek, KeyID: "k"}}}, seal("new"), jose.ErrKeyNotFound},
		{"kid of a key that does not permit alg", &jose.Set{Keys: []*jose.JWK{{Key: kek, KeyID: "k", Algorithm: "A256KW"}}}, seal("k"), jose.ErrAlgorithmNotAllowed}, // jose.Select
		{"no kid within MaxKeyCandidates", &jose.Set{Keys: many.Keys[1:]}, seal(""), nil},
		{"no kid beyond MaxKeyCandidates", many, seal(""), jose.ErrDecryptionFailed},
		{"empty set", &jose.Set{}, seal("k"), jose.ErrKeyNotFound},
	}
	opts := DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.A128KW}, ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fo, ko := opts, opts
			fo.KeyFunc = func(*jose.Header) (any, error) { return c.set, nil }
			ko.Keys = c.set
			fromFunc, err := NewDecrypter(fo)
			if err != nil {
				t.Fatal(err)
			}
			fromKeys, err := NewDecrypter(ko)
			if err != nil {
				t.Fatal(err)
			}
			for range 2 { // the second time from the caches
				_, errF := fromFunc.DecryptCompact(c.tok)
				_, errK := fromKeys.DecryptCompact(c.tok)
				for src, err := range map[string]error{"KeyFunc set": errF, "Keys": errK} {
					if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
						t.Fatalf("%s: %v, want %v", src, err, c.want)
					}
				}
			}
			if f, k := fromFunc.cache.Len(), fromKeys.cache.Len(); f != k {
				t.Fatalf("prepared %d keys from KeyFunc, %d from Keys", f, k)
			}
		})
	}
	fo := opts
	fo.KeyFunc = func(*jose.Header) (any, error) { return (*jose.Set)(nil), nil }
	d, _ := NewDecrypter(fo)
	if _, err := d.DecryptCompact(seal("k")); !errors.Is(err, jose.ErrKeyNotFound) {
		t.Fatalf("nil *jose.Set: %v", err)
	}
}
