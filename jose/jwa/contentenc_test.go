package jwa

import (
	"bytes"
	"crypto/cipher"
	"crypto/ecdh"
	"errors"
	"sync"
	"testing"
)

// TestCBCHMACRFC7518AppendixB checks AES_CBC_HMAC_SHA2 against RFC 7518
// Appendix B.1-B.3 (testdata/rfc7518_appendix_b.json).
func TestCBCHMACRFC7518AppendixB(t *testing.T) {
	var f struct {
		Tests []struct {
			Name                                     string
			Enc                                      ContentEncryption
			Key, Plaintext, IV, AAD, Ciphertext, Tag string
		}
	}
	kmReadJSON(t, "testdata/rfc7518_appendix_b.json", &f)
	if len(f.Tests) != 3 {
		t.Fatalf("%d vectors, want 3", len(f.Tests))
	}
	for _, v := range f.Tests {
		t.Run(v.Name, func(t *testing.T) {
			key, pt, iv, aad := kwHex(t, v.Key), kwHex(t, v.Plaintext), kwHex(t, v.IV), kwHex(t, v.AAD)
			want := append(kwHex(t, v.Ciphertext), kwHex(t, v.Tag)...)
			aead, err := NewContentCipher(v.Enc, key)
			if err != nil {
				t.Fatal(err)
			}
			if aead.NonceSize() != v.Enc.IVSize() || aead.Overhead() != 16+v.Enc.TagSize() {
				t.Fatalf("NonceSize %d Overhead %d", aead.NonceSize(), aead.Overhead())
			}
			if got := aead.Seal(nil, iv, pt, aad); !bytes.Equal(got, want) {
				t.Fatalf("Seal = %x\nwant   %x", got, want)
			}
			got, err := aead.Open(nil, iv, want, aad)
			if err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("Open = %q, %v", got, err)
			}
			// In place, as cipher.AEAD allows.
			buf := append(make([]byte, 0, len(want)), pt...)
			sealed := aead.Seal(buf[:0], iv, buf, aad)
			if !bytes.Equal(sealed, want) {
				t.Fatal("in-place Seal differs")
			}
			opened, err := aead.Open(sealed[:0], iv, sealed, aad)
			if err != nil || !bytes.Equal(opened, pt) {
				t.Fatalf("in-place Open = %q, %v", opened, err)
			}
		})
	}
}

var ceTestPlaintext = []byte("You can trust us to stick with you through thick and thin–to the bitter end.")

