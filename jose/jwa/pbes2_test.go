package jwa

import (
	"bytes"
	"crypto/pbkdf2"
	"crypto/sha256"
	"errors"
	"testing"
)

// pbes2CountDerivations installs the derivation hook for the test and
// returns a pointer to the number of PBKDF2 derivations done.
func pbes2CountDerivations(t *testing.T) *int {
	n := new(int)
	pbes2DeriveHook = func(int) { *n++ }
	t.Cleanup(func() { pbes2DeriveHook = nil })
	return n
}

// TestPBES2RefusedBeforeWork checks that a p2c outside the accepted range
// or a short p2s is refused with ErrInvalidParameter and that no PBKDF2
// derivation was started for it (RFC 7518 §4.8.1.1, §4.8.1.2).
func TestPBES2RefusedBeforeWork(t *testing.T) {
	derivations := pbes2CountDerivations(t)
	salt := bytes.Repeat([]byte{1}, 16)
	tests := []struct {
		name     string
		min, max int
		params   *KeyParams
	}{
		{"p2c 0", 0, 0, &KeyParams{P2S: salt, P2C: 0}},
		{"p2c -1", 0, 0, &KeyParams{P2S: salt, P2C: -1}},
		{"p2c min-1", 0, 0, &KeyParams{P2S: salt, P2C: DefaultPBES2MinCount - 1}},
		{"p2c max+1", 0, 0, &KeyParams{P2S: salt, P2C: DefaultPBES2MaxCount + 1}},
		{"p2c 10^9 (CVE-2023-50967)", 0, 0, &KeyParams{P2S: salt, P2C: 1_000_000_000}},
		{"p2c min int", 0, 0, &KeyParams{P2S: salt, P2C: -1 << 63}},
		{"p2c below custom min", 2000, 5000, &KeyParams{P2S: salt, P2C: 1999}},
		{"p2c above custom max", 2000, 5000, &KeyParams{P2S: salt, P2C: 5001}},
		{"p2s 7 bytes", 0, 0, &KeyParams{P2S: salt[:7], P2C: 1000}},
		{"p2s missing", 0, 0, &KeyParams{P2C: 1000}},
		{"no params", 0, 0, nil},
	}
	for _, tt := range tests {
		for _, alg := range []KeyAlgorithm{PBES2HS256A128KW, PBES2HS384A192KW, PBES2HS512A256KW} {
			d, err := NewPBES2Decrypter(alg, []byte("pw"), tt.min, tt.max)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := d.DecryptKey(make([]byte, 40), A256GCM, tt.params); !errors.Is(err, ErrInvalidParameter) {
				t.Errorf("%s %s: %v, want ErrInvalidParameter", alg, tt.name, err)
			}
		}
	}
	if *derivations != 0 {
		t.Fatalf("%d PBKDF2 derivations for refused parameters", *derivations)
	}
	// The edges of the range are accepted (and then do the work once).
	d, _ := NewPBES2Decrypter(PBES2HS256A128KW, []byte("pw"), 1000, 1001)
	for _, c := range []int{1000, 1001} {
		if _, err := d.DecryptKey(make([]byte, 40), A256GCM, &KeyParams{P2S: salt[:8], P2C: c}); !errors.Is(err, ErrDecryption) {
			t.Errorf("p2c %d: %v, want ErrDecryption (wrong encrypted key)", c, err)
		}
	}
	if *derivations != 2 {
		t.Fatalf("%d derivations, want 2", *derivations)
	}
}

func TestPBES2Constructors(t *testing.T) {
	e, err := NewPBES2Encrypter(PBES2HS256A128KW, []byte("pw"), 0)
	if err != nil || e.(*pbes2).count != DefaultPBES2Count {
		t.Fatalf("count 0: %v, count %d", err, e.(*pbes2).count)
	}
	if DefaultPBES2Count > DefaultPBES2MaxCount || DefaultPBES2MinCount != 1000 || DefaultPBES2MaxCount != 10000 || DefaultPBES2Count != DefaultPBES2MaxCount {
		t.Fatal("defaults disagree with each other or with jose/limits.go")
	}
	for _, c := range []int{-1, 1, 999} {
		if _, err := NewPBES2Encrypter(PBES2HS256A128KW, []byte("pw"), c); !errors.Is(err, ErrInvalidParameter) {
			t.Errorf("encrypter count %d: %v", c, err)
		}
	}
	for _, r := range [][2]int{{-1, 0}, {5000, 4000}, {0, 999}} {
		if _, err := NewPBES2Decrypter(PBES2HS256A128KW, []byte("pw"), r[0], r[1]); !errors.Is(err, ErrInvalidParameter) {
			t.Errorf("decrypter range %v: %v", r, err)
		}
	}
	if _, err := NewPBES2Encrypter(A128KW, []byte("pw"), 1000); !errors.Is(err, ErrUnsupportedAlgorithm) {
		t.Errorf("A128KW: %v", err)
	}
	if _, err := NewPBES2Decrypter(PBES2HS256A128KW, nil, 0, 0); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("empty password: %v", err)
	}
	// A value made for one direction refuses the other.
	d, _ := NewPBES2Decrypter(PBES2HS256A128KW, []byte("pw"), 0, 0)
	if _, _, err := d.(KeyEncrypter).EncryptKey(nil, A128GCM, &KeyParams{}); !errors.Is(err, ErrInvalidParameter) {
		t.Errorf("decrypter used to encrypt: %v", err)
	}
	if _, err := e.(KeyDecrypter).DecryptKey(nil, A128GCM, &KeyParams{}); !errors.Is(err, ErrInvalidParameter) {
		t.Errorf("encrypter used to decrypt: %v", err)
	}
}

// TestPBES2Salt checks the salt of RFC 7518 §4.8.1.1: the UTF-8 alg, a
// zero byte, then p2s; and that each message gets a fresh 16-byte p2s.
func TestPBES2Salt(t *testing.T) {
	pw := []byte("correct horse")
	p2s := []byte("0123456789abcdef")
	p := &pbes2{alg: PBES2HS256A128KW, password: string(pw), count: 1000}
	got, err := p.deriveKEK(p2s, 1000)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := pbkdf2.Key(sha256.New, string(pw), append([]byte("PBES2-HS256+A128KW\x00"), p2s...), 1000, 16)
	if !bytes.Equal(got, want) {
		t.Fatalf("KEK = %x, want %x", got, want)
	}
	var a, b KeyParams
	p.EncryptKey(nil, A128GCM, &a)
	p.EncryptKey(nil, A128GCM, &b)
	if len(a.P2S) != 16 || bytes.Equal(a.P2S, b.P2S) {
		t.Fatalf("p2s %x, %x", a.P2S, b.P2S)
	}
}
