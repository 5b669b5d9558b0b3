package jose_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// TestSelect covers each rule of the key-selection policy that jws and jwe
// share.
func TestSelect(t *testing.T) {
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	oct := func(b byte, kid string) *jose.JWK { return &jose.JWK{Key: bytes.Repeat([]byte{b}, 32), KeyID: kid} }
	unusable, err := jose.ParseSet([]byte(`{"keys":[{"kty":"oct","kid":"u","k":""}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		keys []*jose.JWK
		alg  jwa.SignatureAlgorithm
		kid  string
		want []int // indexes into keys
		err  error
	}{
		{"no kid: fitting keys in order", []*jose.JWK{oct(1, ""), {Key: p256}, oct(2, "")}, jwa.HS256, "", []int{0, 2}, nil},
		{"no kid: at most max, unfit ones not counted", []*jose.JWK{{Key: &p384.PublicKey}, {Key: &p384.PublicKey}, {Key: &p384.PublicKey}, {Key: &p256.PublicKey}, {Key: &p256.PublicKey}, {Key: &p256.PublicKey}}, jwa.ES256, "", []int{3, 4}, nil},
		{"no kid: none fits", []*jose.JWK{{Key: &p384.PublicKey}}, jwa.ES256, "", nil, jose.ErrKeyNotFound},
		{"kid: one fitting key", []*jose.JWK{oct(1, "a"), oct(2, "b")}, jwa.HS256, "b", []int{1}, nil},
		{"kid: two fitting keys are ambiguous", []*jose.JWK{oct(1, "a"), oct(2, "a")}, jwa.HS256, "a", nil, jose.ErrKeyNotFound},
		{"kid: a key of another use does not compete", []*jose.JWK{{Key: bytes.Repeat([]byte{1}, 32), KeyID: "a", Use: "enc"}, oct(2, "a")}, jwa.HS256, "a", []int{1}, nil},
		{"kid: absent", []*jose.JWK{oct(1, "a")}, jwa.HS256, "z", nil, jose.ErrKeyNotFound},
		{"kid: present, no key can serve alg", []*jose.JWK{{Key: bytes.Repeat([]byte{1}, 32), KeyID: "a", Algorithm: "HS512"}}, jwa.HS256, "a", nil, jose.ErrAlgorithmNotAllowed},
		{"kid: fitting key and unusable entry of its kty", []*jose.JWK{oct(1, "u"), unusable.Keys[0]}, jwa.HS256, "u", nil, jose.ErrKeyNotFound},
		{"mixed set", []*jose.JWK{oct(1, ""), {Key: &p256.PublicKey}}, jwa.HS256, "", nil, jose.ErrInvalidKey},
	} {
		t.Run(c.name, func(t *testing.T) {
			set := &jose.Set{Keys: c.keys}
			var buf [2]*jose.JWK
			got, err := jose.Select(buf[:0], set, c.alg, c.kid, jose.OpVerify, len(buf), nil)
			if !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
				t.Fatalf("err %v, want %v", err, c.err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("selected %d keys, want %d", len(got), len(c.want))
			}
			for i, w := range c.want {
				if got[i] != set.Keys[w] {
					t.Errorf("key %d is not keys[%d]", i, w)
				}
			}
		})
	}
	set := &jose.Set{Keys: []*jose.JWK{{Key: &p384.PublicKey}, {Key: &p256.PublicKey, KeyID: "b"}}}
	if n := testing.AllocsPerRun(100, func() {
		var buf [2]*jose.JWK
		if _, err := jose.Select(buf[:0], set, jwa.ES256, "b", jose.OpVerify, 2, nil); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Select allocates %v times", n)
	}
}

// TestSelectUnusableEntry: a token whose kid names only an unusable entry
// is told that the entry is unusable and why (with the kid cut), not that
// its algorithm is not allowed (issue 18, finding 8d).
func TestSelectUnusableEntry(t *testing.T) {
	long := strings.Repeat("k", 1000)
	set, err := jose.ParseSet([]byte(`{"keys":[{"kty":"oct","kid":"u","k":""},{"kty":"XYZ","kid":"x"},` +
		`{"kty":"oct","kid":"` + long + `","k":"AAA="},{"kty":"oct","kid":"o","k":"` + strings.Repeat("A", 43) + `"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		alg  jwa.SignatureAlgorithm
		kid  string
		text string
	}{
		{jwa.HS256, "u", `kid "u"`},
		{jwa.ES256, "u", `kid "u"`}, // another kty than alg's: still the reason
		{jwa.HS256, "x", `"XYZ"`},
		{jwa.HS256, long, `(1000 bytes)`},
	} {
		var buf [2]*jose.JWK
		_, err := jose.Select(buf[:0], set, c.alg, c.kid, jose.OpVerify, len(buf), nil)
		if !errors.Is(err, jose.ErrKeyNotFound) || errors.Is(err, jose.ErrAlgorithmNotAllowed) ||
			!strings.Contains(err.Error(), "unusable") || !strings.Contains(err.Error(), c.text) || len(err.Error()) > 1<<10 {
			t.Errorf("%s, kid %.10q: %v", c.alg, c.kid, err)
		}
	}
	// A usable key of that kid that cannot serve alg is still that.
	var buf [2]*jose.JWK
	if _, err := jose.Select(buf[:0], set, jwa.ES256, "o", jose.OpVerify, len(buf), nil); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
		t.Errorf("usable key of another type: %v", err)
	}
}

// TestSetRemembersUnmixed: a set found unmixed is not walked again for
// the same Keys slice, and is walked again once Keys is reassigned,
// appended to or cut; a mixed set is refused every time. That a set is not
// walked again is observed by making it mixed in place after its check,
// against the rule that a checked set is not modified: a walk would refuse
// it. Select is the observer: it needs no memory argument.
func TestSetRemembersUnmixed(t *testing.T) {
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	public := &jose.JWK{Key: &p256.PublicKey}
	secrets := func(n int) *jose.Set {
		s := &jose.Set{}
		for i := range n {
			s.Keys = append(s.Keys, &jose.JWK{Key: bytes.Repeat([]byte{byte(i)}, 32)})
		}
		return s
	}
	var buf [1]*jose.JWK
	sel := func(s *jose.Set) error {
		_, err := jose.Select(buf[:0], s, jwa.HS256, "", jose.OpVerify, 1, nil)
		return err
	}
	// Each way to change Keys that is seen: the set is walked again and,
	// being mixed by then, refused every time.
	for _, c := range []struct {
		name   string
		change func(s *jose.Set)
	}{
		{"appended", func(s *jose.Set) { s.Keys = append(s.Keys, &jose.JWK{Key: bytes.Repeat([]byte{9}, 32)}) }},
		{"cut at the end", func(s *jose.Set) { s.Keys = s.Keys[:len(s.Keys)-1] }},
		{"cut at the front", func(s *jose.Set) { s.Keys = s.Keys[1:] }},
		{"reassigned a copy", func(s *jose.Set) { s.Keys = slices.Clone(s.Keys) }},
	} {
		s := secrets(500)
		if err := sel(s); err != nil {
			t.Fatalf("%s: unmixed set: %v", c.name, err)
		}
		s.Keys[250] = public // mixed in place: not seen
		for i := range 1000 {
			if err := sel(s); err != nil {
				t.Fatalf("%s: select %d of the checked set: %v, want it remembered (not walked again)", c.name, i, err)
			}
		}
		c.change(s)
		for i := range 3 {
			if err := sel(s); !errors.Is(err, jose.ErrInvalidKey) {
				t.Fatalf("%s: select %d after the change: %v, want ErrInvalidKey (walked again)", c.name, i, err)
			}
		}
		// Unmixed again by a new slice: accepted, and remembered.
		s.Keys = slices.Clone(secrets(3).Keys)
		if err := sel(s); err != nil {
			t.Fatalf("%s: unmixed again: %v", c.name, err)
		}
		s.Keys[0] = public
		if err := sel(s); err != nil {
			t.Fatalf("%s: the new slice, once checked: %v, want it remembered", c.name, err)
		}
	}
	// CheckMixed walks every time, and a refusal is not remembered as an
	// acceptance: Select walks again after it.
	s := secrets(20)
	if err := s.CheckMixed(); err != nil {
		t.Fatal(err)
	}
	s.Keys[3] = public
	if err := sel(s); err != nil {
		t.Fatalf("Select after CheckMixed accepted: %v, want it remembered", err)
	}
	if err := s.CheckMixed(); !errors.Is(err, jose.ErrInvalidKey) {
		t.Fatalf("CheckMixed of a set mixed in place: %v, want ErrInvalidKey (walked)", err)
	}
	if err := sel(s); !errors.Is(err, jose.ErrInvalidKey) {
		t.Fatalf("Select after CheckMixed refused: %v, want ErrInvalidKey", err)
	}
	// Another Set of the same keys has its own memory: it is walked.
	s = secrets(20)
	if err := sel(s); err != nil {
		t.Fatal(err)
	}
	s.Keys[3] = public
	if err := sel(&jose.Set{Keys: s.Keys}); !errors.Is(err, jose.ErrInvalidKey) {
		t.Fatalf("a new Set of the checked keys: %v, want ErrInvalidKey (walked)", err)
	}
	// NewSet checks its keys and remembers it; a parsed set is checked
	// by its first Select.
	ns, err := jose.NewSet(secrets(2).Keys...)
	if err != nil {
		t.Fatal(err)
	}
	ns.Keys[0] = public
	if err := sel(ns); err != nil {
		t.Fatalf("a set made by NewSet: %v, want it remembered", err)
	}
	ps, err := jose.ParseSet([]byte(`{"keys":[{"kty":"oct","k":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	ps.Keys = append(ps.Keys, public)
	if err := sel(ps); !errors.Is(err, jose.ErrInvalidKey) {
		t.Fatalf("a parsed set made mixed before any check: %v, want ErrInvalidKey", err)
	}
	// A nil set mixes nothing (and has no keys); an empty one neither.
	if err := (*jose.Set)(nil).CheckMixed(); err != nil {
		t.Fatalf("nil set: %v", err)
	}
	if err := sel(nil); !errors.Is(err, jose.ErrKeyNotFound) {
		t.Fatalf("Select of a nil set: %v, want ErrKeyNotFound", err)
	}
	if err := sel(&jose.Set{}); !errors.Is(err, jose.ErrKeyNotFound) {
		t.Fatalf("Select of an empty set: %v, want ErrKeyNotFound", err)
	}
}

// TestSetUnmixedSameShape pins the limit of a set's memory that [jose.Set]
// documents: the memory is the Keys slice's first element and length, so
// changes that leave both alone are not seen (against the rule that a set
// in use is not modified): Keys refilled in place to its old length, a cut
// appended back before the next check, and an append to another set that
// shares Keys' array. A check between the cut and the append sees both.
func TestSetUnmixedSameShape(t *testing.T) {
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	public := &jose.JWK{Key: &p256.PublicKey}
	secrets := func() *jose.Set {
		s := &jose.Set{}
		for i := range 4 {
			s.Keys = append(s.Keys, &jose.JWK{Key: bytes.Repeat([]byte{byte(i)}, 32)})
		}
		return s
	}
	var buf [1]*jose.JWK
	sel := func(s *jose.Set) error {
		_, err := jose.Select(buf[:0], s, jwa.HS256, "", jose.OpVerify, 1, nil)
		return err
	}
	for _, c := range []struct {
		name   string
		change func(s *jose.Set)
	}{
		{"refilled in place", func(s *jose.Set) {
			s.Keys = append(s.Keys[:0], s.Keys[0], public, s.Keys[2], s.Keys[3])
		}},
		{"cut and appended back", func(s *jose.Set) {
			s.Keys = s.Keys[:len(s.Keys)-1]
			s.Keys = append(s.Keys, public)
		}},
		{"appended to a set sharing the array", func(s *jose.Set) {
			other := &jose.Set{Keys: s.Keys[:len(s.Keys)-1]}
			other.Keys = append(other.Keys, public)
		}},
	} {
		s := secrets()
		if err := sel(s); err != nil {
			t.Fatalf("%s: unmixed set: %v", c.name, err)
		}
		c.change(s)
		if err := sel(s); err != nil {
			t.Fatalf("%s: %v, want the set remembered (the change keeps the first element and length)", c.name, err)
		}
		if err := s.CheckMixed(); !errors.Is(err, jose.ErrInvalidKey) {
			t.Fatalf("%s: CheckMixed: %v, want ErrInvalidKey (it walks)", c.name, err)
		}
	}
	s := secrets()
	if err := sel(s); err != nil {
		t.Fatal(err)
	}
	s.Keys = s.Keys[:len(s.Keys)-1]
	if err := sel(s); err != nil {
		t.Fatalf("cut: %v", err)
	}
	s.Keys = append(s.Keys, public)
	if err := sel(s); !errors.Is(err, jose.ErrInvalidKey) {
		t.Fatalf("appended after a check of the cut: %v, want ErrInvalidKey (walked)", err)
	}
}

// TestSetRemembersUnmixedConcurrent: Select and CheckMixed from many
// goroutines (under -race) on sets first checked concurrently, each with
// the verdict of a walk.
func TestSetRemembersUnmixedConcurrent(t *testing.T) {
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	pub := &jose.JWK{Key: &p256.PublicKey}
	sec := &jose.JWK{Key: bytes.Repeat([]byte{1}, 32)}
	for round := range 20 {
		a := &jose.Set{Keys: []*jose.JWK{pub, pub}}
		b := &jose.Set{Keys: []*jose.JWK{sec}}
		mixed := &jose.Set{Keys: []*jose.JWK{pub, sec}}
		sets := []*jose.Set{a, b, mixed}
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				var buf [1]*jose.JWK
				for i := range 60 {
					n := (g + i) % 3
					s := sets[n]
					var err error
					if i%2 == 0 {
						err = s.CheckMixed()
					} else {
						_, err = jose.Select(buf[:0], s, jwa.HS256, "", jose.OpVerify, 1, nil)
						if n == 0 && errors.Is(err, jose.ErrKeyNotFound) {
							err = nil // a's keys are not HS256 keys: selected none, but not refused as mixed
						}
					}
					if errors.Is(err, jose.ErrInvalidKey) != (s == mixed) || (s != mixed && err != nil) {
						t.Errorf("round %d, set %d: %v", round, n, err)
						return
					}
				}
			})
		}
		wg.Wait()
	}
}