// TestContentCipherTamper checks, for every content encryption, the round
// trip, that every single-bit flip of IV, ciphertext, tag or AAD fails
// with ErrDecryption, and that a wrong key, a truncated input and a wrong
// IV size fail the same way, without panicking.
func TestContentCipherTamper(t *testing.T) {
	for _, enc := range ContentEncryptions() {
		t.Run(string(enc), func(t *testing.T) {
			key := bytes.Repeat([]byte{0x42}, enc.KeySize())
			aead, err := NewContentCipher(enc, key)
			if err != nil {
				t.Fatal(err)
			}
			iv := bytes.Repeat([]byte{7}, enc.IVSize())
			aad := []byte("eyJhbGciOiJkaXIifQ")
			for _, pt := range [][]byte{nil, {}, ceTestPlaintext[:15], ceTestPlaintext[:16], ceTestPlaintext[:17], ceTestPlaintext} {
				sealed := aead.Seal(nil, iv, pt, aad)
				got, err := aead.Open(nil, iv, sealed, aad)
				if err != nil || !bytes.Equal(got, pt) {
					t.Fatalf("round trip of %d bytes: %q, %v", len(pt), got, err)
				}
			}
			sealed := aead.Seal(nil, iv, ceTestPlaintext, aad)
			mustFail := func(what string, iv, ct, aad []byte) {
				t.Helper()
				dst := make([]byte, 0, len(ct))
				out, err := aead.Open(dst, iv, ct, aad)
				if !errors.Is(err, ErrDecryption) || out != nil {
					t.Fatalf("%s: Open = %x, %v; want nil, ErrDecryption", what, out, err)
				}
				if !bytes.Equal(dst[:cap(dst)], make([]byte, cap(dst))) {
					t.Fatalf("%s: output not cleared", what)
				}
			}
			for i := range len(sealed) * 8 {
				bad := bytes.Clone(sealed)
				bad[i/8] ^= 1 << (i % 8)
				mustFail("ciphertext/tag bit flip", iv, bad, aad)
			}
			for i := range len(iv) * 8 {
				bad := bytes.Clone(iv)
				bad[i/8] ^= 1 << (i % 8)
				mustFail("IV bit flip", bad, sealed, aad)
			}
			for i := range len(aad) * 8 {
				bad := bytes.Clone(aad)
				bad[i/8] ^= 1 << (i % 8)
				mustFail("AAD bit flip", iv, sealed, bad)
			}
			for n := 0; n < len(sealed); n++ {
				mustFail("truncated", iv, sealed[:n], aad)
			}
			mustFail("extended", iv, append(bytes.Clone(sealed), 0), aad)
			mustFail("short IV", iv[:len(iv)-1], sealed, aad)
			mustFail("long IV", append(bytes.Clone(iv), 0), sealed, aad)
			mustFail("nil IV", nil, sealed, aad)
			other, _ := NewContentCipher(enc, bytes.Repeat([]byte{0x43}, enc.KeySize()))
			if _, err := other.Open(nil, iv, sealed, aad); !errors.Is(err, ErrDecryption) {
				t.Fatalf("wrong key: %v", err)
			}
			// Key sizes are exact.
			for _, n := range []int{0, 1, enc.KeySize() - 1, enc.KeySize() + 1, 2 * enc.KeySize()} {
				if _, err := NewContentCipher(enc, make([]byte, n)); !errors.Is(err, ErrInvalidKey) {
					t.Fatalf("%d-byte key: %v, want ErrInvalidKey", n, err)
				}
			}
		})
	}
}

// TestCBCHMACBadPadding seals messages whose padding is wrong under a
// valid MAC (only the key holder can make them) and checks that Open
// refuses them with the one opaque error.
func TestCBCHMACBadPadding(t *testing.T) {
	key := bytes.Repeat([]byte{1}, 32)
	aead, _ := NewCBCHMAC(key)
	c := aead.(*cbcHMAC)
	iv := make([]byte, 16)
	for _, last := range [][]byte{
		append(bytes.Repeat([]byte{'a'}, 15), 0),    // pad length 0
		append(bytes.Repeat([]byte{'a'}, 15), 17),   // pad length > block
		append(bytes.Repeat([]byte{'a'}, 14), 1, 2), // inconsistent padding
		append(bytes.Repeat([]byte{'a'}, 13), 3, 2, 3),
		// Pad length 17 with 16 consistent bytes: only the bound on the
		// pad length refuses it.
		append(bytes.Repeat([]byte{'a'}, 16), bytes.Repeat([]byte{17}, 16)...),
		append(bytes.Repeat([]byte{'a'}, 16), bytes.Repeat([]byte{255}, 16)...),
	} {
		ct := make([]byte, len(last))
		cipher.NewCBCEncrypter(c.block, iv).CryptBlocks(ct, last)
		st := c.getState()
		sealed := append(ct, c.tag(st, iv, ct, nil)...)
		c.putState(st)
		if out, err := aead.Open(nil, iv, sealed, nil); !errors.Is(err, ErrDecryption) || out != nil {
			t.Errorf("padding %x: Open = %x, %v", last[13:], out, err)
		}
	}
	for _, n := range []int{0, 16, 31, 33, 47, 65, 128} {
		if _, err := NewCBCHMAC(make([]byte, n)); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("NewCBCHMAC(%d bytes): %v", n, err)
		}
	}
}

