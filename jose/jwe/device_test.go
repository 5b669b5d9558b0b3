package jwe_test

import (
	"bytes"
	"crypto"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/hpke"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// Keys held in a device (a KMS, an HSM) for every Diffie-Hellman algorithm:
// forged tokens, device failures and panics, through the Decrypter.

// dvRSADevice is an RSA private key behind crypto.Decrypter that fails.
type dvRSADevice struct{ key *rsa.PrivateKey }

func (d dvRSADevice) Public() crypto.PublicKey { return &d.key.PublicKey }
func (d dvRSADevice) Decrypt(io.Reader, []byte, crypto.DecrypterOpts) ([]byte, error) {
	return nil, errDevice
}

var errDevice = errors.New("kms: deadline exceeded")

func dvZeros(z []byte) ([]byte, error) { return make([]byte, len(z)), nil }
func dvFail([]byte) ([]byte, error)    { return nil, errDevice }

// dvCases are every Diffie-Hellman algorithm with a curve it takes.
func dvCases() []struct {
	alg   jwa.KeyAlgorithm
	curve ecdh.Curve
} {
	var cs []struct {
		alg   jwa.KeyAlgorithm
		curve ecdh.Curve
	}
	add := func(alg jwa.KeyAlgorithm, c ecdh.Curve) {
		cs = append(cs, struct {
			alg   jwa.KeyAlgorithm
			curve ecdh.Curve
		}{alg, c})
	}
	for _, alg := range []jwa.KeyAlgorithm{jwa.ECDHES, jwa.ECDHESA128KW, jwa.ECDHESA192KW, jwa.ECDHESA256KW} {
		for _, c := range []ecdh.Curve{ecdh.P256(), ecdh.P384(), ecdh.P521(), ecdh.X25519()} {
			add(alg, c)
		}
	}
	for _, alg := range jwa.HPKEKeyAlgorithms() {
		add(alg, dvHPKESuites[alg].curve)
		add(jwa.KeyAlgorithm(strings.TrimSuffix(string(alg), "-KE")), dvHPKESuites[alg].curve)
	}
	return cs
}

// dvHPKESuites are the KEM curve and the RFC 9180 §7.2-7.3 KDF and AEAD
// identifiers of each HPKE suite (draft-ietf-jose-hpke-encrypt-20 Table 2).
var dvHPKESuites = map[jwa.KeyAlgorithm]struct {
	curve     ecdh.Curve
	kdf, aead uint16
}{
	jwa.HPKE0KE: {ecdh.P256(), 1, 1}, jwa.HPKE1KE: {ecdh.P384(), 2, 2}, jwa.HPKE2KE: {ecdh.P521(), 3, 2},
	jwa.HPKE3KE: {ecdh.X25519(), 1, 1}, jwa.HPKE4KE: {ecdh.X25519(), 1, 3}, jwa.HPKE7KE: {ecdh.P256(), 1, 2},
}

// dvDecrypter returns a Decrypter of alg with key, as Key or from KeyFunc.
func dvDecrypter(t *testing.T, alg jwa.KeyAlgorithm, key any, fromFunc bool) *jwe.Decrypter {
	t.Helper()
	opts := jwe.DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{alg}}
	if !alg.IsHPKEIntegrated() {
		opts.ContentEncryptions = []jwa.ContentEncryption{jwa.A128GCM}
	}
	if fromFunc {
		opts.KeyFunc = func(*jose.Header) (any, error) { return key, nil }
	} else {
		opts.Key = key
	}
	d, err := jwe.NewDecrypter(opts)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// dvTokens returns a compact and a flattened JSON token of alg to pub.
func dvTokens(t *testing.T, alg jwa.KeyAlgorithm, pub any) (compact, flattened []byte) {
	t.Helper()
	enc := jwa.A128GCM
	if alg.IsHPKEIntegrated() {
		enc = ""
	}
	e, err := jwe.NewEncrypter(alg, enc, pub, nil)
	if err != nil {
		t.Fatal(err)
	}
	if compact, err = e.Compact([]byte("kept in the vault")); err != nil {
		t.Fatal(err)
	}
	if flattened, err = e.Flattened([]byte("kept in the vault"), []byte("aad")); err != nil {
		t.Fatal(err)
	}
	return compact, flattened
}

// TestDeviceFailure decrypts tokens of every Diffie-Hellman algorithm and
// curve with a device that fails: jose.ErrKeyDevice, wrapping the device's
// error, in both serializations, with the key as Key and from KeyFunc. A
// device answering all zeros is the opaque ErrDecryptionFailed (the
// outcome an attacker aims for is not a device failure), and an RSA device
// that fails stays the opaque ErrDecryptionFailed: an error that told it
// apart would be a padding oracle (RFC 7516 §11.5).
func TestDeviceFailure(t *testing.T) {
	for _, c := range dvCases() {
		priv, _ := c.curve.GenerateKey(rand.Reader)
		compact, flattened := dvTokens(t, c.alg, priv.PublicKey())
		for _, fromFunc := range []bool{false, true} {
			for name, answer := range map[string]func([]byte) ([]byte, error){"fails": dvFail, "answers zeros": dvZeros, "honest": nil} {
				d := dvDecrypter(t, c.alg, &vectortest.ECDHDevice{Key: priv, Answer: answer}, fromFunc)
				for form, try := range map[string]func() (*jwe.Message, error){
					"compact": func() (*jwe.Message, error) { return d.DecryptCompact(compact) },
					"JSON":    func() (*jwe.Message, error) { return d.DecryptJSON(flattened) },
				} {
					m, err := try()
					switch name {
					case "honest":
						if err != nil || string(m.Plaintext) != "kept in the vault" {
							t.Errorf("%s %v %s: device %s: %v", c.alg, c.curve, form, name, err)
						}
					case "fails":
						if !errors.Is(err, jose.ErrKeyDevice) || !errors.Is(err, errDevice) || errors.Is(err, jose.ErrDecryptionFailed) ||
							!strings.HasPrefix(err.Error(), "jwe: ") || !strings.HasSuffix(err.Error(), ": "+jose.ErrKeyDevice.Error()) {
							t.Errorf("%s %v %s KeyFunc=%v: device %s: %v; want \"jwe: ...: %v\" wrapping the device's error", c.alg, c.curve, form, fromFunc, name, err, jose.ErrKeyDevice)
						}
					default:
						if !errors.Is(err, jose.ErrDecryptionFailed) || errors.Is(err, jose.ErrKeyDevice) {
							t.Errorf("%s %v %s KeyFunc=%v: device %s: %v; want ErrDecryptionFailed", c.alg, c.curve, form, fromFunc, name, err)
						}
					}
				}
			}
		}
	}
	rsaKey := vectortest.RSAKey(t, 2048)
	for _, alg := range []jwa.KeyAlgorithm{jwa.RSA1_5, jwa.RSAOAEP, jwa.RSAOAEP256} {
		compact, _ := dvTokens(t, alg, &rsaKey.PublicKey)
		d := dvDecrypter(t, alg, dvRSADevice{rsaKey}, false)
		if _, err := d.DecryptCompact(compact); !errors.Is(err, jose.ErrDecryptionFailed) || errors.Is(err, jose.ErrKeyDevice) {
			t.Errorf("%s with a failing crypto.Decrypter: %v; want ErrDecryptionFailed only", alg, err)
		}
	}
}

// TestDeviceFailureAmongRecipients decrypts a general JSON token of two
// recipients, one whose device fails and one the Decrypter cannot
// decrypt, in both orders: the device failure is reported, not hidden
// behind the other's decryption failure.
func TestDeviceFailureAmongRecipients(t *testing.T) {
	mine, _ := ecdh.P256().GenerateKey(rand.Reader)
	theirs, _ := ecdh.P256().GenerateKey(rand.Reader)
	wrong, _ := ecdh.P256().GenerateKey(rand.Reader)
	r := func(kid string, k *ecdh.PrivateKey) jwe.Recipient {
		return jwe.Recipient{Algorithm: jwa.ECDHESA128KW, Key: k.PublicKey(), Header: &jose.Header{KeyID: kid}}
	}
	dev := &vectortest.ECDHDevice{Key: mine, Answer: dvFail}
	d, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.ECDHESA128KW},
		ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM},
		KeyFunc: func(h *jose.Header) (any, error) {
			if h.KeyID == "mine" {
				return dev, nil
			}
			return wrong, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, order := range [][]jwe.Recipient{{r("mine", mine), r("theirs", theirs)}, {r("theirs", theirs), r("mine", mine)}} {
		tok, err := jwe.EncryptGeneral(jwa.A128GCM, []byte("two recipients"), nil, nil, order...)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.DecryptJSON(tok); !errors.Is(err, jose.ErrKeyDevice) || !errors.Is(err, errDevice) {
			t.Errorf("recipients %s, %s: %v; want ErrKeyDevice", order[0].Header.KeyID, order[1].Header.KeyID, err)
		}
	}
}

