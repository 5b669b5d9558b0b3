package jwa

import (
	"bytes"
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/hex"
	"errors"
	"io"
	"math/big"
	"sync"
	"testing"

	"github.com/josebench/josebench/jose/internal/vectortest"
)

// kmCase is one key management algorithm with a key pair (or shared key)
// for it, and another key of the same kind that must not decrypt.
type kmCase struct {
	name     string
	alg      KeyAlgorithm
	encKey   any // for NewKeyEncrypter
	decKey   any // for NewKeyDecrypter
	wrongKey any // a decryption key of the right kind but not the right value
}

var (
	kmECKeysOnce sync.Once
	kmECKeys     map[string][2]*ecdh.PrivateKey
)

func kmECKey(t testing.TB, crv string) [2]*ecdh.PrivateKey {
	kmECKeysOnce.Do(func() {
		kmECKeys = map[string][2]*ecdh.PrivateKey{}
		for _, c := range []struct {
			name  string
			curve ecdh.Curve
		}{{"P-256", ecdh.P256()}, {"P-384", ecdh.P384()}, {"P-521", ecdh.P521()}, {"X25519", ecdh.X25519()}} {
			a, _ := c.curve.GenerateKey(rand.Reader)
			b, _ := c.curve.GenerateKey(rand.Reader)
			kmECKeys[c.name] = [2]*ecdh.PrivateKey{a, b}
		}
	})
	return kmECKeys[crv]
}

// kmCases returns every key algorithm with keys; for ECDH-ES every curve.
func kmCases(t testing.TB) []kmCase {
	rsaKey := vectortest.RSAKey(t, 2048)
	rsaOther := vectortest.RSAKey(t, 3072)
	var cs []kmCase
	for _, alg := range []KeyAlgorithm{RSA1_5, RSAOAEP, RSAOAEP256} {
		cs = append(cs, kmCase{string(alg), alg, &rsaKey.PublicKey, rsaKey, rsaOther})
	}
	for _, alg := range []KeyAlgorithm{A128KW, A192KW, A256KW, A128GCMKW, A192GCMKW, A256GCMKW} {
		k := bytes.Repeat([]byte{0xA5}, alg.KeyWrapSize())
		cs = append(cs, kmCase{string(alg), alg, k, k, bytes.Repeat([]byte{0x5A}, alg.KeyWrapSize())})
	}
	for _, alg := range []KeyAlgorithm{ECDHES, ECDHESA128KW, ECDHESA192KW, ECDHESA256KW} {
		for _, crv := range []string{"P-256", "P-384", "P-521", "X25519"} {
			k := kmECKey(t, crv)
			cs = append(cs, kmCase{string(alg) + "/" + crv, alg, k[0].PublicKey(), k[0], k[1]})
		}
	}
	// ECDSA keys are accepted too, converted with ECDH().
	ek, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ek2, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	cs = append(cs, kmCase{"ECDH-ES+A128KW/ecdsa", ECDHESA128KW, &ek.PublicKey, ek, ek2})
	for _, alg := range []KeyAlgorithm{PBES2HS256A128KW, PBES2HS384A192KW, PBES2HS512A256KW} {
		cs = append(cs, kmCase{string(alg), alg, []byte("Thus from my lips, by yours, my sin is purged."), []byte("Thus from my lips, by yours, my sin is purged."), []byte("wrong password")})
	}
	return cs
}

func kmNewEncrypter(t testing.TB, c kmCase) KeyEncrypter {
	t.Helper()
	var e KeyEncrypter
	var err error
	if c.alg.IsPBES2() {
		e, err = NewPBES2Encrypter(c.alg, c.encKey.([]byte), 1000)
	} else {
		e, err = NewKeyEncrypter(c.alg, c.encKey)
	}
	if err != nil {
		t.Fatalf("%s: NewKeyEncrypter: %v", c.name, err)
	}
	if e.Algorithm() != c.alg {
		t.Fatalf("Algorithm() = %s", e.Algorithm())
	}
	return e
}

