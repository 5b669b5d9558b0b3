package jose

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"

	"github.com/josebench/josebench/internal/untrusted"
)

// ParseKeyPEM returns the JWK of the first key or certificate in data, a
// PEM file (RFC 7468). It reads these blocks:
//
//   - "PRIVATE KEY": PKCS #8 (RFC 5208), RSA, EC (P-256, P-384, P-521,
//     and secp256k1 with its OID 1.3.132.0.10), Ed25519 or X25519;
//   - "RSA PRIVATE KEY": PKCS #1 (RFC 8017 Appendix A.1.2);
//   - "EC PRIVATE KEY": SEC 1 (RFC 5915), after an optional
//     "EC PARAMETERS" block, which is skipped;
//   - "PUBLIC KEY": SubjectPublicKeyInfo (RFC 5280 §4.1.2.7);
//   - "RSA PUBLIC KEY": PKCS #1 (RFC 8017 Appendix A.1.1);
//   - "CERTIFICATE": an X.509 certificate (RFC 5280), whose public key
//     becomes the JWK's; it and the "CERTIFICATE" blocks that directly
//     follow it become x5c (RFC 7517 §4.7), leaf first. The chain is not
//     verified.
//
// Encrypted PEM blocks are refused. Blocks after the key are ignored. The key
// is checked as [NewJWK] checks it; the JWK has no kid, use or alg.
func ParseKeyPEM(data []byte) (*JWK, error) {
	var block *pem.Block
	rest := data
	for {
		block, rest = pem.Decode(rest)
		if block == nil {
			return nil, keyErrorf(ErrMalformed, "pem: no key or certificate block")
		}
		if block.Type != "EC PARAMETERS" {
			break
		}
	}
	if strings.Contains(block.Type, "ENCRYPTED") || strings.Contains(block.Headers["Proc-Type"], "ENCRYPTED") {
		return nil, keyErrorf(ErrUnsupportedAlgorithm, "pem: encrypted %s block: decrypt it first", untrusted.Quote(block.Type))
	}
	var key any
	var err error
	var certs []*x509.Certificate
	switch block.Type {
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	case "PUBLIC KEY":
		key, err = x509.ParsePKIXPublicKey(block.Bytes)
	case "RSA PUBLIC KEY":
		key, err = x509.ParsePKCS1PublicKey(block.Bytes)
	case "CERTIFICATE":
		for {
			var c *x509.Certificate
			c, err = x509.ParseCertificate(block.Bytes)
			if err != nil {
				err = fmt.Errorf("certificate %d: %w", len(certs), err)
				break
			}
			if len(certs) == MaxCertificates {
				return nil, keyErrorf(ErrLimitExceeded, "pem: more than %d certificates", MaxCertificates)
			}
			certs = append(certs, c)
			block, rest = pem.Decode(rest)
			if block == nil || block.Type != "CERTIFICATE" {
				break
			}
		}
		if err == nil {
			key = certs[0].PublicKey
		}
	default:
		return nil, keyErrorf(ErrUnsupportedAlgorithm, "pem: unsupported block type %s", untrusted.Quote(block.Type))
	}
	if err != nil {
		// crypto/x509 does not know secp256k1 (RFC 8812): such keys are
		// read by pem_secp256k1.go.
		k1, err1 := parseSecp256k1PEM(block.Type, block.Bytes)
		switch {
		case err1 == nil:
			key, err = k1, nil
		case !errors.Is(err1, errNotSecp256k1):
			return nil, err1
		}
	}
	if err != nil {
		return nil, keyErrorf(ErrMalformed, "pem: %v", untrusted.Error(err))
	}
	k, err := NewJWK(key)
	if err != nil {
		return nil, err
	}
	k.Certificates = certs
	if err := k.checkCertificates(); err != nil {
		return nil, err
	}
	return k, nil
}

// MarshalPEM returns k in PEM form: a private key as a PKCS #8 "PRIVATE
// KEY" block (RFC 5208), a public key as a SubjectPublicKeyInfo "PUBLIC KEY"
// block (RFC 5280). Symmetric keys and unusable entries have no PEM form.
// Only the key is written: kid, use, alg and certificates are not.
func (k *JWK) MarshalPEM() ([]byte, error) {
	if err := k.Err(); err != nil {
		return nil, err
	}
	if k.IsSymmetric() {
		return nil, keyErrorf(ErrInvalidKey, "pem: a symmetric key has no PEM form")
	}
	var block pem.Block
	var err error
	if der, ok, err := marshalSecp256k1(k.Key); ok {
		if err != nil {
			return nil, keyErrorf(ErrInvalidKey, "pem: %v", err)
		}
		block.Type = "PUBLIC KEY"
		if k.IsPrivate() {
			block.Type = "PRIVATE KEY"
		}
		block.Bytes = der
		return pem.EncodeToMemory(&block), nil
	}
	if k.IsPrivate() {
		block.Type = "PRIVATE KEY"
		block.Bytes, err = x509.MarshalPKCS8PrivateKey(k.Key)
	} else {
		block.Type = "PUBLIC KEY"
		block.Bytes, err = x509.MarshalPKIXPublicKey(k.Key)
	}
	if err != nil {
		return nil, keyErrorf(ErrInvalidKey, "pem: %v", untrusted.Error(err))
	}
	return pem.EncodeToMemory(&block), nil
}
