package jwe

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
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

// TestKeyFuncSetCheckedOnce: a set KeyFunc returns for every token is
// checked for mixing once, not per token, while a mixed set is refused
// every time, and a new set, or the same set whose Keys was appended to or
// cut, is checked again. That the set is not walked again is observed by
// making it mixed in place after it was checked, against the rule that a
// returned set is not modified: a walk would refuse it.
func TestKeyFuncSetCheckedOnce(t *testing.T) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	big := &jose.Set{}
	for i := range 500 {
		big.Keys = append(big.Keys, &jose.JWK{Key: bytes.Repeat([]byte{byte(i)}, 16), KeyID: fmt.Sprint("k", i)})
	}
	e, err := NewEncrypter(jwa.Direct, jwa.A128GCM, big.Keys[499].Key, &EncrypterOptions{KeyID: "k499"})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := e.Compact([]byte("plaintext"))
	if err != nil {
		t.Fatal(err)
	}
	cur, calls := big, 0
	opts := DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.Direct}, ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM}}
	opts.KeyFunc = func(*jose.Header) (any, error) {
		calls++
		return cur, nil
	}
	d, err := NewDecrypter(opts)
	if err != nil {
		t.Fatal(err)
	}
	var m Message
	if err := d.DecryptCompactInto(&m, tok); err != nil {
		t.Fatal(err)
	}
	big.Keys[0] = &jose.JWK{Key: &priv.PublicKey, KeyID: "pub"} // mixed in place from now on: not seen
	for i := range 100 {
		if err := d.DecryptCompactInto(&m, tok); err != nil {
			t.Fatalf("token %d: %v, want the checked set not walked again", i, err)
		}
	}
	if allocs := testing.AllocsPerRun(100, func() { _ = d.DecryptCompactInto(&m, tok) }); allocs != 0 {
		t.Errorf("DecryptCompactInto through KeyFunc: %v allocs, want 0", allocs)
	}
	// The same set with a key appended is checked again, and refused for
	// every token: it is now mixed.
	big.Keys = append(big.Keys, big.Keys[1])
	for i := range 3 {
		if err := d.DecryptCompactInto(&m, tok); !errors.Is(err, jose.ErrInvalidKey) {
			t.Fatalf("appended set, token %d: %v, want ErrInvalidKey", i, err)
		}
	}
	// A new pointer is checked: the same keys, mixed, are refused for
	// every token.
	cur = &jose.Set{Keys: big.Keys[:500]}
	for i := range 3 {
		if err := d.DecryptCompactInto(&m, tok); !errors.Is(err, jose.ErrInvalidKey) {
			t.Fatalf("mixed set, token %d: %v, want ErrInvalidKey", i, err)
		}
	}
	if calls != 1+100+101+3+3 {
		t.Errorf("KeyFunc called %d times", calls)
	}
	// The set of Keys, checked by NewDecrypter, is not walked again.
	keys := &jose.Set{Keys: slices.Clone(big.Keys[1:500])} // k1...k499
	opts.KeyFunc, opts.Keys = nil, keys
	fromKeys, err := NewDecrypter(opts)
	if err != nil {
		t.Fatal(err)
	}
	keys.Keys[0] = big.Keys[0] // the public key, in place
	if err := fromKeys.DecryptCompactInto(&m, tok); err != nil {
		t.Fatalf("Keys: %v, want the set checked by NewDecrypter not walked again", err)
	}
	// Cut, it is walked again: mixed, it is refused.
	keys.Keys = keys.Keys[:len(keys.Keys)-1]
	if err := fromKeys.DecryptCompactInto(&m, tok); !errors.Is(err, jose.ErrInvalidKey) {
		t.Fatalf("Keys cut: %v, want ErrInvalidKey (walked again)", err)
	}
}
