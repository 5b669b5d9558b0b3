package jwa

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose/internal/vectortest"
)

// TestRSACookbook reproduces RFC 7520 §4.1 (RS256) byte for byte and
// verifies RFC 7520 §4.2 (PS384), both with the key of RFC 7520 §3.4.
func TestRSACookbook(t *testing.T) {
	c := sigLoadCookbook(t, "cookbook/jws/4_1.rsa_v15_signature.json")
	key := sigParseJWK(t, c.Input.Key).(*rsa.PrivateKey)
	if !key.Equal(sigParseJWK(t, sigReadFile(t, "cookbook/jwk/3_4.rsa_private_key.json"))) {
		t.Fatal("4.1 key differs from the 3.4 key")
	}
	want := sigB64(t, c.Signing.Sig)
	s, err := NewSigner(RS256, key)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Sign(nil, []byte(c.Signing.SigInput))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("RS256 signature\n got %x\nwant %x", got, want)
	}
	v, err := NewVerifier(RS256, &key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Verify([]byte(c.Signing.SigInput), want); err != nil {
		t.Fatal(err)
	}

	c2 := sigLoadCookbook(t, "cookbook/jws/4_2.rsa-pss_signature.json")
	if c2.Input.Alg != "PS384" {
		t.Fatalf("4.2 alg %q", c2.Input.Alg)
	}
	v2, err := NewVerifier(PS384, sigPublicKey(sigParseJWK(t, c2.Input.Key)))
	if err != nil {
		t.Fatal(err)
	}
	sig2 := sigB64(t, c2.Signing.Sig)
	if err := v2.Verify([]byte(c2.Signing.SigInput), sig2); err != nil {
		t.Fatalf("RFC 7520 4.2: %v", err)
	}
	// The PS384 signature does not verify as PS256 or PS512, nor as RS384.
	for _, alg := range []SignatureAlgorithm{PS256, PS512, RS384} {
		v, _ := NewVerifier(alg, key)
		if err := v.Verify([]byte(c2.Signing.SigInput), sig2); err != ErrVerification {
			t.Errorf("RFC 7520 4.2 as %s: %v", alg, err)
		}
	}
}

// TestRSAKeySize checks that keys under 2048 bits are refused (RFC 7518
// §3.3, §3.5), for signing, verifying and through a crypto.Signer.
func TestRSAKeySize(t *testing.T) {
	k1024 := vectortest.RSAKey(t, 1024)
	if k1024.N.BitLen() != 1024 {
		t.Fatalf("rsa1024.pem has %d bits", k1024.N.BitLen())
	}
	for _, alg := range []SignatureAlgorithm{RS256, RS384, RS512, PS256, PS384, PS512} {
		for name, key := range map[string]any{"private": k1024, "signer": &sigTestSigner{key: k1024}} {
			_, err := NewSigner(alg, key)
			if !errors.Is(err, ErrInvalidKey) || !strings.Contains(err.Error(), "1024") {
				t.Errorf("NewSigner(%s, 1024-bit %s) = %v, want ErrInvalidKey naming the size", alg, name, err)
			}
		}
		for _, key := range []any{k1024, &k1024.PublicKey} {
			if _, err := NewVerifier(alg, key); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("NewVerifier(%s, 1024-bit %T) = %v, want ErrInvalidKey", alg, key, err)
			}
		}
	}
	// 2047 bits: just too short. 16385 bits: too long to verify cheaply.
	for _, bits := range []int{2047, 16385} {
		pub := &rsa.PublicKey{N: new(big.Int).SetBit(big.NewInt(1), bits-1, 1), E: 65537}
		if _, err := NewVerifier(RS256, pub); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("NewVerifier(RS256, %d-bit key) = %v, want ErrInvalidKey", bits, err)
		}
	}
}

