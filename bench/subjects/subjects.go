// Package subjects implements the operations josebench measures: full
// creations and loadings of real tokens through the public jose/jws and
// jose/jwe APIs, with the fixed keys of package keys.
//
// As a server would, a variant makes its jws.Signer, jws.Verifier,
// jwe.Encrypter and jwe.Decrypter once; each revolution then builds and
// serializes a token (benchSignature, benchEncryption), parses and loads a
// token made beforehand (benchVerification, benchDecryption), or both
// (benchRoundTrip). Before an operation is timed, [Prepare] checks the
// variant both ways: a fresh token loads and gives back the input (and the
// JSON AAD); the token with one bit flipped in its signature or tag, and in
// its payload or ciphertext, is refused with jose.ErrVerificationFailed or
// jose.ErrDecryptionFailed; and the token is refused under another key of
// the same type (see [CheckError]).
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

// Prepare returns the operation variant v measures, after the checks (an
// error wrapping a *[CheckError] when one fails). It has the type
// [bench.Preparer].
func Prepare(v *bench.Variant) (bench.Op, error) {
	if v.JWT {
		return prepareJWT(v)
	}
	if v.Bearer {
		return prepareBearer(v)
	}
	if v.DPoP {
		return prepareDPoP(v)
	}
	payload, err := bench.Payload(v.Payload)
	if err != nil {
		return nil, err
	}
	if v.JWE {
		p, aad, err := jweFuncs(v)
		if err != nil {
			return nil, err
		}
		return prepareJWE(v.Subject, payload, aad, p)
	}
	p, err := jwsFuncs(v)
	if err != nil {
		return nil, err
	}
	return prepareJWS(v.Subject, payload, p)
}

var _ bench.Preparer = Prepare

// prepareJWS checks p and returns the op of subject.
func prepareJWS(subject string, payload []byte, p *jwsPair) (bench.Op, error) {
	if subject != bench.SubjectSignature && subject != bench.SubjectVerification && subject != bench.SubjectRoundTrip {
		return nil, fmt.Errorf("subjects: %s is not a JWS subject", subject)
	}
	if err := p.check(payload); err != nil {
		return nil, err
	}
	sign, verify := p.sign, p.verify
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
		return func() error {
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
		}, nil
	}
	return nil, fmt.Errorf("subjects: %s is not a JWS subject", subject)
}

// prepareJWE checks p and returns the op of subject.
func prepareJWE(subject string, plaintext, aad []byte, p *jwePair) (bench.Op, error) {
	if subject != bench.SubjectEncryption && subject != bench.SubjectDecryption && subject != bench.SubjectRoundTrip {
		return nil, fmt.Errorf("subjects: %s is not a JWE subject", subject)
	}
	if err := p.check(plaintext, aad); err != nil {
		return nil, err
	}
	encrypt, decrypt := p.encrypt, p.decrypt
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
		return func() error {
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
		}, nil
	}
	return nil, fmt.Errorf("subjects: %s is not a JWE subject", subject)
}

// jwsFuncs makes the signer and verifiers of a JWS variant.
func jwsFuncs(v *bench.Variant) (*jwsPair, error) {
	alg := jwa.SignatureAlgorithm(v.Alg)
	priv, pub, other, err := signatureKeys(v)
	if err != nil {
		return nil, err
	}
	s, err := jws.NewSigner(alg, priv, nil)
	if err != nil {
		return nil, err
	}
	verifier := func(key any) (verifyFunc, error) {
		ver, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{alg}, Key: key})
		if err != nil {
			return nil, err
		}
		if v.Serialization == bench.SerializationJSON {
			return func(t []byte) ([]byte, error) {
				m, err := ver.VerifyJSON(t)
				if err != nil {
					return nil, err
				}
				return m.Payload, nil
			}, nil
		}
		return func(t []byte) ([]byte, error) {
			m, err := ver.VerifyCompact(t)
			if err != nil {
				return nil, err
			}
			return m.Payload, nil
		}, nil
	}
	p := &jwsPair{ser: v.Serialization, sign: s.Compact}
	if v.Serialization == bench.SerializationJSON {
		p.sign = func(pl []byte) ([]byte, error) { return s.Flattened(pl, nil) }
	}
	if p.verify, err = verifier(pub); err != nil {
		return nil, err
	}
	if p.verifyOther, err = verifier(other); err != nil {
		return nil, err
	}
	return p, nil
}

