package jwa

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha512"
	"encoding/asn1"
	"encoding/hex"
	"errors"
	"io"
	"math/big"
	"strings"
	"testing"
)

// TestECDSAPublishedVectors verifies the ECDSA signatures of RFC 7520 §4.3
// (ES512), RFC 7515 A.3 (ES256) and RFC 7515 A.4 (ES512).
func TestECDSAPublishedVectors(t *testing.T) {
	c := sigLoadCookbook(t, "cookbook/jws/4_3.ecdsa_signature.json")
	compact := func(rel string) (input, sig string) {
		s := strings.TrimSpace(string(sigReadFile(t, rel)))
		i := strings.LastIndexByte(s, '.')
		return s[:i], s[i+1:]
	}
	a3in, a3sig := compact("latchset/non-json/rfc7515_A.3.jwsc")
	a4in, a4sig := compact("latchset/non-json/rfc7515_A.4.jwsc")
	for _, tc := range []struct {
		name       string
		alg        SignatureAlgorithm
		key        []byte
		input, sig string
	}{
		{"RFC 7520 4.3", ES512, c.Input.Key, c.Signing.SigInput, c.Signing.Sig},
		{"RFC 7515 A.3", ES256, sigReadFile(t, "latchset/rfc7515_A.3.jwk"), a3in, a3sig},
		{"RFC 7515 A.4", ES512, sigReadFile(t, "latchset/rfc7515_A.4.jwk"), a4in, a4sig},
	} {
		key := sigParseJWK(t, tc.key).(*ecdsa.PrivateKey)
		v, err := NewVerifier(tc.alg, &key.PublicKey)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		sig := sigB64(t, tc.sig)
		if err := v.Verify([]byte(tc.input), sig); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		sig[len(sig)-1] ^= 1
		if err := v.Verify([]byte(tc.input), sig); err != ErrVerification {
			t.Errorf("%s, tampered: %v", tc.name, err)
		}
	}
}

// TestECDSACurve checks that each algorithm takes keys on its own curve only
// (RFC 7518 §3.4), and that the refusal names both curves.
func TestECDSACurve(t *testing.T) {
	k := sigKeys(t)
	keys := map[string]*ecdsa.PrivateKey{"P-256": k.p256, "P-384": k.p384, "P-521": k.p521}
	want := map[SignatureAlgorithm]string{ES256: "P-256", ES384: "P-384", ES512: "P-521"}
	for alg, curve := range want {
		for name, key := range keys {
			_, errS := NewSigner(alg, key)
			_, errV := NewVerifier(alg, &key.PublicKey)
			_, errC := NewSigner(alg, &sigTestSigner{key: key})
			if name == curve {
				if errS != nil || errV != nil || errC != nil {
					t.Errorf("%s with %s: %v, %v, %v", alg, name, errS, errV, errC)
				}
				continue
			}
			for _, err := range []error{errS, errV, errC} {
				if !errors.Is(err, ErrInvalidKey) || !strings.Contains(err.Error(), curve) || !strings.Contains(err.Error(), name) {
					t.Errorf("%s with %s: %v, want ErrInvalidKey naming %s and %s", alg, name, err, curve, name)
				}
			}
		}
	}
	// P-224 is no JWS curve.
	p224 := sigOtherEC(t, elliptic.P224())
	for _, alg := range []SignatureAlgorithm{ES256, ES384, ES512} {
		if _, err := NewSigner(alg, p224); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("%s with P-224: %v", alg, err)
		}
	}
}