func TestContentEncryptionMethods(t *testing.T) {
	tests := []struct {
		enc          ContentEncryption
		key, iv, tag int
	}{
		{A128CBCHS256, 32, 16, 16}, {A192CBCHS384, 48, 16, 24}, {A256CBCHS512, 64, 16, 32},
		{A128GCM, 16, 12, 16}, {A192GCM, 24, 12, 16}, {A256GCM, 32, 12, 16},
		{"A128CBC", 0, 0, 0}, {"", 0, 0, 0}, {"a128gcm", 0, 0, 0},
	}
	for _, tt := range tests {
		if tt.enc.KeySize() != tt.key || tt.enc.IVSize() != tt.iv || tt.enc.TagSize() != tt.tag || tt.enc.Known() != (tt.key != 0) {
			t.Errorf("%q: sizes %d/%d/%d known %v", tt.enc, tt.enc.KeySize(), tt.enc.IVSize(), tt.enc.TagSize(), tt.enc.Known())
		}
		if tt.enc.String() != string(tt.enc) {
			t.Errorf("String %q", tt.enc.String())
		}
		if tt.key == 0 {
			if _, err := NewContentCipher(tt.enc, make([]byte, 32)); !errors.Is(err, ErrUnsupportedAlgorithm) {
				t.Errorf("%q: %v, want ErrUnsupportedAlgorithm", tt.enc, err)
			}
		}
	}
	if n := len(ContentEncryptions()); n != 6 {
		t.Errorf("ContentEncryptions: %d", n)
	}
}

// TestSealPanicsOnWrongNonce: a wrong IV size on Seal is a caller bug.
func TestSealPanicsOnWrongNonce(t *testing.T) {
	for _, enc := range ContentEncryptions() {
		aead, _ := NewContentCipher(enc, make([]byte, enc.KeySize()))
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Seal with a 5-byte nonce did not panic", enc)
				}
			}()
			aead.Seal(nil, make([]byte, 5), nil, nil)
		}()
	}
}

// TestConcatKDFRFC7518AppendixC derives the RFC 7518 Appendix C key byte
// for byte, from Z and from the two key pairs; and for RFC 8037 A.6
// checks the X25519 public key and Z.
func TestConcatKDFRFC7518AppendixC(t *testing.T) {
	var f struct {
		Tests []struct {
			Name, Crv             string
			EpkD                  string `json:"epk_d"`
			EpkX                  string `json:"epk_x"`
			EpkY                  string `json:"epk_y"`
			RecipientD            string `json:"recipient_d"`
			RecipientX            string `json:"recipient_x"`
			RecipientY            string `json:"recipient_y"`
			Z, Alg, Enc, APU, APV string
			DerivedKey            string `json:"derived_key"`
		}
	}
	kmReadJSON(t, "testdata/ecdh_es.json", &f)
	for _, v := range f.Tests {
		t.Run(v.Name, func(t *testing.T) {
			eph := kmJWK{Kty: "EC", Crv: v.Crv, D: v.EpkD, X: v.EpkX, Y: v.EpkY}
			rcp := kmJWK{Kty: "EC", Crv: v.Crv, D: v.RecipientD, X: v.RecipientX, Y: v.RecipientY}
			if v.Crv == "X25519" {
				eph.Kty, rcp.Kty = "OKP", "OKP"
			}
			ephPriv, rcpPriv := eph.ecdhPrivate(t), rcp.ecdhPrivate(t)
			if !ephPriv.PublicKey().Equal(eph.ecdhPublic(t)) || !rcpPriv.PublicKey().Equal(rcp.ecdhPublic(t)) {
				t.Fatal("public keys do not match the private keys")
			}
			z1, err := ephPriv.ECDH(rcp.ecdhPublic(t))
			if err != nil {
				t.Fatal(err)
			}
			z2, err := rcpPriv.ECDH(eph.ecdhPublic(t))
			if err != nil || !bytes.Equal(z1, z2) || !bytes.Equal(z1, kmB64(t, v.Z)) {
				t.Fatalf("Z = %x / %x, want %x", z1, z2, kmB64(t, v.Z))
			}
			if v.DerivedKey == "" {
				// RFC 8037 A.6 stops at Z; the KDF round trip is checked below.
				kmECDHVectorRoundTrip(t, KeyAlgorithm(v.Alg), ContentEncryption(v.Enc), ephPriv, rcpPriv)
				return
			}
			var apu, apv []byte
			if v.APU != "" {
				apu, apv = kmB64(t, v.APU), kmB64(t, v.APV)
			}
			want := kmB64(t, v.DerivedKey)
			if got := ConcatKDF(nil, z1, v.Enc, apu, apv, len(want)); !bytes.Equal(got, want) {
				t.Fatalf("ConcatKDF = %x, want %x", got, want)
			}
			// Through the key management API, both directions.
			dec, _ := NewKeyDecrypter(ECDHES, rcpPriv)
			cek, err := dec.DecryptKey(nil, ContentEncryption(v.Enc), &KeyParams{EPK: ephPriv.PublicKey(), APU: apu, APV: apv})
			if err != nil || !bytes.Equal(cek, want) {
				t.Fatalf("DecryptKey = %x, %v", cek, err)
			}
			enc, _ := newECDHEncrypter(ECDHES, rcpPriv.PublicKey())
			params := &KeyParams{APU: apu, APV: apv}
			cek, ek, err := enc.encryptKey(ephPriv, nil, ContentEncryption(v.Enc), params)
			if err != nil || !bytes.Equal(cek, want) || len(ek) != 0 {
				t.Fatalf("encryptKey = %x, %x, %v", cek, ek, err)
			}
		})
	}
}