// TestDevicePanics: the Decrypter does not recover a device's panic, for
// every Diffie-Hellman algorithm and for RSA; the caller gets the device's
// own value, and the same Decrypter decrypts afterwards.
func TestDevicePanics(t *testing.T) {
	type devicePanic struct{ alg jwa.KeyAlgorithm }
	for _, c := range dvCases() {
		priv, _ := c.curve.GenerateKey(rand.Reader)
		compact, _ := dvTokens(t, c.alg, priv.PublicKey())
		var panics atomic.Bool
		panics.Store(true)
		d := dvDecrypter(t, c.alg, &vectortest.ECDHDevice{Key: priv, Answer: func(z []byte) ([]byte, error) {
			if panics.Load() {
				panic(devicePanic{c.alg})
			}
			return z, nil
		}}, false)
		func() {
			defer func() {
				if r := recover(); r != (devicePanic{c.alg}) {
					t.Errorf("%s %v: recovered %v, want the device's panic", c.alg, c.curve, r)
				}
			}()
			_, err := d.DecryptCompact(compact)
			t.Errorf("%s %v: no panic: %v", c.alg, c.curve, err)
		}()
		panics.Store(false)
		if m, err := d.DecryptCompact(compact); err != nil || string(m.Plaintext) != "kept in the vault" {
			t.Errorf("%s %v: after the panic: %v", c.alg, c.curve, err)
		}
	}
	rsaKey := vectortest.RSAKey(t, 2048)
	for _, alg := range []jwa.KeyAlgorithm{jwa.RSA1_5, jwa.RSAOAEP} {
		compact, _ := dvTokens(t, alg, &rsaKey.PublicKey)
		dev := &dvRSAPanics{key: rsaKey}
		dev.panics.Store(true)
		d := dvDecrypter(t, alg, dev, false)
		func() {
			defer func() {
				if r := recover(); r != "rsa device" {
					t.Errorf("%s: recovered %v, want the device's panic", alg, r)
				}
			}()
			_, err := d.DecryptCompact(compact)
			t.Errorf("%s: no panic: %v", alg, err)
		}()
		dev.panics.Store(false)
		if m, err := d.DecryptCompact(compact); err != nil || string(m.Plaintext) != "kept in the vault" {
			t.Errorf("%s: after the panic: %v", alg, err)
		}
	}
}

