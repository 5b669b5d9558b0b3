package jwa

import (
	"bytes"
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/josebench/josebench/jose/internal/vectortest"
)

// Test data used by the signature tests (all under the repository's
// testdata/, with its licenses):
//   - ../../testdata/cookbook/jws/4_*.json: RFC 7520 §4 (cookbook, Unlicense)
//   - ../../testdata/cookbook/curve25519/jws.json: RFC 8037 A.1 key and A.4
//     signature (cookbook, Unlicense)
//   - ../../testdata/latchset/rfc7515_A.3.jwk (P-256, RFC 7515 A.3) and
//     rfc7520_5.4.jwk (P-384, RFC 7520 §5.4) (latchset/jose, Apache-2.0)
//   - ../../testdata/keys/rsa{1024,2048}.pem: fixed keys of this project
const sigTestRoot = "../../testdata"

// sigCookbookJWS is the part of an RFC 7520 cookbook JWS file the tests use.
type sigCookbookJWS struct {
	Input struct {
		Payload string          `json:"payload"`
		Key     json.RawMessage `json:"key"`
		Alg     string          `json:"alg"`
	} `json:"input"`
	Signing struct {
		SigInput string `json:"sig-input"`
		Sig      string `json:"sig"`
	} `json:"signing"`
}

func sigReadFile(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(sigTestRoot, rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sigLoadCookbook(t testing.TB, rel string) *sigCookbookJWS {
	t.Helper()
	var c sigCookbookJWS
	if err := json.Unmarshal(sigReadFile(t, rel), &c); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return &c
}

func sigB64(t testing.TB, s string) []byte {
	t.Helper()
	b, err := base64.RawURLEncoding.Strict().DecodeString(s)
	if err != nil {
		t.Fatalf("base64url %q: %v", s, err)
	}
	return b
}

func sigBig(t testing.TB, s string) *big.Int {
	return new(big.Int).SetBytes(sigB64(t, s))
}

// sigParseJWK turns a private JWK (RFC 7517, RFC 7518 §6, RFC 8037 §2) into
// a Go private key: *rsa.PrivateKey, *ecdsa.PrivateKey, ed25519.PrivateKey,
// or []byte for "oct". The jose package cannot be imported here (it imports
// jwa), hence this small parser for test keys.
func sigParseJWK(t testing.TB, data []byte) any {
	t.Helper()
	var k struct {
		Kty, Crv, N, E, D, P, Q, X, Y, K string
	}
	if err := json.Unmarshal(data, &k); err != nil {
		t.Fatal(err)
	}
	switch k.Kty {
	case "RSA":
		key := &rsa.PrivateKey{
			PublicKey: rsa.PublicKey{N: sigBig(t, k.N), E: int(sigBig(t, k.E).Int64())},
			D:         sigBig(t, k.D),
			Primes:    []*big.Int{sigBig(t, k.P), sigBig(t, k.Q)},
		}
		if err := key.Validate(); err != nil {
			t.Fatal(err)
		}
		key.Precompute()
		return key
	case "EC":
		curve := map[string]elliptic.Curve{"P-256": elliptic.P256(), "P-384": elliptic.P384(), "P-521": elliptic.P521()}[k.Crv]
		if curve == nil {
			t.Fatalf("curve %q", k.Crv)
		}
		key, err := ecdsa.ParseRawPrivateKey(curve, sigB64(t, k.D))
		if err != nil {
			t.Fatal(err)
		}
		x, y := sigBig(t, k.X), sigBig(t, k.Y)
		if key.X.Cmp(x) != 0 || key.Y.Cmp(y) != 0 {
			t.Fatal("EC JWK: x, y do not match d")
		}
		return key
	case "OKP":
		if k.Crv != "Ed25519" {
			t.Fatalf("crv %q", k.Crv)
		}
		key := ed25519.NewKeyFromSeed(sigB64(t, k.D))
		if !bytes.Equal(key.Public().(ed25519.PublicKey), sigB64(t, k.X)) {
			t.Fatal("OKP JWK: x does not match d")
		}
		return key
	case "oct":
		return sigB64(t, k.K)
	}
	t.Fatalf("kty %q", k.Kty)
	return nil
}

// sigKeys holds one fixed private key per key kind.
type sigKeySet struct {
	hmac                 []byte // 64 bytes: enough for HS512
	rsa2048, rsaCookbook *rsa.PrivateKey
	rsa1024              *rsa.PrivateKey
	p256, p384, p521     *ecdsa.PrivateKey
	ed                   ed25519.PrivateKey
}

var (
	sigKeysOnce sync.Once
	sigKeysVal  *sigKeySet
)

func sigKeys(t testing.TB) *sigKeySet {
	t.Helper()
	sigKeysOnce.Do(func() {
		h := sha512.Sum512([]byte("josebench jwa signature test key"))
		sigKeysVal = &sigKeySet{
			hmac:        h[:],
			rsa2048:     vectortest.RSAKey(t, 2048),
			rsa1024:     vectortest.RSAKey(t, 1024),
			rsaCookbook: sigParseJWK(t, sigLoadCookbook(t, "cookbook/jws/4_1.rsa_v15_signature.json").Input.Key).(*rsa.PrivateKey),
			p256:        sigParseJWK(t, sigReadFile(t, "latchset/rfc7515_A.3.jwk")).(*ecdsa.PrivateKey),
			p384:        sigParseJWK(t, sigReadFile(t, "latchset/rfc7520_5.4.jwk")).(*ecdsa.PrivateKey),
			p521:        sigParseJWK(t, sigLoadCookbook(t, "cookbook/jws/4_3.ecdsa_signature.json").Input.Key).(*ecdsa.PrivateKey),
			ed:          sigParseJWK(t, sigLoadCookbook(t, "cookbook/curve25519/jws.json").Input.Key).(ed25519.PrivateKey),
		}
	})
	if sigKeysVal == nil {
		t.Fatal("test keys failed to load")
	}
	return sigKeysVal
}

// sigCase is one algorithm with a key it accepts and another key of the
// same kind (a wrong key) it also accepts.
type sigCase struct {
	alg           SignatureAlgorithm
	key, otherKey any
	sigLen        int
}

func sigCases(t testing.TB) []sigCase {
	k := sigKeys(t)
	h2 := sha512.Sum512(k.hmac)
	other := h2[:]
	p256b := sigOtherEC(t, elliptic.P256())
	p384b := sigOtherEC(t, elliptic.P384())
	p521b := sigOtherEC(t, elliptic.P521())
	return append([]sigCase{
		{HS256, k.hmac[:32], other[:32], 32},
		{HS384, k.hmac[:48], other[:48], 48},
		{HS512, k.hmac, other, 64},
		{RS256, k.rsa2048, k.rsaCookbook, 256},
		{RS384, k.rsa2048, k.rsaCookbook, 256},
		{RS512, k.rsa2048, k.rsaCookbook, 256},
		{PS256, k.rsa2048, k.rsaCookbook, 256},
		{PS384, k.rsa2048, k.rsaCookbook, 256},
		{PS512, k.rsa2048, k.rsaCookbook, 256},
		{ES256, k.p256, p256b, 64},
		{ES384, k.p384, p384b, 96},
		{ES512, k.p521, p521b, 132},
		{EdDSA, k.ed, ed25519.NewKeyFromSeed(make([]byte, 32)), 64},
		{Ed25519, k.ed, ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32)), 64},
		{ES256K, sigSecp256k1(t, "a"), sigSecp256k1(t, "b"), 64},
	}, sigMLDSACases(t)...) // none before Go 1.27
}

