package jws

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
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
)

// TestKeyFuncSet checks that a *jose.Set returned by KeyFunc is selected
// from exactly as VerifyOptions.Keys is: every case gives the same outcome
// through both, its JWKs are prepared once, and verifying costs the same
// allocations.
func TestKeyFuncSet(t *testing.T) {
	es, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	secret := bytes.Repeat([]byte{9}, 32)
	sign := func(kid string) []byte {
		s, err := NewSigner(jwa.ES256, es, &SignerOptions{KeyID: kid})
		if err != nil {
			t.Fatal(err)
		}
		tok, err := s.Compact([]byte("payload"))
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	many := &jose.Set{}
	for range MaxKeyCandidates {
		many.Keys = append(many.Keys, &jose.JWK{Key: &other.PublicKey})
	}
	many.Keys = append(many.Keys, &jose.JWK{Key: &es.PublicKey})
	within := &jose.Set{Keys: many.Keys[1:]}
	cases := []struct {
		name string
		set  *jose.Set
		tok  []byte
		want error // nil: verifies
	}{
		{"kid", &jose.Set{Keys: []*jose.JWK{{Key: &other.PublicKey, KeyID: "o"}, {Key: &es.PublicKey, KeyID: "es"}}}, sign("es"), nil},
		{"unknown kid", &jose.Set{Keys: []*jose.JWK{{Key: &es.PublicKey, KeyID: "es"}}}, sign("new"), jose.ErrKeyNotFound},
		{"kid of a key that does not fit", &jose.Set{Keys: []*jose.JWK{{Key: &es.PublicKey, KeyID: "es", Algorithm: "ES384"}}}, sign("es"), jose.ErrAlgorithmNotAllowed},
		{"two fitting keys of the kid", &jose.Set{Keys: []*jose.JWK{{Key: &es.PublicKey, KeyID: "es"}, {Key: &other.PublicKey, KeyID: "es"}}}, sign("es"), jose.ErrKeyNotFound},
		{"no kid within MaxKeyCandidates", within, sign(""), nil},
		{"no kid beyond MaxKeyCandidates", many, sign(""), jose.ErrVerificationFailed},
		{"empty set", &jose.Set{}, sign("es"), jose.ErrKeyNotFound},
		{"mixed set", &jose.Set{Keys: []*jose.JWK{{Key: &es.PublicKey}, {Key: secret}}}, sign(""), jose.ErrInvalidKey},
	}
	algs := []jwa.SignatureAlgorithm{jwa.ES256}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			calls := 0
			fromFunc, err := NewVerifier(VerifyOptions{Algorithms: algs, KeyFunc: func(*jose.Header) (any, error) {
				calls++
				return c.set, nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			fromKeys, keysErr := NewVerifier(VerifyOptions{Algorithms: algs, Keys: c.set})
			for range 2 { // the second time from the caches
				_, err := fromFunc.VerifyCompact(c.tok)
				if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
					t.Fatalf("KeyFunc set: %v, want %v", err, c.want)
				}
				if keysErr != nil {
					// Keys refuses at construction what KeyFunc
					// refuses per token.
					if !errors.Is(keysErr, c.want) {
						t.Fatalf("Keys: NewVerifier: %v, want %v", keysErr, c.want)
					}
					continue
				}
				if _, err := fromKeys.VerifyCompact(c.tok); !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
					t.Fatalf("Keys: %v, want %v", err, c.want)
				}
			}
			if calls != 2 {
				t.Fatalf("KeyFunc called %d times for 2 tokens", calls)
			}
			if keysErr == nil && fromFunc.cache.Len() != fromKeys.cache.Len() {
				t.Fatalf("prepared %d verifiers from KeyFunc, %d from Keys", fromFunc.cache.Len(), fromKeys.cache.Len())
			}
		})
	}

	t.Run("nil set", func(t *testing.T) {
		v, _ := NewVerifier(VerifyOptions{Algorithms: algs, KeyFunc: func(*jose.Header) (any, error) { return (*jose.Set)(nil), nil }})
		if _, err := v.VerifyCompact(sign("es")); !errors.Is(err, jose.ErrKeyNotFound) {
			t.Fatalf("nil *jose.Set: %v", err)
		}
	})

	t.Run("prepared once, same allocations", func(t *testing.T) {
		set := &jose.Set{Keys: []*jose.JWK{{Key: secret, KeyID: "h"}}}
		s, _ := NewSigner(jwa.HS256, secret, &SignerOptions{KeyID: "h"})
		tok, _ := s.Compact([]byte("payload"))
		hs := []jwa.SignatureAlgorithm{jwa.HS256}
		fromFunc, _ := NewVerifier(VerifyOptions{Algorithms: hs, KeyFunc: func(*jose.Header) (any, error) { return set, nil }})
		fromKeys, _ := NewVerifier(VerifyOptions{Algorithms: hs, Keys: set})
		allocs := func(v *Verifier) float64 {
			var m Message
			return testing.AllocsPerRun(100, func() {
				if err := v.VerifyCompactInto(&m, tok); err != nil {
					t.Fatal(err)
				}
			})
		}
		// Under the race detector sync.Pool drops items at random, so
		// allocation counts mean nothing there.
		if a, b := allocs(fromFunc), allocs(fromKeys); a != b && !vectortest.RaceEnabled {
			t.Fatalf("KeyFunc set: %v allocations per token, Keys: %v", a, b)
		}
		if n := fromFunc.cache.Len(); n != 1 {
			t.Fatalf("%d verifiers prepared for one key", n)
		}
		// A new set (a refreshed remote set) is checked again.
		mixed := &jose.Set{Keys: []*jose.JWK{{Key: secret, KeyID: "h"}, {Key: &es.PublicKey}}}
		set = mixed
		if _, err := fromFunc.VerifyCompact(tok); !errors.Is(err, jose.ErrInvalidKey) {
			t.Fatalf("mixed set after a good one: %v", err)
		}
	})
}

