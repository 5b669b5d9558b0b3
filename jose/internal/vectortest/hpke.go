package vectortest

import (
	"crypto/hkdf"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"hash"
)

// HPKEContext returns the key and base nonce of the HPKE base-mode context
// (RFC 9180 §5.1) whose KEM shared secret is DHKEM's ExtractAndExpand of
// the Diffie-Hellman output dh with kemContext, the encapsulated secret
// followed by the recipient's public key (RFC 9180 §4.1). kem, kdf and
// aead are the identifiers of RFC 9180 §7.1-7.3.
//
// It is what a sender computes once it knows dh. Tests use it to forge a
// message for a recipient whose key device answers a Diffie-Hellman output
// the attacker can predict (all zeros for an X25519 point of small order,
// RFC 7748 §6.1, or nothing at all), knowing only the public key.
func HPKEContext(kem, kdf, aead uint16, dh, kemContext, info []byte) (key, baseNonce []byte) {
	kemHash, nSecret := hpkeHash(map[uint16]uint16{0x10: 1, 0x11: 2, 0x12: 3, 0x20: 1}[kem])
	kemSuite := binary.BigEndian.AppendUint16([]byte("KEM"), kem)
	eaePRK := hpkeLabeledExtract(kemHash, kemSuite, nil, "eae_prk", dh)
	shared := hpkeLabeledExpand(kemHash, kemSuite, eaePRK, "shared_secret", kemContext, nSecret)

	h, _ := hpkeHash(kdf)
	suite := []byte("HPKE")
	for _, id := range []uint16{kem, kdf, aead} {
		suite = binary.BigEndian.AppendUint16(suite, id)
	}
	ksc := []byte{0} // mode_base
	ksc = append(ksc, hpkeLabeledExtract(h, suite, nil, "psk_id_hash", nil)...)
	ksc = append(ksc, hpkeLabeledExtract(h, suite, nil, "info_hash", info)...)
	secret := hpkeLabeledExtract(h, suite, shared, "secret", nil)
	nk := map[uint16]int{1: 16, 2: 32, 3: 32}[aead]
	return hpkeLabeledExpand(h, suite, secret, "key", ksc, nk), hpkeLabeledExpand(h, suite, secret, "base_nonce", ksc, 12)
}

// hpkeHash returns the hash of an HKDF identifier (RFC 9180 §7.2) and its
// size, Nh.
func hpkeHash(kdf uint16) (func() hash.Hash, int) {
	switch kdf {
	case 1:
		return sha256.New, 32
	case 2:
		return sha512.New384, 48
	case 3:
		return sha512.New, 64
	}
	panic(fmt.Sprintf("vectortest: HPKE KDF %#x", kdf))
}

func hpkeLabeledExtract(h func() hash.Hash, suite, salt []byte, label string, ikm []byte) []byte {
	in := append([]byte("HPKE-v1"), suite...)
	in = append(append(in, label...), ikm...)
	prk, err := hkdf.Extract(h, in, salt)
	if err != nil {
		panic(err)
	}
	return prk
}

func hpkeLabeledExpand(h func() hash.Hash, suite, prk []byte, label string, info []byte, n int) []byte {
	in := binary.BigEndian.AppendUint16(nil, uint16(n))
	in = append(append(in, "HPKE-v1"...), suite...)
	in = append(append(in, label...), info...)
	out, err := hkdf.Expand(h, prk, string(in), n)
	if err != nil {
		panic(err)
	}
	return out
}
