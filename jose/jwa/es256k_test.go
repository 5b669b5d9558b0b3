package jwa

import (
	"bytes"
	"crypto"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/big"
	"testing"
)

// Test data: ../../testdata/wycheproof/ecdsa_secp256k1_sha256_p1363_test.json,
// a byte-exact copy from C2SP/wycheproof @ dac1dd47 testvectors_v1/
// (Apache-2.0, wycheproof/LICENSE): ECDSA over secp256k1 with SHA-256,
// signatures in the IEEE P1363 form R||S that ES256K uses (RFC 8812 §3.2).

// secp256k1N is the order of secp256k1 (SEC 2 §2.4.1).
var secp256k1N, _ = new(big.Int).SetString("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", 16)

// TestES256KWycheproof checks every vector: the valid ones (high S
// included: RFC 8812 does not ask for low S) verify, the invalid ones
// (R or S out of [1, n-1], wrong lengths, modified values) do not.
func TestES256KWycheproof(t *testing.T) {
	var v struct {
		TestGroups []struct {
			PublicKey struct {
				Curve        string `json:"curve"`
				Uncompressed string `json:"uncompressed"`
			} `json:"publicKey"`
			Sha   string `json:"sha"`
			Tests []struct {
				TcID    int      `json:"tcId"`
				Comment string   `json:"comment"`
				Msg     string   `json:"msg"`
				Sig     string   `json:"sig"`
				Result  string   `json:"result"`
				Flags   []string `json:"flags"`
			} `json:"tests"`
		} `json:"testGroups"`
	}
	if err := json.Unmarshal(sigReadFile(t, "wycheproof/ecdsa_secp256k1_sha256_p1363_test.json"), &v); err != nil {
		t.Fatal(err)
	}
	var valid, invalid, highS int
	for _, g := range v.TestGroups {
		if g.PublicKey.Curve != "secp256k1" || g.Sha != "SHA-256" {
			t.Fatalf("group on %s with %s", g.PublicKey.Curve, g.Sha)
		}
		b, _ := hex.DecodeString(g.PublicKey.Uncompressed)
		pub, err := NewSecp256k1PublicKey(b)
		if err != nil {
			t.Fatal(err)
		}
		ver, err := NewVerifier(ES256K, pub)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range g.Tests {
			if tc.Result != "valid" && tc.Result != "invalid" {
				t.Fatalf("tcId %d: result %q", tc.TcID, tc.Result)
			}
			msg, _ := hex.DecodeString(tc.Msg)
			sig, _ := hex.DecodeString(tc.Sig)
			err := ver.Verify(msg, sig)
			if tc.Result == "valid" {
				valid++
				if err != nil {
					t.Errorf("tcId %d (%s): valid signature refused: %v", tc.TcID, tc.Comment, err)
				}
				if len(sig) == 64 && new(big.Int).SetBytes(sig[32:]).Cmp(new(big.Int).Rsh(secp256k1N, 1)) > 0 {
					highS++
				}
				continue
			}
			invalid++
			if err != ErrVerification {
				t.Errorf("tcId %d (%s, %v): invalid signature: %v, want ErrVerification", tc.TcID, tc.Comment, tc.Flags, err)
			}
		}
	}
	if valid != 167 || invalid != 85 || highS == 0 {
		t.Errorf("%d valid (%d with high S), %d invalid; want 167, some, 85", valid, highS, invalid)
	}
}

