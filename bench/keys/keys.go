// Package keys holds the fixed keys of the josebench suite, embedded in the
// binary so that every run measures the same keys (see README.md in this
// directory for their sources: RFC 7520 and RFC 8037 keys where they exist,
// the others generated once by this project).
//
// The keys are stored as JWKs (RFC 7517 §4, RFC 7518 §6) and decoded here
// with the standard library only (and jwa's secp256k1 key type, which the
// standard library lacks), so that the harness does not depend on the JWK
// parser it may be used to measure.
package keys

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/josebench/josebench/jose/jwa"
)

//go:embed *.json pbes2-password.txt
var files embed.FS

// jwk holds the members of the JWKs this package decodes.
type jwk struct {
	Kty, Crv, K, X, Y, D, N, E, P, Q string
}

func load(name string) (*jwk, error) {
	data, err := files.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	var k jwk
	if err := json.Unmarshal(data, &k); err != nil {
		return nil, fmt.Errorf("keys: %s: %w", name, err)
	}
	return &k, nil
}

func b64(name, member, s string) ([]byte, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) == 0 {
		return nil, fmt.Errorf("keys: %s: bad %q member", name, member)
	}
	return b, nil
}

func bigInt(name, member, s string) (*big.Int, error) {
	b, err := b64(name, member, s)
	if err != nil {
		return nil, err
	}
	return new(big.Int).SetBytes(b), nil
}

// RSA returns the RSA private key of the given size: 2048 (RFC 7520 §3.4),
// 3072 or 4096 bits.
func RSA(bits int) (*rsa.PrivateKey, error) { return rsaKey(fmt.Sprintf("rsa%d.json", bits), bits) }

// OtherRSA returns a second RSA private key of the given size, distinct
// from [RSA]'s: the key a token must not verify or decrypt under.
func OtherRSA(bits int) (*rsa.PrivateKey, error) {
	return rsaKey(fmt.Sprintf("other-rsa%d.json", bits), bits)
}

func rsaKey(name string, bits int) (*rsa.PrivateKey, error) {
	k, err := load(name)
	if err != nil {
		return nil, err
	}
	var ints [5]*big.Int
	for i, m := range []struct{ name, v string }{{"n", k.N}, {"e", k.E}, {"d", k.D}, {"p", k.P}, {"q", k.Q}} {
		if ints[i], err = bigInt(name, m.name, m.v); err != nil {
			return nil, err
		}
	}
	key := &rsa.PrivateKey{
		PublicKey: rsa.PublicKey{N: ints[0], E: int(ints[1].Int64())},
		D:         ints[2],
		Primes:    []*big.Int{ints[3], ints[4]},
	}
	if err := key.Validate(); err != nil {
		return nil, fmt.Errorf("keys: %s: %w", name, err)
	}
	key.Precompute()
	if key.N.BitLen() != bits {
		return nil, fmt.Errorf("keys: %s has %d bits, want %d", name, key.N.BitLen(), bits)
	}
	return key, nil
}

var curves = map[string]struct {
	file  string // without the .json suffix
	curve elliptic.Curve
}{
	"P-256": {"p256", elliptic.P256()},
	"P-384": {"p384", elliptic.P384()},
	"P-521": {"p521", elliptic.P521()},
}

// EC returns the ECDSA private key on crv: P-256 (RFC 7520 §5.5), P-384
// (RFC 7520 §5.4) or P-521 (RFC 7520 §3.2).
func EC(crv string) (*ecdsa.PrivateKey, error) { return ecKey("", crv) }

// OtherEC returns a second private key on crv, distinct from [EC]'s.
func OtherEC(crv string) (*ecdsa.PrivateKey, error) { return ecKey("other-", crv) }

func ecKey(prefix, crv string) (*ecdsa.PrivateKey, error) {
	c, ok := curves[crv]
	if !ok {
		return nil, fmt.Errorf("keys: no key on curve %q", crv)
	}
	c.file = prefix + c.file + ".json"
	k, err := load(c.file)
	if err != nil {
		return nil, err
	}
	d, err := b64(c.file, "d", k.D)
	if err != nil {
		return nil, err
	}
	key, err := ecdsa.ParseRawPrivateKey(c.curve, d)
	if err != nil {
		return nil, fmt.Errorf("keys: %s: %w", c.file, err)
	}
	x, err := bigInt(c.file, "x", k.X)
	if err != nil {
		return nil, err
	}
	y, err := bigInt(c.file, "y", k.Y)
	if err != nil {
		return nil, err
	}
	if key.X.Cmp(x) != 0 || key.Y.Cmp(y) != 0 {
		return nil, fmt.Errorf("keys: %s: public key does not match d", c.file)
	}
	return key, nil
}

