package jose

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"math/big"
	"os"
	"testing"
)

// ecdhTestParse marshals key as a JWK and parses it back, so that the
// result went through ParseKey.
func ecdhTestParse(t *testing.T, key any) *JWK {
	t.Helper()
	j, err := NewJWK(key)
	if err != nil {
		t.Fatal(err)
	}
	data, err := j.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	k, err := ParseKey(data)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// ecdhTestWant is the ECDH form of pub, converted by crypto/ecdsa.
func ecdhTestWant(t *testing.T, pub *ecdsa.PublicKey) *ecdh.PublicKey {
	t.Helper()
	e, err := pub.ECDH()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestECDHPublicKeyParsed(t *testing.T) {
	for _, curve := range []elliptic.Curve{elliptic.P256(), elliptic.P384(), elliptic.P521()} {
		t.Run(curve.Params().Name, func(t *testing.T) {
			priv, err := ecdsa.GenerateKey(curve, rand.Reader)
			if err != nil {
				t.Fatal(err)
			}
			want := ecdhTestWant(t, &priv.PublicKey)

			pubJWK := ecdhTestParse(t, &priv.PublicKey)
			if pubJWK.ext.ecdh == nil {
				t.Fatal("ParseKey kept no ECDH form of the point")
			}
			got, err := pubJWK.ECDHPublicKey()
			if err != nil {
				t.Fatal(err)
			}
			if got != pubJWK.ext.ecdh {
				t.Error("ECDHPublicKey did not return the form validated while parsing")
			}
			if !got.Equal(want) {
				t.Error("ECDHPublicKey of a parsed public key is not its point")
			}
			// The ecdsa key built from the validated coordinates is the
			// one crypto/ecdsa builds.
			if !pubJWK.Key.(*ecdsa.PublicKey).Equal(&priv.PublicKey) {
				t.Error("parsed ecdsa key differs from the original")
			}
			if b, err := pubJWK.Key.(*ecdsa.PublicKey).Bytes(); err != nil || !bytes.Equal(b, want.Bytes()) {
				t.Errorf("parsed ecdsa key: Bytes() = %x, %v", b, err)
			}

			privJWK := ecdhTestParse(t, priv)
			got, err = privJWK.ECDHPublicKey()
			if err != nil {
				t.Fatal(err)
			}
			if got != privJWK.ext.ecdh || !got.Equal(want) {
				t.Error("ECDHPublicKey of a parsed private key is not its cached public point")
			}
			pub := privJWK.Public()
			got, err = pub.ECDHPublicKey()
			if err != nil || !got.Equal(want) {
				t.Errorf("ECDHPublicKey of Public(): %v", err)
			}
		})
	}
}

func TestECDHPublicKeyNotStale(t *testing.T) {
	a, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	wantB := ecdhTestWant(t, &b.PublicKey)

	t.Run("hand-built", func(t *testing.T) {
		got, err := (&JWK{Key: &b.PublicKey}).ECDHPublicKey()
		if err != nil || !got.Equal(wantB) {
			t.Errorf("got %v, %v", got, err)
		}
		got, err = (&JWK{Key: b}).ECDHPublicKey()
		if err != nil || !got.Equal(wantB) {
			t.Errorf("private: got %v, %v", got, err)
		}
	})
	t.Run("Key replaced", func(t *testing.T) {
		k := ecdhTestParse(t, &a.PublicKey)
		k.Key = &b.PublicKey
		got, err := k.ECDHPublicKey()
		if err != nil || !got.Equal(wantB) {
			t.Errorf("got %v, %v: the point parsed before the Key was replaced?", got, err)
		}
		k.Key = b
		got, err = k.ECDHPublicKey()
		if err != nil || !got.Equal(wantB) {
			t.Errorf("private: got %v, %v", got, err)
		}
	})
	t.Run("Key replaced by an equal copy", func(t *testing.T) {
		k := ecdhTestParse(t, &a.PublicKey)
		cached := k.ext.ecdh
		k.Key = &a.PublicKey
		got, err := k.ECDHPublicKey()
		if err != nil || got != cached {
			t.Errorf("got %v, %v: want the cached point for the same coordinates", got, err)
		}
	})
	t.Run("coordinates modified", func(t *testing.T) {
		k := ecdhTestParse(t, &a.PublicKey)
		key := k.Key.(*ecdsa.PublicKey)
		key.X, key.Y = b.PublicKey.X, b.PublicKey.Y //nolint:staticcheck // the deprecated fields, on purpose
		got, err := k.ECDHPublicKey()
		if err != nil || !got.Equal(wantB) {
			t.Errorf("got %v, %v", got, err)
		}
		// Off the curve now: refused, never the cached point.
		key.Y = new(big.Int).Add(key.Y, big.NewInt(1))
		if got, err := k.ECDHPublicKey(); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("point off the curve: got %v, %v, want ErrInvalidKey", got, err)
		}
		key.X = new(big.Int).Neg(b.PublicKey.X)
		key.Y = b.PublicKey.Y
		if got, err := k.ECDHPublicKey(); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("negative X: got %v, %v, want ErrInvalidKey", got, err)
		}
		key.X = nil
		if got, err := k.ECDHPublicKey(); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("nil X: got %v, %v, want ErrInvalidKey", got, err)
		}
	})
	t.Run("curve modified", func(t *testing.T) {
		k := ecdhTestParse(t, &a.PublicKey)
		k.Key.(*ecdsa.PublicKey).Curve = elliptic.P384()
		if got, err := k.ECDHPublicKey(); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("got %v, %v, want ErrInvalidKey", got, err)
		}
		k.Key.(*ecdsa.PublicKey).Curve = elliptic.P256().Params()
		if got, err := k.ECDHPublicKey(); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("generic curve: got %v, %v, want ErrInvalidKey", got, err)
		}
	})
}

