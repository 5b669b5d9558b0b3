package jwe_test

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// TestSelectionPolicyWholeClass: keys that cannot serve a recipient are
// dropped before MaxKeyCandidates is counted, for every way a key can be
// unfit, not only its type: for ECDH-ES a key of another curve than the
// token's epk (X25519 keys before a P-256 key, P-384 before P-256), for
// dir a key of another size than the token's enc needs.
func TestSelectionPolicyWholeClass(t *testing.T) {
	p256, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	var x25519s, p384s []*jose.JWK
	for range jwe.MaxKeyCandidates {
		x, err := ecdh.X25519().GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		x25519s = append(x25519s, &jose.JWK{Key: x})
		p, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		p384s = append(p384s, &jose.JWK{Key: p})
	}
	for name, others := range map[string][]*jose.JWK{"X25519": x25519s, "P-384": p384s} {
		set := &jose.Set{Keys: append(others[:len(others):len(others)], &jose.JWK{Key: p256})}
		for _, alg := range []jwa.KeyAlgorithm{jwa.ECDHES, jwa.ECDHESA128KW} {
			tok := rvCompact(t, alg, jwa.A128GCM, &p256.PublicKey, nil)
			m, err := rvDecrypter(t, jwe.DecryptOptions{Keys: set}).DecryptCompact(tok)
			if err != nil || string(m.Plaintext) != "attack at dawn" {
				t.Errorf("%s for a P-256 key after %d %s keys: %v", alg, len(others), name, err)
			}
		}
	}
	var octs []*jose.JWK
	for i := range jwe.MaxKeyCandidates {
		octs = append(octs, &jose.JWK{Key: bytes.Repeat([]byte{byte(i + 1)}, 16)})
	}
	k32 := bytes.Repeat([]byte{0x42}, 32)
	set := &jose.Set{Keys: append(octs, &jose.JWK{Key: k32})}
	tok := rvCompact(t, jwa.Direct, jwa.A256GCM, k32, nil)
	d := rvDecrypter(t, jwe.DecryptOptions{Keys: set, KeyAlgorithms: []jwa.KeyAlgorithm{jwa.Direct}})
	if m, err := d.DecryptCompact(tok); err != nil || string(m.Plaintext) != "attack at dawn" {
		t.Errorf("dir+A256GCM for a 32-byte key after %d 16-byte keys: %v", len(octs), err)
	}
}
