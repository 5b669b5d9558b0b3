// Package subjects implements the operations josebench measures: full
// creations and loadings of real tokens through the public jose/jws and
// jose/jwe APIs, with the fixed keys of package keys.
//
// As a server would, a variant makes its jws.Signer, jws.Verifier,
// jwe.Encrypter and jwe.Decrypter once; each revolution then builds and
// serializes a token (benchSignature, benchEncryption), parses and loads a
// token made beforehand (benchVerification, benchDecryption), or both
// (benchRoundTrip). [Prepare] runs each operation once and checks that the
// verified payload or decrypted plaintext (and the JSON AAD) equals the
// input before the operation is timed.
package subjects

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/rsa"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/bench/keys"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
	"github.com/josebench/josebench/jose/jws"
)

// The interfaces the measured code is reached through, so that the
// preparation logic does not depend on how the token packages build their
// values.
type (
	signFunc    func(payload []byte) ([]byte, error)
	verifyFunc  func(token []byte) (payload []byte, err error)
	encryptFunc func(plaintext []byte) ([]byte, error)
	decryptFunc func(token []byte) (plaintext, aad []byte, err error)
)

// errMismatch reports an operation whose result differs from its input.
var errMismatch = errors.New("subjects: the loaded token does not give back the input")

// Prepare returns the operation variant v measures, after running it once
// and checking its result. It has the type [bench.Preparer].
func Prepare(v *bench.Variant) (bench.Op, error) {
	payload, err := bench.Payload(v.Payload)
	if err != nil {
		return nil, err
	}
	if v.JWE {
		encrypt, decrypt, aad, err := jweFuncs(v)
		if err != nil {
			return nil, err
		}
		return prepareJWE(v.Subject, payload, aad, encrypt, decrypt)
	}
	sign, verify, err := jwsFuncs(v)
	if err != nil {
		return nil, err
	}
	return prepareJWS(v.Subject, payload, sign, verify)
}

var _ bench.Preparer = Prepare

// prepareJWS checks sign and verify and returns the op of subject.
func prepareJWS(subject string, payload []byte, sign signFunc, verify verifyFunc) (bench.Op, error) {
	roundTrip := func() error {
		tok, err := sign(payload)
		if err != nil {
			return err
		}
		got, err := verify(tok)
		if err != nil {
			return err
		}
		if !bytes.Equal(got, payload) {
			return errMismatch
		}
		return nil
	}
	// The check: a token this signer makes verifies to the payload.
	if err := roundTrip(); err != nil {
		return nil, err
	}
	switch subject {
	case bench.SubjectSignature:
		return func() error { _, err := sign(payload); return err }, nil
	case bench.SubjectVerification:
		tok, err := sign(payload)
		if err != nil {
			return nil, err
		}
		return func() error { _, err := verify(tok); return err }, nil
	case bench.SubjectRoundTrip:
		return roundTrip, nil
	}
	return nil, fmt.Errorf("subjects: %s is not a JWS subject", subject)
}

// prepareJWE checks encrypt and decrypt and returns the op of subject.
func prepareJWE(subject string, plaintext, aad []byte, encrypt encryptFunc, decrypt decryptFunc) (bench.Op, error) {
	roundTrip := func() error {
		tok, err := encrypt(plaintext)
		if err != nil {
			return err
		}
		got, gotAAD, err := decrypt(tok)
		if err != nil {
			return err
		}
		if !bytes.Equal(got, plaintext) || !bytes.Equal(gotAAD, aad) {
			return errMismatch
		}
		return nil
	}
	if err := roundTrip(); err != nil {
		return nil, err
	}
	switch subject {
	case bench.SubjectEncryption:
		return func() error { _, err := encrypt(plaintext); return err }, nil
	case bench.SubjectDecryption:
		tok, err := encrypt(plaintext)
		if err != nil {
			return nil, err
		}
		return func() error { _, _, err := decrypt(tok); return err }, nil
	case bench.SubjectRoundTrip:
		return roundTrip, nil
	}
	return nil, fmt.Errorf("subjects: %s is not a JWE subject", subject)
}

// jwsFuncs makes the signer and verifier of a JWS variant.
func jwsFuncs(v *bench.Variant) (signFunc, verifyFunc, error) {
	alg := jwa.SignatureAlgorithm(v.Alg)
	priv, pub, err := signatureKeys(v)
	if err != nil {
		return nil, nil, err
	}
	s, err := jws.NewSigner(alg, priv, nil)
	if err != nil {
		return nil, nil, err
	}
	ver, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{alg}, Key: pub})
	if err != nil {
		return nil, nil, err
	}
	if v.Serialization == bench.SerializationJSON {
		return func(p []byte) ([]byte, error) { return s.Flattened(p, nil) },
			func(t []byte) ([]byte, error) {
				m, err := ver.VerifyJSON(t)
				if err != nil {
					return nil, err
				}
				return m.Payload, nil
			}, nil
	}
	return s.Compact, func(t []byte) ([]byte, error) {
		m, err := ver.VerifyCompact(t)
		if err != nil {
			return nil, err
		}
		return m.Payload, nil
	}, nil
}

