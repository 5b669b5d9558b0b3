package jwe_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// TestSelectionPolicy: the key-selection policy of jose.Select, which jws
// shares (see jws.TestSelectionPolicy): keys that cannot serve the alg do
// not count against MaxKeyCandidates, a kid selects exactly one fitting key,
// and a set mixing secret and public keys is refused.
func TestSelectionPolicy(t *testing.T) {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	octs := func(n int, kid string) []*jose.JWK {
		var ks []*jose.JWK
		for i := range n {
			ks = append(ks, &jose.JWK{Key: bytes.Repeat([]byte{byte(i + 1)}, 16), KeyID: kid})
		}
		return ks
	}

	// Found: four oct keys before the EC key made a kid-less ECDH-ES token
	// fail: the oct keys were counted as candidates.
	t.Run("wrong type not counted", func(t *testing.T) {
		set := &jose.Set{Keys: append(octs(jwe.MaxKeyCandidates, ""), &jose.JWK{Key: ec})}
		tok := rvCompact(t, jwa.ECDHES, jwa.A128GCM, &ec.PublicKey, nil)
		m, err := rvDecrypter(t, jwe.DecryptOptions{Keys: set}).DecryptCompact(tok)
		if err != nil || string(m.Plaintext) != "attack at dawn" {
			t.Fatalf("ECDH-ES after %d oct keys: %v", jwe.MaxKeyCandidates, err)
		}
	})
	// Found: jwe tried every key of a kid; a kid must select one key.
	t.Run("kid selects one key", func(t *testing.T) {
		set := &jose.Set{Keys: octs(2, "k")}
		tok := rvCompact(t, jwa.A128KW, jwa.A128GCM, set.Keys[1].Key, &jwe.EncrypterOptions{KeyID: "k"})
		_, err := rvDecrypter(t, jwe.DecryptOptions{Keys: set}).DecryptCompact(tok)
		if !errors.Is(err, jose.ErrKeyNotFound) {
			t.Fatalf("two A128KW keys of one kid: %v, want ErrKeyNotFound", err)
		}
		// Keys of that kid that cannot serve the alg do not compete.
		set.Keys[0].Key = bytes.Repeat([]byte{9}, 32) // A256KW-sized
		if _, err := rvDecrypter(t, jwe.DecryptOptions{Keys: set}).DecryptCompact(tok); err != nil {
			t.Fatalf("one A128KW key and one 32-byte key of one kid: %v", err)
		}
	})
	// Found: jwe accepted a set mixing secret and public keys.
	t.Run("mixed set refused", func(t *testing.T) {
		set := &jose.Set{Keys: append(octs(1, ""), &jose.JWK{Key: &ec.PublicKey})}
		_, err := jwe.NewDecrypter(jwe.DecryptOptions{KeyAlgorithms: jwa.KeyAlgorithms(), ContentEncryptions: jwa.ContentEncryptions(), Keys: set})
		if !errors.Is(err, jose.ErrInvalidKey) {
			t.Fatalf("mixed set: %v, want ErrInvalidKey", err)
		}
	})
}

// TestNewDecrypterKeyFitsNone: a single key that can serve none of the
// listed algorithms is a configuration error, refused at once rather than
// on every token.
func TestNewDecrypterKeyFitsNone(t *testing.T) {
	rk := vectortest.RSAKey(t, 2048)
	encs := []jwa.ContentEncryption{jwa.A128GCM}
	for name, c := range map[string]struct {
		algs []jwa.KeyAlgorithm
		key  any
	}{
		"string":                     {[]jwa.KeyAlgorithm{jwa.Direct}, "secret"},
		"RSA key, AES key wrap only": {[]jwa.KeyAlgorithm{jwa.A128KW}, rk},
		"16 bytes, A256KW only":      {[]jwa.KeyAlgorithm{jwa.A256KW}, make([]byte, 16)},
		"JWK of RSA for dir":         {[]jwa.KeyAlgorithm{jwa.Direct}, &jose.JWK{Key: rk}},
	} {
		_, err := jwe.NewDecrypter(jwe.DecryptOptions{KeyAlgorithms: c.algs, ContentEncryptions: encs, Key: c.key})
		if !errors.Is(err, jose.ErrInvalidKey) {
			t.Errorf("%s: %v, want ErrInvalidKey", name, err)
		}
	}
	// A key that fits one of the algorithms is accepted; the others are
	// refused per token, as before.
	d, err := jwe.NewDecrypter(jwe.DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.RSAOAEP, jwa.A128KW}, ContentEncryptions: encs, Key: rk})
	if err != nil {
		t.Fatal(err)
	}
	tok := rvCompact(t, jwa.A128KW, jwa.A128GCM, make([]byte, 16), nil)
	if _, err := d.DecryptCompact(tok); !errors.Is(err, jose.ErrInvalidKey) {
		t.Errorf("A128KW token for an RSA key: %v, want ErrInvalidKey", err)
	}
}

