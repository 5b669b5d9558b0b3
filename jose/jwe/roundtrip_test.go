package jwe

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
)

// rtRSAKey loads the fixed 2048-bit test key (never generated in tests).
var rtRSAKey = sync.OnceValue(func() *rsa.PrivateKey {
	k, err := vectortest.LoadRSAKey(2048)
	if err != nil {
		panic(err)
	}
	return k
})

var rtECKeys = sync.OnceValue(func() map[string]any {
	m := map[string]any{}
	for name, c := range map[string]elliptic.Curve{"P-256": elliptic.P256(), "P-384": elliptic.P384(), "P-521": elliptic.P521()} {
		k, err := ecdsa.GenerateKey(c, rand.Reader)
		if err != nil {
			panic(err)
		}
		m[name] = k
	}
	x, err := ecdh.X25519().GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	m["X25519"] = x
	return m
})

// rtKeys returns an encryption key and the matching decryption key for alg
// and enc.
func rtKeys(t testing.TB, alg jwa.KeyAlgorithm, enc jwa.ContentEncryption, curve string) (encKey, decKey any) {
	t.Helper()
	switch {
	case alg.IsRSA():
		k := rtRSAKey()
		return &k.PublicKey, k
	case alg.IsECDH():
		if curve == "" {
			curve = "P-256"
		}
		switch k := rtECKeys()[curve].(type) {
		case *ecdsa.PrivateKey:
			return &k.PublicKey, k
		case *ecdh.PrivateKey:
			return k.PublicKey(), k
		}
	case alg.IsPBES2():
		pw := []byte("correct horse battery staple")
		return pw, pw
	case alg == jwa.Direct:
		k := bytes.Repeat([]byte{0x42}, enc.KeySize())
		return k, k
	default:
		k := bytes.Repeat([]byte{0x17}, alg.KeyWrapSize())
		return k, k
	}
	t.Fatalf("no key for %s", alg)
	return nil, nil
}

