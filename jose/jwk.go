package jose

import (
	"crypto"
	"crypto/x509"
)

// JWK is a JSON Web Key (RFC 7517 §4).
//
// Key holds the Go key: []byte for "oct"; *rsa.PublicKey or *rsa.PrivateKey
// for "RSA"; *ecdsa.PublicKey or *ecdsa.PrivateKey for "EC"; ed25519.PublicKey
// or ed25519.PrivateKey for "OKP" Ed25519; *ecdh.PublicKey or *ecdh.PrivateKey
// (X25519) for "OKP" X25519. Key is nil for an entry of a JWK Set whose kty or
// crv this module does not support: such an entry is kept and marshalled
// back, but never selected.
type JWK struct {
	Key       any     // the Go key, see above
	KeyID     string  // "kid" (RFC 7517 §4.5)
	Use       string  // "use" (RFC 7517 §4.2): "sig" or "enc"
	KeyOps    []KeyOp // "key_ops" (RFC 7517 §4.3)
	Algorithm string  // "alg" (RFC 7517 §4.4)
	// Certificates is "x5c" (RFC 7517 §4.7): the leaf's public key equals Key.
	Certificates []*x509.Certificate
	// CertificateThumbprintSHA1 is "x5t" (RFC 7517 §4.8), decoded.
	CertificateThumbprintSHA1 []byte
	// CertificateThumbprintSHA256 is "x5t#S256" (RFC 7517 §4.9), decoded.
	CertificateThumbprintSHA256 []byte

	ext ext // unknown members and the raw form of unsupported keys
}

// KeyOp is a "key_ops" value (RFC 7517 §4.3).
type KeyOp string

// Key operations (RFC 7517 §4.3).
const (
	OpSign       KeyOp = "sign"
	OpVerify     KeyOp = "verify"
	OpEncrypt    KeyOp = "encrypt"
	OpDecrypt    KeyOp = "decrypt"
	OpWrapKey    KeyOp = "wrapKey"
	OpUnwrapKey  KeyOp = "unwrapKey"
	OpDeriveKey  KeyOp = "deriveKey"
	OpDeriveBits KeyOp = "deriveBits"
)

// ext is filled by the JWK implementation.
type ext struct{}

var _ = crypto.SHA256
