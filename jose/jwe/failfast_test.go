package jwe_test

import (
	"bytes"
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// ffSigner is an opaque key that can sign but not decrypt: a
// crypto.Signer with no Decrypt method.
type ffSigner struct{ pub crypto.PublicKey }

func (s ffSigner) Public() crypto.PublicKey { return s.pub }
func (s ffSigner) Sign(io.Reader, []byte, crypto.SignerOpts) ([]byte, error) {
	return nil, errors.New("not used")
}

// ffAsymmetric is every key management algorithm that decrypts with a
// private key, with a private key of its kind.
func ffAsymmetric(t *testing.T) map[jwa.KeyAlgorithm]any {
	t.Helper()
	rsaKey := vectortest.RSAKey(t, 2048)
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384, _ := ecdh.P384().GenerateKey(rand.Reader)
	p521, _ := ecdh.P521().GenerateKey(rand.Reader)
	x25519, _ := ecdh.X25519().GenerateKey(rand.Reader)
	m := map[jwa.KeyAlgorithm]any{jwa.RSA1_5: rsaKey, jwa.RSAOAEP: rsaKey, jwa.RSAOAEP256: rsaKey,
		jwa.ECDHES: p256, jwa.ECDHESA128KW: p384, jwa.ECDHESA192KW: x25519, jwa.ECDHESA256KW: p521}
	byCurve := map[string]any{"P-256": p256, "P-384": p384, "P-521": p521, "X25519": x25519}
	for _, alg := range append(jwa.HPKEKeyAlgorithms(), jwa.HPKEIntegratedAlgorithms()...) {
		for crv, k := range byCurve {
			if (alg.KeyType() == "OKP") == (crv == "X25519") && jwa.KeyAlgorithm(alg).FitsKey(k) {
				m[alg] = k
			}
		}
		if m[alg] == nil {
			t.Fatalf("no key for %s", alg)
		}
	}
	return m
}

// ffPublic returns the public forms of a private key a Decrypter might be
// given by mistake: the Go public key, its public JWK, and, for RSA, a
// crypto.Signer (which has the public key but cannot decrypt).
func ffPublic(t *testing.T, priv any) map[string]any {
	t.Helper()
	var pub any
	switch k := priv.(type) {
	case interface{ Public() crypto.PublicKey }:
		pub = k.Public()
	}
	j, err := jose.NewJWK(pub)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]any{"Go public key": pub, "public JWK": j, "crypto.Signer": ffSigner{pub}}
	if p, ok := pub.(*ecdsa.PublicKey); ok {
		ep, err := p.ECDH()
		if err != nil {
			t.Fatal(err)
		}
		out["*ecdh.PublicKey"] = ep
	}
	return out
}

func ffOptions(algs []jwa.KeyAlgorithm, key any) jwe.DecryptOptions {
	return jwe.DecryptOptions{KeyAlgorithms: algs, ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM}, Key: key}
}

// TestNewDecrypterNeedsPrivateKey: NewDecrypter refuses, with
// ErrInvalidKey and an error saying a private key is needed, a public key
// (Go, JWK, or an opaque key that cannot decrypt) for every asymmetric
// algorithm, alone or beside algorithms it fits even less; and a JWK Set
// of public keys. A private key that fits some of the listed algorithms is
// accepted, its tokens of the others refused one by one.
func TestNewDecrypterNeedsPrivateKey(t *testing.T) {
	keys := ffAsymmetric(t)
	for alg, priv := range keys {
		if _, err := jwe.NewDecrypter(ffOptions([]jwa.KeyAlgorithm{alg}, priv)); err != nil {
			t.Fatalf("%s with its private key: %v", alg, err)
		}
		for kind, pub := range ffPublic(t, priv) {
			for _, algs := range [][]jwa.KeyAlgorithm{{alg}, {alg, jwa.A128KW, jwa.Direct}} {
				d, err := jwe.NewDecrypter(ffOptions(algs, pub))
				if d != nil || !errors.Is(err, jose.ErrInvalidKey) || !strings.Contains(err.Error(), "private key") {
					t.Errorf("%v with a %s: %v; want ErrInvalidKey saying a private key is needed", algs, kind, err)
				}
			}
		}
		set := &jose.Set{}
		for _, k := range []any{priv, keys[jwa.ECDHES]} {
			j, err := jose.NewJWK(k.(interface{ Public() crypto.PublicKey }).Public())
			if err != nil {
				t.Fatal(err)
			}
			set.Keys = append(set.Keys, j)
		}
		o := ffOptions([]jwa.KeyAlgorithm{alg, jwa.ECDHES}, nil)
		o.Keys = set
		if d, err := jwe.NewDecrypter(o); d != nil || !errors.Is(err, jose.ErrInvalidKey) || !strings.Contains(err.Error(), "private key") {
			t.Errorf("%s with a set of public keys: %v; want ErrInvalidKey saying a private key is needed", alg, err)
		}
	}
	// A private RSA key for RSA-OAEP and ECDH-ES: accepted; an ECDH-ES
	// token is refused.
	rsaKey := keys[jwa.RSAOAEP]
	d, err := jwe.NewDecrypter(ffOptions([]jwa.KeyAlgorithm{jwa.RSAOAEP, jwa.ECDHES}, rsaKey))
	if err != nil {
		t.Fatal(err)
	}
	e, _ := jwe.NewEncrypter(jwa.ECDHES, jwa.A128GCM, keys[jwa.ECDHES].(*ecdsa.PrivateKey).Public(), nil)
	tok, _ := e.Compact([]byte("x"))
	if _, err := d.DecryptCompact(tok); !errors.Is(err, jose.ErrInvalidKey) {
		t.Errorf("ECDH-ES token for an RSA key: %v, want ErrInvalidKey", err)
	}
}

