package jwa

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hpke"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose/internal/vectortest"
)

// The tests of the one check of every Diffie-Hellman output (dh.go): for
// every algorithm that agrees a key (the ECDH-ES family, HPKE Key
// Encryption, HPKE Integrated Encryption) and every curve it takes, with
// local keys and with keys behind a device.

// dhCase is a Diffie-Hellman algorithm and a curve it takes.
type dhCase struct {
	alg   KeyAlgorithm
	curve ecdh.Curve
}

func (c dhCase) String() string { return fmt.Sprintf("%s/%v", c.alg, c.curve) }

// dhCases lists every Diffie-Hellman algorithm this package implements
// with every curve it takes.
func dhCases() []dhCase {
	var cs []dhCase
	for _, alg := range []KeyAlgorithm{ECDHES, ECDHESA128KW, ECDHESA192KW, ECDHESA256KW} {
		for _, c := range []ecdh.Curve{ecdh.P256(), ecdh.P384(), ecdh.P521(), ecdh.X25519()} {
			cs = append(cs, dhCase{alg, c})
		}
	}
	for _, alg := range append(HPKEKeyAlgorithms(), HPKEIntegratedAlgorithms()...) {
		cs = append(cs, dhCase{alg, hpkeCurve(alg)})
	}
	return cs
}

var errHSM = errors.New("hsm: session closed")

// dhAnswers are the answers of a device that are not the shared secret:
// the outcomes an attacker can aim for (refused as a decryption failure)
// and the device's own failures (ErrKeyDevice).
var dhAnswers = []struct {
	name   string
	answer func(z []byte) ([]byte, error)
	device bool // a device failure, not a decryption failure
}{
	{"zeros", func(z []byte) ([]byte, error) { return make([]byte, len(z)), nil }, false},
	{"nil", func([]byte) ([]byte, error) { return nil, nil }, false},
	{"empty", func([]byte) ([]byte, error) { return []byte{}, nil }, false},
	{"short", func(z []byte) ([]byte, error) { return z[:len(z)-1], nil }, false},
	{"long", func(z []byte) ([]byte, error) { return append(z, 0), nil }, false},
	{"error", func([]byte) ([]byte, error) { return nil, errHSM }, true},
	{"error and secret", func(z []byte) ([]byte, error) { return z, errHSM }, true},
}

// dhMessage encrypts a fresh message with alg to pub. open decrypts it
// with d: the CEK for the key encryption algorithms, the plaintext for
// Integrated Encryption. Its error is that of DecryptKey or of
// IntegratedAEAD, never that of a later step.
func dhMessage(t *testing.T, alg KeyAlgorithm, pub any) (want []byte, open func(d KeyDecrypter) ([]byte, error)) {
	t.Helper()
	e, err := NewKeyEncrypter(alg, pub)
	if err != nil {
		t.Fatal(err)
	}
	if ie, ok := e.(IntegratedEncrypter); ok {
		encap, aead, err := ie.IntegratedAEAD()
		if err != nil {
			t.Fatal(err)
		}
		pt, aad := []byte("the plaintext"), []byte("the aad")
		ct := aead.Seal(nil, nil, pt, aad)
		return pt, func(d KeyDecrypter) ([]byte, error) {
			aead, err := d.(IntegratedDecrypter).IntegratedAEAD(encap)
			if err != nil {
				return nil, err
			}
			got, err := aead.Open(nil, nil, ct, aad)
			if err != nil {
				return nil, fmt.Errorf("IntegratedAEAD accepted the key, Open refused: %w", err)
			}
			return got, nil
		}
	}
	params := KeyParams{APU: []byte("Alice"), APV: []byte("Bob")}
	cek, ek, err := e.EncryptKey(nil, A128GCM, &params)
	if err != nil {
		t.Fatal(err)
	}
	return cek, func(d KeyDecrypter) ([]byte, error) {
		p := params
		return d.DecryptKey(ek, A128GCM, &p)
	}
}

