package jwa

import (
	"bytes"
	"crypto"
	"crypto/ecdh"
	"crypto/ed25519"
	"errors"
	"io"
	"testing"
)

// TestEdDSACookbook reproduces RFC 8037 A.4 (the signature with the A.1
// key) byte for byte, under both EdDSA and the fully-specified Ed25519
// (RFC 9864), which compute the same signature.
func TestEdDSACookbook(t *testing.T) {
	c := sigLoadCookbook(t, "cookbook/curve25519/jws.json")
	key := sigParseJWK(t, c.Input.Key).(ed25519.PrivateKey)
	// RFC 8037 A.1: the seed and public key.
	if got, want := key.Seed(), sigB64(t, "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"); !bytes.Equal(got, want) {
		t.Fatalf("A.1 seed %x", got)
	}
	input := []byte(c.Signing.SigInput)
	want := sigB64(t, c.Signing.Sig)
	for _, alg := range []SignatureAlgorithm{EdDSA, Ed25519} {
		s, err := NewSigner(alg, key)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Sign(nil, input)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s signature\n got %x\nwant %x", alg, got, want)
		}
		v, err := NewVerifier(alg, key.Public())
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Verify(input, want); err != nil {
			t.Fatal(err)
		}
		// Through a crypto.Signer: Ed25519 is deterministic, same bytes.
		cs, err := NewSigner(alg, &sigTestSigner{key: key})
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := cs.Sign(nil, input); !bytes.Equal(got, want) {
			t.Fatalf("%s via crypto.Signer: %x", alg, got)
		}
	}
}

// TestEdDSABadKeys checks that EdDSA takes Ed25519 keys only, of the right
// length, and refuses a private key whose public half does not match its
// seed (signing with it would leak the secret scalar).
func TestEdDSABadKeys(t *testing.T) {
	key := sigKeys(t).ed
	other := ed25519.NewKeyFromSeed(make([]byte, 32))
	mixed := append(bytes.Clone(key[:32]), other[32:]...)
	x25519, err := ecdh.X25519().NewPrivateKey(key.Seed())
	if err != nil {
		t.Fatal(err)
	}
	for _, alg := range []SignatureAlgorithm{EdDSA, Ed25519} {
		for name, k := range map[string]any{
			"mismatched public half": ed25519.PrivateKey(mixed),
			"short private key":      key[:63],
			"seed only":              ed25519.PrivateKey(key.Seed()),
			"long private key":       append(bytes.Clone(key), 0),
			"X25519 private key":     x25519,
			"X25519 public key":      x25519.PublicKey(),
			"public key":             key.Public(),
			"raw bytes":              []byte(key),
			"signer with X25519":     &eddsaTestPubSigner{pub: x25519.PublicKey()},
			"signer with short key":  &eddsaTestPubSigner{pub: ed25519.PublicKey(key[32:63])},
		} {
			if _, err := NewSigner(alg, k); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("NewSigner(%s, %s) = %v, want ErrInvalidKey", alg, name, err)
			}
		}
		for name, k := range map[string]any{
			"short public key":   ed25519.PublicKey(key[32:63]),
			"long public key":    ed25519.PublicKey(append(bytes.Clone(key[32:]), 0)),
			"short private key":  key[:63],
			"X25519 public key":  x25519.PublicKey(),
			"X25519 private key": x25519,
			"raw bytes":          []byte(key[32:]),
		} {
			if _, err := NewVerifier(alg, k); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("NewVerifier(%s, %s) = %v, want ErrInvalidKey", alg, name, err)
			}
		}
	}
}

// eddsaTestPubSigner is a crypto.Signer with a given public key that cannot
// sign.
type eddsaTestPubSigner struct{ pub any }

func (s *eddsaTestPubSigner) Public() crypto.PublicKey { return s.pub }
func (s *eddsaTestPubSigner) Sign(io.Reader, []byte, crypto.SignerOpts) ([]byte, error) {
	return nil, errors.New("cannot sign")
}

// TestEdDSAAllocs checks that signing into a presized buffer allocates
// nothing (ed25519.Sign's result stays on the stack).
func TestEdDSAAllocs(t *testing.T) {
	s, _ := NewSigner(EdDSA, sigKeys(t).ed)
	v, _ := NewVerifier(EdDSA, sigKeys(t).ed)
	input := sigTestInput(t)
	dst := make([]byte, 0, 64)
	sig, _ := s.Sign(nil, input)
	if n := testing.AllocsPerRun(20, func() { s.Sign(dst, input) }); n != 0 {
		t.Errorf("Sign: %v allocations", n)
	}
	if n := testing.AllocsPerRun(20, func() { v.Verify(input, sig) }); n != 0 {
		t.Errorf("Verify: %v allocations", n)
	}
}
