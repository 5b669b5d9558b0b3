package jwa

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"encoding"
	"encoding/binary"
	"fmt"
	"hash"
	"sync"
	"testing"
)

// TestHMACConcurrentKeys hammers HMAC signers of several keys and all three
// hashes (short keys, block-sized keys and keys hashed first), each signer
// shared by many goroutines, and checks every MAC against crypto/hmac: the
// hash states pooled across keys must never carry one key's state into
// another's MAC. Run it with -race.
func TestHMACConcurrentKeys(t *testing.T) {
	type keyed struct {
		alg  SignatureAlgorithm
		h    func() hash.Hash
		key  []byte
		sig  Signer
		ver  Verifier
		hmac sync.Pool // crypto/hmac of key, the reference
	}
	var ks []*keyed
	for _, a := range []struct {
		alg SignatureAlgorithm
		h   func() hash.Hash
	}{{HS256, sha256.New}, {HS384, sha512.New384}, {HS512, sha512.New}} {
		size := a.h().Size()
		for i, n := range []int{size, size + 7, 64, 128, 129, 300} {
			if n < size {
				continue
			}
			key := bytes.Repeat([]byte{byte(i + 1), byte(len(ks))}, n)[:n]
			s, err := NewSigner(a.alg, key)
			if err != nil {
				t.Fatal(err)
			}
			v, err := NewVerifier(a.alg, key)
			if err != nil {
				t.Fatal(err)
			}
			k := &keyed{alg: a.alg, h: a.h, key: key, sig: s, ver: v}
			h := a.h
			k.hmac.New = func() any { return hmac.New(h, key) }
			ks = append(ks, k)
		}
	}
	const goroutines, rounds = 16, 200
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var msg [300]byte
			for r := range rounds {
				k := ks[(g*7+r)%len(ks)]
				m := msg[:(g*31+r*17)%len(msg)]
				binary.BigEndian.PutUint32(msg[:4], uint32(g<<16|r))
				ref := k.hmac.Get().(hash.Hash)
				ref.Reset()
				ref.Write(m)
				want := ref.Sum(nil)
				k.hmac.Put(ref)
				got, err := k.sig.Sign(nil, m)
				if err != nil || !bytes.Equal(got, want) {
					errs <- fmt.Errorf("%s key of %d bytes, message of %d: MAC %x, want %x (%v)", k.alg, len(k.key), len(m), got, want, err)
					return
				}
				if err := k.ver.Verify(m, want); err != nil {
					errs <- fmt.Errorf("%s key of %d bytes: Verify refused the right MAC", k.alg, len(k.key))
					return
				}
				// The MAC of another key of the same hash must not verify.
				o := ks[(g*7+r+1)%len(ks)]
				if o.alg == k.alg && !bytes.Equal(o.key, k.key) {
					if k.ver.Verify(m, refHMAC(o.h, o.key, m)) == nil {
						errs <- fmt.Errorf("%s: a MAC of another key verified", k.alg)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestCBCHMACConcurrent shares AES_CBC_HMAC_SHA2 AEADs of several keys
// between many goroutines, interleaved with AEADs made for one message
// only, and checks every output against a reference sealed with
// crypto/cipher and crypto/hmac. Run it with -race.
func TestCBCHMACConcurrent(t *testing.T) {
	type keyed struct {
		key  []byte
		aead cipher.AEAD
	}
	var ks []keyed
	for i, n := range []int{32, 48, 64, 32, 64} {
		key := bytes.Repeat([]byte{byte(i*3 + 1)}, n)
		for j := range key {
			key[j] ^= byte(j)
		}
		a, err := NewCBCHMAC(key)
		if err != nil {
			t.Fatal(err)
		}
		ks = append(ks, keyed{key, a})
	}
	const goroutines, rounds = 12, 150
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				k := ks[(g+r)%len(ks)]
				aead := k.aead
				if r%5 == 0 { // a one-message AEAD beside the shared ones
					var err error
					if aead, err = NewCBCHMAC(k.key); err != nil {
						errs <- err
						return
					}
				}
				pt := bytes.Repeat([]byte{byte(g), byte(r)}, (g*13+r)%70)
				aad := []byte(fmt.Sprintf("aad %d %d", g, r))
				iv := make([]byte, 16)
				binary.BigEndian.PutUint64(iv, uint64(g<<20|r))
				want := referenceCBCHMAC(k.key, iv, pt, aad)
				got := aead.Seal(nil, iv, pt, aad)
				if !bytes.Equal(got, want) {
					errs <- fmt.Errorf("key of %d bytes: Seal differs from the reference", len(k.key))
					return
				}
				back, err := aead.Open(nil, iv, got, aad)
				if err != nil || !bytes.Equal(back, pt) {
					errs <- fmt.Errorf("key of %d bytes: Open: %v", len(k.key), err)
					return
				}
				got[len(got)-1] ^= 1
				if _, err := aead.Open(nil, iv, got, aad); err != ErrDecryption {
					errs <- fmt.Errorf("key of %d bytes: tampered tag: %v", len(k.key), err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// refHMAC is crypto/hmac's MAC of m with key.
func refHMAC(h func() hash.Hash, key, m []byte) []byte {
	mac := hmac.New(h, key)
	mac.Write(m)
	return mac.Sum(nil)
}

// referenceCBCHMAC is RFC 7518 §5.2.2.1 written with crypto/cipher and
// crypto/hmac.
func referenceCBCHMAC(key, iv, pt, aad []byte) []byte {
	n := len(key) / 2
	h := map[int]func() hash.Hash{16: sha256.New, 24: sha512.New384, 32: sha512.New}[n]
	b, err := aes.NewCipher(key[n:])
	if err != nil {
		panic(err)
	}
	pad := 16 - len(pt)%16
	ct := append(bytes.Clone(pt), bytes.Repeat([]byte{byte(pad)}, pad)...)
	cipher.NewCBCEncrypter(b, iv).CryptBlocks(ct, ct)
	m := hmac.New(h, key[:n])
	m.Write(aad)
	m.Write(iv)
	m.Write(ct)
	var al [8]byte
	binary.BigEndian.PutUint64(al[:], uint64(len(aad))*8)
	m.Write(al[:])
	return append(ct, m.Sum(nil)[:n]...)
}

// TestHMACPooledStateHoldsNoKey checks what a signer made with a key
// longer than the block leaves in the hash states it returns to the pool
// shared by every key: neither the key's hash (which is the HMAC key, RFC
// 2104 §2) nor the key's last bytes, which hashing it leaves in the hash's
// block buffer (not visible through MarshalBinary, which writes only the
// buffered bytes; the fix restores both states, which overwrites the
// whole buffer).
func TestHMACPooledStateHoldsNoKey(t *testing.T) {
	if sigRaceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	key := bytes.Repeat([]byte{0xa5}, 200)
	hk := sha256.Sum256(key)
	if _, err := NewSigner(HS256, key); err != nil {
		t.Fatal(err)
	}
	st := hmacPools[0].Get().(*hmacState)
	defer hmacPools[0].Put(st)
	if bytes.Contains(st.buf[:], hk[:8]) || bytes.Contains(st.sum[:], hk[:8]) {
		t.Error("the pooled state holds the hash of the key")
	}
	for _, h := range []hash.Hash{st.in, st.out} {
		b, err := h.(encoding.BinaryMarshaler).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, key[:8]) {
			t.Error("a pooled hash state holds bytes of the key")
		}
	}
}