func rtDecrypter(t testing.TB, alg jwa.KeyAlgorithm, enc jwa.ContentEncryption, key any) *Decrypter {
	t.Helper()
	d, err := NewDecrypter(DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{alg},
		ContentEncryptions: []jwa.ContentEncryption{enc},
		Key:                key,
		Limits:             jose.Limits{PBES2MinCount: 1000},
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

var rtPlaintext = []byte("You can trust us to stick with you through thick and thin\u2013to the bitter end.")

// TestRoundTripAll encrypts and decrypts with every alg x enc in the three
// serializations, and checks the header and plaintext.
func TestRoundTripAll(t *testing.T) {
	for _, alg := range jwa.KeyAlgorithms() {
		for _, enc := range jwa.ContentEncryptions() {
			t.Run(fmt.Sprintf("%s/%s", alg, enc), func(t *testing.T) {
				ek, dk := rtKeys(t, alg, enc, "")
				e, err := NewEncrypter(alg, enc, ek, &EncrypterOptions{KeyID: "k1", PBES2Count: 1000})
				if err != nil {
					t.Fatal(err)
				}
				d := rtDecrypter(t, alg, enc, dk)
				tok, err := e.Compact(rtPlaintext)
				if err != nil {
					t.Fatal(err)
				}
				if n := bytes.Count(tok, []byte(".")); n != 4 {
					t.Fatalf("compact token has %d dots", n)
				}
				m, err := d.DecryptCompact(tok)
				if err != nil {
					t.Fatalf("DecryptCompact: %v", err)
				}
				if !bytes.Equal(m.Plaintext, rtPlaintext) {
					t.Fatalf("plaintext %q", m.Plaintext)
				}
				if m.Header.Algorithm != string(alg) || m.Header.Encryption != string(enc) || m.Header.KeyID != "k1" {
					t.Fatalf("header alg %q enc %q kid %q", m.Header.Algorithm, m.Header.Encryption, m.Header.KeyID)
				}
				// Two messages never share a ciphertext.
				tok2, _ := e.Compact(rtPlaintext)
				if bytes.Equal(tok, tok2) {
					t.Fatal("two encryptions gave the same token")
				}

				aad := []byte("additional data")
				js, err := e.Flattened(rtPlaintext, aad)
				if err != nil {
					t.Fatal(err)
				}
				m, err = d.DecryptJSON(js)
				if err != nil {
					t.Fatalf("DecryptJSON(flattened): %v\n%s", err, js)
				}
				if !bytes.Equal(m.Plaintext, rtPlaintext) || !bytes.Equal(m.AAD, aad) {
					t.Fatalf("flattened: plaintext %q aad %q", m.Plaintext, m.AAD)
				}

				g, err := EncryptGeneral(enc, rtPlaintext, aad, &EncrypterOptions{PBES2Count: 1000, ContentType: "text/plain"},
					Recipient{Algorithm: alg, Key: ek, Header: &jose.Header{KeyID: "k1"}})
				if err != nil {
					t.Fatal(err)
				}
				m, err = d.DecryptJSON(g)
				if err != nil {
					t.Fatalf("DecryptJSON(general): %v\n%s", err, g)
				}
				if !bytes.Equal(m.Plaintext, rtPlaintext) || m.Header.KeyID != "k1" || m.Header.ContentType != "text/plain" {
					t.Fatalf("general: plaintext %q header %+v", m.Plaintext, m.Header)
				}
			})
		}
	}
}

// TestRoundTripCurves covers every ECDH-ES curve, including X25519 (OKP epk).
func TestRoundTripCurves(t *testing.T) {
	for _, curve := range []string{"P-256", "P-384", "P-521", "X25519"} {
		for _, alg := range []jwa.KeyAlgorithm{jwa.ECDHES, jwa.ECDHESA256KW} {
			t.Run(curve+"/"+string(alg), func(t *testing.T) {
				ek, dk := rtKeys(t, alg, jwa.A256GCM, curve)
				e, err := NewEncrypter(alg, jwa.A256GCM, ek, &EncrypterOptions{APU: []byte("Alice"), APV: []byte("Bob")})
				if err != nil {
					t.Fatal(err)
				}
				tok, err := e.Compact(rtPlaintext)
				if err != nil {
					t.Fatal(err)
				}
				m, err := rtDecrypter(t, alg, jwa.A256GCM, dk).DecryptCompact(tok)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(m.Plaintext, rtPlaintext) || string(m.Header.APU) != "Alice" || string(m.Header.APV) != "Bob" {
					t.Fatalf("plaintext %q apu %q apv %q", m.Plaintext, m.Header.APU, m.Header.APV)
				}
				wantKty := "EC"
				if curve == "X25519" {
					wantKty = "OKP"
				}
				if m.Header.EPK == nil || m.Header.EPK.KeyType() != wantKty {
					t.Fatalf("epk %+v, want kty %s", m.Header.EPK, wantKty)
				}
				// General JSON carries the epk in the recipient header.
				g, err := EncryptGeneral(jwa.A256GCM, rtPlaintext, nil, nil, Recipient{Algorithm: alg, Key: ek})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := rtDecrypter(t, alg, jwa.A256GCM, dk).DecryptJSON(g); err != nil {
					t.Fatalf("general: %v\n%s", err, g)
				}
			})
		}
	}
}

// TestGeneralSeveralRecipients encrypts one message to four recipients with
// different algorithms; each recipient decrypts it with its own key only.
func TestGeneralSeveralRecipients(t *testing.T) {
	enc := jwa.A128CBCHS256
	algs := []jwa.KeyAlgorithm{jwa.RSAOAEP256, jwa.ECDHESA128KW, jwa.A256GCMKW, jwa.PBES2HS256A128KW}
	var rs []Recipient
	var dks []any
	for i, alg := range algs {
		ek, dk := rtKeys(t, alg, enc, "")
		rs = append(rs, Recipient{Algorithm: alg, Key: ek, Header: &jose.Header{KeyID: fmt.Sprint("r", i)}})
		dks = append(dks, dk)
	}
	shared := &jose.Header{JKU: "https://example.com/keys"}
	aad := []byte("aad")
	tok, err := EncryptGeneral(enc, rtPlaintext, aad, &EncrypterOptions{Type: "JWE", PBES2Count: 1000, Unprotected: shared}, rs...)
	if err != nil {
		t.Fatal(err)
	}
	for i, alg := range algs {
		d, err := NewDecrypter(DecryptOptions{
			KeyAlgorithms: []jwa.KeyAlgorithm{alg}, ContentEncryptions: []jwa.ContentEncryption{enc},
			Key: dks[i],
		})
		if err != nil {
			t.Fatal(err)
		}
		m, err := d.DecryptJSON(tok)
		if err != nil {
			t.Fatalf("recipient %d (%s): %v", i, alg, err)
		}
		if !bytes.Equal(m.Plaintext, rtPlaintext) || m.Header.KeyID != fmt.Sprint("r", i) || m.Header.JKU != shared.JKU || m.Header.Type != "JWE" {
			t.Fatalf("recipient %d: plaintext %q header %+v", i, m.Plaintext, m.Header)
		}
	}
	// With every algorithm allowed and a JWK Set, the matching kid is used.
	set := &jose.Set{}
	for i, dk := range dks {
		j, err := jose.NewJWK(dk)
		if err != nil {
			t.Fatal(err)
		}
		j.KeyID = fmt.Sprint("r", i)
		set.Keys = append(set.Keys, j)
	}
	d, err := NewDecrypter(DecryptOptions{KeyAlgorithms: algs, ContentEncryptions: []jwa.ContentEncryption{enc}, Keys: set})
	if err != nil {
		t.Fatal(err)
	}
	if m, err := d.DecryptJSON(tok); err != nil || !bytes.Equal(m.Plaintext, rtPlaintext) {
		t.Fatalf("set: %v", err)
	}
}

// TestCompression checks "zip":"DEF" both ways, and the bomb limit.
func TestCompression(t *testing.T) {
	key := bytes.Repeat([]byte{1}, 16)
	e, err := NewEncrypter(jwa.Direct, jwa.A128GCM, key, &EncrypterOptions{Compress: true})
	if err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("all work and no play "), 1000) // 21000 bytes
	tok, err := e.Compact(big)
	if err != nil {
		t.Fatal(err)
	}
	if len(tok) > len(big)/4 {
		t.Fatalf("compressed token of %d bytes for %d bytes of plaintext", len(tok), len(big))
	}
	d := rtDecrypter(t, jwa.Direct, jwa.A128GCM, key)
	m, err := d.DecryptCompact(tok)
	if err != nil || !bytes.Equal(m.Plaintext, big) || m.Header.Compression != "DEF" {
		t.Fatalf("err %v, %d bytes", err, len(m.Plaintext))
	}
	js, err := e.Flattened(big, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m, err := d.DecryptJSON(js); err != nil || !bytes.Equal(m.Plaintext, big) {
		t.Fatalf("flattened: %v", err)
	}

	// Exactly at the limit passes; one byte more is refused, not truncated.
	for _, tc := range []struct {
		max  int
		want error
	}{{len(big), nil}, {len(big) - 1, jose.ErrLimitExceeded}} {
		d, err := NewDecrypter(DecryptOptions{
			KeyAlgorithms: []jwa.KeyAlgorithm{jwa.Direct}, ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM},
			Key: key, Limits: jose.Limits{MaxDecompressedSize: tc.max},
		})
		if err != nil {
			t.Fatal(err)
		}
		m, err := d.DecryptCompact(tok)
		if !errors.Is(err, tc.want) {
			t.Fatalf("max %d: err %v, want %v", tc.max, err, tc.want)
		}
		if err != nil && m != nil {
			t.Fatal("message returned with an error")
		}
	}
}

// TestDirectDecrypterCache checks that the cached dir cipher is per enc.
func TestDirectDecrypterCache(t *testing.T) {
	key := bytes.Repeat([]byte{9}, 32)
	d, err := NewDecrypter(DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.Direct},
		ContentEncryptions: []jwa.ContentEncryption{jwa.A256GCM, jwa.A128CBCHS256},
		Key:                key,
	})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		for _, enc := range []jwa.ContentEncryption{jwa.A256GCM, jwa.A128CBCHS256} {
			e, err := NewEncrypter(jwa.Direct, enc, key, nil)
			if err != nil {
				t.Fatal(err)
			}
			tok, _ := e.Compact(rtPlaintext)
			if m, err := d.DecryptCompact(tok); err != nil || !bytes.Equal(m.Plaintext, rtPlaintext) {
				t.Fatalf("%s: %v", enc, err)
			}
		}
	}
}

