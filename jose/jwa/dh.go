package jwa

import (
	"crypto/ecdh"
	"crypto/subtle"
	"errors"
	"fmt"
)

// This file holds the one check of every Diffie-Hellman output of this
// package: ECDH-ES and ECDH-ES+AxxxKW (RFC 7518 §4.6, ecdhes.go), and the
// DHKEM of HPKE Key Encryption and Integrated Encryption (RFC 9180 §4.1,
// hpke.go), which crypto/hpke computes with the key it is given. Every
// recipient private key, local or held in a device (kms.go), becomes a
// *dhKey when its decrypter is made, and an ECDH-ES sender's ephemeral key
// agrees through agree too, so no shared secret reaches a key derivation
// unchecked. crypto/hpke's decapsulation does not check the output itself,
// and a device may leave the check to its caller as RFC 7748 §6.1 allows.

// dhKey is a recipient's ECDH private key as the decrypters use it: an
// [ecdh.KeyExchanger] whose ECDH method is agree with the key it holds.
// ECDH-ES calls it; HPKE hands it to crypto/hpke's DHKEM, which calls it
// during decapsulation, before any key derivation.
type dhKey struct {
	k      ecdh.KeyExchanger // an *ecdh.PrivateKey, or a device's key (kms.go)
	pub    *ecdh.PublicKey   // k's public key, read once when the decrypter is made
	opaque bool              // k is a device's key, not an *ecdh.PrivateKey
}

var _ ecdh.KeyExchanger = (*dhKey)(nil)

// Curve implements [ecdh.KeyExchanger].
func (k *dhKey) Curve() ecdh.Curve { return k.pub.Curve() }

// PublicKey implements [ecdh.KeyExchanger].
func (k *dhKey) PublicKey() *ecdh.PublicKey { return k.pub }

// ECDH implements [ecdh.KeyExchanger]: the checked shared secret of k and
// peer (agree).
func (k *dhKey) ECDH(peer *ecdh.PublicKey) ([]byte, error) { return agree(k.k, k.opaque, peer) }

// agree returns the shared secret of priv and peer: Z of RFC 7518 §4.6.2,
// dh of RFC 9180 §4.1. In order:
//
//   - peer must be on priv's curve and, on X25519, not a point of small
//     order (RFC 7748 §6.1): errPeerCurve, errSmallOrder, before priv is
//     asked, so that a device never sees such a point;
//   - an error of a device's key (opaque) is a device failure: it is
//     returned wrapped, with [ErrKeyDevice]. A local key fails on nothing
//     the first check lets through; if it did, errDHFailed;
//   - the secret must be of the curve's size and not all zeros (RFC 7748
//     §6.1, RFC 9180 §7.1.4): errSecretSize, errAllZeroSecret. These are
//     what an attacker aims for from a device that leaves the check to its
//     caller, not device failures.
//
// A failed secret is cleared. A panic of the device is not recovered: it
// reaches the caller of the decrypter, as any panic of code the caller
// supplied does (a bug of the device's client, not a token's fault).
func agree(priv ecdh.KeyExchanger, opaque bool, peer *ecdh.PublicKey) ([]byte, error) {
	c := priv.Curve()
	if peer == nil || peer.Curve() != c {
		return nil, errPeerCurve
	}
	if c == ecdh.X25519() && x25519SmallOrder(peer.Bytes()) {
		return nil, errSmallOrder
	}
	z, err := priv.ECDH(peer)
	if err != nil {
		clear(z)
		if opaque {
			return nil, fmt.Errorf("ecdh.KeyExchanger: %w: %w", err, ErrKeyDevice)
		}
		return nil, errDHFailed
	}
	if len(z) != ecdhSecretSize(c) {
		clear(z)
		return nil, errSecretSize
	}
	var acc byte
	for _, b := range z {
		acc |= b
	}
	if subtle.ConstantTimeByteEq(acc, 0) == 1 {
		return nil, errAllZeroSecret
	}
	return z, nil
}