// dvRSAPanics is an RSA private key behind crypto.Decrypter that panics
// while panics is set.
type dvRSAPanics struct {
	key    *rsa.PrivateKey
	panics atomic.Bool
}

func (d *dvRSAPanics) Public() crypto.PublicKey { return &d.key.PublicKey }
func (d *dvRSAPanics) Decrypt(r io.Reader, ct []byte, o crypto.DecrypterOpts) ([]byte, error) {
	if d.panics.Load() {
		panic("rsa device")
	}
	return d.key.Decrypt(r, ct, o)
}

// dvHPKEForge returns a compact token of the HPKE algorithm alg whose
// encapsulated secret is enc and whose keys come from the Diffie-Hellman
// output dh: made with only the recipient's public key pub, for a
// recipient whose key gives dh for enc. It is a token that decrypts if the
// recipient does not check dh: ok is false for the ChaCha20Poly1305 suites,
// which the standard library does not expose for the test to seal with.
func dvHPKEForge(t *testing.T, alg jwa.KeyAlgorithm, pub *ecdh.PublicKey, enc, dh []byte) (tok []byte, ok bool) {
	t.Helper()
	b64 := jose.Base64URLEncode
	ke := alg
	if alg.IsHPKEIntegrated() {
		ke += "-KE"
	}
	suite := dvHPKESuites[ke]
	if suite.aead == 3 {
		return nil, false
	}
	seal := func(info, pt, aad []byte) []byte {
		key, nonce := vectortest.HPKEContext(hpke.DHKEM(suite.curve).ID(), suite.kdf, suite.aead, dh, append(bytes.Clone(enc), pub.Bytes()...), info)
		block, err := aes.NewCipher(key)
		if err != nil {
			t.Fatal(err)
		}
		g, err := cipher.NewGCM(block)
		if err != nil {
			t.Fatal(err)
		}
		return g.Seal(nil, nonce, pt, aad)
	}
	if alg.IsHPKEIntegrated() {
		prot := b64([]byte(fmt.Sprintf(`{"alg":%q}`, alg)))
		ct := seal(nil, []byte("forged"), []byte(prot))
		return []byte(prot + "." + b64(enc) + ".." + b64(ct) + "."), true
	}
	cek := bytes.Repeat([]byte{0xa5}, 16)
	ek := seal([]byte("JOSE-HPKE rcpt\xffA128GCM\xff"), cek, nil)
	hdr := fmt.Sprintf(`{"alg":%q,"enc":"A128GCM","ek":%q}`, alg, b64(enc))
	return hzSealCompact(t, hdr, jwa.A128GCM, cek, ek, []byte("forged")), true
}