// jweFuncs makes the encrypter and decrypter of a JWE variant, and returns
// the AAD the tokens carry (JSON serialization only).
func jweFuncs(v *bench.Variant) (encryptFunc, decryptFunc, []byte, error) {
	alg, enc := jwa.KeyAlgorithm(v.Alg), jwa.ContentEncryption(v.Enc)
	encKey, decKey, err := encryptionKeys(v)
	if err != nil {
		return nil, nil, nil, err
	}
	e, err := jwe.NewEncrypter(alg, enc, encKey, &jwe.EncrypterOptions{PBES2Count: v.P2C})
	if err != nil {
		return nil, nil, nil, err
	}
	d, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{alg},
		ContentEncryptions: []jwa.ContentEncryption{enc},
		Key:                decKey,
		// A count above the default maximum is accepted for the measure.
		Limits: jose.Limits{PBES2MaxCount: v.P2C},
	})
	if err != nil {
		return nil, nil, nil, err
	}
	if v.Serialization == bench.SerializationJSON {
		aad := []byte(bench.JSONAAD)
		return func(p []byte) ([]byte, error) { return e.Flattened(p, aad) },
			func(t []byte) ([]byte, []byte, error) {
				m, err := d.DecryptJSON(t)
				if err != nil {
					return nil, nil, err
				}
				return m.Plaintext, m.AAD, nil
			}, aad, nil
	}
	return e.Compact, func(t []byte) ([]byte, []byte, error) {
		m, err := d.DecryptCompact(t)
		if err != nil {
			return nil, nil, err
		}
		return m.Plaintext, nil, nil
	}, nil, nil
}

// signatureKeys returns the signing and verification keys of a JWS variant.
func signatureKeys(v *bench.Variant) (priv, pub any, err error) {
	switch alg := v.Alg; {
	case strings.HasPrefix(alg, "HS"):
		k, err := cached("oct512", func() (any, error) { return keys.Oct(512) })
		return k, k, err
	case strings.HasPrefix(alg, "RS"), strings.HasPrefix(alg, "PS"):
		k, err := rsaKey(v.RSABits)
		if err != nil {
			return nil, nil, err
		}
		return k, &k.PublicKey, nil
	case strings.HasPrefix(alg, "ES"):
		crv := map[string]string{"ES256": "P-256", "ES384": "P-384", "ES512": "P-521"}[alg]
		k, err := ecKey(crv)
		if err != nil {
			return nil, nil, err
		}
		return k, &k.PublicKey, nil
	case alg == string(jwa.EdDSA) || alg == string(jwa.Ed25519):
		k, err := keys.Ed25519()
		if err != nil {
			return nil, nil, err
		}
		return k, k.Public(), nil
	}
	return nil, nil, fmt.Errorf("subjects: no key for %s", v.Alg)
}

// encryptionKeys returns the encryption and decryption keys of a JWE
// variant.
func encryptionKeys(v *bench.Variant) (encKey, decKey any, err error) {
	alg := jwa.KeyAlgorithm(v.Alg)
	switch {
	case alg == jwa.Direct:
		k, err := octKey(jwa.ContentEncryption(v.Enc).KeySize() * 8)
		return k, k, err
	case alg.IsPBES2():
		p := keys.PBES2Password()
		return p, p, nil
	case strings.HasPrefix(v.Alg, "A"): // A*KW, A*GCMKW
		bits, ok := map[jwa.KeyAlgorithm]int{
			jwa.A128KW: 128, jwa.A192KW: 192, jwa.A256KW: 256,
			jwa.A128GCMKW: 128, jwa.A192GCMKW: 192, jwa.A256GCMKW: 256,
		}[alg]
		if !ok {
			break
		}
		k, err := octKey(bits)
		return k, k, err
	case strings.HasPrefix(v.Alg, "RSA"):
		k, err := rsaKey(v.RSABits)
		if err != nil {
			return nil, nil, err
		}
		return &k.PublicKey, k, nil
	case strings.HasPrefix(v.Alg, "ECDH-ES"):
		if v.Curve == "X25519" {
			k, err := cached("X25519", func() (any, error) { return keys.X25519() })
			if err != nil {
				return nil, nil, err
			}
			x := k.(*ecdh.PrivateKey)
			return x.PublicKey(), x, nil
		}
		k, err := ecKey(v.Curve)
		if err != nil {
			return nil, nil, err
		}
		return &k.PublicKey, k, nil
	}
	return nil, nil, fmt.Errorf("subjects: no key for %s", v.Alg)
}

// The keys are decoded (and RSA keys validated) once per process.
var (
	cacheMu sync.Mutex
	cache   = map[string]any{}
)

func cached(name string, load func() (any, error)) (any, error) {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if k, ok := cache[name]; ok {
		return k, nil
	}
	k, err := load()
	if err != nil {
		return nil, err
	}
	cache[name] = k
	return k, nil
}

func octKey(bits int) ([]byte, error) {
	k, err := cached(fmt.Sprintf("oct%d", bits), func() (any, error) { return keys.Oct(bits) })
	if err != nil {
		return nil, err
	}
	return k.([]byte), nil
}

func rsaKey(bits int) (*rsa.PrivateKey, error) {
	k, err := cached(fmt.Sprintf("rsa%d", bits), func() (any, error) { return keys.RSA(bits) })
	if err != nil {
		return nil, err
	}
	return k.(*rsa.PrivateKey), nil
}

func ecKey(crv string) (*ecdsa.PrivateKey, error) {
	k, err := cached(crv, func() (any, error) { return keys.EC(crv) })
	if err != nil {
		return nil, err
	}
	return k.(*ecdsa.PrivateKey), nil
}
