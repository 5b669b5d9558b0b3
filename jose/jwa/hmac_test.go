package jwa

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"testing"
)

// TestHMACCookbook reproduces RFC 7520 §4.4 (HS256) byte for byte, with the
// key of RFC 7520 §3.5.
func TestHMACCookbook(t *testing.T) {
	c := sigLoadCookbook(t, "cookbook/jws/4_4.hmac-sha2_integrity_protection.json")
	if c.Input.Alg != "HS256" {
		t.Fatalf("alg %q", c.Input.Alg)
	}
	key := sigParseJWK(t, c.Input.Key).([]byte)
	if !bytes.Equal(key, sigParseJWK(t, sigReadFile(t, "cookbook/jwk/3_5.symmetric_key_mac_computation.json")).([]byte)) {
		t.Fatal("4.4 key differs from the 3.5 key")
	}
	want := sigB64(t, c.Signing.Sig)
	s, err := NewSigner(HS256, key)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Sign(nil, []byte(c.Signing.SigInput))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("HS256 MAC\n got %x\nwant %x", got, want)
	}
	v, err := NewVerifier(HS256, key)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Verify([]byte(c.Signing.SigInput), want); err != nil {
		t.Fatal(err)
	}
}

// TestHMACKeyLength checks RFC 7518 §3.2: a key shorter than the hash output
// is refused; one of exactly that length, or longer than a hash block, works.
func TestHMACKeyLength(t *testing.T) {
	input := []byte("eyJhbGciOiJIUzI1NiJ9.cGF5bG9hZA")
	for _, tc := range []struct {
		alg  SignatureAlgorithm
		size int
	}{{HS256, 32}, {HS384, 48}, {HS512, 64}} {
		for _, n := range []int{0, 1, tc.size / 2, tc.size - 1} {
			key := bytes.Repeat([]byte{0xa5}, n)
			if _, err := NewSigner(tc.alg, key); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("NewSigner(%s, %d-byte key) = %v, want ErrInvalidKey", tc.alg, n, err)
			}
			if _, err := NewVerifier(tc.alg, key); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("NewVerifier(%s, %d-byte key) = %v, want ErrInvalidKey", tc.alg, n, err)
			}
		}
		for _, n := range []int{tc.size, tc.size + 1, 200} {
			key := bytes.Repeat([]byte{0x5a}, n)
			s, err := NewSigner(tc.alg, key)
			if err != nil {
				t.Errorf("NewSigner(%s, %d-byte key) = %v", tc.alg, n, err)
				continue
			}
			got, _ := s.Sign(nil, input)
			m := hmac.New(tc.alg.Hash().New, key)
			m.Write(input)
			if want := m.Sum(nil); !bytes.Equal(got, want) {
				t.Errorf("%s with a %d-byte key: MAC %x, want %x", tc.alg, n, got, want)
			}
		}
	}
	// The refusal names the sizes.
	_, err := NewSigner(HS256, make([]byte, 31))
	if err == nil || err.Error() != "jwa: the key is a 31-byte secret; HS256 needs a secret of at least 32 bytes: invalid key for algorithm" {
		t.Errorf("error = %v", err)
	}
}

// TestHMACTruncatedMAC checks that a prefix of the right MAC, the shortest
// forgery target, is refused, as is the MAC of another HMAC size.
func TestHMACTruncatedMAC(t *testing.T) {
	key := sigKeys(t).hmac
	input := sigTestInput(t)
	v, err := NewVerifier(HS512, key)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := NewSigner(HS512, key)
	mac, _ := s.Sign(nil, input)
	for _, n := range []int{0, 1, 16, 32, 48, 63} {
		if err := v.Verify(input, mac[:n]); err != ErrVerification {
			t.Errorf("MAC truncated to %d bytes: %v", n, err)
		}
	}
	h256 := hmac.New(sha256.New, key)
	h256.Write(input)
	v256, _ := NewVerifier(HS256, key)
	if err := v256.Verify(input, h256.Sum(nil)); err != nil {
		t.Fatal(err)
	}
	if err := v256.Verify(input, mac[:32]); err != ErrVerification {
		t.Errorf("HS512 MAC truncated to 32 bytes verified as HS256: %v", err)
	}
}

// TestHMACAllocs checks that, with key setup out of the way, a MAC into a
// presized buffer and a verification allocate nothing.
func TestHMACAllocs(t *testing.T) {
	if sigRaceEnabled {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	input := sigTestInput(t)
	for _, alg := range []SignatureAlgorithm{HS256, HS384, HS512} {
		key := sigKeys(t).hmac[:alg.Hash().Size()]
		s, _ := NewSigner(alg, key)
		v, _ := NewVerifier(alg, key)
		dst := make([]byte, 0, 64)
		mac, _ := s.Sign(nil, input)
		if n := testing.AllocsPerRun(100, func() {
			if _, err := s.Sign(dst, input); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s Sign: %v allocations", alg, n)
		}
		if n := testing.AllocsPerRun(100, func() {
			if err := v.Verify(input, mac); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s Verify: %v allocations", alg, n)
		}
	}
}

// TestHMACMatchesCryptoHMAC: the HMAC written out over pooled hash states
// equals crypto/hmac for every algorithm, keys from the minimum length to
// past the block size (hashed first, RFC 2104 §2) and inputs of every
// length to 300 bytes, with states shared between keys in between.
func TestHMACMatchesCryptoHMAC(t *testing.T) {
	for _, alg := range []SignatureAlgorithm{HS256, HS384, HS512} {
		for _, kl := range []int{alg.Hash().Size(), 64, 65, 127, 128, 129, 300} {
			key := make([]byte, kl)
			for i := range key {
				key[i] = byte(i*7 + kl)
			}
			s, err := NewSigner(alg, key)
			if err != nil {
				t.Fatal(err)
			}
			other, _ := NewSigner(alg, append(bytes.Clone(key), 1))
			for n := 0; n <= 300; n += 7 {
				in := bytes.Repeat([]byte{byte(n)}, n)
				other.Sign(nil, in) // another key's use of the pooled states
				got, _ := s.Sign(nil, in)
				m := hmac.New(alg.Hash().New, key)
				m.Write(in)
				if want := m.Sum(nil); !bytes.Equal(got, want) {
					t.Fatalf("%s key %d input %d: %x, want %x", alg, kl, n, got, want)
				}
			}
		}
	}
}