// TestDeviceForgedTokens sends, to a recipient whose X25519 key is in a
// device that leaves the check of RFC 7748 §6.1 to its caller, HPKE tokens
// made with only its public key and a point of small order (the device
// answers all zeros), and, for every curve, tokens made for a device that
// answers all zeros for any point: each is refused as ErrDecryptionFailed.
// The control: the same construction with the true Diffie-Hellman output
// decrypts, so the forgeries are well made.
func TestDeviceForgedTokens(t *testing.T) {
	for _, c := range dvCases() {
		if !c.alg.IsHPKE() && !c.alg.IsHPKEIntegrated() {
			continue // ECDH-ES: jwa.TestDHForgery
		}
		priv, _ := c.curve.GenerateKey(rand.Reader)
		eph, _ := c.curve.GenerateKey(rand.Reader)
		z, _ := eph.ECDH(priv.PublicKey())
		control, ok := dvHPKEForge(t, c.alg, priv.PublicKey(), eph.PublicKey().Bytes(), z)
		if !ok {
			continue // ChaCha20Poly1305: jwa.TestHPKEDecapsulationChecksDH
		}
		if m, err := dvDecrypter(t, c.alg, &vectortest.ECDHDevice{Key: priv}, false).DecryptCompact(control); err != nil || string(m.Plaintext) != "forged" {
			t.Fatalf("%s: control: %v", c.alg, err)
		}
		forged := map[string][]byte{}
		forged["zeros for any point"], _ = dvHPKEForge(t, c.alg, priv.PublicKey(), eph.PublicKey().Bytes(), make([]byte, len(z)))
		forged["nothing for any point"], _ = dvHPKEForge(t, c.alg, priv.PublicKey(), eph.PublicKey().Bytes(), nil)
		if c.curve == ecdh.X25519() {
			for i, p := range hzX25519LowOrder() {
				forged[fmt.Sprintf("small-order point %d", i)], _ = dvHPKEForge(t, c.alg, priv.PublicKey(), p, make([]byte, 32))
			}
		}
		for name, tok := range forged {
			answer := dvZeros
			if strings.HasPrefix(name, "nothing") {
				answer = func([]byte) ([]byte, error) { return nil, nil }
			} else if strings.HasPrefix(name, "small-order") {
				answer = nil // the device's own X25519
			}
			for kind, key := range map[string]any{"device": &vectortest.ECDHDevice{Key: priv, Answer: answer}, "local": priv} {
				if kind == "local" && answer != nil {
					continue
				}
				m, err := dvDecrypter(t, c.alg, key, false).DecryptCompact(tok)
				if !errors.Is(err, jose.ErrDecryptionFailed) || errors.Is(err, jose.ErrKeyDevice) {
					var pt []byte
					if m != nil {
						pt = m.Plaintext
					}
					t.Errorf("%s %v, %s key, %s: %q, %v; want ErrDecryptionFailed", c.alg, c.curve, kind, name, pt, err)
				}
			}
		}
	}
}

// TestDeviceFailureBeyondAttempts decrypts a general JSON token with more
// recipients than Limits.MaxKeyAttempts, every one for a key whose device
// fails: the device failure is reported, not the limit the failures used
// up (with a working device the first recipient would have decrypted).
func TestDeviceFailureBeyondAttempts(t *testing.T) {
	mine, _ := ecdh.P256().GenerateKey(rand.Reader)
	dev := &vectortest.ECDHDevice{Key: mine, Answer: dvFail}
	d, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.ECDHESA128KW},
		ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM},
		KeyFunc:            func(*jose.Header) (any, error) { return dev, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	var rs []jwe.Recipient
	for i := range jose.DefaultMaxKeyAttempts + 1 {
		rs = append(rs, jwe.Recipient{Algorithm: jwa.ECDHESA128KW, Key: mine.PublicKey(), Header: &jose.Header{KeyID: fmt.Sprint(i)}})
	}
	tok, err := jwe.EncryptGeneral(jwa.A128GCM, []byte("many recipients"), nil, nil, rs...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.DecryptJSON(tok); !errors.Is(err, jose.ErrKeyDevice) || !errors.Is(err, errDevice) || errors.Is(err, jose.ErrLimitExceeded) {
		t.Errorf("%d recipients, the device failing: %v; want ErrKeyDevice", len(rs), err)
	}
	if n := dev.Calls.Load(); n != jose.DefaultMaxKeyAttempts {
		t.Errorf("the device was asked %d times, want %d (Limits.MaxKeyAttempts)", n, jose.DefaultMaxKeyAttempts)
	}
	dev.Answer = nil // the device is back
	if m, err := d.DecryptJSON(tok); err != nil || string(m.Plaintext) != "many recipients" {
		t.Errorf("the device working: %v", err)
	}
}