// TestRSABadKeys checks keys that are broken rather than short.
func TestRSABadKeys(t *testing.T) {
	good := sigKeys(t).rsa2048
	for name, pub := range map[string]*rsa.PublicKey{
		"no modulus":  {E: 65537},
		"even e":      {N: good.N, E: 65536},
		"e=1":         {N: good.N, E: 1},
		"negative e":  {N: good.N, E: -3},
		"zero e":      {N: good.N},
		"nil pointer": nil,
	} {
		if _, err := NewVerifier(PS256, pub); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("%s: NewVerifier = %v, want ErrInvalidKey", name, err)
		}
	}
	// A private key whose d does not match n, e.
	bad := *good
	bad.Precomputed = rsa.PrecomputedValues{}
	bad.D = new(big.Int).Add(good.D, big.NewInt(2))
	if _, err := NewSigner(RS256, &bad); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("inconsistent private key: NewSigner = %v, want ErrInvalidKey", err)
	}
	// A signer whose public key is not RSA.
	if _, err := NewSigner(PS256, &sigTestSigner{key: sigKeys(t).p256}); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("ECDSA crypto.Signer for PS256: %v, want ErrInvalidKey", err)
	}
}

// TestRSAKeyNotModified checks that NewSigner precomputes on its own copy.
func TestRSAKeyNotModified(t *testing.T) {
	src := sigKeys(t).rsa2048
	key := &rsa.PrivateKey{PublicKey: src.PublicKey, D: src.D, Primes: src.Primes}
	if _, err := NewSigner(RS256, key); err != nil {
		t.Fatal(err)
	}
	if key.Precomputed.Dp != nil {
		t.Error("NewSigner modified the caller's key")
	}
}

// TestRSAPSSSaltLength checks RFC 7518 §3.5: PSS signatures are made with a
// salt as long as the hash, and any other salt length is refused on
// verification (as the Wycheproof JWS "SaltLenChanged" tests expect).
func TestRSAPSSSaltLength(t *testing.T) {
	key := sigKeys(t).rsa2048
	input := sigTestInput(t)
	for _, alg := range []SignatureAlgorithm{PS256, PS384, PS512} {
		h := alg.Hash()
		var buf [sha512.Size]byte
		digest := sigDigest(h, input, &buf)
		s, _ := NewSigner(alg, key)
		sig, err := s.Sign(nil, input)
		if err != nil {
			t.Fatal(err)
		}
		if err := rsa.VerifyPSS(&key.PublicKey, h, digest, sig, &rsa.PSSOptions{SaltLength: h.Size()}); err != nil {
			t.Errorf("%s: signature salt is not %d bytes: %v", alg, h.Size(), err)
		}
		v, _ := NewVerifier(alg, key)
		for _, salt := range []int{0, 20, h.Size() - 1, h.Size() + 1, rsa.PSSSaltLengthAuto} {
			other, err := rsa.SignPSS(rand.Reader, key, h, digest, &rsa.PSSOptions{SaltLength: salt})
			if err != nil {
				t.Fatal(err)
			}
			if err := v.Verify(input, other); err != ErrVerification {
				t.Errorf("%s with a salt length of %d: Verify = %v, want ErrVerification", alg, salt, err)
			}
		}
		// A PSS signature with the MGF1 or message hash of another size is
		// refused.
		other, err := rsa.SignPSS(rand.Reader, key, crypto.SHA256, rsaTestSHA256(input), &rsa.PSSOptions{SaltLength: h.Size()})
		if err != nil {
			t.Fatal(err)
		}
		if alg != PS256 {
			if err := v.Verify(input, other); err != ErrVerification {
				t.Errorf("%s accepted a SHA-256 PSS signature: %v", alg, err)
			}
		}
	}
}

func rsaTestSHA256(b []byte) []byte {
	h := sha256.Sum256(b)
	return h[:]
}

// TestRSAPKCS1Bare checks that RS signatures are plain RSASSA-PKCS1-v1_5 as
// crypto/rsa makes them (deterministic, so byte for byte).
func TestRSAPKCS1Bare(t *testing.T) {
	key := sigKeys(t).rsa2048
	input := sigTestInput(t)
	for _, alg := range []SignatureAlgorithm{RS256, RS384, RS512} {
		var buf [sha512.Size]byte
		want, err := rsa.SignPKCS1v15(nil, key, alg.Hash(), sigDigest(alg.Hash(), input, &buf))
		if err != nil {
			t.Fatal(err)
		}
		s, _ := NewSigner(alg, key)
		got, _ := s.Sign(nil, input)
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from rsa.SignPKCS1v15", alg)
		}
	}
}