// TestES256KRanges: R or S of 0, n or more, a signature of 63, 65 or 72
// (DER) bytes, are refused before any arithmetic; a valid signature with S
// replaced by n−S (high S) still verifies.
func TestES256KRanges(t *testing.T) {
	key := sigSecp256k1(t, "a")
	s, _ := NewSigner(ES256K, key)
	v, _ := NewVerifier(ES256K, key.PublicKey())
	input := []byte("eyJhbGciOiJFUzI1NksifQ.cGF5bG9hZA")
	sig, err := s.Sign(nil, input)
	if err != nil || len(sig) != 64 {
		t.Fatalf("Sign: %x, %v", sig, err)
	}
	if err := v.Verify(input, sig); err != nil {
		t.Fatal(err)
	}
	// Signing is deterministic (RFC 6979) and gives the low S (BIP 62).
	if again, _ := s.Sign(nil, input); !bytes.Equal(again, sig) {
		t.Error("two signatures of one input differ")
	}
	half := new(big.Int).Rsh(secp256k1N, 1)
	sv := new(big.Int).SetBytes(sig[32:])
	if sv.Cmp(half) > 0 {
		t.Error("signer produced a high S")
	}
	high := bytes.Clone(sig)
	new(big.Int).Sub(secp256k1N, sv).FillBytes(high[32:])
	if err := v.Verify(input, high); err != nil {
		t.Errorf("high S refused: %v", err)
	}
	n := secp256k1N.FillBytes(make([]byte, 32))
	ff := bytes.Repeat([]byte{0xff}, 32)
	zero := make([]byte, 32)
	for name, bad := range map[string][]byte{
		"R = 0":       append(bytes.Clone(zero), sig[32:]...),
		"S = 0":       append(bytes.Clone(sig[:32]), zero...),
		"R = n":       append(bytes.Clone(n), sig[32:]...),
		"S = n":       append(bytes.Clone(sig[:32]), n...),
		"R = 2^256-1": append(bytes.Clone(ff), sig[32:]...),
		"S + n":       append(bytes.Clone(sig[:32]), new(big.Int).Add(sv, secp256k1N).FillBytes(make([]byte, 33))[1:]...),
		"63 bytes":    sig[:63],
		"65 bytes":    append(bytes.Clone(sig), 0),
		"empty":       nil,
	} {
		if err := v.Verify(input, bad); err != ErrVerification {
			t.Errorf("%s: %v, want ErrVerification", name, err)
		}
	}
	der, err := key.Sign(nil, func() []byte { d := sha256.Sum256(input); return d[:] }(), crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Verify(input, der); err != ErrVerification {
		t.Errorf("DER signature: %v, want ErrVerification", err)
	}
}

// TestSecp256k1Keys checks the constructors: the generator's scalar 1
// gives G; 0, n, and wrong lengths are refused; off-curve, compressed,
// infinity and out-of-field points are refused; Bytes round-trips; Equal.
func TestSecp256k1Keys(t *testing.T) {
	one := make([]byte, 32)
	one[31] = 1
	k, err := NewSecp256k1PrivateKey(one)
	if err != nil {
		t.Fatal(err)
	}
	const g = "0479be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8"
	if got := hex.EncodeToString(k.PublicKey().Bytes()); got != g {
		t.Errorf("1·G = %s", got)
	}
	if !bytes.Equal(k.Bytes(), one) {
		t.Errorf("Bytes = %x", k.Bytes())
	}
	for name, d := range map[string][]byte{
		"zero":     make([]byte, 32),
		"n":        secp256k1N.FillBytes(make([]byte, 32)),
		"n+1":      new(big.Int).Add(secp256k1N, big.NewInt(1)).FillBytes(make([]byte, 32)),
		"31 bytes": one[1:],
		"33 bytes": append([]byte{0}, one...),
	} {
		if _, err := NewSecp256k1PrivateKey(d); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("private scalar %s: %v", name, err)
		}
	}
	gb, _ := hex.DecodeString(g)
	pub, err := NewSecp256k1PublicKey(gb)
	if err != nil || !pub.Equal(k.PublicKey()) || !bytes.Equal(pub.Bytes(), gb) {
		t.Fatalf("G: %v", err)
	}
	off := bytes.Clone(gb)
	off[64] ^= 1
	p := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(0x1000003d1))
	xp := bytes.Clone(gb) // x + p, out of the field
	copy(xp[1:33], new(big.Int).Add(p, new(big.Int).SetBytes(gb[1:33])).FillBytes(make([]byte, 33))[1:])
	for name, b := range map[string][]byte{
		"off curve":  off,
		"compressed": append([]byte{2}, gb[1:33]...),
		"hybrid":     append([]byte{6}, gb[1:]...),
		"infinity":   {0},
		"zeros":      append([]byte{4}, make([]byte, 64)...),
		"x ≥ p":      xp,
		"short":      gb[:64],
	} {
		if _, err := NewSecp256k1PublicKey(b); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("public key %s: %v", name, err)
		}
	}
	a, b := sigSecp256k1(t, "a"), sigSecp256k1(t, "b")
	a2, _ := NewSecp256k1PrivateKey(a.Bytes())
	if !a.Equal(a2) || a.Equal(b) || a.Equal(nil) || a.PublicKey().Equal(b.PublicKey()) || !a.Public().(*Secp256k1PublicKey).Equal(a2.PublicKey()) {
		t.Error("Equal")
	}
	gen, err := GenerateSecp256k1Key()
	if err != nil || gen.Equal(a) {
		t.Fatal(err)
	}
	s, _ := NewSigner(ES256K, gen)
	v, _ := NewVerifier(ES256K, gen.Public())
	sig, _ := s.Sign(nil, []byte("x"))
	if err := v.Verify([]byte("x"), sig); err != nil {
		t.Error(err)
	}
	// Keys of other algorithms are refused, and secp256k1 keys elsewhere.
	if _, err := NewVerifier(ES256, a.PublicKey()); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("ES256 with a secp256k1 key: %v", err)
	}
	if _, err := NewVerifier(ES256K, sigKeys(t).p256); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("ES256K with a P-256 key: %v", err)
	}
	for _, alg := range []KeyAlgorithm{ECDHES, ECDHESA128KW} {
		if _, err := NewKeyDecrypter(alg, a); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("%s with a secp256k1 key: %v (ECDH with secp256k1 is not registered)", alg, err)
		}
		if _, err := NewKeyEncrypter(alg, a.PublicKey()); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("%s to a secp256k1 key: %v", alg, err)
		}
		if alg.FitsKey(a) {
			t.Errorf("%s fits a secp256k1 key", alg)
		}
	}
	if !ES256K.FitsKey(a) || !ES256K.FitsKey(a.PublicKey()) || ES256K.FitsKey(sigKeys(t).p256) || ES256.FitsKey(a) {
		t.Error("FitsKey")
	}
	// Zero values, declared rather than constructed, are refused.
	if _, err := NewSigner(ES256K, new(Secp256k1PrivateKey)); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("zero private key: %v", err)
	}
	if _, err := NewVerifier(ES256K, new(Secp256k1PublicKey)); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("zero public key: %v", err)
	}
	if ES256K.KeyType() != "EC" || ES256K.Curve() != "secp256k1" {
		t.Error("KeyType, Curve")
	}
}