// TestHeaderCacheIsolation: the decrypter's last-header cache never lets
// one message's header change another's, and a different header is parsed.
func TestHeaderCacheIsolation(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 16)
	d := rtDecrypter(t, jwa.A128KW, jwa.A128GCM, key)
	e1, _ := NewEncrypter(jwa.A128KW, jwa.A128GCM, key, &EncrypterOptions{KeyID: "one"})
	e2, _ := NewEncrypter(jwa.A128KW, jwa.A128GCM, key, &EncrypterOptions{KeyID: "two", Extra: map[string]any{"x": 1}})
	tok1, _ := e1.Compact([]byte("a"))
	tok2, _ := e2.Compact([]byte("b"))
	for i := range 3 {
		m, err := d.DecryptCompact(tok1)
		if err != nil || m.Header.KeyID != "one" || string(m.Plaintext) != "a" {
			t.Fatalf("round %d: %v %+v", i, err, m)
		}
		m.Header.KeyID = "changed"
		m.Header.Algorithm = "dir"
		m, err = d.DecryptCompact(tok2)
		if err != nil || m.Header.KeyID != "two" || string(m.Header.Extra["x"]) != "1" {
			t.Fatalf("round %d: %v %+v", i, err, m)
		}
		m.Header.Extra["x"] = []byte("2")
	}
	// A cached header still goes through the allow-list of each call.
	d2 := rtDecrypter(t, jwa.A256KW, jwa.A128GCM, bytes.Repeat([]byte{7}, 32))
	for range 2 {
		if _, err := d2.DecryptCompact(tok1); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
			t.Fatalf("err %v", err)
		}
	}
}