// TestDHDeviceAnswers decrypts with a device whose answer is not the
// shared secret, for every Diffie-Hellman algorithm and curve: a secret
// of the wrong size, all zeros, or none is refused as a decryption failure
// (the outcome an attacker aims for, not a device failure: RFC 7748 §6.1,
// RFC 9180 §7.1.4); a device error is ErrKeyDevice, wrapping the device's
// error. The honest device decrypts.
func TestDHDeviceAnswers(t *testing.T) {
	for _, c := range dhCases() {
		priv, _ := c.curve.GenerateKey(rand.Reader)
		want, open := dhMessage(t, c.alg, priv.PublicKey())
		d, err := NewKeyDecrypter(c.alg, &vectortest.ECDHDevice{Key: priv})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := open(d); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%v: honest device: %x, %v", c, got, err)
		}
		for _, a := range dhAnswers {
			dev := &vectortest.ECDHDevice{Key: priv, Answer: a.answer}
			d, err := NewKeyDecrypter(c.alg, dev)
			if err != nil {
				t.Fatal(err)
			}
			got, err := open(d)
			switch {
			case got != nil:
				t.Errorf("%v: device answering %s: %x, %v; want an error", c, a.name, got, err)
			case a.device && (!errors.Is(err, ErrKeyDevice) || !errors.Is(err, errHSM) || errors.Is(err, ErrDecryption) ||
				!strings.HasPrefix(err.Error(), "jwa: "+string(c.alg)+": ") || !strings.HasSuffix(err.Error(), ": "+ErrKeyDevice.Error())):
				t.Errorf("%v: device answering %s: %v; want \"jwa: %s: ...: %v\" wrapping the device's error", c, a.name, err, c.alg, ErrKeyDevice)
			case !a.device && (err != ErrDecryption):
				t.Errorf("%v: device answering %s: %v; want ErrDecryption", c, a.name, err)
			}
			if n := dev.Calls.Load(); n != 1 {
				t.Errorf("%v: device answering %s: called %d times", c, a.name, n)
			}
		}
	}
}

// hpkeIDs returns the RFC 9180 §7 identifiers of an HPKE algorithm's
// suite (either mode) and its AEAD.
func hpkeIDs(alg KeyAlgorithm) (kem, kdf, aeadID uint16, aead hpke.AEAD) {
	if ke, ok := hpkeIntegratedKE(alg); ok {
		alg = ke
	}
	c, k, a, _ := hpkeSuite(alg)
	return hpke.DHKEM(c).ID(), k.ID(), a.ID(), a
}

// dhForge makes, knowing only the recipient's public key pub, a message of
// alg whose key the recipient derives if its Diffie-Hellman gives dh for
// the point peer: the CEK attackerCEK under the key encryption algorithms,
// the plaintext "forged" under Integrated Encryption. accept decrypts it
// with d and returns what it yields; bare, for HPKE, opens it with crypto/hpke
// and the device alone, with no check of the Diffie-Hellman output (nil
// for ECDH-ES, whose derivation the test repeats with ConcatKDF). ok is
// false for the ChaCha20Poly1305 suites, which the standard library does
// not expose for the test to seal with.
func dhForge(t *testing.T, alg KeyAlgorithm, pub, peer *ecdh.PublicKey, dh []byte) (accept func(d KeyDecrypter) ([]byte, error), bare func(dev ecdh.KeyExchanger) ([]byte, error), ok bool) {
	t.Helper()
	attackerCEK := bytes.Repeat([]byte{0xa5}, 16)
	if alg.IsECDH() {
		params := KeyParams{EPK: peer, APU: []byte("Mallory")}
		var ek []byte
		if alg == ECDHES {
			attackerCEK = ConcatKDF(nil, dh, string(A128GCM), params.APU, nil, 16)
		} else {
			block, err := aes.NewCipher(ConcatKDF(nil, dh, string(alg), params.APU, nil, alg.KeyWrapSize()))
			if err != nil {
				t.Fatal(err)
			}
			if _, ek, err = kwEncrypt(block, attackerCEK, A128GCM); err != nil {
				t.Fatal(err)
			}
		}
		return func(d KeyDecrypter) ([]byte, error) {
			p := params
			return d.DecryptKey(ek, A128GCM, &p)
		}, nil, true
	}
	kemID, kdfID, aeadID, aead := hpkeIDs(alg)
	if aeadID == hpke.ChaCha20Poly1305().ID() {
		return nil, nil, false
	}
	enc := peer.Bytes()
	info, pt, aad := hpkeInfo(A128GCM), attackerCEK, []byte(nil)
	if alg.IsHPKEIntegrated() {
		info, pt, aad = nil, []byte("forged"), []byte("eyJhbGciOiJIUEtFLTMifQ")
	}
	key, nonce := vectortest.HPKEContext(kemID, kdfID, aeadID, dh, append(bytes.Clone(enc), pub.Bytes()...), info)
	block, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		t.Fatal(err)
	}
	ct := gcm.Seal(nil, nonce, pt, aad)
	_, kdf, _, _ := hpkeSuite(alg)
	if ke, ok := hpkeIntegratedKE(alg); ok {
		_, kdf, _, _ = hpkeSuite(ke)
	}
	bare = func(dev ecdh.KeyExchanger) ([]byte, error) {
		sk, err := hpke.NewDHKEMPrivateKey(dev)
		if err != nil {
			return nil, err
		}
		r, err := hpke.NewRecipient(enc, sk, kdf, aead, info)
		if err != nil {
			return nil, err
		}
		return r.Open(aad, ct)
	}
	accept = func(d KeyDecrypter) ([]byte, error) {
		if id, ok := d.(IntegratedDecrypter); ok {
			a, err := id.IntegratedAEAD(enc)
			if err != nil {
				return nil, err
			}
			return a.Open(nil, nil, ct, aad)
		}
		return d.DecryptKey(ct, A128GCM, &KeyParams{EK: enc})
	}
	return accept, bare, true
}

