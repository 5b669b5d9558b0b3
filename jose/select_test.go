package jose_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
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