func kmNewDecrypter(t testing.TB, c kmCase, key any) KeyDecrypter {
	t.Helper()
	d, err := NewKeyDecrypter(c.alg, key)
	if err != nil {
		t.Fatalf("%s: NewKeyDecrypter: %v", c.name, err)
	}
	if d.Algorithm() != c.alg {
		t.Fatalf("Algorithm() = %s", d.Algorithm())
	}
	return d
}

// TestKeyManagementRoundTrip encrypts a CEK for every content encryption
// with every key algorithm (and curve), and decrypts it back; a given CEK
// is carried unchanged by the non-direct algorithms.
func TestKeyManagementRoundTrip(t *testing.T) {
	for _, c := range kmCases(t) {
		t.Run(c.name, func(t *testing.T) {
			e, d := kmNewEncrypter(t, c), kmNewDecrypter(t, c, c.decKey)
			for _, enc := range ContentEncryptions() {
				params := &KeyParams{APU: []byte("Alice"), APV: []byte("Bob")}
				cek, ek, err := e.EncryptKey(nil, enc, params)
				if err != nil {
					t.Fatalf("%s: EncryptKey: %v", enc, err)
				}
				if len(cek) != enc.KeySize() {
					t.Fatalf("%s: CEK of %d bytes", enc, len(cek))
				}
				if c.alg.IsDirect() != (len(ek) == 0) {
					t.Fatalf("%s: encrypted key of %d bytes", enc, len(ek))
				}
				if c.alg.IsECDH() && params.EPK == nil || c.alg.IsGCMKW() && (len(params.IV) != 12 || len(params.Tag) != 16) ||
					c.alg.IsPBES2() && (len(params.P2S) != 16 || params.P2C != 1000) {
					t.Fatalf("%s: params not filled: %+v", enc, params)
				}
				got, err := d.DecryptKey(ek, enc, params)
				if err != nil || !bytes.Equal(got, cek) {
					t.Fatalf("%s: DecryptKey = %x, %v; want %x", enc, got, err, cek)
				}
				// The CEK works with the content cipher.
				if _, err := NewContentCipher(enc, got); err != nil {
					t.Fatal(err)
				}
				if c.alg.IsDirect() {
					continue
				}
				given := bytes.Repeat([]byte{0x3C}, enc.KeySize())
				params = &KeyParams{}
				cek, ek, err = e.EncryptKey(given, enc, params)
				if err != nil || !bytes.Equal(cek, given) {
					t.Fatalf("%s: EncryptKey(given) = %x, %v", enc, cek, err)
				}
				if got, err := d.DecryptKey(ek, enc, params); err != nil || !bytes.Equal(got, given) {
					t.Fatalf("%s: DecryptKey(given) = %x, %v", enc, got, err)
				}
			}
		})
	}
}

