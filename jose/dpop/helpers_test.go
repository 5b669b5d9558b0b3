package dpop

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// testNow is the clock of the tests.
var testNow = time.Unix(1_800_000_000, 0)

func fixedNow() time.Time { return testNow }

// ecKey returns a new P-256 key.
func ecKey(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func edKey(t testing.TB) ed25519.PrivateKey {
	t.Helper()
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// rsaKey reads a fixed RSA key of testdata/keys (tests never generate
// RSA keys).
func rsaKey(t testing.TB, name string) crypto.Signer {
	t.Helper()
	data, err := os.ReadFile("../../testdata/keys/" + name)
	if err != nil {
		t.Fatal(err)
	}
	k, err := jose.ParseKeyPEM(data)
	if err != nil {
		t.Fatal(err)
	}
	return k.Key.(crypto.Signer)
}

func newVerifier(t testing.TB, opts VerifierOptions) *Verifier {
	t.Helper()
	if opts.Algorithms == nil {
		opts.Algorithms = []jwa.SignatureAlgorithm{jwa.ES256, jwa.EdDSA, jwa.PS256, jwa.RS256}
	}
	if opts.Now == nil {
		opts.Now = fixedNow
	}
	v, err := NewVerifier(opts)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func newProver(t testing.TB, alg jwa.SignatureAlgorithm, key any) *Prover {
	t.Helper()
	p, err := NewProver(alg, key)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// publicJWK returns the JSON of the public JWK of key.
func publicJWK(t testing.TB, key crypto.Signer) json.RawMessage {
	t.Helper()
	k, err := jose.NewJWK(key.Public())
	if err != nil {
		t.Fatal(err)
	}
	b, err := k.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// forge signs any header and claims with key under alg, so that each
// check can be met by a proof that passes every other: header and claims
// are marshalled with encoding/json.
func forge(t testing.TB, alg jwa.SignatureAlgorithm, key any, header, claims any) string {
	t.Helper()
	h, err := json.Marshal(header)
	if err != nil {
		t.Fatal(err)
	}
	c, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	return signInput(t, alg, key, jose.Base64URLEncode(h)+"."+jose.Base64URLEncode(c))
}

// signInput returns the compact JWS of signing input in (its header and
// payload segments) signed by key with alg.
func signInput(t testing.TB, alg jwa.SignatureAlgorithm, key any, in string) string {
	t.Helper()
	if rk, ok := key.(*rsa.PrivateKey); ok && rk.N.BitLen() < 2048 {
		// jwa refuses to sign with a weak key: sign RS256 by hand.
		d := sha256.Sum256([]byte(in))
		sig, err := rsa.SignPKCS1v15(nil, rk, crypto.SHA256, d[:])
		if err != nil {
			t.Fatal(err)
		}
		return in + "." + jose.Base64URLEncode(sig)
	}
	s, err := jwa.NewSigner(alg, key)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := s.Sign(nil, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	return in + "." + jose.Base64URLEncode(sig)
}

// goodHeader and goodClaims are a proof's that passes every check of a
// newVerifier for GET https://api.example/r at testNow.
func goodHeader(t testing.TB, key crypto.Signer, alg string) map[string]any {
	return map[string]any{"typ": Type, "alg": alg, "jwk": publicJWK(t, key)}
}

func goodClaims(jti string) map[string]any {
	return map[string]any{"jti": jti, "htm": "GET", "htu": "https://api.example/r", "iat": testNow.Unix()}
}

const testURI = "https://api.example/r"

// wantRefusal fails unless err is an *Error of code wrapping sentinel.
func wantRefusal(t testing.TB, err, sentinel error, code string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want an *Error wrapping %v", err, err, sentinel)
	}
	if !errors.Is(err, sentinel) || e.Err != sentinel {
		t.Errorf("error %v, want one wrapping %v", err, sentinel)
	}
	if e.Code != code {
		t.Errorf("code %q, want %q (%v)", e.Code, code, err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func ecKeyCurve(t testing.TB, bits int) *ecdsa.PrivateKey {
	t.Helper()
	c := map[int]elliptic.Curve{256: elliptic.P256(), 384: elliptic.P384(), 521: elliptic.P521()}[bits]
	k, err := ecdsa.GenerateKey(c, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}