// sigSecp256k1 derives a fixed secp256k1 key from label.
func sigSecp256k1(t testing.TB, label string) *Secp256k1PrivateKey {
	t.Helper()
	d := sha256.Sum256([]byte("josebench jwa secp256k1 " + label))
	k, err := NewSecp256k1PrivateKey(d[:])
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// sigOtherEC derives a second fixed key on curve (ECDSA key generation is
// cheap, but a fixed scalar keeps the tests reproducible).
func sigOtherEC(t testing.TB, curve elliptic.Curve) *ecdsa.PrivateKey {
	t.Helper()
	d := make([]byte, (curve.Params().BitSize+7)/8)
	d[len(d)-1] = 42
	k, err := ecdsa.ParseRawPrivateKey(curve, d)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// sigTestInput is the RFC 7520 §4.1 JWS Signing Input.
func sigTestInput(t testing.TB) []byte {
	return []byte(sigLoadCookbook(t, "cookbook/jws/4_1.rsa_v15_signature.json").Signing.SigInput)
}

func TestSignatureAlgorithmsList(t *testing.T) {
	algs := SignatureAlgorithms()
	if want := 15 + len(sigMLDSACases(t)); len(algs) != want {
		t.Fatalf("SignatureAlgorithms() has %d entries, want %d", len(algs), want)
	}
	seen := map[SignatureAlgorithm]bool{}
	for _, a := range algs {
		if seen[a] {
			t.Errorf("%s listed twice", a)
		}
		seen[a] = true
		if !a.Known() {
			t.Errorf("%s.Known() = false", a)
		}
		if a.String() != string(a) {
			t.Errorf("%s.String() = %q", a, a.String())
		}
		if strings.HasPrefix(string(a), "ML-DSA-") {
			if a.Hash() != 0 { // pure ML-DSA signs the input itself (RFC 9964 §2)
				t.Errorf("%s.Hash() = %v, want 0", a, a.Hash())
			}
		} else if a.Hash() == 0 || !a.Hash().Available() {
			t.Errorf("%s.Hash() = %v", a, a.Hash())
		}
	}
	algs[0] = "changed"
	if SignatureAlgorithms()[0] != HS256 {
		t.Error("SignatureAlgorithms returns a shared slice")
	}
	for _, a := range []SignatureAlgorithm{"none", "", "hs256", "HS257", "ES256k", "Ed448", "RS1"} {
		if a.Known() || a.Hash() != 0 {
			t.Errorf("%q: Known() = %v, Hash() = %v", a, a.Known(), a.Hash())
		}
	}
	for a, want := range map[SignatureAlgorithm]crypto.Hash{
		HS256: crypto.SHA256, RS384: crypto.SHA384, PS512: crypto.SHA512,
		ES256: crypto.SHA256, ES384: crypto.SHA384, ES512: crypto.SHA512,
		EdDSA: crypto.SHA512, Ed25519: crypto.SHA512, ES256K: crypto.SHA256,
	} {
		if a.Hash() != want {
			t.Errorf("%s.Hash() = %v, want %v", a, a.Hash(), want)
		}
	}
}

func TestSignUnsupportedAlgorithm(t *testing.T) {
	k := sigKeys(t)
	long := SignatureAlgorithm(strings.Repeat("A", 1000))
	for _, alg := range []SignatureAlgorithm{"none", "None", "", "hs256", "HS1", "ES256k", "ES256KK", "Ed448", "RSA-OAEP", "A128GCM", long} {
		for _, key := range []any{k.hmac, k.rsa2048, k.p256, k.ed, nil} {
			if _, err := NewSigner(alg, key); !errors.Is(err, ErrUnsupportedAlgorithm) {
				t.Errorf("NewSigner(%.10q, %T) = %v, want ErrUnsupportedAlgorithm", alg, key, err)
			} else if want := `jwa: signature algorithm "` + strings.Repeat("A", 64) + `…" (1000 bytes) is unknown: unsupported algorithm`; alg == long && err.Error() != want {
				// The name is quoted and cut as every text of an
				// attacker is (internal/untrusted).
				t.Errorf("error for a long alg name: %s, want %s", err, want)
			}
			if _, err := NewVerifier(alg, key); !errors.Is(err, ErrUnsupportedAlgorithm) {
				t.Errorf("NewVerifier(%.10q, %T) = %v, want ErrUnsupportedAlgorithm", alg, key, err)
			}
		}
	}
}

// TestSignRoundTrip runs, for every algorithm: sign and verify; a verifier
// made from the private key; every single-bit flip of the signature and of
// the input; truncated and extended signatures; a wrong key; dst appending.
func TestSignRoundTrip(t *testing.T) {
	input := sigTestInput(t)
	for _, c := range sigCases(t) {
		t.Run(string(c.alg), func(t *testing.T) {
			t.Parallel()
			s, err := NewSigner(c.alg, c.key)
			if err != nil {
				t.Fatal(err)
			}
			if s.Algorithm() != c.alg {
				t.Errorf("signer Algorithm() = %s", s.Algorithm())
			}
			prefix := []byte("prefix.")
			out, err := s.Sign(slices.Clip(prefix), input)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(out, prefix) {
				t.Fatalf("Sign did not append to dst: %q", out[:len(prefix)])
			}
			sig := out[len(prefix):]
			if len(sig) != c.sigLen {
				t.Fatalf("signature is %d bytes, want %d", len(sig), c.sigLen)
			}

			v, err := NewVerifier(c.alg, sigPublicKey(c.key))
			if err != nil {
				t.Fatal(err)
			}
			if v.Algorithm() != c.alg {
				t.Errorf("verifier Algorithm() = %s", v.Algorithm())
			}
			if err := v.Verify(input, sig); err != nil {
				t.Fatalf("Verify: %v", err)
			}
			vp, err := NewVerifier(c.alg, c.key) // private key: its public half
			if err != nil {
				t.Fatal(err)
			}
			if err := vp.Verify(input, sig); err != nil {
				t.Fatalf("Verify with a verifier made from the private key: %v", err)
			}

			// A second signature verifies too (randomized algorithms differ).
			sig2, err := s.Sign(nil, input)
			if err != nil {
				t.Fatal(err)
			}
			if err := v.Verify(input, sig2); err != nil {
				t.Fatal(err)
			}

			// Every bit; with -short, every 9th one, which still visits
			// each bit position of a byte (P-521 verifications are slow).
			step := 1
			if testing.Short() {
				step = 9
			}
			for i := 0; i < len(sig)*8; i += step {
				if sigMLDSASkipBit(c.alg, len(sig), i) {
					continue
				}
				bad := bytes.Clone(sig)
				bad[i/8] ^= 1 << (i % 8)
				if err := v.Verify(input, bad); !errors.Is(err, ErrVerification) || err != ErrVerification {
					t.Fatalf("signature with bit %d flipped: Verify = %v", i, err)
				}
			}
			for i := range len(input) * 8 {
				if i%7 != 0 && i > 64 && i < len(input)*8-64 {
					continue // every bit at both ends, a sample in between
				}
				bad := bytes.Clone(input)
				bad[i/8] ^= 1 << (i % 8)
				if err := v.Verify(bad, sig); err != ErrVerification {
					t.Fatalf("input with bit %d flipped: Verify = %v", i, err)
				}
			}
			for _, bad := range [][]byte{nil, {}, sig[:len(sig)-1], sig[1:], append(bytes.Clone(sig), 0), append([]byte{0}, sig...), slices.Concat(sig, sig)} {
				if err := v.Verify(input, bad); err != ErrVerification {
					t.Errorf("signature of %d bytes: Verify = %v", len(bad), err)
				}
			}
			if err := v.Verify(input[:len(input)-1], sig); err != ErrVerification {
				t.Errorf("truncated input: Verify = %v", err)
			}
			if err := v.Verify(append(bytes.Clone(input), '.'), sig); err != ErrVerification {
				t.Errorf("extended input: Verify = %v", err)
			}

			wrong, err := NewVerifier(c.alg, sigPublicKey(c.otherKey))
			if err != nil {
				t.Fatal(err)
			}
			if err := wrong.Verify(input, sig); err != ErrVerification {
				t.Errorf("wrong key: Verify = %v", err)
			}
			ws, err := NewSigner(c.alg, c.otherKey)
			if err != nil {
				t.Fatal(err)
			}
			wsig, err := ws.Sign(nil, input)
			if err != nil {
				t.Fatal(err)
			}
			if err := v.Verify(input, wsig); err != ErrVerification {
				t.Errorf("signature by another key: Verify = %v", err)
			}

			// An empty signing input signs and verifies.
			esig, err := s.Sign(nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := v.Verify(nil, esig); err != nil {
				t.Errorf("empty input: %v", err)
			}
		})
	}
}

// TestSignCrossAlgorithm checks that a signature made for one algorithm does
// not verify under another algorithm with the same key.
func TestSignCrossAlgorithm(t *testing.T) {
	input := sigTestInput(t)
	cases := sigCases(t)
	for _, a := range cases {
		s, err := NewSigner(a.alg, a.key)
		if err != nil {
			t.Fatal(err)
		}
		sig, err := s.Sign(nil, input)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range cases {
			if a.alg == b.alg || (a.alg == EdDSA && b.alg == Ed25519) || (a.alg == Ed25519 && b.alg == EdDSA) {
				continue // EdDSA and Ed25519 are the same signature
			}
			v, err := NewVerifier(b.alg, a.key)
			if err != nil {
				if !errors.Is(err, ErrInvalidKey) {
					t.Errorf("NewVerifier(%s, key of %s) = %v, want nil or ErrInvalidKey", b.alg, a.alg, err)
				}
				continue
			}
			if err := v.Verify(input, sig); err != ErrVerification {
				t.Errorf("%s signature verified as %s: %v", a.alg, b.alg, err)
			}
		}
	}
}

// TestSignWrongKeyType checks that every algorithm refuses keys of every
// other kind, with an error naming the algorithm and the key type.
func TestSignWrongKeyType(t *testing.T) {
	k := sigKeys(t)
	x25519, err := ecdh.X25519().NewPrivateKey(make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	p256ecdh, err := k.p256.ECDH()
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]any{
		"hmac":       k.hmac,
		"rsa":        k.rsa2048,
		"rsa-pub":    &k.rsa2048.PublicKey,
		"p256":       k.p256,
		"p256-pub":   &k.p256.PublicKey,
		"p384":       k.p384,
		"p521":       k.p521,
		"ed":         k.ed,
		"ed-pub":     k.ed.Public(),
		"x25519":     x25519,
		"x25519-pub": x25519.PublicKey(),
		"p256-ecdh":  p256ecdh,
		"string":     string(k.hmac),
		"nil":        nil,
		"nil-rsa":    (*rsa.PrivateKey)(nil),
		"nil-rsapub": (*rsa.PublicKey)(nil),
		"nil-ec":     (*ecdsa.PrivateKey)(nil),
		"nil-ecpub":  (*ecdsa.PublicKey)(nil),
		"ed-ptr":     &k.ed,
		"int":        42,
	}
	// Which keys each family accepts, for signing and for verifying.
	signOK := map[SignatureAlgorithm][]string{
		HS256: {"hmac"}, HS384: {"hmac"}, HS512: {"hmac"},
		RS256: {"rsa"}, RS384: {"rsa"}, RS512: {"rsa"}, PS256: {"rsa"}, PS384: {"rsa"}, PS512: {"rsa"},
		ES256: {"p256"}, ES384: {"p384"}, ES512: {"p521"},
		EdDSA: {"ed", "ed-ptr"}, Ed25519: {"ed", "ed-ptr"}, // *ed25519.PrivateKey is a crypto.Signer
	}
	verifyOK := map[SignatureAlgorithm][]string{
		HS256: {"hmac"}, HS384: {"hmac"}, HS512: {"hmac"},
		RS256: {"rsa", "rsa-pub"}, RS384: {"rsa", "rsa-pub"}, RS512: {"rsa", "rsa-pub"},
		PS256: {"rsa", "rsa-pub"}, PS384: {"rsa", "rsa-pub"}, PS512: {"rsa", "rsa-pub"},
		ES256: {"p256", "p256-pub"}, ES384: {"p384"}, ES512: {"p521"},
		EdDSA: {"ed", "ed-pub", "ed-ptr"}, Ed25519: {"ed", "ed-pub", "ed-ptr"},
	}
	sigMLDSAKeyKinds(t, keys, signOK, verifyOK) // none before Go 1.27
	for _, alg := range SignatureAlgorithms() {
		for name, key := range keys {
			_, err := NewSigner(alg, key)
			if slices.Contains(signOK[alg], name) {
				if err != nil {
					t.Errorf("NewSigner(%s, %s) = %v", alg, name, err)
				}
			} else if !errors.Is(err, ErrInvalidKey) {
				t.Errorf("NewSigner(%s, %s) = %v, want ErrInvalidKey", alg, name, err)
			} else if !strings.Contains(err.Error(), string(alg)) {
				t.Errorf("NewSigner(%s, %s): error %q does not name the algorithm", alg, name, err)
			}
			_, err = NewVerifier(alg, key)
			if slices.Contains(verifyOK[alg], name) {
				if err != nil {
					t.Errorf("NewVerifier(%s, %s) = %v", alg, name, err)
				}
			} else if !errors.Is(err, ErrInvalidKey) {
				t.Errorf("NewVerifier(%s, %s) = %v, want ErrInvalidKey", alg, name, err)
			} else if !strings.Contains(err.Error(), string(alg)) {
				t.Errorf("NewVerifier(%s, %s): error %q does not name the algorithm", alg, name, err)
			}
		}
	}
	// The message says what the key is, in words rather than Go types.
	_, err = NewSigner(RS256, k.ed.Public())
	if err == nil || err.Error() != "jwa: the key is an Ed25519 public key; RS256 needs an RSA key of at least 2048 bits: invalid key for algorithm" {
		t.Errorf("NewSigner(RS256, ed25519.PublicKey) = %v, want the key described", err)
	}
}

// sigTestSigner wraps a key as an opaque crypto.Signer, as a KMS or HSM
// client would be, counting its calls.
type sigTestSigner struct {
	key   crypto.Signer
	calls int
	mu    sync.Mutex
	// corrupt, when set, changes the signature the signer returns.
	corrupt func([]byte) []byte
	fail    bool
}

func (s *sigTestSigner) Public() crypto.PublicKey { return s.key.Public() }

func (s *sigTestSigner) Sign(rand io.Reader, digest []byte, opts crypto.SignerOpts) ([]byte, error) {
	s.mu.Lock()
	s.calls++
	s.mu.Unlock()
	if s.fail {
		return nil, errors.New("test signer: device unplugged")
	}
	sig, err := s.key.Sign(rand, digest, opts)
	if err == nil && s.corrupt != nil {
		sig = s.corrupt(sig)
	}
	return sig, err
}

// TestSignCryptoSigner runs every asymmetric algorithm through an opaque
// crypto.Signer and checks that native verifiers accept the result, and that
// a failing or misbehaving signer gives an error, not a bad signature.
func TestSignCryptoSigner(t *testing.T) {
	input := sigTestInput(t)
	for _, c := range sigCases(t) {
		if strings.HasPrefix(string(c.alg), "HS") {
			continue
		}
		t.Run(string(c.alg), func(t *testing.T) {
			ts := &sigTestSigner{key: c.key.(crypto.Signer)}
			s, err := NewSigner(c.alg, ts)
			if err != nil {
				t.Fatal(err)
			}
			sig, err := s.Sign([]byte("x"), input)
			if err != nil {
				t.Fatal(err)
			}
			if ts.calls != 1 {
				t.Errorf("crypto.Signer called %d times", ts.calls)
			}
			if sig[0] != 'x' || len(sig) != 1+c.sigLen {
				t.Fatalf("signature of %d bytes (with prefix)", len(sig))
			}
			v, err := NewVerifier(c.alg, c.key)
			if err != nil {
				t.Fatal(err)
			}
			if err := v.Verify(input, sig[1:]); err != nil {
				t.Fatalf("signature by crypto.Signer: %v", err)
			}
			// A verifier made from the crypto.Signer uses its public key.
			vs, err := NewVerifier(c.alg, ts)
			if err != nil {
				t.Fatal(err)
			}
			if err := vs.Verify(input, sig[1:]); err != nil {
				t.Fatal(err)
			}

			ts.fail = true
			if out, err := s.Sign([]byte("x"), input); err == nil || string(out) != "x" {
				t.Errorf("failing crypto.Signer: Sign = %q, %v", out, err)
			}
			ts.fail = false
			for name, corrupt := range map[string]func([]byte) []byte{
				"short":    func(b []byte) []byte { return b[:len(b)-1] },
				"long":     func(b []byte) []byte { return append(b, 0) },
				"empty":    func([]byte) []byte { return nil },
				"trailing": func(b []byte) []byte { return append(b, 0, 0) },
			} {
				ts.corrupt = corrupt
				if out, err := s.Sign([]byte("x"), input); err == nil || string(out) != "x" {
					t.Errorf("crypto.Signer returning a %s signature: Sign = %d bytes, %v", name, len(out), err)
				}
			}
		})
	}
}

// TestSignKeyIsolation checks that signers and verifiers keep their own copy
// of the key: changing the caller's key afterwards changes nothing.
func TestSignKeyIsolation(t *testing.T) {
	input := sigTestInput(t)
	key := bytes.Clone(sigKeys(t).hmac)
	s, err := NewSigner(HS512, key)
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewVerifier(HS512, key)
	if err != nil {
		t.Fatal(err)
	}
	sig1, _ := s.Sign(nil, input)
	clear(key)
	sig2, _ := s.Sign(nil, input)
	if !bytes.Equal(sig1, sig2) {
		t.Error("HMAC signer follows changes to the caller's key")
	}
	if err := v.Verify(input, sig1); err != nil {
		t.Error("HMAC verifier follows changes to the caller's key")
	}

	edKey := bytes.Clone(sigKeys(t).ed)
	es, err := NewSigner(Ed25519, ed25519.PrivateKey(edKey))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := NewVerifier(Ed25519, ed25519.PrivateKey(edKey))
	if err != nil {
		t.Fatal(err)
	}
	clear(edKey)
	esig, _ := es.Sign(nil, input)
	if err := ev.Verify(input, esig); err != nil {
		t.Error("Ed25519 signer or verifier follows changes to the caller's key")
	}
}

// TestSignConcurrent uses each signer and verifier from several goroutines
// (run with -race).
func TestSignConcurrent(t *testing.T) {
	input := sigTestInput(t)
	for _, c := range sigCases(t) {
		s, err := NewSigner(c.alg, c.key)
		if err != nil {
			t.Fatal(err)
		}
		v, err := NewVerifier(c.alg, c.key)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				in := fmt.Appendf(bytes.Clone(input), "%d", g)
				for range 3 {
					sig, err := s.Sign(nil, in)
					if err == nil {
						err = v.Verify(in, sig)
					}
					if err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Errorf("%s: %v", c.alg, err)
		}
	}
}