// TestKeyManagementTamper checks that every single-bit flip of the
// encrypted key and of the iv, tag and p2s parameters, another epk, apu or
// p2c, and a wrong key all fail. For RSA1_5 (RFC 7516 §11.5) failure is a
// random CEK instead of an error; for ECDH-ES (direct) it is another CEK,
// as there is nothing to authenticate until the content.
func TestKeyManagementTamper(t *testing.T) {
	const enc = A128CBCHS256
	for _, c := range kmCases(t) {
		t.Run(c.name, func(t *testing.T) {
			e, d := kmNewEncrypter(t, c), kmNewDecrypter(t, c, c.decKey)
			params := &KeyParams{APU: []byte("Alice")}
			cek, ek, err := e.EncryptKey(nil, enc, params)
			if err != nil {
				t.Fatal(err)
			}
			mustFail := func(what string, ek []byte, p *KeyParams, dec KeyDecrypter) {
				t.Helper()
				got, err := dec.DecryptKey(ek, enc, p)
				switch {
				case c.alg == RSA1_5 || c.alg == ECDHES:
					if err != nil || len(got) != enc.KeySize() || bytes.Equal(got, cek) {
						t.Fatalf("%s: DecryptKey = %x, %v; want another CEK of %d bytes", what, got, err, enc.KeySize())
					}
				case !errors.Is(err, ErrDecryption) || got != nil:
					t.Fatalf("%s: DecryptKey = %x, %v; want ErrDecryption", what, got, err)
				}
			}
			// An RSA decryption, an ECDH agreement or a PBKDF2 derivation
			// costs up to a millisecond: sample the bits (steps prime to 8,
			// so every bit position is hit); the AES-KW underneath is
			// checked bit by bit in the AxxxKW cases.
			step := 1
			switch {
			case c.alg.IsRSA():
				step = 37
			case c.alg.IsECDH(), c.alg.IsPBES2():
				step = 11
			}
			for i := 0; i < len(ek)*8; i += step {
				bad := bytes.Clone(ek)
				bad[i/8] ^= 1 << (i % 8)
				mustFail("encrypted key bit flip", bad, params, d)
			}
			flipParam := func(name string, get func(p *KeyParams) *[]byte) {
				v := *get(params)
				for i := range len(v) * 8 {
					p := *params
					bad := bytes.Clone(v)
					bad[i/8] ^= 1 << (i % 8)
					*get(&p) = bad
					mustFail(name+" bit flip", ek, &p, d)
				}
			}
			if c.alg.IsGCMKW() {
				flipParam("iv", func(p *KeyParams) *[]byte { return &p.IV })
				flipParam("tag", func(p *KeyParams) *[]byte { return &p.Tag })
			}
			if c.alg.IsPBES2() {
				flipParam("p2s", func(p *KeyParams) *[]byte { return &p.P2S })
				p := *params
				p.P2C++
				mustFail("p2c+1", ek, &p, d)
			}
			if c.alg.IsECDH() {
				p := *params
				p.APU = []byte("Alicf")
				mustFail("apu", ek, &p, d)
				p = *params
				p.APV = []byte("x")
				mustFail("apv", ek, &p, d)
				p = *params
				other, _ := params.EPK.Curve().GenerateKey(rand.Reader)
				p.EPK = other.PublicKey()
				mustFail("other epk", ek, &p, d)
			}
			if c.alg.IsDirect() {
				if _, err := d.DecryptKey([]byte{0}, enc, params); !errors.Is(err, ErrDecryption) {
					t.Fatalf("non-empty encrypted key: %v", err)
				}
			} else {
				for _, n := range []int{0, 1, len(ek) - 1, len(ek) + 1, len(ek) + 8} {
					mustFail("length change", make([]byte, n), params, d)
				}
			}
			if c.wrongKey != nil {
				mustFail("wrong key", ek, params, kmNewDecrypter(t, c, c.wrongKey))
			}
			// Nothing above disturbed the right decryption.
			if got, err := d.DecryptKey(ek, enc, params); err != nil || !bytes.Equal(got, cek) {
				t.Fatalf("DecryptKey after tampering = %x, %v", got, err)
			}
		})
	}
}

func TestDirect(t *testing.T) {
	key := bytes.Repeat([]byte{1}, 16)
	e, _ := NewKeyEncrypter(Direct, key)
	d, _ := NewKeyDecrypter(Direct, key)
	if e.Algorithm() != Direct || d.Algorithm() != Direct {
		t.Fatal("Algorithm")
	}
	cek, ek, err := e.EncryptKey(nil, A128GCM, &KeyParams{})
	if err != nil || !bytes.Equal(cek, key) || ek != nil {
		t.Fatalf("EncryptKey = %x, %x, %v", cek, ek, err)
	}
	cek[0] ^= 1 // the caller may scribble on its CEK
	if cek2, _, _ := e.EncryptKey(nil, A128GCM, nil); !bytes.Equal(cek2, key) {
		t.Fatal("the CEK returned aliases the key")
	}
	key[0] ^= 1 // or on its key
	if cek3, _ := d.DecryptKey(nil, A128GCM, nil); cek3[0] != 1 {
		t.Fatal("the decrypter aliases the caller's key")
	}
	// The key size must be the enc's exactly.
	for _, enc := range []ContentEncryption{A256GCM, A128CBCHS256, A192GCM} {
		if _, _, err := e.EncryptKey(nil, enc, nil); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("dir 16-byte key with %s: %v", enc, err)
		}
		if _, err := d.DecryptKey(nil, enc, nil); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("dir 16-byte key with %s: %v", enc, err)
		}
	}
	if _, _, err := e.EncryptKey(key, A128GCM, nil); !errors.Is(err, ErrInvalidParameter) {
		t.Errorf("dir with a given CEK: %v", err)
	}
}