// Ed25519 returns the Ed25519 private key of RFC 8037 §A.1.
func Ed25519() (ed25519.PrivateKey, error) { return ed25519Key("ed25519.json") }

// OtherEd25519 returns a second Ed25519 private key, distinct from
// [Ed25519]'s.
func OtherEd25519() (ed25519.PrivateKey, error) { return ed25519Key("other-ed25519.json") }

func ed25519Key(name string) (ed25519.PrivateKey, error) {
	k, err := load(name)
	if err != nil {
		return nil, err
	}
	d, err := b64(name, "d", k.D)
	if err != nil {
		return nil, err
	}
	if len(d) != ed25519.SeedSize {
		return nil, fmt.Errorf("keys: %s: bad seed size", name)
	}
	key := ed25519.NewKeyFromSeed(d)
	x, err := b64(name, "x", k.X)
	if err != nil {
		return nil, err
	}
	if !key.Public().(ed25519.PublicKey).Equal(ed25519.PublicKey(x)) {
		return nil, fmt.Errorf("keys: %s: public key does not match d", name)
	}
	return key, nil
}

// X25519 returns the X25519 private key of RFC 8037 §A.6 (Bob's).
func X25519() (*ecdh.PrivateKey, error) { return x25519Key("x25519.json") }

// OtherX25519 returns a second X25519 private key, distinct from
// [X25519]'s.
func OtherX25519() (*ecdh.PrivateKey, error) { return x25519Key("other-x25519.json") }

func x25519Key(name string) (*ecdh.PrivateKey, error) {
	k, err := load(name)
	if err != nil {
		return nil, err
	}
	d, err := b64(name, "d", k.D)
	if err != nil {
		return nil, err
	}
	key, err := ecdh.X25519().NewPrivateKey(d)
	if err != nil {
		return nil, fmt.Errorf("keys: %s: %w", name, err)
	}
	x, err := b64(name, "x", k.X)
	if err != nil {
		return nil, err
	}
	if string(key.PublicKey().Bytes()) != string(x) {
		return nil, fmt.Errorf("keys: %s: public key does not match d", name)
	}
	return key, nil
}

// Oct returns the symmetric key of the given size in bits: 128 (RFC 7520
// §5.8), 192, 256 (RFC 7520 §5.7), 384 or 512.
func Oct(bits int) ([]byte, error) { return octKey(fmt.Sprintf("oct%d.json", bits), bits) }

// OtherOct returns a second symmetric key of the given size, distinct from
// [Oct]'s.
func OtherOct(bits int) ([]byte, error) { return octKey(fmt.Sprintf("other-oct%d.json", bits), bits) }

func octKey(name string, bits int) ([]byte, error) {
	k, err := load(name)
	if err != nil {
		return nil, err
	}
	b, err := b64(name, "k", k.K)
	if err != nil {
		return nil, err
	}
	if len(b)*8 != bits {
		return nil, fmt.Errorf("keys: %s has %d bits, want %d", name, len(b)*8, bits)
	}
	return b, nil
}

// PBES2Password returns the PBES2 password of RFC 7520 §5.3.
func PBES2Password() []byte {
	b, err := files.ReadFile("pbes2-password.txt")
	if err != nil {
		panic("keys: embedded password missing: " + err.Error())
	}
	return b
}

// OtherPBES2Password returns a second PBES2 password, distinct from
// [PBES2Password]'s.
func OtherPBES2Password() []byte {
	return []byte("Thus drew Sauron, the Dark Lord, the password of another")
}

// Secp256k1 returns the suite's secp256k1 private key (RFC 8812 §3.1), the
// key of ES256K.
func Secp256k1() (*jwa.Secp256k1PrivateKey, error) { return secp256k1Key("secp256k1.json") }

// OtherSecp256k1 returns a second secp256k1 private key, distinct from
// [Secp256k1]'s.
func OtherSecp256k1() (*jwa.Secp256k1PrivateKey, error) {
	return secp256k1Key("other-secp256k1.json")
}

func secp256k1Key(name string) (*jwa.Secp256k1PrivateKey, error) {
	k, err := load(name)
	if err != nil {
		return nil, err
	}
	d, err := b64(name, "d", k.D)
	if err != nil {
		return nil, err
	}
	x, err := b64(name, "x", k.X)
	if err != nil {
		return nil, err
	}
	y, err := b64(name, "y", k.Y)
	if err != nil {
		return nil, err
	}
	key, err := jwa.NewSecp256k1PrivateKey(d)
	if err != nil {
		return nil, fmt.Errorf("keys: %s: %w", name, err)
	}
	pub := key.PublicKey().Bytes()
	if k.Crv != "secp256k1" || string(pub[1:33]) != string(x) || string(pub[33:]) != string(y) {
		return nil, fmt.Errorf("keys: %s: public key does not match d", name)
	}
	return key, nil
}
