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
			got, err := jose.Select(buf[:0], set, nil, c.alg, c.kid, jose.OpVerify, len(buf), nil)
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
		if _, err := jose.Select(buf[:0], set, nil, jwa.ES256, "b", jose.OpVerify, 2, nil); err != nil {
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
		_, err := jose.Select(buf[:0], set, nil, c.alg, c.kid, jose.OpVerify, len(buf), nil)
		if !errors.Is(err, jose.ErrKeyNotFound) || errors.Is(err, jose.ErrAlgorithmNotAllowed) ||
			!strings.Contains(err.Error(), "unusable") || !strings.Contains(err.Error(), c.text) || len(err.Error()) > 1<<10 {
			t.Errorf("%s, kid %.10q: %v", c.alg, c.kid, err)
		}
	}
	// A usable key of that kid that cannot serve alg is still that.
	var buf [2]*jose.JWK
	if _, err := jose.Select(buf[:0], set, nil, jwa.ES256, "o", jose.OpVerify, len(buf), nil); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
		t.Errorf("usable key of another type: %v", err)
	}
}

// TestSetCheck: a SetCheck walks a set it has accepted once, refuses a
// mixed set every time, and walks every other set. That a set is not
// walked again is observed by making it mixed after its check, against the
// rule that a checked set is not modified: a walk would refuse it.
func TestSetCheck(t *testing.T) {
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	public := &jose.JWK{Key: &p256.PublicKey}
	secrets := func(n int) *jose.Set {
		s := &jose.Set{}
		for i := range n {
			s.Keys = append(s.Keys, &jose.JWK{Key: bytes.Repeat([]byte{byte(i)}, 32)})
		}
		return s
	}
	var c jose.SetCheck
	big := secrets(500)
	if err := c.Check(big); err != nil {
		t.Fatalf("unmixed set: %v", err)
	}
	big.Keys = append(big.Keys, public) // now mixed: a walk refuses it
	if err := big.CheckMixed(); !errors.Is(err, jose.ErrInvalidKey) {
		t.Fatalf("CheckMixed of the mixed set: %v, want ErrInvalidKey", err)
	}
	for i := range 1000 {
		if err := c.Check(big); err != nil {
			t.Fatalf("check %d of the accepted set: %v, want it remembered (not walked again)", i, err)
		}
	}
	// Another pointer, even to the same keys, is walked: a mixed set is
	// refused every time, and a refusal is not remembered.
	mixed := &jose.Set{Keys: big.Keys}
	for i := range 3 {
		if err := c.Check(mixed); !errors.Is(err, jose.ErrInvalidKey) {
			t.Fatalf("check %d of a mixed set: %v, want ErrInvalidKey", i, err)
		}
	}
	if err := c.Check(big); err != nil {
		t.Fatalf("the accepted set after a refusal: %v", err)
	}
	// A new unmixed set replaces the remembered one, which is walked again.
	if err := c.Check(secrets(2)); err != nil {
		t.Fatal(err)
	}
	if err := c.Check(big); !errors.Is(err, jose.ErrInvalidKey) {
		t.Fatalf("the first set once forgotten: %v, want ErrInvalidKey (walked again)", err)
	}
	// A nil SetCheck walks every time; a nil set mixes nothing.
	var none *jose.SetCheck
	if err := none.Check(big); !errors.Is(err, jose.ErrInvalidKey) {
		t.Fatalf("nil SetCheck: %v, want ErrInvalidKey", err)
	}
	if err := c.Check(nil); err != nil {
		t.Fatalf("nil set: %v", err)
	}
	// Select checks through its SetCheck, and walks without one.
	var buf [1]*jose.JWK
	c = jose.SetCheck{}
	pub := &jose.Set{Keys: []*jose.JWK{public}}
	if _, err := jose.Select(buf[:0], pub, &c, jwa.ES256, "", jose.OpVerify, 1, nil); err != nil {
		t.Fatal(err)
	}
	pub.Keys = append(pub.Keys, &jose.JWK{Key: bytes.Repeat([]byte{1}, 32)})
	if _, err := jose.Select(buf[:0], pub, &c, jwa.ES256, "", jose.OpVerify, 1, nil); err != nil {
		t.Fatalf("Select of the checked set: %v, want it remembered", err)
	}
	if _, err := jose.Select(buf[:0], pub, nil, jwa.ES256, "", jose.OpVerify, 1, nil); !errors.Is(err, jose.ErrInvalidKey) {
		t.Fatalf("Select without SetCheck: %v, want ErrInvalidKey", err)
	}
}

// TestSetCheckConcurrent: concurrent checks of alternating sets, for the
// race detector, each with the verdict of a walk.
func TestSetCheckConcurrent(t *testing.T) {
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	a := &jose.Set{Keys: []*jose.JWK{{Key: &p256.PublicKey}}}
	b := &jose.Set{Keys: []*jose.JWK{{Key: bytes.Repeat([]byte{1}, 32)}}}
	mixed := &jose.Set{Keys: append(slices.Clone(a.Keys), b.Keys...)}
	var c jose.SetCheck
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 200 {
				s := []*jose.Set{a, b, mixed}[(g+i)%3]
				if err := c.Check(s); (err != nil) != (s == mixed) {
					t.Errorf("set %d: %v", (g+i)%3, err)
					return
				}
			}
		})
	}
	wg.Wait()
}
