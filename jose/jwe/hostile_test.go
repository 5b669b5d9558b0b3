package jwe_test

// Hostile input for the JWE loaders. Each test builds a token an attacker
// could send and asserts that it is refused, with the right error, and at a
// bounded cost: memory is measured (runtime.MemStats.TotalAlloc before and
// after), work is shown by the error class (refused before key derivation
// or decryption), and wall time is only a generous secondary guard.

import (
	"bytes"
	"compress/flate"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// hzKey is a fixed 32-byte key for "dir" with A256GCM or A128CBC-HS256.
var hzKey = []byte("hostile-jwe-test-key-32-bytes!!!")

// hzSealCompact builds a compact JWE by hand with the given protected header,
// CEK, encrypted key and content (already compressed if the header says so),
// with a fixed IV (RFC 7516 §5.1).
func hzSealCompact(t testing.TB, header string, enc jwa.ContentEncryption, cek, ek, content []byte) []byte {
	t.Helper()
	b64 := jose.Base64URLEncode
	prot := b64([]byte(header))
	aead, err := jwa.NewContentCipher(enc, cek)
	if err != nil {
		t.Fatal(err)
	}
	iv := bytes.Repeat([]byte{9}, enc.IVSize())
	sealed := aead.Seal(nil, iv, content, []byte(prot))
	n := len(sealed) - enc.TagSize()
	return []byte(prot + "." + b64(ek) + "." + b64(iv) + "." + b64(sealed[:n]) + "." + b64(sealed[n:]))
}

func hzDirDecrypter(t testing.TB, lim jose.Limits, crit ...string) *jwe.Decrypter {
	t.Helper()
	d, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.Direct},
		ContentEncryptions: jwa.ContentEncryptions(),
		Key:                hzKey,
		Critical:           crit,
		Limits:             lim,
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// hzSegments replaces segment i (0-4) of a compact JWE.
func hzSegments(tok []byte, i int, seg string) []byte {
	parts := strings.Split(string(tok), ".")
	parts[i] = seg
	return []byte(strings.Join(parts, "."))
}

// TestHostilePBES2Count loads the PBES2 token of CVE-2023-50967
// (latchset-jose, p2c = 10^9) and variants with p2c = 0, -1 and just above
// the default maximum. Each must be refused before any key derivation:
// with a limit or malformed-header error, never the decryption failure that
// a derivation would end in (the positive control with an in-range p2c
// shows that one), and fast (10^9 PBKDF2 iterations take minutes).
func TestHostilePBES2Count(t *testing.T) {
	data := vectortest.ReadFile(t, "latchset", "cve-2023-50967", "cve-2023-50967.jwe")
	keyData := vectortest.ReadFile(t, "latchset", "cve-2023-50967", "cve-2023-50967.jwk")
	key, err := jose.ParseKey(keyData)
	if err != nil {
		t.Fatal(err)
	}
	d, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.PBES2HS256A128KW},
		ContentEncryptions: jwa.ContentEncryptions(),
		Key:                key,
	})
	if err != nil {
		t.Fatal(err)
	}
	withCount := func(p2c string) []byte {
		return bytes.Replace(data, []byte(`"p2c":1000000000`), []byte(`"p2c":`+p2c), 1)
	}
	if !bytes.Contains(data, []byte(`"p2c":1000000000`)) {
		t.Fatal("the CVE token no longer holds p2c 10^9")
	}
	for _, p2c := range []string{"1000000000", "0", "-1", "600001", "2147483648", "1e9"} {
		t.Run("p2c="+p2c, func(t *testing.T) {
			start := time.Now()
			_, err := d.DecryptJSON(withCount(p2c))
			elapsed := time.Since(start)
			if err == nil {
				t.Fatal("accepted")
			}
			if errors.Is(err, jose.ErrDecryptionFailed) {
				t.Fatalf("refused only after key derivation: %v", err)
			}
			if !errors.Is(err, jose.ErrLimitExceeded) && !errors.Is(err, jwa.ErrInvalidParameter) && !errors.Is(err, jose.ErrMalformed) {
				t.Fatalf("error %v is not a limit, parameter or malformed-header error", err)
			}
			if elapsed > 2*time.Second {
				t.Fatalf("refusal took %v", elapsed)
			}
			t.Logf("refused in %v: %v", elapsed, err)
		})
	}
	t.Run("control p2c=1000", func(t *testing.T) {
		// In range: the key is derived, and the token (made with another
		// count) then fails to decrypt.
		_, err := d.DecryptJSON(withCount("1000"))
		if !errors.Is(err, jose.ErrDecryptionFailed) {
			t.Fatalf("in-range p2c: %v, want the decryption failure", err)
		}
	})
}