// TestKeyManagementRefusedKeys checks that keys of the wrong type, size or
// curve are refused when the encrypter or decrypter is made.
func TestKeyManagementRefusedKeys(t *testing.T) {
	rsa1024 := vectortest.RSAKey(t, 1024)
	rsa2048 := vectortest.RSAKey(t, 2048)
	p256, _ := ecdh.P256().GenerateKey(rand.Reader)
	ecdsaP224, _ := ecdsa.GenerateKey(elliptic.P224(), rand.Reader)
	offCurve := &ecdsa.PublicKey{Curve: elliptic.P256(), X: big.NewInt(1), Y: big.NewInt(1)}
	tests := []struct {
		alg      KeyAlgorithm
		key      any
		enc, dec bool // refused by NewKeyEncrypter, NewKeyDecrypter
	}{
		{RSA1_5, rsa1024, true, true},
		{RSAOAEP, &rsa1024.PublicKey, true, true},
		{RSAOAEP256, rsa1024, true, true},
		{RSAOAEP, &rsa2048.PublicKey, false, true}, // a public key cannot decrypt
		{RSAOAEP, []byte("secret"), true, true},
		{RSAOAEP, p256, true, true},
		{RSAOAEP, (*rsa2048Type)(nil), true, true},
		{A128KW, make([]byte, 15), true, true},
		{A128KW, make([]byte, 17), true, true},
		{A128KW, make([]byte, 32), true, true},
		{A192KW, make([]byte, 16), true, true},
		{A256KW, make([]byte, 24), true, true},
		{A256KW, "a string", true, true},
		{A128GCMKW, make([]byte, 32), true, true},
		{A256GCMKW, make([]byte, 16), true, true},
		{A192GCMKW, rsa2048, true, true},
		{Direct, []byte{}, true, true},
		{Direct, "key", true, true},
		{ECDHES, rsa2048, true, true},
		{ECDHES, []byte("k"), true, true},
		{ECDHESA128KW, offCurve, true, true},
		{ECDHESA128KW, ecdsaP224, true, true},
		{ECDHESA128KW, &ecdsaP224.PublicKey, true, true},
		{ECDHESA256KW, p256.PublicKey(), false, true}, // a public key cannot decrypt
		{PBES2HS256A128KW, []byte{}, true, true},
		{PBES2HS256A128KW, "password", true, true},
	}
	for _, tt := range tests {
		_, errE := NewKeyEncrypter(tt.alg, tt.key)
		_, errD := NewKeyDecrypter(tt.alg, tt.key)
		if tt.enc != errors.Is(errE, ErrInvalidKey) {
			t.Errorf("NewKeyEncrypter(%s, %T len %v): %v", tt.alg, tt.key, kmLen(tt.key), errE)
		}
		if tt.dec != errors.Is(errD, ErrInvalidKey) {
			t.Errorf("NewKeyDecrypter(%s, %T len %v): %v", tt.alg, tt.key, kmLen(tt.key), errD)
		}
	}
	for _, alg := range []KeyAlgorithm{"none", "", "RSA-OAEP-1", "RSA-OAEP-224", "a128kw", "ECDH-ES+A128GCMKW", "PBES2-HS256"} {
		if _, err := NewKeyEncrypter(alg, []byte("0123456789abcdef")); !errors.Is(err, ErrUnsupportedAlgorithm) {
			t.Errorf("NewKeyEncrypter(%q): %v", alg, err)
		}
		if _, err := NewKeyDecrypter(alg, []byte("0123456789abcdef")); !errors.Is(err, ErrUnsupportedAlgorithm) {
			t.Errorf("NewKeyDecrypter(%q): %v", alg, err)
		}
	}
}