// TestECDSABadKeys checks public points off the curve and private keys whose
// public half does not match the scalar.
func TestECDSABadKeys(t *testing.T) {
	k := sigKeys(t)
	offCurve := &ecdsa.PublicKey{Curve: elliptic.P256(), X: big.NewInt(1), Y: big.NewInt(1)}
	if _, err := NewVerifier(ES256, offCurve); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("point off the curve: %v", err)
	}
	noPoint := &ecdsa.PublicKey{Curve: elliptic.P256()}
	if _, err := NewVerifier(ES256, noPoint); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("public key without a point: %v", err)
	}
	noCurve := &ecdsa.PublicKey{X: k.p256.X, Y: k.p256.Y}
	if _, err := NewVerifier(ES256, noCurve); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("public key without a curve: %v", err)
	}
	other := sigOtherEC(t, elliptic.P256())
	mismatched := &ecdsa.PrivateKey{PublicKey: other.PublicKey, D: k.p256.D}
	if _, err := NewSigner(ES256, mismatched); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("private key with another public key: %v", err)
	}
	zero := &ecdsa.PrivateKey{PublicKey: k.p256.PublicKey, D: new(big.Int)}
	if _, err := NewSigner(ES256, zero); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("private key with d = 0: %v", err)
	}
	signerOff := &sigTestSigner{key: &ecdsaTestPub{offCurve}}
	if _, err := NewSigner(ES256, signerOff); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("crypto.Signer with a point off the curve: %v", err)
	}
}

// ecdsaTestPub is a crypto.Signer that only has a public key.
type ecdsaTestPub struct{ pub *ecdsa.PublicKey }

func (p *ecdsaTestPub) Public() crypto.PublicKey { return p.pub }
func (p *ecdsaTestPub) Sign(_ io.Reader, _ []byte, _ crypto.SignerOpts) ([]byte, error) {
	return nil, errors.New("no private key")
}

// TestECDSASignatureForm checks RFC 7518 §3.4: only the fixed-length R||S
// form verifies; DER, other lengths and out-of-range R or S are refused.
func TestECDSASignatureForm(t *testing.T) {
	k := sigKeys(t)
	input := sigTestInput(t)
	for _, tc := range []struct {
		alg  SignatureAlgorithm
		key  *ecdsa.PrivateKey
		size int
	}{{ES256, k.p256, 32}, {ES384, k.p384, 48}, {ES512, k.p521, 66}} {
		v, _ := NewVerifier(tc.alg, tc.key)
		var buf [sha512.Size]byte
		digest := sigDigest(tc.alg.Hash(), input, &buf)
		der, err := ecdsa.SignASN1(rand.Reader, tc.key, digest)
		if err != nil {
			t.Fatal(err)
		}
		if !ecdsa.VerifyASN1(&tc.key.PublicKey, digest, der) {
			t.Fatal("DER signature does not verify with crypto/ecdsa")
		}
		if err := v.Verify(input, der); err != ErrVerification {
			t.Errorf("%s accepted a DER signature: %v", tc.alg, err)
		}
		rs := make([]byte, 2*tc.size)
		if !ecdsaDERToRS(der, rs) {
			t.Fatal("ecdsaDERToRS refused crypto/ecdsa's DER")
		}
		if err := v.Verify(input, rs); err != nil {
			t.Fatalf("%s: converted signature: %v", tc.alg, err)
		}
		// R and S without their leading zero bytes (a common encoder bug),
		// or with extra ones, are refused.
		r, s := rs[:tc.size], rs[tc.size:]
		for _, bad := range [][]byte{
			append(ecdsaTestTrim(r), ecdsaTestTrim(s)...),
			append(append([]byte{0}, r...), append([]byte{0}, s...)...),
		} {
			if len(bad) == len(rs) {
				continue // no leading zero to drop in this signature
			}
			if err := v.Verify(input, bad); err != ErrVerification {
				t.Errorf("%s accepted a %d-byte signature", tc.alg, len(bad))
			}
		}
		n := tc.key.Curve.Params().N
		for name, vals := range map[string][2]*big.Int{
			"r = 0":     {big.NewInt(0), new(big.Int).SetBytes(s)},
			"s = 0":     {new(big.Int).SetBytes(r), big.NewInt(0)},
			"r = n":     {n, new(big.Int).SetBytes(s)},
			"s = n":     {new(big.Int).SetBytes(r), n},
			"r = r + n": {new(big.Int).Add(new(big.Int).SetBytes(r), n), new(big.Int).SetBytes(s)},
			"max":       {new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(8*tc.size)), big.NewInt(1)), new(big.Int).SetBytes(s)},
		} {
			if vals[0].BitLen() > 8*tc.size || vals[1].BitLen() > 8*tc.size {
				continue // does not fit the fixed length
			}
			bad := make([]byte, 2*tc.size)
			vals[0].FillBytes(bad[:tc.size])
			vals[1].FillBytes(bad[tc.size:])
			if err := v.Verify(input, bad); err != ErrVerification {
				t.Errorf("%s accepted a signature with %s: %v", tc.alg, name, err)
			}
		}
	}
}