// jweFuncs makes the encrypter and decrypters of a JWE variant, and returns
// the AAD the tokens carry (JSON serialization only).
func jweFuncs(v *bench.Variant) (*jwePair, []byte, error) {
	alg, enc := jwa.KeyAlgorithm(v.Alg), jwa.ContentEncryption(v.Enc)
	encKey, decKey, otherKey, err := encryptionKeys(v)
	if err != nil {
		return nil, nil, err
	}
	e, err := jwe.NewEncrypter(alg, enc, encKey, &jwe.EncrypterOptions{PBES2Count: v.P2C})
	if err != nil {
		return nil, nil, err
	}
	encs := []jwa.ContentEncryption{enc}
	if enc == "" { // HPKE Integrated Encryption has no enc
		encs = nil
	}
	decrypter := func(key any) (decryptFunc, error) {
		d, err := jwe.NewDecrypter(jwe.DecryptOptions{
			KeyAlgorithms:      []jwa.KeyAlgorithm{alg},
			ContentEncryptions: encs,
			Key:                key,
			// A count above the default maximum is accepted for the measure.
			Limits: jose.Limits{PBES2MaxCount: v.P2C},
		})
		if err != nil {
			return nil, err
		}
		if v.Serialization == bench.SerializationJSON {
			return func(t []byte) ([]byte, []byte, error) {
				m, err := d.DecryptJSON(t)
				if err != nil {
					return nil, nil, err
				}
				return m.Plaintext, m.AAD, nil
			}, nil
		}
		return func(t []byte) ([]byte, []byte, error) {
			m, err := d.DecryptCompact(t)
			if err != nil {
				return nil, nil, err
			}
			return m.Plaintext, nil, nil
		}, nil
	}
	p := &jwePair{ser: v.Serialization, encrypt: e.Compact, noTag: alg.IsHPKEIntegrated()}
	var aad []byte
	if v.Serialization == bench.SerializationJSON {
		aad = []byte(bench.JSONAAD)
		p.encrypt = func(pl []byte) ([]byte, error) { return e.Flattened(pl, aad) }
	}
	if p.decrypt, err = decrypter(decKey); err != nil {
		return nil, nil, err
	}
	if p.decryptOther, err = decrypter(otherKey); err != nil {
		return nil, nil, err
	}
	return p, aad, nil
}

// signatureKeys returns the signing and verification keys of a JWS
// variant, and the verification key of another key of the same type.
func signatureKeys(v *bench.Variant) (priv, pub, other any, err error) {
	if priv, pub, err = signatureKey(v, false); err != nil {
		return nil, nil, nil, err
	}
	_, other, err = signatureKey(v, true)
	return priv, pub, other, err
}

// signatureKey returns the suite's key pair of a JWS variant, or the other
// one of the same type.
func signatureKey(v *bench.Variant, other bool) (priv, pub any, err error) {
	switch alg := v.Alg; {
	case strings.HasPrefix(alg, "HS"):
		k, err := octKey(512, other)
		return k, k, err
	case strings.HasPrefix(alg, "RS"), strings.HasPrefix(alg, "PS"):
		k, err := rsaKey(v.RSABits, other)
		if err != nil {
			return nil, nil, err
		}
		return k, &k.PublicKey, nil
	case alg == string(jwa.ES256K):
		load := keys.Secp256k1
		if other {
			load = keys.OtherSecp256k1
		}
		k, err := cached(prefix(other)+"secp256k1", func() (any, error) { return load() })
		if err != nil {
			return nil, nil, err
		}
		return k, k.(*jwa.Secp256k1PrivateKey).PublicKey(), nil
	case strings.HasPrefix(alg, "ES"):
		crv := map[string]string{"ES256": "P-256", "ES384": "P-384", "ES512": "P-521"}[alg]
		k, err := ecKey(crv, other)
		if err != nil {
			return nil, nil, err
		}
		return k, &k.PublicKey, nil
	case alg == string(jwa.EdDSA) || alg == string(jwa.Ed25519):
		load := keys.Ed25519
		if other {
			load = keys.OtherEd25519
		}
		k, err := load()
		if err != nil {
			return nil, nil, err
		}
		return k, k.Public(), nil
	}
	if priv, pub, ok, err := mldsaKeys(v.Alg, other); ok {
		return priv, pub, err
	}
	return nil, nil, fmt.Errorf("subjects: no key for %s", v.Alg)
}

// encryptionKeys returns the encryption and decryption keys of a JWE
// variant, and the decryption key of another key of the same type.
func encryptionKeys(v *bench.Variant) (encKey, decKey, other any, err error) {
	if encKey, decKey, err = encryptionKey(v, false); err != nil {
		return nil, nil, nil, err
	}
	_, other, err = encryptionKey(v, true)
	return encKey, decKey, other, err
}