// TestDHForgery forges, with only the recipient's public key, messages for
// every Diffie-Hellman algorithm and curve whose key is derived from a
// Diffie-Hellman output the attacker knows: an X25519 point of small order
// sent to a device that computes X25519 without the check of RFC 7748
// §6.1 (all zeros), and any point sent to a device that answers all zeros
// or nothing. crypto/hpke alone, given such a device, accepts the forgery
// (the control: the forgery is real); every decrypter of this package
// refuses it, local keys included, as a decryption failure or, for an
// ECDH-ES epk of small order, an invalid parameter (refused before the
// device is asked).
func TestDHForgery(t *testing.T) {
	smallOrder := x25519SmallOrderPoints(t)
	for _, c := range dhCases() {
		priv, _ := c.curve.GenerateKey(rand.Reader)
		other, _ := c.curve.GenerateKey(rand.Reader)
		type attempt struct {
			name string
			dev  *vectortest.ECDHDevice
			peer *ecdh.PublicKey
			dh   []byte
		}
		attempts := []attempt{
			{"device answering zeros", &vectortest.ECDHDevice{Key: priv, Answer: dhAnswers[0].answer}, other.PublicKey(), make([]byte, ecdhSecretSize(c.curve))},
			{"device answering nil", &vectortest.ECDHDevice{Key: priv, Answer: dhAnswers[1].answer}, other.PublicKey(), nil},
		}
		if c.curve == ecdh.X25519() {
			for i, p := range smallOrder {
				attempts = append(attempts, attempt{fmt.Sprintf("small-order point %d", i), &vectortest.ECDHDevice{Key: priv}, p, make([]byte, 32)})
			}
		}
		for _, a := range attempts {
			accept, bare, ok := dhForge(t, c.alg, priv.PublicKey(), a.peer, a.dh)
			if !ok {
				continue // ChaCha20Poly1305: TestHPKEDecapsulationChecksDH
			}
			if bare != nil {
				if got, err := bare(a.dev); err != nil {
					t.Fatalf("%v %s: control: crypto/hpke refused the forgery: %v", c, a.name, err)
				} else if len(got) == 0 {
					t.Fatalf("%v %s: control: empty plaintext", c, a.name)
				}
			}
			keys := map[string]any{"opaque": a.dev}
			if strings.HasPrefix(a.name, "small-order") {
				keys["local"] = priv
			}
			for kind, key := range keys {
				d, err := NewKeyDecrypter(c.alg, key)
				if err != nil {
					t.Fatal(err)
				}
				got, err := accept(d)
				want := ErrDecryption
				if c.alg.IsECDH() && strings.HasPrefix(a.name, "small-order") {
					want = ErrInvalidParameter
				}
				if err == nil || !errors.Is(err, want) || errors.Is(err, ErrKeyDevice) {
					t.Errorf("%v %s (%s key): forged message: %x, %v; want %v", c, a.name, kind, got, err, want)
				}
			}
		}
	}
}