type rsa2048Type struct{}

func kmLen(k any) int {
	if b, ok := k.([]byte); ok {
		return len(b)
	}
	return -1
}

// TestKeyManagementBadEncAndCEK: an unknown enc and a given CEK of the
// wrong size are refused by every algorithm.
func TestKeyManagementBadEncAndCEK(t *testing.T) {
	for _, c := range kmCases(t) {
		e, d := kmNewEncrypter(t, c), kmNewDecrypter(t, c, c.decKey)
		if _, _, err := e.EncryptKey(nil, "A128CTR", &KeyParams{}); !errors.Is(err, ErrUnsupportedAlgorithm) {
			t.Errorf("%s: EncryptKey(A128CTR): %v", c.name, err)
		}
		if _, err := d.DecryptKey(make([]byte, 24), "A128CTR", &KeyParams{}); !errors.Is(err, ErrUnsupportedAlgorithm) {
			t.Errorf("%s: DecryptKey(A128CTR): %v", c.name, err)
		}
		if _, _, err := e.EncryptKey(make([]byte, 15), A128GCM, &KeyParams{}); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("%s: EncryptKey(15-byte CEK): %v", c.name, err)
		}
	}
}

// TestECDHRefusedEPK checks that an epk on another curve, a missing epk
// and X25519 low-order points (all-zero shared secret) are refused with
// ErrInvalidParameter, and that an off-curve point cannot be made.
func TestECDHRefusedEPK(t *testing.T) {
	for _, crv := range []string{"P-256", "P-384", "P-521", "X25519"} {
		k := kmECKey(t, crv)[0]
		for _, alg := range []KeyAlgorithm{ECDHES, ECDHESA256KW} {
			d := kmNewDecrypter(t, kmCase{alg: alg}, k)
			for _, other := range []string{"P-256", "P-384", "P-521", "X25519"} {
				if other == crv {
					continue
				}
				p := &KeyParams{EPK: kmECKey(t, other)[1].PublicKey()}
				if _, err := d.DecryptKey(make([]byte, 40), A128GCM, p); !errors.Is(err, ErrInvalidParameter) {
					t.Errorf("%s %s key, %s epk: %v", alg, crv, other, err)
				}
			}
			for _, p := range []*KeyParams{nil, {}} {
				if _, err := d.DecryptKey(nil, A128GCM, p); !errors.Is(err, ErrInvalidParameter) {
					t.Errorf("%s %s: missing epk: %v", alg, crv, err)
				}
			}
		}
	}
	// X25519 points of small order (RFC 7748 §6.1; the list of
	// Bernstein's Curve25519 page): all yield an all-zero shared secret.
	lowOrder := []string{
		"0000000000000000000000000000000000000000000000000000000000000000",
		"0100000000000000000000000000000000000000000000000000000000000000",
		"e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
		"5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
		"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
	}
	k := kmECKey(t, "X25519")[0]
	for _, alg := range []KeyAlgorithm{ECDHES, ECDHESA128KW} {
		d, _ := NewKeyDecrypter(alg, k)
		for _, h := range lowOrder {
			raw, _ := hex.DecodeString(h)
			pub, err := ecdh.X25519().NewPublicKey(raw)
			if err != nil {
				t.Fatal(err)
			}
			ek := make([]byte, 24)
			if alg == ECDHES {
				ek = nil
			}
			if cek, err := d.DecryptKey(ek, A128GCM, &KeyParams{EPK: pub}); !errors.Is(err, ErrInvalidParameter) {
				t.Errorf("%s low-order epk %s: %x, %v", alg, h[:8], cek, err)
			}
			// As a recipient key, it is refused when the encrypter is made
			// (it was refused by EncryptKey until issue 18 made the
			// refusal fail fast; TestDHSmallOrderRecipient).
			if _, err := NewKeyEncrypter(alg, pub); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("%s low-order recipient %s: %v", alg, h[:8], err)
			}
		}
	}
	// Off-curve NIST points cannot become an *ecdh.PublicKey, the only
	// type KeyParams.EPK holds.
	p256 := kmECKey(t, "P-256")[0].PublicKey().Bytes()
	p256[len(p256)-1] ^= 1
	if _, err := ecdh.P256().NewPublicKey(p256); err == nil {
		t.Error("an off-curve P-256 point was accepted")
	}
}