// TestNewDecrypterDirKeySize: a dir key whose size fits none of the listed
// content encryptions is refused by NewDecrypter (Go key or JWK); one that
// fits one of them, or fits another listed algorithm, is accepted.
func TestNewDecrypterDirKeySize(t *testing.T) {
	k24 := bytes.Repeat([]byte{7}, 24)
	j24, err := jose.NewJWK(k24)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		algs []jwa.KeyAlgorithm
		encs []jwa.ContentEncryption
		ok   bool
	}{
		{[]jwa.KeyAlgorithm{jwa.Direct}, []jwa.ContentEncryption{jwa.A128GCM, jwa.A256GCM, jwa.A128CBCHS256}, false},
		{[]jwa.KeyAlgorithm{jwa.Direct}, []jwa.ContentEncryption{jwa.A128GCM, jwa.A192GCM}, true},
		{[]jwa.KeyAlgorithm{jwa.Direct, jwa.A192KW}, []jwa.ContentEncryption{jwa.A128GCM}, true},
		{[]jwa.KeyAlgorithm{jwa.Direct, jwa.PBES2HS256A128KW}, []jwa.ContentEncryption{jwa.A128GCM}, true},
		{[]jwa.KeyAlgorithm{jwa.Direct, jwa.A128KW}, []jwa.ContentEncryption{jwa.A256GCM}, false},
	} {
		for kind, key := range map[string]any{"[]byte": k24, "JWK": j24} {
			_, err := jwe.NewDecrypter(jwe.DecryptOptions{KeyAlgorithms: c.algs, ContentEncryptions: c.encs, Key: key})
			switch {
			case c.ok && err != nil:
				t.Errorf("%v %v, 24-byte %s key: %v", c.algs, c.encs, kind, err)
			case !c.ok && (!errors.Is(err, jose.ErrInvalidKey) || !strings.Contains(err.Error(), "24")):
				t.Errorf("%v %v, 24-byte %s key: %v; want ErrInvalidKey naming its size", c.algs, c.encs, kind, err)
			}
		}
	}
}

// ffCurveLiar is an ECDH key in a device whose Curve is not its public
// key's: jwa refuses it whenever a decrypter is made from it.
type ffCurveLiar struct {
	*ecdh.PrivateKey
	curve ecdh.Curve
}

func (k ffCurveLiar) Curve() ecdh.Curve { return k.curve }

// ffRSADevice is an RSA private key behind crypto.Decrypter.
type ffRSADevice struct{ *rsa.PrivateKey }

// TestNewDecrypterKeyNeverWorks: a private key of the right type that
// every key decryption would refuse (an RSA key below 2048 bits, as a Go
// key or in a device; a device whose curve is not its public key's) is
// refused by NewDecrypter with ErrInvalidKey and jwa's reason, not token
// by token.
func TestNewDecrypterKeyNeverWorks(t *testing.T) {
	weak := vectortest.RSAKey(t, 1024)
	p256, _ := ecdh.P256().GenerateKey(rand.Reader)
	for _, c := range []struct {
		name string
		algs []jwa.KeyAlgorithm
		key  any
		why  string
	}{
		{"RSA-1024", []jwa.KeyAlgorithm{jwa.RSA1_5, jwa.RSAOAEP, jwa.RSAOAEP256}, weak, "2048"},
		{"RSA-1024 in a device", []jwa.KeyAlgorithm{jwa.RSAOAEP}, ffRSADevice{weak}, "2048"},
		{"device of two curves", []jwa.KeyAlgorithm{jwa.ECDHES, jwa.HPKE0}, ffCurveLiar{p256, ecdh.X25519()}, "curve"},
	} {
		d, err := jwe.NewDecrypter(ffOptions(c.algs, c.key))
		if d != nil || !errors.Is(err, jose.ErrInvalidKey) || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%s for %v: %v; want ErrInvalidKey saying %q", c.name, c.algs, err, c.why)
		}
	}
	// The control: a 2048-bit key and a consistent device are accepted.
	if _, err := jwe.NewDecrypter(ffOptions([]jwa.KeyAlgorithm{jwa.RSAOAEP}, vectortest.RSAKey(t, 2048))); err != nil {
		t.Errorf("RSA-2048: %v", err)
	}
	if _, err := jwe.NewDecrypter(ffOptions([]jwa.KeyAlgorithm{jwa.ECDHES}, &vectortest.ECDHDevice{Key: p256})); err != nil {
		t.Errorf("a consistent device: %v", err)
	}
}