// TestHPKEDecapsulationChecksDH gives crypto/hpke's decapsulation the key
// an HPKE decrypter of this package hands it, for every HPKE algorithm (the
// ChaCha20Poly1305 suites included) and a device answering zeros: the
// decapsulation itself fails, so no key is derived from the answer.
func TestHPKEDecapsulationChecksDH(t *testing.T) {
	for _, c := range dhCases() {
		if c.alg.IsECDH() {
			continue
		}
		priv, _ := c.curve.GenerateKey(rand.Reader)
		other, _ := c.curve.GenerateKey(rand.Reader)
		d, err := NewKeyDecrypter(c.alg, &vectortest.ECDHDevice{Key: priv, Answer: dhAnswers[0].answer})
		if err != nil {
			t.Fatal(err)
		}
		hd, ok := d.(*hpkeDecrypter)
		if id, isIntegrated := d.(*hpkeIntegratedDecrypter); isIntegrated {
			hd, ok = id.d, true
		}
		if !ok {
			t.Fatalf("%v: %T", c, d)
		}
		if _, err := hpke.NewRecipient(other.PublicKey().Bytes(), hd.sk, hd.kdf, hd.aead, nil); err == nil {
			t.Errorf("%v: crypto/hpke decapsulated with an all-zero Diffie-Hellman output", c)
		}
	}
}

// x25519SmallOrderPoints returns the X25519 public values of small order
// and their other encodings (RFC 7748 §6.1; the list of Bernstein's
// Curve25519 page, with the ignored top bit set too): 14 in all.
func x25519SmallOrderPoints(t *testing.T) []*ecdh.PublicKey {
	t.Helper()
	var out []*ecdh.PublicKey
	for _, h := range []string{
		"0000000000000000000000000000000000000000000000000000000000000000", // 0
		"0100000000000000000000000000000000000000000000000000000000000000", // 1
		"e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800", // order 8
		"5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157", // order 8
		"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // p-1
		"edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // p (0)
		"eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // p+1 (1)
	} {
		b, _ := hex.DecodeString(h)
		for _, top := range []byte{0, 0x80} {
			b := bytes.Clone(b)
			b[31] |= top
			p, err := ecdh.X25519().NewPublicKey(b)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, p)
		}
	}
	return out
}

// TestX25519SmallOrder checks x25519SmallOrder, the test made before a device
// is asked, against the definition: the points for which X25519 with a
// clamped scalar (a multiple of the cofactor 8) gives all zeros, which
// crypto/ecdh refuses. The listed points, every u below 2^8, every
// encoding from 2^255-2^8 to 2^255 (the non-canonical ones from p up) with
// and without the top bit, and random points.
func TestX25519SmallOrder(t *testing.T) {
	priv, _ := ecdh.X25519().GenerateKey(rand.Reader)
	check := func(b []byte) {
		t.Helper()
		p, err := ecdh.X25519().NewPublicKey(b)
		if err != nil {
			t.Fatal(err)
		}
		_, err = priv.ECDH(p)
		if got, want := x25519SmallOrder(p.Bytes()), err != nil; got != want {
			t.Errorf("x25519SmallOrder(%x) = %v, want %v", b, got, want)
		}
	}
	listed := 0
	for _, p := range x25519SmallOrderPoints(t) {
		if !x25519SmallOrder(p.Bytes()) {
			t.Errorf("listed point %x not refused", p.Bytes())
		}
		listed++
		check(p.Bytes())
	}
	le := func(v *big.Int) []byte {
		b := v.FillBytes(make([]byte, 32))
		for i, j := 0, 31; i < j; i, j = i+1, j-1 {
			b[i], b[j] = b[j], b[i]
		}
		return b
	}
	top := new(big.Int).Lsh(big.NewInt(1), 255)
	for i := range int64(1 << 8) {
		for _, v := range []*big.Int{big.NewInt(i), new(big.Int).Sub(top, big.NewInt(i+1))} { // 2^255-1 down to p-237
			b := le(v)
			check(b)
			b[31] |= 0x80
			check(b)
		}
	}
	for range 256 {
		b := make([]byte, 32)
		rand.Read(b)
		check(b)
	}
	if listed != 14 {
		t.Errorf("%d listed points", listed)
	}
}

