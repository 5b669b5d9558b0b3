package jws_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// opaqueSigner is a crypto.Signer of a key this process cannot read (a
// KMS, an HSM): only its public key is known.
type opaqueSigner struct{ pub crypto.PublicKey }

func (s opaqueSigner) Public() crypto.PublicKey { return s.pub }
func (s opaqueSigner) Sign(io.Reader, []byte, crypto.SignerOpts) ([]byte, error) {
	return nil, errors.New("opaqueSigner: not a key")
}

// TestUserText pins the refusals a user meets first, written in the terms
// of what to give instead (issue 23 item 2): the key an algorithm needs,
// the half of a key pair signing needs, where a JWK Set goes, and the Go
// release ML-DSA needs.
func TestUserText(t *testing.T) {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	jwk, err := jose.NewJWK(ec)
	if err != nil {
		t.Fatal(err)
	}
	jwk.KeyID, jwk.Algorithm = "ec-1", "ES256"
	set := &jose.Set{Keys: []*jose.JWK{jwk.Public()}}
	signer := func(alg jwa.SignatureAlgorithm, key any) error {
		_, err := jws.NewSigner(alg, key, nil)
		return err
	}
	verifierOpts := func(opts jws.VerifyOptions) error {
		_, err := jws.NewVerifier(opts)
		return err
	}
	verifier := func(alg jwa.SignatureAlgorithm, key any) error {
		return verifierOpts(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{alg}, Key: key})
	}
	es384JWK := jwk.Public()
	es384JWK.KeyID, es384JWK.Algorithm = "ec-384", "ES384"
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"RS256 with an EC private key", signer(jwa.RS256, ec),
			"jws: NewSigner: jwa: the key is a P-256 ECDSA private key; RS256 needs an RSA key of at least 2048 bits: invalid key for algorithm"},
		{"ES256 signing with the public key", signer(jwa.ES256, &ec.PublicKey),
			"jws: NewSigner: jwa: the key is a P-256 ECDSA public key; ES256 needs the private key to sign: invalid key for algorithm"},
		{"ES384 with a P-256 key", signer(jwa.ES384, ec),
			"jws: NewSigner: jwa: the key is a P-256 ECDSA private key; ES384 needs a P-384 ECDSA key: invalid key for algorithm"},
		{"ES256K with a P-256 key", signer(jwa.ES256K, ec),
			"jws: NewSigner: jwa: the key is a P-256 ECDSA private key; ES256K needs a secp256k1 ECDSA key: invalid key for algorithm"},
		{"ES256K with a signer of a P-256 key", signer(jwa.ES256K, opaqueSigner{&ec.PublicKey}),
			"jws: NewSigner: jwa: the key is a crypto.Signer (jws_test.opaqueSigner) holding a P-256 ECDSA public key; ES256K needs a secp256k1 ECDSA key: invalid key for algorithm"},
		{"a KMS signer with no public key", signer(jwa.ES256, opaqueSigner{}),
			"jws: NewSigner: jwa: the key is a crypto.Signer (jws_test.opaqueSigner) holding no public key; ES256 needs a P-256 ECDSA key: invalid key for algorithm"},
		{"HS256 with an EC key", signer(jwa.HS256, ec),
			"jws: NewSigner: jwa: the key is a P-256 ECDSA private key; HS256 needs a secret of at least 32 bytes: invalid key for algorithm"},
		{"HS256 with a short secret", signer(jwa.HS256, make([]byte, 16)),
			"jws: NewSigner: jwa: the key is a 16-byte secret; HS256 needs a secret of at least 32 bytes: invalid key for algorithm"},
		{"a set as Key", verifier(jwa.ES256, set),
			"jws: VerifyOptions: Key holds a JWK Set (*jose.Set), which goes in Keys: invalid key for algorithm"},
		{"no key source", verifierOpts(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}}),
			"jws: VerifyOptions: exactly one of Key, Keys, KeyFunc and KeyFuncContext must be set"},
		{"verifying ES384 with a P-256 key", verifier(jwa.ES384, &ec.PublicKey),
			"jws: VerifyOptions: the key is a P-256 ECDSA public key; ES384 needs a P-384 ECDSA key: invalid key for algorithm"},
		{"verifying with a key that fits none of several", verifierOpts(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.RS256, jwa.ES384, jwa.PS256}, Key: &ec.PublicKey}),
			"jws: VerifyOptions: the key is a P-256 ECDSA public key; RS256 and PS256 need an RSA key of at least 2048 bits; ES384 needs a P-384 ECDSA key: invalid key for algorithm"},
		{"verifying with a JWK that fits none", verifier(jwa.HS256, jwk.Public()),
			`jws: VerifyOptions: the key is a P-256 ECDSA public key (JWK "ec-1"); HS256 needs a secret of at least 32 bytes: invalid key for algorithm`},
		{"verifying with a JWK whose alg permits none", verifier(jwa.ES256, es384JWK),
			`jws: VerifyOptions: JWK "ec-384" (a P-256 ECDSA public key) with alg "ES384" permits none of the algorithms [ES256]: invalid key for algorithm`},
		{"verifying with a value jose does not know", verifier(jwa.ES256, struct{}{}),
			"jws: VerifyOptions: the key is a key of Go type struct {}, which jose does not know; ES256 needs a P-256 ECDSA key: invalid key for algorithm"},
		{"a JWK of another alg", signer(jwa.HS256, jwk),
			`jws: NewSigner: jose: key "ec-1" is for alg "ES256", not "HS256": algorithm not allowed`},
	} {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.name, c.err, c.want)
		}
		// The words changed, not the sentinel a caller branches on.
		for _, sentinel := range []error{jose.ErrInvalidKey, jose.ErrAlgorithmNotAllowed} {
			if strings.HasSuffix(c.want, ": "+sentinel.Error()) && !errors.Is(c.err, sentinel) {
				t.Errorf("%s: %v does not wrap %q", c.name, c.err, sentinel)
			}
		}
	}
	// An unknown name is said to be unknown, by NewSigner and NewVerifier
	// alike (jwa.SignatureAlgorithm.UnsupportedReason).
	if err := signer("ES256X", ec); err == nil || err.Error() != `jws: NewSigner: jwa: signature algorithm "ES256X" is unknown: unsupported algorithm` {
		t.Errorf("NewSigner of an unknown alg: %v", err)
	}
	if err := verifier("ES256X", &ec.PublicKey); err == nil || err.Error() != `jws: alg "ES256X" is unknown: unsupported algorithm` {
		t.Errorf("NewVerifier of an unknown alg: %v", err)
	}
	if jwa.MLDSASupported() {
		return
	}
	needs := ` needs a build with Go 1.27 or later (crypto/mldsa); this one is ` + runtime.Version() + `: unsupported algorithm`
	if err := signer(jwa.MLDSA65, ec); err == nil || err.Error() != `jws: NewSigner: jwa: signature algorithm "ML-DSA-65"`+needs {
		t.Errorf("NewSigner of ML-DSA before Go 1.27: %v", err)
	}
	if err := verifier(jwa.MLDSA65, &ec.PublicKey); err == nil || err.Error() != `jws: alg "ML-DSA-65"`+needs {
		t.Errorf("NewVerifier of ML-DSA before Go 1.27: %v", err)
	}
}