// TestHeaderCachedOnlyOnceDecrypted: the cache rule shared with jws
// (hdrcache): a protected header is kept only after tokens carrying it
// decrypted, the second time; forged tokens neither enter nor advance it.
func TestHeaderCachedOnlyOnceDecrypted(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 16)
	d := rtDecrypter(t, jwa.A128KW, jwa.A128GCM, key)
	e, _ := NewEncrypter(jwa.A128KW, jwa.A128GCM, key, &EncrypterOptions{KeyID: "one"})
	tok, _ := e.Compact([]byte("a"))
	// Another tag: change a character of it that carries six bits of the
	// tag (the last one carries padding bits, which strict base64url
	// refuses before the tag is checked).
	forged := bytes.Clone(tok)
	if c := &forged[len(forged)-3]; *c == 'A' {
		*c = 'B'
	} else {
		*c = 'A'
	}
	if _, err := d.DecryptCompact(forged); err == nil {
		t.Fatal("forged token decrypted")
	}
	if _, err := d.DecryptCompact(forged); err == nil {
		t.Fatal("forged token decrypted")
	}
	if d.headers.Len() != 0 {
		t.Fatal("the header of a token that failed to decrypt was cached")
	}
	for i := range 2 {
		if _, err := d.DecryptCompact(tok); err != nil {
			t.Fatal(err)
		}
		if got, want := d.headers.Len(), i; got != want {
			t.Fatalf("after %d decryptions, %d cached headers, want %d", i+1, got, want)
		}
	}
	if h := d.headers.Get(tok[:bytes.IndexByte(tok, '.')]); h == nil || h.KeyID != "one" {
		t.Fatal("the header of a token that decrypted twice was not cached")
	}
}

// TestGeneralJWKKeyID: a JWK recipient key's "kid" goes into its header.
func TestGeneralJWKKeyID(t *testing.T) {
	j := &jose.JWK{Key: bytes.Repeat([]byte{8}, 16), KeyID: "jwk-kid", Algorithm: "A128KW"}
	tok, err := EncryptGeneral(jwa.A128GCM, []byte("x"), nil, nil, Recipient{Algorithm: jwa.A128KW, Key: j})
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDecrypter(DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.A128KW}, ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM},
		Keys: &jose.Set{Keys: []*jose.JWK{j}}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := d.DecryptJSON(tok)
	if err != nil || m.Header.KeyID != "jwk-kid" {
		t.Fatalf("%v %s", err, tok)
	}
	// The same for the compact serialization, in the protected header.
	e, err := NewEncrypter(jwa.A128KW, jwa.A128GCM, j, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctok, _ := e.Compact([]byte("y"))
	if m, err := d.DecryptCompact(ctok); err != nil || m.Header.KeyID != "jwk-kid" {
		t.Fatalf("compact: %v", err)
	}
}
