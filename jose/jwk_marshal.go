package jose

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"encoding/base64"
	"math/big"
	"slices"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/internal/jsonx"
	"github.com/josebench/josebench/jose/jwa"
)

// MarshalJSON returns the JWK as a JSON object (RFC 7517 §4), with its
// private members if it holds a private key; use [JWK.Public] to publish a
// key. An unusable entry of a JWK Set is written back as it was read.
func (k *JWK) MarshalJSON() ([]byte, error) {
	return k.AppendJSON(nil)
}

// AppendJSON appends the JSON form of k, as [JWK.MarshalJSON] returns it,
// to dst.
func (k *JWK) AppendJSON(dst []byte) ([]byte, error) {
	if k == nil {
		return append(dst, "null"...), nil
	}
	if k.Key == nil && k.ext.raw != nil {
		return append(dst, k.ext.raw...), nil
	}
	b := jwkWriter{buf: dst, start: len(dst)}
	b.buf = append(b.buf, '{')
	switch key := k.Key.(type) {
	case []byte:
		if len(key) == 0 {
			return dst, jwkErrorf(ErrInvalidKey, "empty symmetric key")
		}
		b.str("kty", KeyTypeOct)
		b.b64("k", key)
	case *rsa.PublicKey:
		if err := checkRSAPublic(key); err != nil {
			return dst, err
		}
		b.str("kty", KeyTypeRSA)
		b.rsaPublic(key)
	case *rsa.PrivateKey:
		if len(key.Primes) != 2 {
			return dst, jwkErrorf(ErrUnsupportedAlgorithm, "RSA key with %d primes: multi-prime RSA keys are not supported", len(key.Primes))
		}
		if err := checkRSAPublic(&key.PublicKey); err != nil {
			return dst, err
		}
		b.str("kty", KeyTypeRSA)
		b.rsaPublic(&key.PublicKey)
		dp, dq, qi := rsaCRT(key)
		b.b64("d", key.D.Bytes())
		b.b64("p", key.Primes[0].Bytes())
		b.b64("q", key.Primes[1].Bytes())
		b.b64("dp", dp.Bytes())
		b.b64("dq", dq.Bytes())
		b.b64("qi", qi.Bytes())
	case *ecdsa.PublicKey:
		if err := b.ecPublic(key); err != nil {
			return dst, err
		}
	case *ecdsa.PrivateKey:
		if err := b.ecPublic(&key.PublicKey); err != nil {
			return dst, err
		}
		d, err := key.Bytes()
		if err != nil {
			return dst, jwkErrorf(ErrInvalidKey, "EC private key: %v", err)
		}
		b.b64("d", d)
	case *jwa.Secp256k1PublicKey:
		p := key.Bytes()
		if p[0] != 4 {
			return dst, jwkErrorf(ErrInvalidKey, "secp256k1 public key not made by jwa.NewSecp256k1PublicKey")
		}
		b.ecPoint(CurveSecp256k1, p)
	case *jwa.Secp256k1PrivateKey:
		p := key.PublicKey().Bytes()
		if p[0] != 4 {
			return dst, jwkErrorf(ErrInvalidKey, "secp256k1 private key not made by jwa.NewSecp256k1PrivateKey")
		}
		b.ecPoint(CurveSecp256k1, p)
		b.b64("d", key.Bytes())
	case ed25519.PublicKey:
		if len(key) != ed25519.PublicKeySize {
			return dst, jwkErrorf(ErrInvalidKey, "Ed25519 public key of %d bytes", len(key))
		}
		b.str("kty", KeyTypeOKP)
		b.str("crv", CurveEd25519)
		b.b64("x", key)
	case ed25519.PrivateKey:
		if len(key) != ed25519.PrivateKeySize {
			return dst, jwkErrorf(ErrInvalidKey, "Ed25519 private key of %d bytes", len(key))
		}
		b.str("kty", KeyTypeOKP)
		b.str("crv", CurveEd25519)
		b.b64("x", key[32:])
		b.b64("d", key.Seed())
	case *ecdh.PublicKey:
		// A NIST curve's ecdh public key (jwe's ephemeral keys, written
		// as "epk" without conversion) is written as the "EC" key it is;
		// NewJWK converts such keys to ecdsa for every other use.
		if crv := ecCurveName(ecdhCurve(key.Curve())); crv != "" {
			b.ecPoint(crv, key.Bytes())
			break
		}
		if key.Curve() != ecdh.X25519() {
			return dst, jwkErrorf(ErrUnsupportedAlgorithm, "unsupported ecdh curve")
		}
		b.str("kty", KeyTypeOKP)
		b.str("crv", CurveX25519)
		b.b64("x", key.Bytes())
	case *ecdh.PrivateKey:
		if key.Curve() != ecdh.X25519() {
			return dst, jwkErrorf(ErrUnsupportedAlgorithm, "ecdh key on a NIST curve: use NewJWK to convert it")
		}
		b.str("kty", KeyTypeOKP)
		b.str("crv", CurveX25519)
		b.b64("x", key.PublicKey().Bytes())
		b.b64("d", key.Bytes())
	case nil:
		return dst, jwkErrorf(ErrInvalidKey, "no key")
	default:
		if ok, err := b.akp(key); !ok {
			return dst, jwkErrorf(ErrUnsupportedAlgorithm, "a JWK cannot hold %s", jwa.DescribeKey(key))
		} else if err != nil {
			return dst, err
		}
	}
	if k.KeyID != "" {
		b.str("kid", k.KeyID)
	}
	if k.Use != "" {
		b.str("use", k.Use)
	}
	if k.KeyOps != nil {
		b.name("key_ops")
		b.buf = append(b.buf, '[')
		for i, op := range k.KeyOps {
			if i > 0 {
				b.buf = append(b.buf, ',')
			}
			b.buf = jsonx.AppendString(b.buf, string(op))
		}
		b.buf = append(b.buf, ']')
	}
	alg := k.Algorithm
	if a := akpAlgorithm(k.Key); a != "" { // alg is an AKP key parameter (RFC 9964 §4)
		if alg != "" && alg != a {
			return dst, jwkErrorf(ErrInvalidKey, "alg %s of an %s key", untrusted.Quote(alg), a)
		}
		alg = a
	}
	if alg != "" {
		b.str("alg", alg)
	}
	if len(k.Certificates) > 0 {
		b.name("x5c")
		b.buf = append(b.buf, '[')
		for i, c := range k.Certificates {
			if i > 0 {
				b.buf = append(b.buf, ',')
			}
			b.buf = append(b.buf, '"')
			b.buf = base64.StdEncoding.AppendEncode(b.buf, c.Raw)
			b.buf = append(b.buf, '"')
		}
		b.buf = append(b.buf, ']')
	}
	if k.CertificateThumbprintSHA1 != nil {
		b.b64("x5t", k.CertificateThumbprintSHA1)
	}
	if k.CertificateThumbprintSHA256 != nil {
		b.b64("x5t#S256", k.CertificateThumbprintSHA256)
	}
	for _, m := range k.ext.extra {
		if slices.Contains(b.names, m.name) {
			continue
		}
		b.name(m.name)
		b.buf = append(b.buf, m.value...)
	}
	return append(b.buf, '}'), nil
}

