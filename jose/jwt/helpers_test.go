package jwt

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"sync"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
	"github.com/josebench/josebench/jose/jws"
)

// testNow is the fixed clock of the tests.
var testNow = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func fixedNow() time.Time { return testNow }

var hsKey = bytes.Repeat([]byte{0x5a}, 32)

var p256Key = sync.OnceValue(func() *ecdsa.PrivateKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	return k
})

var edKey = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))

// typicalClaims is an access token's registered claims, valid at testNow.
func typicalClaims() Claims {
	return Claims{
		Issuer:    "https://issuer.example",
		Subject:   "user-1234",
		Audience:  Audience{"https://api.example"},
		Expiry:    NewNumericDate(testNow.Add(time.Hour)),
		NotBefore: NewNumericDate(testNow.Add(-time.Minute)),
		IssuedAt:  NewNumericDate(testNow.Add(-time.Minute)),
		ID:        "b9c1f3c2-5a4e-4f7e-9d0a-1c2b3d4e5f60",
	}
}

// accessToken is a typical access token: the seven registered claims and
// two private ones.
type accessToken struct {
	Claims
	Scope    string `json:"scope"`
	ClientID string `json:"client_id"`
}

func typicalAccessToken() accessToken {
	return accessToken{Claims: typicalClaims(), Scope: "read write", ClientID: "client-42"}
}

func mustSigner(t testing.TB, alg jwa.SignatureAlgorithm, key any, opts *jws.SignerOptions) *Signer {
	t.Helper()
	s, err := NewSigner(alg, key, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustVerifier(t testing.TB, alg jwa.SignatureAlgorithm, key any) *jws.Verifier {
	t.Helper()
	v, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{alg}, Key: key})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustDecrypter(t testing.TB, alg jwa.KeyAlgorithm, enc jwa.ContentEncryption, key any) *jwe.Decrypter {
	t.Helper()
	d, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms: []jwa.KeyAlgorithm{alg}, ContentEncryptions: []jwa.ContentEncryption{enc}, Key: key,
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mustValidator(t testing.TB, opts ValidatorOptions) *Validator {
	t.Helper()
	if opts.Now == nil {
		opts.Now = fixedNow
	}
	v, err := NewValidator(opts)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustSign(t testing.TB, s *Signer, claims any) []byte {
	t.Helper()
	tok, err := s.Sign(claims)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// hsValidator validates HS256 tokens for https://api.example at testNow.
func hsValidator(t testing.TB, opts ValidatorOptions) *Validator {
	t.Helper()
	opts.Verifier = mustVerifier(t, jwa.HS256, hsKey)
	if len(opts.Audiences) == 0 && !opts.AnyAudience {
		opts.Audiences = []string{"https://api.example"}
	}
	return mustValidator(t, opts)
}
