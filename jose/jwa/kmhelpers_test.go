package jwa

import (
	"crypto/ecdh"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"os"
	"testing"
)

// Helpers shared by the key management and content encryption tests; all
// prefixed km to stay clear of the signature tests' names.

func kmB64(t testing.TB, s string) []byte {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("base64url %q: %v", s, err)
	}
	return b
}

func kmReadJSON(t testing.TB, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// kmJWK is the subset of a JWK (RFC 7517, RFC 7518 §6, RFC 8037 §2) the
// tests read from the RFC 7520 cookbook.
type kmJWK struct {
	Kty, Crv, K string
	X, Y, D     string
	N, E, P, Q  string
	DP, DQ, QI  string
}

func kmCurve(t testing.TB, crv string) ecdh.Curve {
	t.Helper()
	switch crv {
	case "P-256":
		return ecdh.P256()
	case "P-384":
		return ecdh.P384()
	case "P-521":
		return ecdh.P521()
	case "X25519":
		return ecdh.X25519()
	}
	t.Fatalf("curve %q", crv)
	return nil
}

func (j kmJWK) ecdhPublic(t testing.TB) *ecdh.PublicKey {
	t.Helper()
	c := kmCurve(t, j.Crv)
	raw := kmB64(t, j.X)
	if j.Kty == "EC" {
		raw = append(append([]byte{4}, raw...), kmB64(t, j.Y)...)
	}
	pub, err := c.NewPublicKey(raw)
	if err != nil {
		t.Fatal(err)
	}
	return pub
}

func (j kmJWK) ecdhPrivate(t testing.TB) *ecdh.PrivateKey {
	t.Helper()
	priv, err := kmCurve(t, j.Crv).NewPrivateKey(kmB64(t, j.D))
	if err != nil {
		t.Fatal(err)
	}
	return priv
}

func (j kmJWK) rsaPrivate(t testing.TB) *rsa.PrivateKey {
	t.Helper()
	n := func(s string) *big.Int { return new(big.Int).SetBytes(kmB64(t, s)) }
	k := &rsa.PrivateKey{
		PublicKey: rsa.PublicKey{N: n(j.N), E: int(n(j.E).Int64())},
		D:         n(j.D),
		Primes:    []*big.Int{n(j.P), n(j.Q)},
	}
	if err := k.Validate(); err != nil {
		t.Fatal(err)
	}
	k.Precompute()
	return k
}

func kmSHA256(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}

// rsaRawEncrypt is textbook RSA, m^e mod n, to make ciphertexts with any
// padding for the RSA1_5 tests.
func rsaRawEncrypt(pub *rsa.PublicKey, m []byte) []byte {
	c := new(big.Int).Exp(new(big.Int).SetBytes(m), big.NewInt(int64(pub.E)), pub.N)
	return c.FillBytes(make([]byte, pub.Size()))
}