// encryptionKey returns the suite's key pair of a JWE variant, or the other
// one of the same type.
func encryptionKey(v *bench.Variant, other bool) (encKey, decKey any, err error) {
	alg := jwa.KeyAlgorithm(v.Alg)
	switch {
	case alg == jwa.Direct:
		k, err := octKey(jwa.ContentEncryption(v.Enc).KeySize()*8, other)
		return k, k, err
	case alg.IsPBES2():
		p := keys.PBES2Password()
		if other {
			p = keys.OtherPBES2Password()
		}
		return p, p, nil
	case strings.HasPrefix(v.Alg, "A"): // A*KW, A*GCMKW
		bits, ok := map[jwa.KeyAlgorithm]int{
			jwa.A128KW: 128, jwa.A192KW: 192, jwa.A256KW: 256,
			jwa.A128GCMKW: 128, jwa.A192GCMKW: 192, jwa.A256GCMKW: 256,
		}[alg]
		if !ok {
			break
		}
		k, err := octKey(bits, other)
		return k, k, err
	case strings.HasPrefix(v.Alg, "RSA"):
		k, err := rsaKey(v.RSABits, other)
		if err != nil {
			return nil, nil, err
		}
		return &k.PublicKey, k, nil
	case alg.IsHPKE(), alg.IsHPKEIntegrated():
		return hpkeKeys(alg, other)
	case strings.HasPrefix(v.Alg, "ECDH-ES"):
		if v.Curve == "X25519" {
			name, load := "X25519", keys.X25519
			if other {
				name, load = "other-X25519", keys.OtherX25519
			}
			k, err := cached(name, func() (any, error) { return load() })
			if err != nil {
				return nil, nil, err
			}
			x := k.(*ecdh.PrivateKey)
			return x.PublicKey(), x, nil
		}
		k, err := ecKey(v.Curve, other)
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

// prefix names the cache entry of the suite's key or the other one.
func prefix(other bool) string {
	if other {
		return "other-"
	}
	return ""
}

func octKey(bits int, other bool) ([]byte, error) {
	k, err := cached(fmt.Sprintf("%soct%d", prefix(other), bits), func() (any, error) {
		if other {
			return keys.OtherOct(bits)
		}
		return keys.Oct(bits)
	})
	if err != nil {
		return nil, err
	}
	return k.([]byte), nil
}

func rsaKey(bits int, other bool) (*rsa.PrivateKey, error) {
	k, err := cached(fmt.Sprintf("%srsa%d", prefix(other), bits), func() (any, error) {
		if other {
			return keys.OtherRSA(bits)
		}
		return keys.RSA(bits)
	})
	if err != nil {
		return nil, err
	}
	return k.(*rsa.PrivateKey), nil
}

func ecKey(crv string, other bool) (*ecdsa.PrivateKey, error) {
	k, err := cached(prefix(other)+crv, func() (any, error) {
		if other {
			return keys.OtherEC(crv)
		}
		return keys.EC(crv)
	})
	if err != nil {
		return nil, err
	}
	return k.(*ecdsa.PrivateKey), nil
}

// hpkeKeys returns the fixed recipient key (or the other one) of an HPKE
// algorithm: the key of its KEM curve (draft-ietf-jose-hpke-encrypt-20
// Table 2).
func hpkeKeys(alg jwa.KeyAlgorithm, other bool) (encKey, decKey any, err error) {
	crv := map[jwa.KeyAlgorithm]string{
		jwa.HPKE0KE: "P-256", jwa.HPKE1KE: "P-384", jwa.HPKE2KE: "P-521",
		jwa.HPKE3KE: "X25519", jwa.HPKE4KE: "X25519", jwa.HPKE7KE: "P-256",
		jwa.HPKE0: "P-256", jwa.HPKE1: "P-384", jwa.HPKE2: "P-521",
		jwa.HPKE3: "X25519", jwa.HPKE4: "X25519", jwa.HPKE7: "P-256",
	}[alg]
	if crv == "X25519" {
		name, load := "X25519", keys.X25519
		if other {
			name, load = "other-X25519", keys.OtherX25519
		}
		k, err := cached(name, func() (any, error) { return load() })
		if err != nil {
			return nil, nil, err
		}
		x := k.(*ecdh.PrivateKey)
		return x.PublicKey(), x, nil
	}
	k, err := ecKey(crv, other)
	if err != nil {
		return nil, nil, err
	}
	return &k.PublicKey, k, nil
}