// TestDHSmallOrderNotSentToDevice sends the X25519 points of small order
// to every X25519 algorithm: the device is never asked, and the refusal is
// that of a local key (ErrInvalidParameter for an ECDH-ES epk, as an epk
// on another curve; ErrDecryption for HPKE, as any other bad encapsulated
// secret).
func TestDHSmallOrderNotSentToDevice(t *testing.T) {
	for _, c := range dhCases() {
		if c.curve != ecdh.X25519() {
			continue
		}
		priv, _ := c.curve.GenerateKey(rand.Reader)
		dev := &vectortest.ECDHDevice{Key: priv}
		for _, p := range x25519SmallOrderPoints(t) {
			for kind, key := range map[string]any{"opaque": dev, "local": priv} {
				d, err := NewKeyDecrypter(c.alg, key)
				if err != nil {
					t.Fatal(err)
				}
				var got []byte
				want := ErrDecryption
				switch {
				case c.alg.IsECDH():
					want = ErrInvalidParameter
					ek := make([]byte, 24)
					if c.alg == ECDHES {
						ek = nil
					}
					got, err = d.DecryptKey(ek, A128GCM, &KeyParams{EPK: p})
				case c.alg.IsHPKEIntegrated():
					_, err = d.(IntegratedDecrypter).IntegratedAEAD(p.Bytes())
				default:
					got, err = d.DecryptKey(make([]byte, 32), A128GCM, &KeyParams{EK: p.Bytes()})
				}
				if got != nil || !errors.Is(err, want) {
					t.Errorf("%v %s key, point %x: %x, %v; want %v", c, kind, p.Bytes(), got, err, want)
				}
			}
		}
		if n := dev.Calls.Load(); n != 0 {
			t.Errorf("%v: the device was asked %d times for points of small order", c, n)
		}
	}
}

// TestDHSmallOrderRecipient refuses an X25519 recipient key of small order
// when the encrypter is made, for every X25519 algorithm: every message to
// it would have an all-zero shared secret.
func TestDHSmallOrderRecipient(t *testing.T) {
	for _, c := range dhCases() {
		if c.curve != ecdh.X25519() {
			continue
		}
		for _, p := range x25519SmallOrderPoints(t) {
			if _, err := NewKeyEncrypter(c.alg, p); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("%v: recipient %x: %v, want ErrInvalidKey", c, p.Bytes(), err)
			}
		}
	}
}

// TestDHEveryKeyChecked makes the decrypter of every Diffie-Hellman
// algorithm and curve with each kind of key it takes (*ecdh.PrivateKey,
// *ecdsa.PrivateKey, an ecdh.KeyExchanger) and checks that the key it
// agrees with is the checked one of dh.go, so that no path (the local
// NIST keys, whose agreement crypto/ecdh cannot make all zeros, included)
// bypasses the check.
func TestDHEveryKeyChecked(t *testing.T) {
	for _, c := range dhCases() {
		priv, _ := c.curve.GenerateKey(rand.Reader)
		keys := map[string]any{"ecdh": priv, "opaque": &vectortest.ECDHDevice{Key: priv}}
		if ec := map[ecdh.Curve]elliptic.Curve{ecdh.P256(): elliptic.P256(), ecdh.P384(): elliptic.P384(), ecdh.P521(): elliptic.P521()}[c.curve]; ec != nil {
			k, err := ecdsa.GenerateKey(ec, rand.Reader)
			if err != nil {
				t.Fatal(err)
			}
			keys["ecdsa"] = k
		}
		for kind, key := range keys {
			d, err := NewKeyDecrypter(c.alg, key)
			if err != nil {
				t.Fatal(err)
			}
			var k ecdh.KeyExchanger
			switch d := d.(type) {
			case *ecdhDecrypter:
				k = d.priv
			case *hpkeDecrypter:
				k = d.key
			case *hpkeIntegratedDecrypter:
				k = d.d.key
			}
			if _, ok := k.(*dhKey); !ok {
				t.Errorf("%v %s key: the decrypter agrees with %T, not a *dhKey", c, kind, k)
			}
		}
	}
}

// TestDHDevicePanics: a device that panics is not recovered. The panic
// reaches the caller with the device's own value, for every
// Diffie-Hellman algorithm and curve, and the decrypter works afterwards.
func TestDHDevicePanics(t *testing.T) {
	type devicePanic struct{ alg KeyAlgorithm }
	for _, c := range dhCases() {
		priv, _ := c.curve.GenerateKey(rand.Reader)
		want, open := dhMessage(t, c.alg, priv.PublicKey())
		panics := true
		d, err := NewKeyDecrypter(c.alg, &vectortest.ECDHDevice{Key: priv, Answer: func(z []byte) ([]byte, error) {
			if panics {
				panic(devicePanic{c.alg})
			}
			return z, nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		func() {
			defer func() {
				if r := recover(); r != (devicePanic{c.alg}) {
					t.Errorf("%v: recovered %v, want the device's panic", c, r)
				}
			}()
			got, err := open(d)
			t.Errorf("%v: no panic: %x, %v", c, got, err)
		}()
		panics = false
		if got, err := open(d); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%v: after the panic: %x, %v", c, got, err)
		}
	}
}
