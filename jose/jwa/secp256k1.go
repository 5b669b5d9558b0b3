package jwa

import (
	"crypto"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
)

// This file holds the keys of ES256K (RFC 8812 §3): points and scalars of
// secp256k1 (SEC 2 §2.4.1), which Go's standard library does not have.
// The arithmetic is that of github.com/decred/dcrd/dcrec/secp256k1/v4; its
// types stay behind these two, so that this module's API does not change
// with that package's major versions.

// Secp256k1PublicKey is a point of secp256k1, checked to be on the curve
// and not the point at infinity. It is immutable and safe for concurrent
// use. ES256K verifiers take it, as [NewVerifier] says.
type Secp256k1PublicKey struct {
	k   secp256k1.PublicKey
	raw [secp256k1.PubKeyBytesLenUncompressed]byte // 0x04 || X || Y
}

var _ crypto.Signer = (*Secp256k1PrivateKey)(nil)

// Secp256k1PrivateKey is a secp256k1 private scalar d, 1 ≤ d < n, with its
// public point. It is immutable and safe for concurrent use. ES256K signers
// take it, as [NewSigner] says.
type Secp256k1PrivateKey struct {
	d   secp256k1.PrivateKey
	pub Secp256k1PublicKey
}

// NewSecp256k1PublicKey returns the secp256k1 point encoded in b, the
// uncompressed form of SEC 1 §2.3.3 (0x04, then X and Y as 32-byte
// big-endian integers). The coordinates must be below the field prime and
// the point on the curve; compressed and hybrid forms are refused. The
// error wraps [ErrInvalidKey].
func NewSecp256k1PublicKey(b []byte) (*Secp256k1PublicKey, error) {
	if len(b) != secp256k1.PubKeyBytesLenUncompressed || b[0] != secp256k1.PubKeyFormatUncompressed {
		return nil, fmt.Errorf("jwa: secp256k1 public key: not a 65-byte uncompressed point: %w", ErrInvalidKey)
	}
	k, err := secp256k1.ParsePubKey(b) // checks x, y < p and y² = x³ + 7
	if err != nil {
		return nil, fmt.Errorf("jwa: secp256k1 public key: not a point on the curve: %w", ErrInvalidKey)
	}
	pub := &Secp256k1PublicKey{k: *k}
	copy(pub.raw[:], b)
	return pub, nil
}

// valid reports whether k was made by a constructor of this file, not
// declared as a zero value.
func (k *Secp256k1PublicKey) valid() bool {
	return k != nil && k.raw[0] == secp256k1.PubKeyFormatUncompressed
}

// errSecp256k1ZeroKey is the error for a key declared as a zero value.
func errSecp256k1ZeroKey(alg SignatureAlgorithm) error {
	return fmt.Errorf("jwa: %s with a secp256k1 key not made by NewSecp256k1PublicKey, NewSecp256k1PrivateKey or GenerateSecp256k1Key: %w", alg, ErrInvalidKey)
}

// Bytes returns the uncompressed SEC 1 encoding of k (SEC 1 §2.3.3): 0x04,
// X, Y; 65 bytes. The slice is new on each call.
func (k *Secp256k1PublicKey) Bytes() []byte {
	b := k.raw
	return b[:]
}

// Equal reports whether x is a *Secp256k1PublicKey holding the same point.
func (k *Secp256k1PublicKey) Equal(x crypto.PublicKey) bool {
	o, ok := x.(*Secp256k1PublicKey)
	return ok && o != nil && k.raw == o.raw
}

// NewSecp256k1PrivateKey returns the secp256k1 private key whose scalar is
// d, a 32-byte big-endian integer from 1 to n−1 (SEC 1 §2.3.6, the "d" of
// an RFC 8812 §3.1 JWK), and computes its public point. The error wraps
// [ErrInvalidKey].
//
// The public point is computed by the underlying library's variable-time
// scalar multiplication: see SECURITY.md.
func NewSecp256k1PrivateKey(d []byte) (*Secp256k1PrivateKey, error) {
	if len(d) != secp256k1.PrivKeyBytesLen {
		return nil, fmt.Errorf("jwa: secp256k1 private key: %d bytes, want 32: %w", len(d), ErrInvalidKey)
	}
	var s secp256k1.ModNScalar
	if overflow := s.SetByteSlice(d); overflow || s.IsZero() {
		s.Zero()
		return nil, fmt.Errorf("jwa: secp256k1 private key: scalar not in [1, n-1]: %w", ErrInvalidKey)
	}
	return newSecp256k1PrivateKey(&s), nil
}

// GenerateSecp256k1Key returns a new secp256k1 private key, its scalar drawn
// from crypto/rand.
func GenerateSecp256k1Key() (*Secp256k1PrivateKey, error) {
	k, err := secp256k1.GeneratePrivateKey()
	if err != nil {
		return nil, fmt.Errorf("jwa: secp256k1: %w", err)
	}
	defer k.Zero()
	return newSecp256k1PrivateKey(&k.Key), nil
}

func newSecp256k1PrivateKey(s *secp256k1.ModNScalar) *Secp256k1PrivateKey {
	priv := &Secp256k1PrivateKey{d: *secp256k1.NewPrivateKey(s)}
	pub := priv.d.PubKey()
	priv.pub.k = *pub
	copy(priv.pub.raw[:], pub.SerializeUncompressed())
	return priv
}

// Bytes returns the scalar of k as a 32-byte big-endian integer (SEC 1
// §2.3.7). The slice is new on each call.
func (k *Secp256k1PrivateKey) Bytes() []byte {
	var b [secp256k1.PrivKeyBytesLen]byte
	k.d.Key.PutBytes(&b)
	return b[:]
}

// PublicKey returns the public key of k.
func (k *Secp256k1PrivateKey) PublicKey() *Secp256k1PublicKey { return &k.pub }

// Public returns the public key of k, a *[Secp256k1PublicKey], as
// [crypto.Signer] keys do.
func (k *Secp256k1PrivateKey) Public() crypto.PublicKey { return &k.pub }

// Equal reports whether x is a *Secp256k1PrivateKey with the same scalar,
// comparing the scalars in constant time.
func (k *Secp256k1PrivateKey) Equal(x crypto.PrivateKey) bool {
	o, ok := x.(*Secp256k1PrivateKey)
	if !ok || o == nil {
		return false
	}
	var a, b [secp256k1.PrivKeyBytesLen]byte
	k.d.Key.PutBytes(&a)
	o.d.Key.PutBytes(&b)
	eq := subtle.ConstantTimeCompare(a[:], b[:]) == 1
	clear(a[:])
	clear(b[:])
	return eq
}

// Sign signs digest, the output of opts.HashFunc(), with ECDSA over
// secp256k1 and returns the ASN.1 DER ECDSA-Sig-Value (RFC 3279 §2.2.3),
// as *[ecdsa.PrivateKey] does: it makes k a [crypto.Signer]. A digest
// longer than 32 bytes is truncated to its leftmost 256 bits (SEC 1
// §4.1.3). The nonce is the deterministic one of RFC 6979, so rand is not
// used, and S is the low one of BIP 62.
func (k *Secp256k1PrivateKey) Sign(_ io.Reader, digest []byte, opts crypto.SignerOpts) ([]byte, error) {
	if h := opts.HashFunc(); h == 0 || len(digest) != h.Size() {
		return nil, errors.New("jwa: secp256k1: Sign needs a digest of opts.HashFunc()")
	}
	return ecdsa.Sign(&k.d, digest).Serialize(), nil
}