func kmECDHVectorRoundTrip(t *testing.T, alg KeyAlgorithm, enc ContentEncryption, eph, rcp *ecdh.PrivateKey) {
	e, err := newECDHEncrypter(alg, rcp.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	params := &KeyParams{}
	cek, ek, err := e.encryptKey(eph, nil, enc, params)
	if err != nil {
		t.Fatal(err)
	}
	if !params.EPK.Equal(eph.PublicKey()) {
		t.Fatal("epk")
	}
	d, _ := NewKeyDecrypter(alg, rcp)
	got, err := d.DecryptKey(ek, enc, params)
	if err != nil || !bytes.Equal(got, cek) {
		t.Fatalf("DecryptKey = %x, %v", got, err)
	}
}

// TestConcatKDFLongInfo exercises the streaming path (apu/apv too long for
// the stack buffer) against the buffered one.
func TestConcatKDFLongInfo(t *testing.T) {
	z := bytes.Repeat([]byte{9}, 32)
	apu := bytes.Repeat([]byte{'u'}, 300)
	got := ConcatKDF(nil, z, "A256CBC-HS512", apu, []byte("v"), 64)
	// Reference: the definition, written out.
	var want []byte
	for counter := byte(1); len(want) < 64; counter++ {
		in := []byte{0, 0, 0, counter}
		in = append(in, z...)
		in = append(in, 0, 0, 0, 13)
		in = append(in, "A256CBC-HS512"...)
		in = append(in, 0, 0, 1, 44)
		in = append(in, apu...)
		in = append(in, 0, 0, 0, 1, 'v')
		in = append(in, 0, 0, 2, 0)
		want = append(want, kmSHA256(in)...)
	}
	if !bytes.Equal(got, want[:64]) {
		t.Fatalf("ConcatKDF long = %x\nwant %x", got, want[:64])
	}
	short := ConcatKDF(nil, z, "A256CBC-HS512", apu[:10], []byte("v"), 64)
	if bytes.Equal(short, got) {
		t.Fatal("apu not used")
	}
}

// TestContentCipherConcurrent: one AEAD of each enc, used by several
// goroutines at once, seals and opens each message correctly (run with
// -race: the per-call state of AES_CBC_HMAC_SHA2 is not shared).
func TestContentCipherConcurrent(t *testing.T) {
	for _, enc := range ContentEncryptions() {
		aead, err := NewContentCipher(enc, bytes.Repeat([]byte{7}, enc.KeySize()))
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				iv := make([]byte, enc.IVSize())
				for i := range 50 {
					iv[0], iv[1] = byte(g), byte(i)
					pt := bytes.Repeat([]byte{byte(g), byte(i)}, 20+i)
					ct := aead.Seal(nil, iv, pt, iv)
					got, err := aead.Open(nil, iv, ct, iv)
					if err != nil || !bytes.Equal(got, pt) {
						t.Errorf("%s: goroutine %d message %d: %v", enc, g, i, err)
						return
					}
				}
			}()
		}
		wg.Wait()
	}
}