// hzZeroBomb returns raw DEFLATE data (RFC 1951) that inflates to n MiB of
// zeros, made without compressing n MiB: the compressed form of one MiB of
// zeros that follows a window of zeros is repeated. Every chunk ends on a
// sync flush, so it is byte-aligned and refers only to the zeros before it.
func hzZeroBomb(t testing.TB, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	zeros := make([]byte, 1<<20)
	w.Write(zeros)
	w.Flush()
	first := buf.Len()
	w.Write(zeros)
	w.Flush()
	chunk := bytes.Clone(buf.Bytes()[first:])
	out := bytes.Clone(buf.Bytes()[:first])
	for i := 1; i < n; i++ {
		out = append(out, chunk...)
	}
	// The final empty block.
	var tail bytes.Buffer
	fw, _ := flate.NewWriter(&tail, flate.BestSpeed)
	fw.Close()
	return append(out, tail.Bytes()...)
}

// TestHostileZeroBombConstruction checks hzZeroBomb on a small size: it
// inflates to exactly n MiB of zeros.
func TestHostileZeroBombConstruction(t *testing.T) {
	r := flate.NewReader(bytes.NewReader(hzZeroBomb(t, 3)))
	n, err := io.Copy(io.Discard, io.TeeReader(r, hzNonZero{t}))
	if err != nil || n != 3<<20 {
		t.Fatalf("inflated %d bytes (%v), want %d zeros", n, err, 3<<20)
	}
}

type hzNonZero struct{ t *testing.T }

func (z hzNonZero) Write(p []byte) (int, error) {
	if i := bytes.IndexFunc(p, func(r rune) bool { return r != 0 }); i >= 0 {
		z.t.Fatalf("non-zero byte in the bomb's output")
	}
	return len(p), nil
}

// TestHostileDeflateBomb decrypts a valid "zip":"DEF" JWE whose content
// inflates to 1 GiB of zeros, with a MaxTokenSize large enough to admit
// it. It must be refused at the decompression limit (ErrLimitExceeded),
// allocating a small multiple of the limit and of the token, never the
// gigabyte.
func TestHostileDeflateBomb(t *testing.T) {
	bomb := hzZeroBomb(t, 1024) // 1 GiB of zeros
	tok := hzSealCompact(t, `{"alg":"dir","enc":"A256GCM","zip":"DEF"}`, jwa.A256GCM, hzKey, nil, bomb)
	t.Logf("1 GiB of zeros: %d bytes of DEFLATE, a token of %d bytes", len(bomb), len(tok))
	for _, maxOut := range []int{0, 64 << 10} {
		// MaxCompressedSize admits the bomb's DEFLATE: this is the
		// decompression limit's test (TestCompressedSizeLimit has the other).
		lim := jose.Limits{MaxTokenSize: 4 << 20, MaxCompressedSize: 4 << 20, MaxDecompressedSize: maxOut}
		limit := lim.WithDefaults().MaxDecompressedSize
		t.Run(fmt.Sprintf("MaxDecompressedSize=%d", limit), func(t *testing.T) {
			d := hzDirDecrypter(t, lim)
			var err error
			alloc := vectortest.BytesAllocated(func() { _, err = d.DecryptCompact(tok) })
			if !errors.Is(err, jose.ErrLimitExceeded) || !strings.Contains(err.Error(), "decompressed plaintext exceeds") {
				t.Fatalf("err = %v, want ErrLimitExceeded at the decompression limit", err)
			}
			bound := uint64(4*len(tok) + 8*limit)
			t.Logf("refused, %d bytes allocated (bound %d): %v", alloc, bound, err)
			if alloc > bound {
				t.Fatalf("allocated %d bytes, more than %d", alloc, bound)
			}
		})
	}
	t.Run("control", func(t *testing.T) {
		// Within the limit the same construction decrypts.
		small := hzSealCompact(t, `{"alg":"dir","enc":"A256GCM","zip":"DEF"}`, jwa.A256GCM, hzKey, nil, hzZeroBomb(t, 1))
		msg, err := hzDirDecrypter(t, jose.Limits{MaxDecompressedSize: 1 << 20}).DecryptCompact(small)
		if err != nil || len(msg.Plaintext) != 1<<20 {
			t.Fatalf("1 MiB of zeros under a 1 MiB limit: %v", err)
		}
	})
}