func TestECDHEncryptKeyNilParamsPanics(t *testing.T) {
	e, _ := NewKeyEncrypter(ECDHES, kmECKey(t, "P-256")[0].PublicKey())
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	e.EncryptKey(nil, A128GCM, nil)
}

func TestKeyAlgorithmMethods(t *testing.T) {
	type props struct {
		direct, pbes2, ecdh, rsa, aeskw, gcmkw bool
		wrap                                   int
	}
	want := map[KeyAlgorithm]props{
		RSA1_5: {rsa: true}, RSAOAEP: {rsa: true}, RSAOAEP256: {rsa: true}, RSAOAEP384: {rsa: true}, RSAOAEP512: {rsa: true},
		A128KW: {aeskw: true, wrap: 16}, A192KW: {aeskw: true, wrap: 24}, A256KW: {aeskw: true, wrap: 32},
		Direct: {direct: true},
		ECDHES: {direct: true, ecdh: true}, ECDHESA128KW: {ecdh: true, wrap: 16},
		ECDHESA192KW: {ecdh: true, wrap: 24}, ECDHESA256KW: {ecdh: true, wrap: 32},
		A128GCMKW: {gcmkw: true, wrap: 16}, A192GCMKW: {gcmkw: true, wrap: 24}, A256GCMKW: {gcmkw: true, wrap: 32},
		PBES2HS256A128KW: {pbes2: true, wrap: 16}, PBES2HS384A192KW: {pbes2: true, wrap: 24}, PBES2HS512A256KW: {pbes2: true, wrap: 32},
	}
	algs := KeyAlgorithms()
	if len(algs) != len(want) {
		t.Fatalf("KeyAlgorithms: %d, want %d", len(algs), len(want))
	}
	for _, a := range append(algs, "none", "", "A128kw") {
		w, known := want[a]
		got := props{a.IsDirect(), a.IsPBES2(), a.IsECDH(), a.IsRSA(), a.IsAESKW(), a.IsGCMKW(), a.KeyWrapSize()}
		if got != w || a.Known() != known || a.String() != string(a) {
			t.Errorf("%q: %+v known %v, want %+v %v", a, got, a.Known(), w, known)
		}
	}
}

// TestKeyManagementConcurrent uses one encrypter and decrypter from many
// goroutines (run with -race to check the shared key schedules).
func TestKeyManagementConcurrent(t *testing.T) {
	for _, alg := range []KeyAlgorithm{A128KW, A256GCMKW} {
		k := make([]byte, alg.KeyWrapSize())
		e, _ := NewKeyEncrypter(alg, k)
		d, _ := NewKeyDecrypter(alg, k)
		aead, _ := NewContentCipher(A128CBCHS256, make([]byte, 32))
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				for range 50 {
					p := &KeyParams{}
					cek, ek, err := e.EncryptKey(nil, A128CBCHS256, p)
					if err != nil {
						t.Error(err)
						return
					}
					if got, err := d.DecryptKey(ek, A128CBCHS256, p); err != nil || !bytes.Equal(got, cek) {
						t.Errorf("concurrent %s: %v", alg, err)
						return
					}
					iv := make([]byte, 16)
					s := aead.Seal(nil, iv, cek, ek)
					if pt, err := aead.Open(nil, iv, s, ek); err != nil || !bytes.Equal(pt, cek) {
						t.Errorf("concurrent CBC-HMAC: %v", err)
						return
					}
				}
			})
		}
		wg.Wait()
	}
}

