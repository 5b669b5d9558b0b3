package vectortest

import (
	"crypto/ecdh"
	"sync/atomic"
)

// ECDHDevice is an ECDH private key as a KMS or an HSM holds it, reachable
// only as an ecdh.KeyExchanger, for the tests of keys held in devices. It
// computes X25519 as RFC 7748 §5 does and leaves the all-zero check of
// §6.1 to its caller, as that section allows: a point of small order gives
// 32 zero bytes and no error. Answer, when set, replaces what it returns
// (given the true output); Calls counts its calls.
type ECDHDevice struct {
	Key    *ecdh.PrivateKey
	Answer func(z []byte) ([]byte, error)
	Calls  atomic.Int32
}

// PublicKey implements ecdh.KeyExchanger.
func (d *ECDHDevice) PublicKey() *ecdh.PublicKey { return d.Key.PublicKey() }

// Curve implements ecdh.KeyExchanger.
func (d *ECDHDevice) Curve() ecdh.Curve { return d.Key.Curve() }

// ECDH implements ecdh.KeyExchanger.
func (d *ECDHDevice) ECDH(peer *ecdh.PublicKey) ([]byte, error) {
	d.Calls.Add(1)
	z, err := d.Key.ECDH(peer)
	if err != nil && d.Key.Curve() == ecdh.X25519() {
		z, err = make([]byte, 32), nil // crypto/ecdh refuses only the all-zero output
	}
	if err != nil {
		return nil, err
	}
	if d.Answer != nil {
		return d.Answer(z)
	}
	return z, nil
}