// jwkWriter appends the members of a JSON object.
type jwkWriter struct {
	buf   []byte
	start int
	names []string
}

func (w *jwkWriter) name(n string) {
	if len(w.buf) > w.start+1 {
		w.buf = append(w.buf, ',')
	}
	w.buf = jsonx.AppendString(w.buf, n)
	w.buf = append(w.buf, ':')
	w.names = append(w.names, n)
}

func (w *jwkWriter) str(n, v string) {
	w.name(n)
	w.buf = jsonx.AppendString(w.buf, v)
}

func (w *jwkWriter) b64(n string, v []byte) {
	w.name(n)
	w.buf = append(w.buf, '"')
	w.buf = b64enc.Append(w.buf, v)
	w.buf = append(w.buf, '"')
}

func (w *jwkWriter) rsaPublic(key *rsa.PublicKey) {
	w.b64("n", key.N.Bytes())
	w.b64("e", big.NewInt(int64(key.E)).Bytes())
}

func (w *jwkWriter) ecPublic(key *ecdsa.PublicKey) error {
	crv, p, err := ecPublicPoint(key)
	if err != nil {
		return err
	}
	w.ecPoint(crv, p)
	return nil
}

// ecPublicPoint returns the name of key's curve and its uncompressed
// point (SEC 1 §2.3.3), or the error of a curve a JWK cannot name or a
// point not on it.
func ecPublicPoint(key *ecdsa.PublicKey) (crv string, p []byte, err error) {
	crv = ecCurveName(key.Curve)
	if crv == "" {
		return "", nil, jwkErrorf(ErrUnsupportedAlgorithm, "unsupported EC curve")
	}
	p, err = key.Bytes()
	if err != nil {
		return "", nil, jwkErrorf(ErrInvalidKey, "EC public key: %v", err)
	}
	return crv, p, nil
}

// ecPoint writes the members of an "EC" public key on crv whose
// uncompressed point (SEC 1 §2.3.3: 0x04 || X || Y) is p (RFC 7518
// §6.2.1).
func (w *jwkWriter) ecPoint(crv string, p []byte) {
	size := (len(p) - 1) / 2
	w.str("kty", KeyTypeEC)
	w.str("crv", crv)
	w.b64("x", p[1:1+size])
	w.b64("y", p[1+size:])
}