// TestKeyManagementAllocs pins the allocations of the symmetric hot paths:
// one buffer per call (CEK and encrypted key share it), none for the
// content ciphers once made.
func TestKeyManagementAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation allocates")
	}
	kek := make([]byte, 16)
	for _, alg := range []KeyAlgorithm{A128KW, A128GCMKW} {
		e, _ := NewKeyEncrypter(alg, kek)
		d, _ := NewKeyDecrypter(alg, kek)
		p := &KeyParams{}
		_, ek, _ := e.EncryptKey(nil, A128GCM, p)
		if n := testing.AllocsPerRun(100, func() { e.EncryptKey(nil, A128GCM, p) }); n > 1 {
			t.Errorf("%s EncryptKey: %v allocations, want 1", alg, n)
		}
		if n := testing.AllocsPerRun(100, func() { d.DecryptKey(ek, A128GCM, p) }); n > 1 {
			t.Errorf("%s DecryptKey: %v allocations, want 1", alg, n)
		}
	}
	for _, enc := range ContentEncryptions() {
		aead, _ := NewContentCipher(enc, make([]byte, enc.KeySize()))
		iv := make([]byte, enc.IVSize())
		pt := make([]byte, 167)
		buf := make([]byte, 0, 167+aead.Overhead())
		sealed := aead.Seal(nil, iv, pt, nil)
		if n := testing.AllocsPerRun(100, func() { aead.Seal(buf[:0], iv, pt, nil) }); n > 0 {
			t.Errorf("%s Seal: %v allocations", enc, n)
		}
		if n := testing.AllocsPerRun(100, func() { aead.Open(buf[:0], iv, sealed, nil) }); n > 0 {
			t.Errorf("%s Open: %v allocations", enc, n)
		}
	}
}

// TestDecryptsWith: the asymmetric algorithms decrypt with private keys
// (local or opaque), not with public keys or a key that can only sign;
// the others as FitsKey says.
func TestDecryptsWith(t *testing.T) {
	rsaKey := vectortest.RSAKey(t, 2048)
	p256 := kmECKey(t, "P-256")[0]
	x := kmECKey(t, "X25519")[0]
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		alg  KeyAlgorithm
		key  any
		want bool
	}{
		{RSAOAEP, rsaKey, true},
		{RSAOAEP, &kmsRSA{key: rsaKey}, true},
		{RSA1_5, &rsaKey.PublicKey, false},
		{RSAOAEP256, sigSignerOnly{rsaKey}, false},
		{ECDHES, p256, true},
		{ECDHES, ec, true},
		{ECDHES, &kmsECDH{key: x}, true},
		{ECDHESA128KW, p256.PublicKey(), false},
		{ECDHESA128KW, &ec.PublicKey, false},
		{HPKE0KE, p256, true},
		{HPKE0KE, p256.PublicKey(), false},
		{HPKE3, x, true},
		{HPKE3, x.PublicKey(), false},
		{HPKE3, p256, false},
		{A128KW, make([]byte, 16), true},
		{A128KW, make([]byte, 24), false},
		{Direct, make([]byte, 5), true},
		{PBES2HS256A128KW, []byte("pw"), true},
	} {
		if got := c.alg.DecryptsWith(c.key); got != c.want {
			t.Errorf("%s.DecryptsWith(%T) = %v, want %v", c.alg, c.key, got, c.want)
		}
	}
}

// sigSignerOnly is an RSA key behind crypto.Signer alone: it cannot
// decrypt.
type sigSignerOnly struct{ k *rsa.PrivateKey }

func (s sigSignerOnly) Public() crypto.PublicKey { return &s.k.PublicKey }
func (s sigSignerOnly) Sign(r io.Reader, d []byte, o crypto.SignerOpts) ([]byte, error) {
	return s.k.Sign(r, d, o)
}
