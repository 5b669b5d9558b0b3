//go:build go1.27

package jwa

import (
	"bytes"
	"compress/gzip"
	"crypto/mldsa"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// Test data: ../../testdata/wycheproof/mldsa_{44,65,87}_{verify,sign_seed}_test.json.gz,
// gzip -9 of the files of C2SP/wycheproof @ dac1dd47 testvectors_v1/
// (Apache-2.0, wycheproof/LICENSE): FIPS 204 verification (public key,
// message, signature, result) and signing from a 32-byte seed.

// mldsaTestKey derives a fixed ML-DSA key of params from label.
func mldsaTestKey(t testing.TB, params mldsa.Parameters, label string) *mldsa.PrivateKey {
	t.Helper()
	seed := sha256.Sum256([]byte("josebench jwa " + params.String() + " " + label))
	k, err := mldsa.NewPrivateKey(params, seed[:])
	if err != nil {
		t.Fatal(err)
	}
	return k
}

var (
	mldsaKeysOnce sync.Once
	mldsaKeys     map[SignatureAlgorithm][2]*mldsa.PrivateKey
)

func mldsaTestKeys(t testing.TB) map[SignatureAlgorithm][2]*mldsa.PrivateKey {
	mldsaKeysOnce.Do(func() {
		mldsaKeys = map[SignatureAlgorithm][2]*mldsa.PrivateKey{}
		for _, alg := range mldsaAlgorithms {
			p, _ := MLDSAParameters(alg)
			mldsaKeys[alg] = [2]*mldsa.PrivateKey{mldsaTestKey(t, p, "a"), mldsaTestKey(t, p, "b")}
		}
	})
	return mldsaKeys
}

// sigMLDSACases adds the ML-DSA algorithms to the shared signature tests
// (round trip with every bit flip, wrong key, cross-algorithm, crypto.Signer,
// concurrency).
func sigMLDSACases(t testing.TB) []sigCase {
	var cases []sigCase
	for _, alg := range mldsaAlgorithms {
		k := mldsaTestKeys(t)[alg]
		p, _ := MLDSAParameters(alg)
		cases = append(cases, sigCase{alg, k[0], k[1], p.SignatureSize()})
	}
	return cases
}

// sigMLDSAKeyKinds adds ML-DSA keys to TestSignWrongKeyType: each parameter
// set accepts its own keys only, and the other algorithms refuse them all.
func sigMLDSAKeyKinds(t testing.TB, keys map[string]any, signOK, verifyOK map[SignatureAlgorithm][]string) {
	for _, alg := range mldsaAlgorithms {
		k := mldsaTestKeys(t)[alg][0]
		name := string(alg)
		keys[name] = k
		keys[name+"-pub"] = k.PublicKey()
		signOK[alg] = []string{name}
		verifyOK[alg] = []string{name, name + "-pub"}
	}
	keys["nil-mldsa"] = (*mldsa.PrivateKey)(nil)
	keys["nil-mldsapub"] = (*mldsa.PublicKey)(nil)
}

func TestMLDSASupported(t *testing.T) {
	if !MLDSASupported() {
		t.Fatal("MLDSASupported() = false with Go 1.27")
	}
	for _, alg := range []SignatureAlgorithm{MLDSA44, MLDSA65, MLDSA87} {
		if !alg.Known() || !slices.Contains(SignatureAlgorithms(), alg) {
			t.Errorf("%s not known or not listed", alg)
		}
	}
	if _, ok := MLDSAParameters(Ed25519); ok {
		t.Error("MLDSAParameters(Ed25519) ok")
	}
}

// TestMLDSAWrongParameterSet checks that a key of one parameter set is
// refused for the others, for signing and verifying, with ErrInvalidKey.
func TestMLDSAWrongParameterSet(t *testing.T) {
	for _, a := range mldsaAlgorithms {
		for _, b := range mldsaAlgorithms {
			k := mldsaTestKeys(t)[b][0]
			_, serr := NewSigner(a, k)
			_, verr := NewVerifier(a, k.PublicKey())
			_, ts := NewSigner(a, &sigTestSigner{key: k})
			if a == b {
				if serr != nil || verr != nil || ts != nil {
					t.Errorf("%s with its own key: %v, %v, %v", a, serr, verr, ts)
				}
				continue
			}
			for _, err := range []error{serr, verr, ts} {
				if !errors.Is(err, ErrInvalidKey) {
					t.Errorf("%s with an %s key: %v, want ErrInvalidKey", a, b, err)
				}
			}
		}
	}
}

func mldsaReadVectors(t *testing.T, name string, v any) {
	t.Helper()
	f, err := os.Open(filepath.Join(sigTestRoot, "wycheproof", name+".gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.NewDecoder(zr).Decode(v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func mldsaHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMLDSAWycheproofVerify runs the Wycheproof ML-DSA verification vectors
// through NewVerifier: valid signatures verify, invalid ones (modified
// signatures, wrong lengths, bad hints, norm violations) give
// ErrVerification, and public keys crypto/mldsa refuses cannot make a
// verifier. Vectors with a non-empty context are skipped: RFC 9964 §2 signs
// with the empty context, so a JWS cannot carry one.
func TestMLDSAWycheproofVerify(t *testing.T) {
	for _, alg := range mldsaAlgorithms {
		params, _ := MLDSAParameters(alg)
		var file struct {
			Algorithm  string
			TestGroups []struct {
				PublicKey string
				Tests     []struct {
					TcID          int
					Msg, Sig, Ctx string
					Result        string
					Flags         []string
				}
			}
		}
		name := fmt.Sprintf("mldsa_%s_verify_test.json", string(alg)[len("ML-DSA-"):])
		mldsaReadVectors(t, name, &file)
		if file.Algorithm != string(alg) {
			t.Fatalf("%s: algorithm %q", name, file.Algorithm)
		}
		var ran, valid int
		for _, g := range file.TestGroups {
			pub, perr := mldsa.NewPublicKey(params, mldsaHex(t, g.PublicKey))
			var v Verifier
			if perr == nil {
				var err error
				if v, err = NewVerifier(alg, pub); err != nil {
					t.Fatalf("%s: NewVerifier: %v", name, err)
				}
			}
			for _, tc := range g.Tests {
				if tc.Ctx != "" {
					continue
				}
				ran++
				if perr != nil {
					if tc.Result == "valid" {
						t.Errorf("%s tcId %d: valid vector, but its public key is refused: %v", name, tc.TcID, perr)
					}
					continue
				}
				err := v.Verify(mldsaHex(t, tc.Msg), mldsaHex(t, tc.Sig))
				switch {
				case tc.Result == "valid" && err != nil:
					t.Errorf("%s tcId %d (%v): Verify = %v", name, tc.TcID, tc.Flags, err)
				case tc.Result == "invalid" && err != ErrVerification:
					t.Errorf("%s tcId %d (%v): Verify = %v, want ErrVerification", name, tc.TcID, tc.Flags, err)
				}
				if tc.Result == "valid" {
					valid++
				}
			}
		}
		if ran < 100 || valid < 10 {
			t.Errorf("%s: only %d vectors run, %d valid", name, ran, valid)
		}
	}
}

// TestMLDSAWycheproofSignSeed runs the Wycheproof signing vectors: the key
// derived from each 32-byte seed (the "priv" of an RFC 9964 AKP JWK) has the
// expected public key, the expected signatures verify through NewVerifier,
// a deterministic signature with the empty context is the expected one
// (crypto/mldsa's known-answer behaviour), and signatures made through
// NewSigner verify. Seeds of the wrong length are refused.
func TestMLDSAWycheproofSignSeed(t *testing.T) {
	for _, alg := range mldsaAlgorithms {
		params, _ := MLDSAParameters(alg)
		var file struct {
			Algorithm  string
			TestGroups []struct {
				PrivateSeed, PublicKey string
				Tests                  []struct {
					TcID              int
					Msg, Mu, Ctx, Sig string
					Result            string
					Flags             []string
				}
			}
		}
		name := fmt.Sprintf("mldsa_%s_sign_seed_test.json", string(alg)[len("ML-DSA-"):])
		mldsaReadVectors(t, name, &file)
		var keys, deterministic int
		for _, g := range file.TestGroups {
			priv, err := mldsa.NewPrivateKey(params, mldsaHex(t, g.PrivateSeed))
			if err != nil {
				for _, tc := range g.Tests {
					if tc.Result == "valid" {
						t.Errorf("%s tcId %d: seed refused: %v", name, tc.TcID, err)
					}
				}
				continue
			}
			keys++
			if !bytes.Equal(priv.PublicKey().Bytes(), mldsaHex(t, g.PublicKey)) {
				t.Errorf("%s: the public key derived from seed %s… differs", name, g.PrivateSeed[:16])
				continue
			}
			s, err := NewSigner(alg, priv)
			if err != nil {
				t.Fatal(err)
			}
			v, err := NewVerifier(alg, priv.PublicKey())
			if err != nil {
				t.Fatal(err)
			}
			for _, tc := range g.Tests {
				if tc.Ctx != "" || tc.Msg == "" && tc.Mu != "" || tc.Result != "valid" {
					continue // a context, μ only, or an invalid context: not reachable through JWS
				}
				msg, want := mldsaHex(t, tc.Msg), mldsaHex(t, tc.Sig)
				if err := v.Verify(msg, want); err != nil {
					t.Errorf("%s tcId %d: expected signature: Verify = %v", name, tc.TcID, err)
				}
				if !slices.Contains(tc.Flags, "Randomized") {
					got, err := priv.SignDeterministic(msg, nil)
					if err != nil || !bytes.Equal(got, want) {
						t.Errorf("%s tcId %d: deterministic signature differs (%v)", name, tc.TcID, err)
					}
					deterministic++
				}
				sig, err := s.Sign(nil, msg)
				if err != nil {
					t.Fatal(err)
				}
				if err := v.Verify(msg, sig); err != nil {
					t.Errorf("%s tcId %d: our signature: Verify = %v", name, tc.TcID, err)
				}
			}
		}
		if keys < 5 || deterministic < 5 {
			t.Errorf("%s: only %d keys, %d deterministic signatures checked", name, keys, deterministic)
		}
	}
}

// sigMLDSASkipBit thins the single-bit flips of TestSignRoundTrip for the
// multi-kilobyte ML-DSA signatures (a verification costs tens of
// microseconds): every bit of the commitment hash c̃ (the first 64 bytes
// cover it for every parameter set) and of the hint encoding (the last 96
// bytes cover ω+k for every parameter set, FIPS 204 §7.2 Algorithm 28), and
// in the packed response vector z between them every 9th bit: eight bytes
// in nine, and every bit position within a byte.
func sigMLDSASkipBit(alg SignatureAlgorithm, sigLen, bit int) bool {
	if _, ok := MLDSAParameters(alg); !ok {
		return false
	}
	byteIdx := bit / 8
	return byteIdx >= 64 && byteIdx < sigLen-96 && bit%9 != 0
}

// TestMLDSASignerDevice: an ML-DSA signing device's failure is
// ErrKeyDevice, as for the other algorithms (TestSignerDevice).
func TestMLDSASignerDevice(t *testing.T) {
	for alg, params := range map[SignatureAlgorithm]mldsa.Parameters{MLDSA44: mldsa.MLDSA44(), MLDSA65: mldsa.MLDSA65(), MLDSA87: mldsa.MLDSA87()} {
		sigCheckDevice(t, alg, mldsaTestKey(t, params, "device"))
	}
}

// TestMLDSADescribeKey: an ML-DSA key is described by its parameter set
// and half, and a key of another set is refused in those words.
func TestMLDSADescribeKey(t *testing.T) {
	k44 := mldsaTestKey(t, mldsa.MLDSA44(), "describe")
	if got, want := DescribeKey(k44), "an ML-DSA-44 private key"; got != want {
		t.Errorf("DescribeKey(private) = %q, want %q", got, want)
	}
	if got, want := DescribeKey(k44.PublicKey()), "an ML-DSA-44 public key"; got != want {
		t.Errorf("DescribeKey(public) = %q, want %q", got, want)
	}
	_, err := NewVerifier(MLDSA65, k44.PublicKey())
	if want := "jwa: the key is an ML-DSA-44 public key; ML-DSA-65 needs an ML-DSA-65 key: invalid key for algorithm"; err == nil || err.Error() != want {
		t.Errorf("ML-DSA-65 with an ML-DSA-44 key: %v, want %s", err, want)
	}
}

// TestMLDSADescribeZero: the zero ML-DSA keys, which crypto/mldsa panics
// on when asked their parameter set, are described, and refused by an
// algorithm for another key type without a panic (review rv23t:
// NewSigner(HS256, &mldsa.PrivateKey{}) panicked in the refusal).
func TestMLDSADescribeZero(t *testing.T) {
	for _, c := range []struct {
		key  any
		want string
	}{
		{&mldsa.PrivateKey{}, "an ML-DSA private key of no parameter set"},
		{&mldsa.PublicKey{}, "an ML-DSA public key of no parameter set"},
	} {
		if got := DescribeKey(c.key); got != c.want {
			t.Errorf("DescribeKey(%T) = %q, want %q", c.key, got, c.want)
		}
		if _, err := NewSigner(HS256, c.key); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("NewSigner(HS256, zero %T): %v", c.key, err)
		}
		if _, err := NewKeyEncrypter(A128KW, c.key); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("NewKeyEncrypter(A128KW, zero %T): %v", c.key, err)
		}
	}
}