func ecdsaTestTrim(b []byte) []byte {
	for len(b) > 0 && b[0] == 0 {
		b = b[1:]
	}
	return b
}

// TestECDSADERConversion runs the R||S <-> DER conversion against
// encoding/asn1 on edge values, and the DER parser against malformed input.
func TestECDSADERConversion(t *testing.T) {
	type sigValue struct{ R, S *big.Int }
	for _, size := range []int{32, 48, 66} {
		edges := [][]byte{
			bytes.Repeat([]byte{0xff}, size),
			bytes.Repeat([]byte{0x7f}, size),
			append(make([]byte, size-1), 1),
			append(make([]byte, size-1), 0x80),
			append([]byte{0x80}, make([]byte, size-1)...),
			append([]byte{0, 0x80}, make([]byte, size-2)...),
			append([]byte{0, 0x7f}, bytes.Repeat([]byte{0xee}, size-2)...),
			make([]byte, size),
		}
		for _, r := range edges {
			for _, s := range edges {
				rs := append(bytes.Clone(r), s...)
				var buf [ecdsaMaxDER]byte
				der := ecdsaRSToDER(rs, &buf)
				want, err := asn1.Marshal(sigValue{new(big.Int).SetBytes(r), new(big.Int).SetBytes(s)})
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(der, want) {
					t.Fatalf("size %d: ecdsaRSToDER(%x)\n got %x\nwant %x", size, rs, der, want)
				}
				back := make([]byte, 2*size)
				zero := new(big.Int).SetBytes(r).Sign() == 0 || new(big.Int).SetBytes(s).Sign() == 0
				if ok := ecdsaDERToRS(der, back); ok == zero || (ok && !bytes.Equal(back, rs)) {
					t.Fatalf("size %d: ecdsaDERToRS(%x) = %v, %x", size, der, ok, back)
				}
			}
		}
	}

	valid := "3006020101020102" // r = 1, s = 2
	if rs := make([]byte, 64); !ecdsaDERToRS(ecdsaTestHex(t, valid), rs) || rs[31] != 1 || rs[63] != 2 {
		t.Fatalf("ecdsaDERToRS(%s) = %x", valid, rs)
	}
	for name, h := range map[string]string{
		"empty":                 "",
		"one byte":              "30",
		"not a sequence":        "3106020101020102",
		"length too long":       "3007020101020102",
		"length too short":      "3005020101020102",
		"trailing data":         "300602010102010200",
		"trailing in sequence":  "3009020101020102020103",
		"one integer":           "3003020101",
		"negative r":            "3006020181020102",
		"non-minimal r":         "300702020001020102",
		"zero r":                "3006020100020102",
		"empty r":               "30050200020102",
		"not an integer":        "3006030101020102",
		"long-form length 0x81": "308106020101020102",
		"long-form int length":  "300702810101020102",
		"indefinite length":     "3080020101020102",
		"r too long":            "3026022101" + strings.Repeat("11", 32) + "020102",
		"truncated integer":     "3006020501020102",
	} {
		if ecdsaDERToRS(ecdsaTestHex(t, h), make([]byte, 64)) {
			t.Errorf("ecdsaDERToRS accepted %s: %s", name, h)
		}
	}
}

func ecdsaTestHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