// TestSixSegmentsRefusedBeforeKeys: a dot inside the ciphertext (a sixth
// segment, which the compact parser does not scan for) is refused as
// malformed by the ciphertext's decoding, before any key is asked for.
func TestSixSegmentsRefusedBeforeKeys(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 16)
	tok := rvCompact(t, jwa.A128KW, jwa.A128GCM, key, nil)
	segs := rvSegs(tok)
	segs[3] = segs[3][:4] + "." + segs[3][4:]
	asked := false
	d := rvDecrypter(t, jwe.DecryptOptions{KeyFunc: func(*jose.Header) (any, error) { asked = true; return key, nil }})
	if _, err := d.DecryptCompact(rvJoin(segs)); !errors.Is(err, jose.ErrMalformed) || asked {
		t.Fatalf("six segments: %v (key asked: %v)", err, asked)
	}
	for _, bad := range []string{"a.b.c.d", "a.b.c", "abc"} {
		if _, err := d.DecryptCompact([]byte(bad)); !errors.Is(err, jose.ErrMalformed) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestNewDecrypterKeyPermitsNone: a single JWK whose own "alg", "use" or
// "key_ops" (RFC 7517 §4.2-4.4; the operation is the one each algorithm
// asks: decrypt for dir, unwrapKey for key wrap) permit none of the listed
// algorithms is refused by NewDecrypter with ErrInvalidKey, as jose.Select
// drops it from a set; a JWK that permits some keeps the per-token refusal
// of the others.
func TestNewDecrypterKeyPermitsNone(t *testing.T) {
	k16 := bytes.Repeat([]byte{9}, 16)
	encs := []jwa.ContentEncryption{jwa.A128GCM}
	kw := []jwa.KeyAlgorithm{jwa.A128KW}
	for name, c := range map[string]struct {
		algs []jwa.KeyAlgorithm
		key  *jose.JWK
	}{
		"alg A256KW, A128KW listed":  {kw, &jose.JWK{Key: k16, Algorithm: "A256KW"}},
		"alg dir, A128KW listed":     {kw, &jose.JWK{Key: k16, Algorithm: "dir"}},
		"use sig":                    {[]jwa.KeyAlgorithm{jwa.A128KW, jwa.Direct}, &jose.JWK{Key: k16, Use: jose.UseSignature}},
		"key_ops unwrapKey for dir":  {[]jwa.KeyAlgorithm{jwa.Direct}, &jose.JWK{Key: k16, KeyOps: []jose.KeyOp{jose.OpUnwrapKey}}},
		"key_ops decrypt for A128KW": {kw, &jose.JWK{Key: k16, KeyOps: []jose.KeyOp{jose.OpDecrypt}}},
		"key_ops wrapKey only":       {kw, &jose.JWK{Key: k16, KeyOps: []jose.KeyOp{jose.OpWrapKey}}},
	} {
		_, err := jwe.NewDecrypter(jwe.DecryptOptions{KeyAlgorithms: c.algs, ContentEncryptions: encs, Key: c.key})
		if !errors.Is(err, jose.ErrInvalidKey) {
			t.Errorf("%s: %v, want ErrInvalidKey", name, err)
		}
	}
	// A JWK for unwrapKey with A128KW and dir listed is accepted: A128KW
	// tokens decrypt, dir tokens are refused one by one.
	jwk := &jose.JWK{Key: k16, KeyOps: []jose.KeyOp{jose.OpUnwrapKey}}
	d := rvDecrypter(t, jwe.DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.A128KW, jwa.Direct}, ContentEncryptions: encs, Key: jwk})
	if _, err := d.DecryptCompact(rvCompact(t, jwa.A128KW, jwa.A128GCM, k16, nil)); err != nil {
		t.Errorf("A128KW token: %v", err)
	}
	if _, err := d.DecryptCompact(rvCompact(t, jwa.Direct, jwa.A128GCM, k16, nil)); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
		t.Errorf("dir token: %v, want ErrAlgorithmNotAllowed", err)
	}
}
