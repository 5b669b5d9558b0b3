package jws_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"io"
	"runtime"
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
	verifier := func(alg jwa.SignatureAlgorithm, key any) error {
		_, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{alg}, Key: key})
		return err
	}
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"RS256 with an EC private key", signer(jwa.RS256, ec),
			"jws: NewSigner: jwa: RS256 needs an RSA key, not *ecdsa.PrivateKey: invalid key for algorithm"},
		{"ES256 signing with the public key", signer(jwa.ES256, &ec.PublicKey),
			"jws: NewSigner: jwa: ES256 signs with a private key; *ecdsa.PublicKey is a public key: invalid key for algorithm"},
		{"ES384 with a P-256 key", signer(jwa.ES384, ec),
			"jws: NewSigner: jwa: ES384 needs a key on P-384, got P-256: invalid key for algorithm"},
		{"ES256K with a P-256 key", signer(jwa.ES256K, ec),
			"jws: NewSigner: jwa: ES256K needs an ECDSA key on secp256k1, not *ecdsa.PrivateKey: invalid key for algorithm"},
		{"ES256K with a signer of a P-256 key", signer(jwa.ES256K, opaqueSigner{&ec.PublicKey}),
			"jws: NewSigner: jwa: ES256K needs an ECDSA key on secp256k1; the crypto.Signer jws_test.opaqueSigner holds a *ecdsa.PublicKey: invalid key for algorithm"},
		{"HS256 with an EC key", signer(jwa.HS256, ec),
			"jws: NewSigner: jwa: HS256 needs a secret key ([]byte), not *ecdsa.PrivateKey: invalid key for algorithm"},
		{"a set as Key", verifier(jwa.ES256, set),
			"jws: VerifyOptions: jose: Key holds a *jose.Set: a JWK Set goes in Keys: invalid key for algorithm"},
		{"a JWK of another alg", signer(jwa.HS256, jwk),
			`jws: NewSigner: jose: key "ec-1" is for alg "ES256", not "HS256": algorithm not allowed`},
	} {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.name, c.err, c.want)
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
