package jose_test

// Wycheproof X25519 JWK conformance (C2SP/wycheproof @ dac1dd47,
// testvectors_v1/x25519_jwk_test.json, Apache-2.0,
// ../testdata/wycheproof/LICENSE).
//
// Each case gives a public and a private key as JWKs (RFC 8037 §2) and the
// X25519 shared secret (RFC 7748 §5). Every case is its own subtest named
// "x25519_jwk_test/tcId=<n>":
//
//   - both JWKs are parsed with [jose.ParseKey]; X25519 keys must come out
//     as *ecdh.PublicKey and *ecdh.PrivateKey on ecdh.X25519();
//   - the key agreement runs through jwa's ECDH-ES key decrypter (RFC 7518
//     §4.6, RFC 8037 §3.2) with the public key as the "epk", and the CEK it
//     derives must equal the Concat KDF of the expected shared secret;
//   - valid cases must agree, invalid ones (a public key of another type or
//     curve, a broken JWK) must be refused, acceptable ones (low-order and
//     twist points, non-canonical encodings) may go either way, but when
//     they succeed the result must be the right one;
//   - the same agreement with the private key behind a device that leaves
//     the all-zero check of RFC 7748 §6.1 to its caller
//     ([vectortest.ECDHDevice]) must come out exactly as with the Go key:
//     refused for the same cases (the check of jwa's dh.go), the same CEK
//     for the others.

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
)

type wpXDHFile struct {
	NumberOfTests int `json:"numberOfTests"`
	TestGroups    []struct {
		Curve string      `json:"curve"`
		Tests []wpXDHTest `json:"tests"`
	} `json:"testGroups"`
}

type wpXDHTest struct {
	TcID    int             `json:"tcId"`
	Comment string          `json:"comment"`
	Flags   []string        `json:"flags"`
	Public  json.RawMessage `json:"public"`
	Private json.RawMessage `json:"private"`
	Shared  string          `json:"shared"`
	Result  string          `json:"result"`
}

// wpConcatKDF is the single-round Concat KDF of RFC 7518 §4.6.2 (NIST SP
// 800-56A §5.8.1) for ECDH-ES in direct key agreement mode with empty apu
// and apv, for a key of at most 256 bits.
func wpConcatKDF(z []byte, enc string, bits int) []byte {
	h := sha256.New()
	var u32 [4]byte
	put := func(v int) { binary.BigEndian.PutUint32(u32[:], uint32(v)); h.Write(u32[:]) }
	put(1) // round counter
	h.Write(z)
	put(len(enc))
	h.Write([]byte(enc))
	put(0) // PartyUInfo
	put(0) // PartyVInfo
	put(bits)
	return h.Sum(nil)[:bits/8]
}

func TestWycheproofX25519JWK(t *testing.T) {
	data, err := os.ReadFile("../testdata/wycheproof/x25519_jwk_test.json")
	if err != nil {
		t.Fatal(err)
	}
	var f wpXDHFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	var run, passed, failed, accepted, refused int
	t.Run("x25519_jwk_test", func(t *testing.T) {
		for _, g := range f.TestGroups {
			if g.Curve != "curve25519" {
				t.Fatalf("curve %q", g.Curve)
			}
			for _, tc := range g.Tests {
				run++
				var agreed bool
				ok := t.Run(fmt.Sprintf("tcId=%d", tc.TcID), func(t *testing.T) {
					agreed = wpRunXDHCase(t, tc)
				})
				switch {
				case !ok:
					failed++
				default:
					passed++
					if tc.Result == "acceptable" {
						if agreed {
							accepted++
						} else {
							refused++
						}
					}
				}
			}
		}
	})
	if run != f.NumberOfTests {
		t.Errorf("ran %d cases, file has %d", run, f.NumberOfTests)
	}
	t.Logf("wycheproof x25519_jwk_test: run %d, passed %d, failed %d, skipped 0, acceptable accepted/refused %d/%d",
		run, passed, failed, accepted, refused)
}

// wpRunXDHCase runs one case and reports whether the key agreement
// succeeded.
func wpRunXDHCase(t *testing.T, tc wpXDHTest) bool {
	t.Logf("%s %v", tc.Comment, tc.Flags)
	shared, err := hex.DecodeString(tc.Shared)
	if err != nil {
		t.Fatal(err)
	}
	priv, err := jose.ParseKey(tc.Private)
	if err != nil {
		t.Fatalf("private key refused: %v", err)
	}
	sk, ok := priv.Key.(*ecdh.PrivateKey)
	if !ok || sk.Curve() != ecdh.X25519() {
		t.Fatalf("private key parsed as %T, want X25519 *ecdh.PrivateKey", priv.Key)
	}
	if !priv.IsPrivate() || priv.KeyType() != "OKP" {
		t.Errorf("IsPrivate %v, KeyType %q", priv.IsPrivate(), priv.KeyType())
	}

	agree := func(key any) ([]byte, error) {
		pub, err := jose.ParseKey(tc.Public)
		if err != nil {
			return nil, fmt.Errorf("public key: %w", err)
		}
		var epk *ecdh.PublicKey
		switch k := pub.Key.(type) {
		case *ecdh.PublicKey:
			epk = k
		case *ecdsa.PublicKey:
			// An EC key of another curve, as an attacker would put it in
			// "epk": the agreement must refuse it.
			if epk, err = k.ECDH(); err != nil {
				return nil, fmt.Errorf("public key: %w", err)
			}
		default:
			return nil, fmt.Errorf("public key of type %T", pub.Key)
		}
		kd, err := jwa.NewKeyDecrypter(jwa.ECDHES, key)
		if err != nil {
			t.Fatalf("NewKeyDecrypter(ECDH-ES, X25519 %T): %v", key, err)
		}
		return kd.DecryptKey(nil, jwa.A128GCM, &jwa.KeyParams{EPK: epk})
	}
	cek, err := agree(sk)
	dev := &vectortest.ECDHDevice{Key: sk}
	if devCEK, devErr := agree(dev); (devErr == nil) != (err == nil) || !bytes.Equal(devCEK, cek) || errors.Is(devErr, jwa.ErrKeyDevice) {
		t.Errorf("through a device that does not check: %x, %v; the Go key: %x, %v", devCEK, devErr, cek, err)
	}
	switch tc.Result {
	case "valid":
		if err != nil {
			t.Fatalf("valid case refused: %v", err)
		}
	case "invalid":
		if err == nil {
			t.Fatalf("invalid case accepted: CEK %x", cek)
		}
		t.Logf("refused: %v", err)
		return false
	case "acceptable":
		if err != nil {
			t.Logf("acceptable case refused: %v", err)
			return false
		}
	default:
		t.Fatalf("unknown result %q", tc.Result)
	}
	if want := wpConcatKDF(shared, string(jwa.A128GCM), 128); !bytes.Equal(cek, want) {
		t.Fatalf("CEK %x, want %x (shared secret %x)", cek, want, shared)
	}
	return true
}