// TestHostileSizes feeds inputs sized to exhaust a naive loader: 10 MB of
// dots, a header of 100,000 members, deeply nested JSON, a 1 MB kid. Each is
// refused by a documented limit, allocating far less than the input (with
// default limits), or at most about the input itself (with limits raised
// to admit the token, so the header or JSON limit is the one that acts).
func TestHostileSizes(t *testing.T) {
	b64 := jose.Base64URLEncode
	rest := ".." + b64(make([]byte, 12)) + ".AA." + b64(make([]byte, 16))
	members := new(strings.Builder)
	members.WriteString(`{"alg":"dir","enc":"A256GCM"`)
	for i := range 100000 {
		fmt.Fprintf(members, `,"m%d":0`, i)
	}
	members.WriteString("}")
	nested := `{"alg":"dir","enc":"A256GCM","x":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "}"
	kid := `{"alg":"dir","enc":"A256GCM","kid":"` + strings.Repeat("k", 1<<20) + `"}`
	cases := []struct {
		name  string
		token []byte
		raise jose.Limits // limits that admit the token's size
	}{
		{"10MB of dots", bytes.Repeat([]byte("."), 10<<20), jose.Limits{MaxTokenSize: 16 << 20}},
		{"100000 header members", []byte(b64([]byte(members.String())) + rest), jose.Limits{MaxTokenSize: 4 << 20, MaxHeaderSize: 4 << 20}},
		{"nesting 100000 deep", []byte(b64([]byte(nested)) + rest), jose.Limits{MaxTokenSize: 4 << 20, MaxHeaderSize: 4 << 20}},
		{"1MB kid", []byte(b64([]byte(kid)) + rest), jose.Limits{MaxTokenSize: 4 << 20, MaxHeaderSize: 4 << 20}},
	}
	for _, c := range cases {
		for _, raised := range []bool{false, true} {
			name := c.name + "/default limits"
			lim := jose.Limits{}
			if raised {
				name, lim = c.name+"/raised size limits", c.raise
			}
			t.Run(name, func(t *testing.T) {
				if c.name == "1MB kid" && raised {
					// A long kid is no limit violation once the sizes
					// admit it: it must just not match a key or cost more
					// than the input.
					lim.MaxHeaderMembers = 0
				}
				d := hzDirDecrypter(t, lim)
				var err error
				alloc := vectortest.BytesAllocated(func() { _, err = d.DecryptCompact(c.token) })
				if err == nil {
					t.Fatal("accepted")
				}
				bound := uint64(64 << 10)
				if raised {
					bound = uint64(2 * len(c.token))
				}
				t.Logf("%d-byte token refused, %d bytes allocated (bound %d): %v", len(c.token), alloc, bound, err)
				if !raised && !errors.Is(err, jose.ErrLimitExceeded) {
					t.Errorf("err = %v, want ErrLimitExceeded", err)
				}
				if raised && c.name != "1MB kid" && c.name != "10MB of dots" && !errors.Is(err, jose.ErrLimitExceeded) {
					t.Errorf("err = %v, want ErrLimitExceeded", err)
				}
				if alloc > bound {
					t.Errorf("allocated %d bytes, more than %d", alloc, bound)
				}
			})
		}
	}
	t.Run("JSON 10MB of brackets", func(t *testing.T) {
		data := []byte(`{"protected":` + strings.Repeat("[", 5<<20) + strings.Repeat("]", 5<<20) + "}")
		for _, lim := range []jose.Limits{{}, {MaxTokenSize: 16 << 20}} {
			d := hzDirDecrypter(t, lim)
			var err error
			alloc := vectortest.BytesAllocated(func() { _, err = d.DecryptJSON(data) })
			if !errors.Is(err, jose.ErrLimitExceeded) && !errors.Is(err, jose.ErrMalformed) {
				t.Fatalf("err = %v", err)
			}
			if alloc > 64<<10 {
				t.Errorf("limits %+v: allocated %d bytes for a %d-byte input", lim, alloc, len(data))
			}
		}
	})
	t.Run("JSON 100000 recipients", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(`{"protected":"eyJlbmMiOiJBMjU2R0NNIn0","recipients":[`)
		for i := range 100000 {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`{"header":{"alg":"dir"}}`)
		}
		b.WriteString(`],"iv":"AAAAAAAAAAAAAAAA","ciphertext":"","tag":"AAAAAAAAAAAAAAAAAAAAAA"}`)
		data := []byte(b.String())
		d := hzDirDecrypter(t, jose.Limits{MaxTokenSize: 16 << 20})
		var err error
		alloc := vectortest.BytesAllocated(func() { _, err = d.DecryptJSON(data) })
		if !errors.Is(err, jose.ErrLimitExceeded) {
			t.Fatalf("err = %v, want ErrLimitExceeded", err)
		}
		if alloc > uint64(len(data)) {
			t.Errorf("allocated %d bytes for a %d-byte input", alloc, len(data))
		}
	})
}

// x25519LowOrder lists the X25519 public values of small order (and their
// non-canonical forms) for which every private key gives the all-zero
// shared secret (RFC 7748 §6.1; Bernstein's list of points to refuse).
func hzX25519LowOrder() [][]byte {
	p := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 255), big.NewInt(19))
	le := func(v *big.Int) []byte {
		b := make([]byte, 32)
		v.FillBytes(b)
		for i, j := 0, 31; i < j; i, j = i+1, j-1 {
			b[i], b[j] = b[j], b[i]
		}
		return b
	}
	var out [][]byte
	for _, s := range []string{
		"0", "1",
		"325606250916557431795983626356110631294008115727848805560023387167927233504",
		"39382357235489614581723060781553021112529911719440698176882885853963445705823",
	} {
		v, _ := new(big.Int).SetString(s, 10)
		out = append(out, le(v))
	}
	for _, d := range []int64{-1, 0, 1} { // p-1, p, p+1
		out = append(out, le(new(big.Int).Add(p, big.NewInt(d))))
	}
	return out
}

// TestHostileECDHLowOrder sends ECDH-ES tokens whose epk is an X25519
// point of small order. The shared secret would be all zeros, which the
// attacker knows: the tokens are built with the CEK derived from it, so an
// implementation that skipped the check would decrypt them. They must be
// refused.
func TestHostileECDHLowOrder(t *testing.T) {
	priv, err := ecdh.X25519().NewPrivateKey(bytes.Repeat([]byte{0x42}, 32))
	if err != nil {
		t.Fatal(err)
	}
	d, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.ECDHES},
		ContentEncryptions: jwa.ContentEncryptions(),
		Key:                priv,
	})
	if err != nil {
		t.Fatal(err)
	}
	cek := jwa.ConcatKDF(nil, make([]byte, 32), "A128GCM", nil, nil, 16)
	for i, point := range hzX25519LowOrder() {
		t.Run(fmt.Sprintf("point%d", i), func(t *testing.T) {
			hdr := fmt.Sprintf(`{"alg":"ECDH-ES","enc":"A128GCM","epk":{"kty":"OKP","crv":"X25519","x":%q}}`, jose.Base64URLEncode(point))
			tok := hzSealCompact(t, hdr, jwa.A128GCM, cek, nil, []byte("attacker-chosen"))
			msg, err := d.DecryptCompact(tok)
			if err == nil {
				t.Fatalf("low-order epk accepted: plaintext %q", msg.Plaintext)
			}
			t.Logf("refused: %v", err)
		})
	}
	t.Run("control", func(t *testing.T) {
		// A proper epk, built the same way, decrypts.
		eph, _ := ecdh.X25519().NewPrivateKey(bytes.Repeat([]byte{7}, 32))
		z, _ := eph.ECDH(priv.PublicKey())
		cek := jwa.ConcatKDF(nil, z, "A128GCM", nil, nil, 16)
		hdr := fmt.Sprintf(`{"alg":"ECDH-ES","enc":"A128GCM","epk":{"kty":"OKP","crv":"X25519","x":%q}}`, jose.Base64URLEncode(eph.PublicKey().Bytes()))
		if _, err := d.DecryptCompact(hzSealCompact(t, hdr, jwa.A128GCM, cek, nil, []byte("ok"))); err != nil {
			t.Fatalf("valid epk refused: %v", err)
		}
	})
}

// TestHostileECDHInvalidCurve sends ECDH-ES tokens for a P-256 key whose
// epk is off the curve, on another curve, or of another key type. Each must
// be refused, never panic.
func TestHostileECDHInvalidCurve(t *testing.T) {
	priv, err := ecdh.P256().NewPrivateKey(sha256Sum("hostile p-256"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.ECDHES, jwa.ECDHESA128KW},
		ContentEncryptions: jwa.ContentEncryptions(),
		Key:                priv,
	})
	if err != nil {
		t.Fatal(err)
	}
	pub := priv.PublicKey().Bytes() // 0x04 || X || Y
	x, y := pub[1:33], bytes.Clone(pub[33:])
	y[31] ^= 1 // off the curve
	p384, err := ecdh.P384().GenerateKey(hzRand{})
	if err != nil {
		t.Fatal(err)
	}
	p384b := p384.PublicKey().Bytes()
	x25519, _ := ecdh.X25519().NewPrivateKey(bytes.Repeat([]byte{5}, 32))
	b64 := jose.Base64URLEncode
	epks := map[string]string{
		"off curve":         fmt.Sprintf(`{"kty":"EC","crv":"P-256","x":%q,"y":%q}`, b64(x), b64(y)),
		"zero point":        fmt.Sprintf(`{"kty":"EC","crv":"P-256","x":%q,"y":%q}`, b64(make([]byte, 32)), b64(make([]byte, 32))),
		"P-384 point":       fmt.Sprintf(`{"kty":"EC","crv":"P-384","x":%q,"y":%q}`, b64(p384b[1:49]), b64(p384b[49:])),
		"P-384 coordinates": fmt.Sprintf(`{"kty":"EC","crv":"P-256","x":%q,"y":%q}`, b64(p384b[1:49]), b64(p384b[49:])),
		"X25519 point":      fmt.Sprintf(`{"kty":"OKP","crv":"X25519","x":%q}`, b64(x25519.PublicKey().Bytes())),
		"oct key":           `{"kty":"oct","k":"AAAAAAAAAAAAAAAAAAAAAA"}`,
		"no epk":            "",
	}
	for name, epk := range epks {
		t.Run(name, func(t *testing.T) {
			for _, alg := range []string{"ECDH-ES", "ECDH-ES+A128KW"} {
				hdr := fmt.Sprintf(`{"alg":%q,"enc":"A128GCM","epk":%s}`, alg, epk)
				if epk == "" {
					hdr = fmt.Sprintf(`{"alg":%q,"enc":"A128GCM"}`, alg)
				}
				ek := []byte(nil)
				if alg != "ECDH-ES" {
					ek = make([]byte, 24)
				}
				tok := hzSealCompact(t, hdr, jwa.A128GCM, make([]byte, 16), ek, []byte("x"))
				if _, err := d.DecryptCompact(tok); err == nil {
					t.Fatalf("%s: accepted", alg)
				} else {
					t.Logf("%s: refused: %v", alg, err)
				}
			}
		})
	}
}

func sha256Sum(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

// hzRand is a deterministic reader for the one EC key this file generates.
type hzRand struct{}

func (hzRand) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(i*7 + 3)
	}
	return len(p), nil
}

// hzValidDir returns a valid dir token for enc.
func hzValidDir(t testing.TB, enc jwa.ContentEncryption, pt string) []byte {
	return hzSealCompact(t, fmt.Sprintf(`{"alg":"dir","enc":%q}`, enc), enc, hzKey, nil, []byte(pt))
}

// TestHostileTagLength truncates, extends and empties the tags of valid
// A256GCM and A128CBC-HS256 tokens: each is the one opaque decryption
// failure, the same error as a flipped tag bit.
func TestHostileTagLength(t *testing.T) {
	d := hzDirDecrypter(t, jose.Limits{})
	for _, enc := range []jwa.ContentEncryption{jwa.A256GCM, jwa.A128CBCHS256} {
		tok := hzValidDir(t, enc, "attack at dawn")
		if _, err := d.DecryptCompact(tok); err != nil {
			t.Fatalf("%s: valid token refused: %v", enc, err)
		}
		parts := strings.Split(string(tok), ".")
		tag, _ := jose.Base64URLDecode(parts[4])
		flipped := bytes.Clone(tag)
		flipped[0] ^= 1
		_, badTag := d.DecryptCompact(hzSegments(tok, 4, jose.Base64URLEncode(flipped)))
		if !errors.Is(badTag, jose.ErrDecryptionFailed) {
			t.Fatalf("%s: flipped tag: %v", enc, badTag)
		}
		variants := map[string][]byte{
			"empty":        nil,
			"truncated 1":  tag[:len(tag)-1],
			"truncated 4":  tag[:len(tag)-4],
			"truncated 8":  tag[:len(tag)-8],
			"one byte":     tag[:1],
			"extended 1":   append(bytes.Clone(tag), 0),
			"extended 16":  append(bytes.Clone(tag), tag...),
			"doubled zero": make([]byte, 2*len(tag)),
		}
		for name, v := range variants {
			t.Run(fmt.Sprintf("%s/%s", enc, name), func(t *testing.T) {
				_, err := d.DecryptCompact(hzSegments(tok, 4, jose.Base64URLEncode(v)))
				if !errors.Is(err, jose.ErrDecryptionFailed) {
					t.Fatalf("err = %v, want ErrDecryptionFailed", err)
				}
				if err.Error() != badTag.Error() {
					t.Fatalf("error %q differs from a bad tag's %q", err, badTag)
				}
			})
		}
	}
}

// hzCBCToken builds a dir A128CBC-HS256 token by hand (RFC 7518 §5.2.2.1)
// whose ciphertext decrypts to block, with a valid tag: the padding of
// block is whatever the test wants.
func hzCBCToken(t *testing.T, block []byte) []byte {
	t.Helper()
	prot := jose.Base64URLEncode([]byte(`{"alg":"dir","enc":"A128CBC-HS256"}`))
	macKey, encKey := hzKey[:16], hzKey[16:]
	iv := bytes.Repeat([]byte{3}, 16)
	c, err := aes.NewCipher(encKey)
	if err != nil {
		t.Fatal(err)
	}
	ct := make([]byte, len(block))
	cipher.NewCBCEncrypter(c, iv).CryptBlocks(ct, block)
	mac := hmac.New(sha256.New, macKey)
	mac.Write([]byte(prot))
	mac.Write(iv)
	mac.Write(ct)
	binary.Write(mac, binary.BigEndian, uint64(len(prot))*8)
	tag := mac.Sum(nil)[:16]
	b64 := jose.Base64URLEncode
	return []byte(prot + ".." + b64(iv) + "." + b64(ct) + "." + b64(tag))
}

// TestHostileCBCPadding decrypts A128CBC-HS256 tokens with a valid tag
// whose plaintext has every kind of bad PKCS #7 padding: each must give the
// same error as a bad tag, so there is no padding oracle.
func TestHostileCBCPadding(t *testing.T) {
	d := hzDirDecrypter(t, jose.Limits{})
	good := append([]byte("0123456789"), 6, 6, 6, 6, 6, 6)
	msg, err := d.DecryptCompact(hzCBCToken(t, good))
	if err != nil || string(msg.Plaintext) != "0123456789" {
		t.Fatalf("control: %v", err)
	}
	tok := hzCBCToken(t, good)
	parts := strings.Split(string(tok), ".")
	tag, _ := jose.Base64URLDecode(parts[4])
	tag[3] ^= 0x80
	_, badTag := d.DecryptCompact(hzSegments(tok, 4, jose.Base64URLEncode(tag)))
	if !errors.Is(badTag, jose.ErrDecryptionFailed) {
		t.Fatalf("bad tag: %v", badTag)
	}
	pad := func(last ...byte) []byte {
		b := bytes.Repeat([]byte{'A'}, 16-len(last))
		return append(b, last...)
	}
	cases := map[string][]byte{
		"zero":              pad(0),
		"17":                pad(17),
		"255":               pad(255),
		"inconsistent 2":    pad(3, 2),
		"inconsistent 16":   append(bytes.Repeat([]byte{16}, 15), 15),
		"wrong byte inside": pad(4, 5, 4, 4),
		"two blocks, 32":    append(bytes.Repeat([]byte{'B'}, 16), bytes.Repeat([]byte{32}, 16)...),
	}
	for name, block := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := d.DecryptCompact(hzCBCToken(t, block))
			if err == nil {
				t.Fatal("bad padding accepted")
			}
			if !errors.Is(err, jose.ErrDecryptionFailed) || err.Error() != badTag.Error() {
				t.Fatalf("error %q, a bad tag gives %q", err, badTag)
			}
		})
	}
}

// hzRSA15 returns a decrypter for the Wycheproof RSA1_5 key and the tokens
// of that group, by tcId.
func hzRSA15(t testing.TB) (*jwe.Decrypter, map[int][]byte) {
	f := vectortest.LoadWycheproof(t, "json_web_encryption_test")
	toks := map[int][]byte{}
	var d *jwe.Decrypter
	for _, g := range f.TestGroups {
		if g.Comment != "jwe_rsa1_5" {
			continue
		}
		for _, tc := range g.Tests {
			var s string
			if err := json.Unmarshal(tc.JWE, &s); err != nil {
				t.Fatal(err)
			}
			toks[tc.TcID] = []byte(s)
		}
		if d != nil {
			continue
		}
		key, err := jose.ParseKey(g.Private)
		if err != nil {
			t.Fatal(err)
		}
		if d, err = jwe.NewDecrypter(jwe.DecryptOptions{
			KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.RSA1_5},
			ContentEncryptions: jwa.ContentEncryptions(),
			Key:                key,
		}); err != nil {
			t.Fatal(err)
		}
	}
	if d == nil || toks[112] == nil || toks[116] == nil {
		t.Fatal("Wycheproof RSA1_5 group not found")
	}
	return d, toks
}

// TestHostileRSA1_5Padding decrypts the Wycheproof RSA1_5 tokens with a
// broken PKCS #1 v1.5 padding (tcId 113-120): each must give exactly the
// error of a valid token whose tag was changed (RFC 7516 §11.5: the
// padding failure is hidden behind a random CEK). The timing side is
// measured by BenchmarkRSA1_5Decrypt.
func TestHostileRSA1_5Padding(t *testing.T) {
	d, toks := hzRSA15(t)
	if _, err := d.DecryptCompact(toks[112]); err != nil {
		t.Fatalf("valid padding refused: %v", err)
	}
	parts := strings.Split(string(toks[112]), ".")
	tag, _ := jose.Base64URLDecode(parts[4])
	tag[0] ^= 1
	_, badTag := d.DecryptCompact(hzSegments(toks[112], 4, jose.Base64URLEncode(tag)))
	if !errors.Is(badTag, jose.ErrDecryptionFailed) {
		t.Fatalf("bad tag: %v", badTag)
	}
	for id := 113; id <= 120; id++ {
		_, err := d.DecryptCompact(toks[id])
		if err == nil || err.Error() != badTag.Error() {
			t.Errorf("tcId %d: error %v, a bad tag gives %q", id, err, badTag)
		}
	}
}

// BenchmarkRSA1_5Decrypt decrypts an RSA1_5 token with a valid padding and
// one with an invalid padding (Wycheproof tcId 112 and 116, same key and
// size): the figures must match, or the timing is a padding oracle.
func BenchmarkRSA1_5Decrypt(b *testing.B) {
	d, toks := hzRSA15(b)
	for _, c := range []struct {
		name string
		id   int
	}{{"ValidPadding", 112}, {"InvalidPadding", 116}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				d.DecryptCompact(toks[c.id])
			}
		})
	}
}

// TestHostileCritical sends validly encrypted tokens whose crit is unknown,
// empty, names a registered or absent member, or sits in an unprotected
// header: all refused; a crit the caller declares is accepted.
func TestHostileCritical(t *testing.T) {
	d := hzDirDecrypter(t, jose.Limits{})
	seal := func(hdr string) []byte { return hzSealCompact(t, hdr, jwa.A256GCM, hzKey, nil, []byte("x")) }
	refused := map[string]string{
		"unknown":    `{"alg":"dir","enc":"A256GCM","crit":["exp"],"exp":1}`,
		"empty":      `{"alg":"dir","enc":"A256GCM","crit":[]}`,
		"absent":     `{"alg":"dir","enc":"A256GCM","crit":["exp"]}`,
		"registered": `{"alg":"dir","enc":"A256GCM","crit":["enc"]}`,
		"not array":  `{"alg":"dir","enc":"A256GCM","crit":"exp","exp":1}`,
	}
	for name, hdr := range refused {
		t.Run(name, func(t *testing.T) {
			if _, err := d.DecryptCompact(seal(hdr)); err == nil {
				t.Fatal("accepted")
			} else {
				t.Logf("refused: %v", err)
			}
		})
	}
	t.Run("declared", func(t *testing.T) {
		dd := hzDirDecrypter(t, jose.Limits{}, "exp")
		if _, err := dd.DecryptCompact(seal(refused["unknown"])); err != nil {
			t.Fatalf("crit the caller understands refused: %v", err)
		}
	})
	t.Run("unprotected", func(t *testing.T) {
		tok := strings.Split(string(seal(`{"alg":"dir","enc":"A256GCM","exp":1}`)), ".")
		data := fmt.Sprintf(`{"protected":%q,"unprotected":{"crit":["exp"]},"iv":%q,"ciphertext":%q,"tag":%q}`, tok[0], tok[2], tok[3], tok[4])
		dd := hzDirDecrypter(t, jose.Limits{}, "exp")
		if _, err := dd.DecryptJSON([]byte(data)); err == nil {
			t.Fatal("crit in the unprotected header accepted")
		}
	})
}

// TestCompressedSizeLimit: a "zip":"DEF" ciphertext longer than
// Limits.MaxCompressedSize is refused with ErrLimitExceeded before any
// key work (the key function is never called), whatever it would inflate
// to: the work of inflation follows the compressed bytes
// (BenchmarkDeflateSmallBlocks). At the limit, and above it when the
// limit is raised, it decrypts; without "zip" the length is no matter.
func TestCompressedSizeLimit(t *testing.T) {
	const limit = 16 << 10 // jose.DefaultMaxCompressedSize
	dec := func(t *testing.T, lim jose.Limits, calls *int) *jwe.Decrypter {
		d, err := jwe.NewDecrypter(jwe.DecryptOptions{
			KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.Direct},
			ContentEncryptions: []jwa.ContentEncryption{jwa.A256GCM},
			KeyFunc: func(*jose.Header) (any, error) {
				*calls++
				return hzKey, nil
			},
			Limits: lim,
		})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, tt := range []struct {
		name     string
		header   string
		n        int // bytes of stored DEFLATE content
		lim      jose.Limits
		refused  bool
		keyCalls int
	}{
		{"at the limit", `{"alg":"dir","enc":"A256GCM","zip":"DEF"}`, limit, jose.Limits{}, false, 1},
		{"a byte over", `{"alg":"dir","enc":"A256GCM","zip":"DEF"}`, limit + 1, jose.Limits{}, true, 0},
		{"raised", `{"alg":"dir","enc":"A256GCM","zip":"DEF"}`, limit + 1, jose.Limits{MaxCompressedSize: limit + 1}, false, 1},
		{"no zip", `{"alg":"dir","enc":"A256GCM"}`, 4 * limit, jose.Limits{}, false, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tok := hzSealCompact(t, tt.header, jwa.A256GCM, hzKey, nil, deflateStored(tt.n))
			calls := 0
			_, err := dec(t, tt.lim, &calls).DecryptCompact(tok)
			if tt.refused != (err != nil) || (tt.refused && !errors.Is(err, jose.ErrLimitExceeded)) {
				t.Fatalf("err = %v, refused want %v", err, tt.refused)
			}
			if calls != tt.keyCalls {
				t.Errorf("key function called %d times, want %d", calls, tt.keyCalls)
			}
		})
	}
}