func TestECDHPublicKeyX25519(t *testing.T) {
	priv, err := ecdh.X25519().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pub := priv.PublicKey()
	got, err := (&JWK{Key: pub}).ECDHPublicKey()
	if err != nil || got != pub {
		t.Errorf("public: got %v, %v, want the key itself", got, err)
	}
	got, err = (&JWK{Key: priv}).ECDHPublicKey()
	if err != nil || !got.Equal(priv.PublicKey()) {
		t.Errorf("private: got %v, %v", got, err)
	}
	k := ecdhTestParse(t, priv.PublicKey())
	got, err = k.ECDHPublicKey()
	if err != nil || !got.Equal(priv.PublicKey()) || got.Curve() != ecdh.X25519() {
		t.Errorf("parsed: got %v, %v", got, err)
	}
}

func TestECDHPublicKeyWrongType(t *testing.T) {
	edPub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../testdata/cookbook/jwk/3_3.rsa_public_key.json")
	if err != nil {
		t.Fatal(err)
	}
	rsaJWK, err := ParseKey(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := rsaJWK.Key.(*rsa.PublicKey); !ok {
		t.Fatalf("cookbook RSA key is a %T", rsaJWK.Key)
	}
	for name, k := range map[string]*JWK{
		"nil Key":          {},
		"oct":              {Key: []byte("0123456789abcdef")},
		"Ed25519":          {Key: edPub},
		"RSA":              rsaJWK,
		"nil ecdsa public": {Key: (*ecdsa.PublicKey)(nil)},
		"nil ecdsa priv":   {Key: (*ecdsa.PrivateKey)(nil)},
		"nil ecdh public":  {Key: (*ecdh.PublicKey)(nil)},
		"nil ecdh private": {Key: (*ecdh.PrivateKey)(nil)},
	} {
		got, err := k.ECDHPublicKey()
		if got != nil || !errors.Is(err, ErrInvalidKey) {
			t.Errorf("%s: got %v, %v, want ErrInvalidKey", name, got, err)
		}
	}
}