// The refusals of agree other than a device failure. Their texts name no
// package: the decrypters wrap them (dhError).
var (
	errPeerCurve     = errors.New("public key on another curve")
	errSmallOrder    = errors.New("X25519 public key of small order (RFC 7748 §6.1)")
	errDHFailed      = errors.New("key agreement failed")
	errSecretSize    = errors.New("shared secret of the wrong size")
	errAllZeroSecret = errors.New("all-zero shared secret")
)

// dhError returns what a decrypter of alg reports for an agreement that
// failed with err (from agree, or from crypto/hpke around it): a device
// failure as such ([ErrKeyDevice]); an ECDH-ES epk refused before the
// agreement as a key management parameter ([ErrInvalidParameter]), as an
// epk of another curve is; anything else, an HPKE encapsulated secret of
// small order included, as the one [ErrDecryption].
func dhError(alg KeyAlgorithm, err error) error {
	switch {
	case errors.Is(err, ErrKeyDevice):
		return fmt.Errorf("jwa: %s: %w", alg, err)
	case alg.IsECDH() && (err == errSmallOrder || err == errPeerCurve):
		return fmt.Errorf("jwa: %s epk: %v: %w", alg, err, ErrInvalidParameter)
	}
	return ErrDecryption
}

// ecdhSecretSize returns the size of the shared secret on c: the
// x-coordinate's size (SEC 1 §3.3.1) or 32 for X25519 (RFC 7748 §6.1).
func ecdhSecretSize(c ecdh.Curve) int {
	switch c {
	case ecdh.P256(), ecdh.X25519():
		return 32
	case ecdh.P384():
		return 48
	case ecdh.P521():
		return 66
	}
	return 0
}

// x25519SmallOrder reports whether u, an X25519 public key, is a point of
// small order: one for which X25519 with any private key gives all zeros
// (RFC 7748 §6.1), the scalar being a multiple of the cofactor 8 (§5). The
// curve's points of order dividing 8 have the u-coordinates 0, 1 and the
// two listed below; its twist's of order dividing 4, 0 and p-1. Of the
// non-canonical encodings (u + p below 2^255), only p and p+1 are of these.
// The top bit is ignored, as X25519 ignores it (§5).
func x25519SmallOrder(u []byte) bool {
	if len(u) != 32 {
		return false
	}
	b := [32]byte(u)
	b[31] &= 0x7f
	for i := range x25519SmallOrderU {
		if b == x25519SmallOrderU[i] {
			return true
		}
	}
	return false
}

// x25519SmallOrderU are the encodings of x25519SmallOrder, little
// endian, the top bit clear.
var x25519SmallOrderU = [...][32]byte{
	{},  // 0
	{1}, // 1
	// 325606250916557431795983626356110631294008115727848805560023387167927233504, of order 8
	{0xe0, 0xeb, 0x7a, 0x7c, 0x3b, 0x41, 0xb8, 0xae, 0x16, 0x56, 0xe3, 0xfa, 0xf1, 0x9f, 0xc4, 0x6a, 0xda, 0x09, 0x8d, 0xeb, 0x9c, 0x32, 0xb1, 0xfd, 0x86, 0x62, 0x05, 0x16, 0x5f, 0x49, 0xb8, 0x00},
	// 39382357235489614581723060781553021112529911719440698176882885853963445705823, of order 8
	{0x5f, 0x9c, 0x95, 0xbc, 0xa3, 0x50, 0x8c, 0x24, 0xb1, 0xd0, 0xb1, 0x55, 0x9c, 0x83, 0xef, 0x5b, 0x04, 0x44, 0x5c, 0xc4, 0x58, 0x1c, 0x8e, 0x86, 0xd8, 0x22, 0x4e, 0xdd, 0xd0, 0x9f, 0x11, 0x57},
	// p-1, of order 4 on the twist
	{0xec, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
	// p, that is 0
	{0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
	// p+1, that is 1
	{0xee, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
}
