package jose

import (
	"encoding/asn1"
	"errors"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose/jwa"
)

// crypto/x509 does not know secp256k1, so its keys are read and written
// here, in the same standard forms as the other EC keys: SubjectPublicKeyInfo
// (RFC 5480 §2) and PKCS #8 (RFC 5208) holding a SEC 1 ECPrivateKey
// (RFC 5915), with the id-ecPublicKey algorithm and the named curve
// secp256k1, OID 1.3.132.0.10 (SEC 2 §A.2.1). The plain "EC PRIVATE KEY"
// block (RFC 5915) is read too.

var (
	oidECPublicKey = asn1.ObjectIdentifier{1, 2, 840, 10045, 2, 1}
	oidSecp256k1   = asn1.ObjectIdentifier{1, 3, 132, 0, 10}
)

type secp256k1AlgID struct {
	Algorithm asn1.ObjectIdentifier
	Curve     asn1.ObjectIdentifier
}

type secp256k1SPKI struct {
	Algorithm secp256k1AlgID
	Point     asn1.BitString
}

type secp256k1PKCS8 struct {
	Version    int
	Algorithm  secp256k1AlgID
	PrivateKey []byte
}

type secp256k1ECPrivateKey struct {
	Version    int
	PrivateKey []byte
	Curve      asn1.ObjectIdentifier `asn1:"optional,explicit,tag:0"`
	PublicKey  asn1.BitString        `asn1:"optional,explicit,tag:1"`
}

var errNotSecp256k1 = errors.New("not a secp256k1 key")

// unmarshalStrict is asn1.Unmarshal refusing trailing data.
func unmarshalStrict(der []byte, v any) error {
	rest, err := asn1.Unmarshal(der, v)
	if err == nil && len(rest) != 0 {
		err = errors.New("trailing data")
	}
	return err
}

// parseSecp256k1PEM reads a block of type typ ("PUBLIC KEY", "PRIVATE KEY"
// or "EC PRIVATE KEY") as a secp256k1 key. It returns errNotSecp256k1 for
// a key of another curve or algorithm, which the caller leaves to
// crypto/x509.
func parseSecp256k1PEM(typ string, der []byte) (any, error) {
	switch typ {
	case "PUBLIC KEY":
		var spki secp256k1SPKI
		if unmarshalStrict(der, &spki) != nil || !spki.Algorithm.Algorithm.Equal(oidECPublicKey) || !spki.Algorithm.Curve.Equal(oidSecp256k1) {
			return nil, errNotSecp256k1
		}
		if spki.Point.BitLength%8 != 0 {
			return nil, keyErrorf(ErrMalformed, "pem: secp256k1 public key: not a whole number of bytes")
		}
		pub, err := jwa.NewSecp256k1PublicKey(spki.Point.Bytes)
		if err != nil {
			return nil, keyErrorf(ErrInvalidKey, "pem: secp256k1 public key: not an uncompressed point on the curve")
		}
		return pub, nil
	case "PRIVATE KEY":
		var p8 secp256k1PKCS8
		if unmarshalStrict(der, &p8) != nil || !p8.Algorithm.Algorithm.Equal(oidECPublicKey) || !p8.Algorithm.Curve.Equal(oidSecp256k1) {
			return nil, errNotSecp256k1
		}
		if p8.Version != 0 {
			return nil, keyErrorf(ErrMalformed, "pem: PKCS #8 version %d", p8.Version)
		}
		return parseSecp256k1ECPrivateKey(p8.PrivateKey, true)
	case "EC PRIVATE KEY":
		return parseSecp256k1ECPrivateKey(der, false)
	}
	return nil, errNotSecp256k1
}

// parseSecp256k1ECPrivateKey reads a SEC 1 ECPrivateKey (RFC 5915 §3).
// Inside PKCS #8 the curve may be left out; alone, it must be secp256k1.
func parseSecp256k1ECPrivateKey(der []byte, inPKCS8 bool) (any, error) {
	var ec secp256k1ECPrivateKey
	if err := unmarshalStrict(der, &ec); err != nil {
		if inPKCS8 {
			return nil, keyErrorf(ErrMalformed, "pem: secp256k1 private key: %v", untrusted.Error(err))
		}
		return nil, errNotSecp256k1
	}
	switch {
	case ec.Curve == nil && inPKCS8, ec.Curve.Equal(oidSecp256k1):
	default:
		if inPKCS8 {
			return nil, keyErrorf(ErrMalformed, "pem: PKCS #8 secp256k1 key holding a key of another curve")
		}
		return nil, errNotSecp256k1
	}
	if ec.Version != 1 {
		return nil, keyErrorf(ErrMalformed, "pem: ECPrivateKey version %d", ec.Version)
	}
	priv, err := jwa.NewSecp256k1PrivateKey(ec.PrivateKey)
	clear(ec.PrivateKey)
	if err != nil {
		return nil, keyErrorf(ErrInvalidKey, "pem: secp256k1 private key: not a 32-byte scalar from 1 to n-1")
	}
	if ec.PublicKey.BitLength != 0 {
		pub, err := jwa.NewSecp256k1PublicKey(ec.PublicKey.Bytes)
		if err != nil || ec.PublicKey.BitLength%8 != 0 || !pub.Equal(priv.PublicKey()) {
			return nil, keyErrorf(ErrInvalidKey, "pem: secp256k1 private key: the public key does not match the private scalar")
		}
	}
	return priv, nil
}

// marshalSecp256k1 returns the DER of a secp256k1 key: PKCS #8 for a
// private key (the ECPrivateKey inside carries the public key, not the
// curve, as crypto/x509 writes it), SubjectPublicKeyInfo for a public one.
func marshalSecp256k1(key any) ([]byte, bool, error) {
	alg := secp256k1AlgID{oidECPublicKey, oidSecp256k1}
	switch k := key.(type) {
	case *jwa.Secp256k1PublicKey:
		b := k.Bytes()
		der, err := asn1.Marshal(secp256k1SPKI{alg, asn1.BitString{Bytes: b, BitLength: 8 * len(b)}})
		return der, true, err
	case *jwa.Secp256k1PrivateKey:
		pub := k.PublicKey().Bytes()
		d := k.Bytes()
		inner, err := asn1.Marshal(secp256k1ECPrivateKey{Version: 1, PrivateKey: d, PublicKey: asn1.BitString{Bytes: pub, BitLength: 8 * len(pub)}})
		clear(d)
		if err != nil {
			return nil, true, err
		}
		der, err := asn1.Marshal(secp256k1PKCS8{Version: 0, Algorithm: alg, PrivateKey: inner})
		clear(inner)
		return der, true, err
	}
	return nil, false, nil
}