// TestKeyFuncSetCheckedOnce: a set KeyFunc returns for every token is
// checked for mixing once, not per token, while a mixed set is refused
// every time, and a new set, or the same set whose Keys was appended to or
// cut, is checked again. That the set is not walked again is observed by
// making it mixed in place after it was checked, against the rule that a
// returned set is not modified: a walk would refuse it.
func TestKeyFuncSetCheckedOnce(t *testing.T) {
	es, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	big := &jose.Set{}
	for i := range 500 {
		big.Keys = append(big.Keys, &jose.JWK{Key: bytes.Repeat([]byte{byte(i)}, 32), KeyID: fmt.Sprint("k", i)})
	}
	s, err := NewSigner(jwa.HS256, big.Keys[499].Key, &SignerOptions{KeyID: "k499"})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := s.Compact([]byte("payload"))
	if err != nil {
		t.Fatal(err)
	}
	cur, calls := big, 0
	v, err := NewVerifier(VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, KeyFunc: func(*jose.Header) (any, error) {
		calls++
		return cur, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	var m Message
	if err := v.VerifyCompactInto(&m, tok); err != nil {
		t.Fatal(err)
	}
	big.Keys[0] = &jose.JWK{Key: &es.PublicKey, KeyID: "pub"} // mixed in place from now on: not seen
	for i := range 100 {
		if err := v.VerifyCompactInto(&m, tok); err != nil {
			t.Fatalf("token %d: %v, want the checked set not walked again", i, err)
		}
	}
	if allocs := testing.AllocsPerRun(100, func() { _ = v.VerifyCompactInto(&m, tok) }); allocs != 0 && !vectortest.RaceEnabled { // sync.Pool drops items under -race
		t.Errorf("VerifyCompactInto through KeyFunc: %v allocs, want 0", allocs)
	}
	// The same set with a key appended is checked again, and refused for
	// every token: it is now mixed.
	big.Keys = append(big.Keys, big.Keys[1])
	for i := range 3 {
		if err := v.VerifyCompactInto(&m, tok); !errors.Is(err, jose.ErrInvalidKey) {
			t.Fatalf("appended set, token %d: %v, want ErrInvalidKey", i, err)
		}
	}
	// A new pointer is checked: the same keys, mixed, are refused for
	// every token.
	cur = &jose.Set{Keys: big.Keys[:500]}
	for i := range 3 {
		if err := v.VerifyCompactInto(&m, tok); !errors.Is(err, jose.ErrInvalidKey) {
			t.Fatalf("mixed set, token %d: %v, want ErrInvalidKey", i, err)
		}
	}
	if calls != 1+100+101+3+3 {
		t.Errorf("KeyFunc called %d times", calls)
	}
	// The set of Keys, checked by NewVerifier, is not walked again.
	keys := &jose.Set{Keys: slices.Clone(big.Keys[1:500])} // k1...k499
	fromKeys, err := NewVerifier(VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Keys: keys})
	if err != nil {
		t.Fatal(err)
	}
	keys.Keys[0] = big.Keys[0] // the public key, in place
	if err := fromKeys.VerifyCompactInto(&m, tok); err != nil {
		t.Fatalf("Keys: %v, want the set checked by NewVerifier not walked again", err)
	}
	// Cut, it is walked again: mixed, it is refused.
	keys.Keys = keys.Keys[:len(keys.Keys)-1]
	if err := fromKeys.VerifyCompactInto(&m, tok); !errors.Is(err, jose.ErrInvalidKey) {
		t.Fatalf("Keys cut: %v, want ErrInvalidKey (walked again)", err)
	}
}
