package jwe

import (
	"bytes"
	"crypto/ecdh"
	"crypto/hpke"
	"crypto/rand"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
)

// hpkeCurves is the KEM curve of each HPKE Key Encryption algorithm.
var hpkeCurves = map[jwa.KeyAlgorithm]ecdh.Curve{
	jwa.HPKE0KE: ecdh.P256(), jwa.HPKE1KE: ecdh.P384(), jwa.HPKE2KE: ecdh.P521(),
	jwa.HPKE3KE: ecdh.X25519(), jwa.HPKE4KE: ecdh.X25519(), jwa.HPKE7KE: ecdh.P256(),
}

// hpkeEncSizes is the size of the encapsulated secret on each KEM curve.
var hpkeEncSizes = map[ecdh.Curve]int{ecdh.P256(): 65, ecdh.P384(): 97, ecdh.P521(): 133, ecdh.X25519(): 32}

var hpkeEncs = []jwa.ContentEncryption{jwa.A128GCM, jwa.A192GCM, jwa.A256GCM, jwa.A128CBCHS256, jwa.A192CBCHS384, jwa.A256CBCHS512}

// TestHPKEDraftVectors decrypts the examples of
// draft-ietf-jose-hpke-encrypt-20 (testdata/hpke/jose-vectors.json) for
// every Key Encryption and Integrated Encryption algorithm implemented, in
// both serializations, with the JWK given; and checks that the X448 ones
// are refused as unsupported.
func TestHPKEDraftVectors(t *testing.T) {
	var vectors []struct {
		Alg       string
		JWK       json.RawMessage
		Flattened json.RawMessage
		Compact   string
	}
	if err := json.Unmarshal(vectortest.ReadFile(t, "hpke", "jose-vectors.json"), &vectors); err != nil {
		t.Fatal(err)
	}
	done := map[jwa.KeyAlgorithm]bool{}
	for _, v := range vectors {
		alg := jwa.KeyAlgorithm(v.Alg)
		key, err := jose.ParseKey(v.JWK)
		if err != nil {
			if !alg.IsHPKE() && !alg.IsHPKEIntegrated() && errors.Is(err, jose.ErrUnsupportedAlgorithm) {
				continue // an X448 key: no X448 in Go
			}
			t.Fatalf("%s: %v", alg, err)
		}
		opts := DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{alg}, ContentEncryptions: hpkeEncs, Key: key}
		d, err := NewDecrypter(opts)
		if !alg.IsHPKE() && !alg.IsHPKEIntegrated() {
			if !errors.Is(err, jose.ErrUnsupportedAlgorithm) {
				t.Errorf("%s (not implemented): NewDecrypter = %v, want ErrUnsupportedAlgorithm", alg, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", alg, err)
		}
		mc, err := d.DecryptCompact([]byte(strings.TrimSpace(v.Compact)))
		if err != nil {
			t.Errorf("%s compact: %v", alg, err)
			continue
		}
		mf, err := d.DecryptJSON(v.Flattened)
		if err != nil {
			t.Errorf("%s flattened: %v", alg, err)
			continue
		}
		if len(mc.Plaintext) == 0 || !utf8.Valid(mc.Plaintext) || !bytes.Equal(mc.Plaintext, mf.Plaintext) {
			t.Errorf("%s: plaintexts %q and %q", alg, mc.Plaintext, mf.Plaintext)
		}
		if string(mf.AAD) != "The Fellowship of the Ring" {
			t.Errorf("%s: AAD %q", alg, mf.AAD)
		}
		done[alg] = true
	}
	for _, alg := range append(jwa.HPKEKeyAlgorithms(), jwa.HPKEIntegratedAlgorithms()...) {
		if !done[alg] {
			t.Errorf("%s: no draft vector decrypted", alg)
		}
	}
}

// TestHPKERoundTrip encrypts with every HPKE Key Encryption algorithm and
// every enc, compact, flattened and to two recipients (HPKE beside
// ECDH-ES+A128KW), and decrypts; then refuses tampered tokens, another key,
// a key on another curve, and a missing or malformed "ek".
func TestHPKERoundTrip(t *testing.T) {
	plaintext := []byte("HPKE for JWE is still a draft")
	for alg, curve := range hpkeCurves {
		priv, _ := curve.GenerateKey(rand.Reader)
		other, _ := curve.GenerateKey(rand.Reader)
		for _, enc := range hpkeEncs {
			e, err := NewEncrypter(alg, enc, priv.PublicKey(), &EncrypterOptions{KeyID: "r1"})
			if err != nil {
				t.Fatal(err)
			}
			d, err := NewDecrypter(DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{alg}, ContentEncryptions: hpkeEncs, Key: priv})
			if err != nil {
				t.Fatal(err)
			}
			tok, err := e.Compact(plaintext)
			if err != nil {
				t.Fatal(err)
			}
			m, err := d.DecryptCompact(tok)
			if err != nil || !bytes.Equal(m.Plaintext, plaintext) {
				t.Fatalf("%s %s compact: %v", alg, enc, err)
			}
			if len(m.Header.EK) != hpkeEncSizes[curve] || m.Header.Extra["ek"] != nil {
				t.Errorf("%s: ek %x, Extra %q: want the encapsulated secret, typed", alg, m.Header.EK, m.Header.Extra)
			}
			js, err := e.Flattened(plaintext, []byte("aad"))
			if err != nil {
				t.Fatal(err)
			}
			if m, err := d.DecryptJSON(js); err != nil || !bytes.Equal(m.Plaintext, plaintext) {
				t.Errorf("%s %s flattened: %v", alg, enc, err)
			}
			if enc != jwa.A128GCM {
				continue // the refusals once per algorithm
			}
			hpkeRefusals(t, alg, tok, d, other, curve)
		}
		// Two recipients: HPKE and ECDH-ES+A128KW; each decrypts.
		p256, _ := ecdh.P256().GenerateKey(rand.Reader)
		gen, err := EncryptGeneral(jwa.A256GCM, plaintext, nil, nil,
			Recipient{Algorithm: alg, Key: priv.PublicKey()},
			Recipient{Algorithm: jwa.ECDHESA128KW, Key: p256.PublicKey()})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []struct {
			alg jwa.KeyAlgorithm
			key any
		}{{alg, priv}, {jwa.ECDHESA128KW, p256}} {
			d, _ := NewDecrypter(DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{k.alg}, ContentEncryptions: hpkeEncs, Key: k.key})
			if m, err := d.DecryptJSON(gen); err != nil || !bytes.Equal(m.Plaintext, plaintext) {
				t.Errorf("%s general JSON, recipient %s: %v", alg, k.alg, err)
			}
		}
	}
}

// hpkeRefusals checks the refusals of one HPKE compact token.
func hpkeRefusals(t *testing.T, alg jwa.KeyAlgorithm, tok []byte, d *Decrypter, other *ecdh.PrivateKey, curve ecdh.Curve) {
	t.Helper()
	parts := bytes.Split(tok, []byte("."))
	join := func(i int, p []byte) []byte {
		q := append([][]byte{}, parts...)
		q[i] = p
		return bytes.Join(q, []byte("."))
	}
	flip := func(seg []byte) []byte {
		raw, err := jose.Base64URLDecode(string(seg))
		if err != nil {
			t.Fatal(err)
		}
		raw[len(raw)/2] ^= 1
		return []byte(jose.Base64URLEncode(raw))
	}
	for i := 1; i < 5; i++ {
		if _, err := d.DecryptCompact(join(i, flip(parts[i]))); !errors.Is(err, jose.ErrDecryptionFailed) {
			t.Errorf("%s: part %d tampered: %v, want ErrDecryptionFailed", alg, i, err)
		}
	}
	hdr, _ := jose.Base64URLDecode(string(parts[0]))
	var h map[string]any
	if err := json.Unmarshal(hdr, &h); err != nil {
		t.Fatal(err)
	}
	withHeader := func(edit func(map[string]any)) []byte {
		c := map[string]any{}
		for k, v := range h {
			c[k] = v
		}
		edit(c)
		b, _ := json.Marshal(c)
		return join(0, []byte(jose.Base64URLEncode(b)))
	}
	ek, _ := jose.Base64URLDecode(h["ek"].(string))
	badEK := bytes.Clone(ek)
	badEK[len(badEK)-1] ^= 1
	for name, c := range map[string]struct {
		tok  []byte
		want []error
	}{
		"ek changed":       {withHeader(func(m map[string]any) { m["ek"] = jose.Base64URLEncode(badEK) }), []error{jose.ErrDecryptionFailed, jose.ErrMalformed}},
		"ek missing":       {withHeader(func(m map[string]any) { delete(m, "ek") }), []error{jose.ErrMalformed}},
		"ek short":         {withHeader(func(m map[string]any) { m["ek"] = jose.Base64URLEncode(ek[1:]) }), []error{jose.ErrMalformed, jose.ErrDecryptionFailed}},
		"ek not a string":  {withHeader(func(m map[string]any) { m["ek"] = 1 }), []error{jose.ErrMalformed}},
		"ek not base64url": {withHeader(func(m map[string]any) { m["ek"] = "+/" }), []error{jose.ErrMalformed}},
		"ek empty":         {withHeader(func(m map[string]any) { m["ek"] = "" }), []error{jose.ErrMalformed}},
		// Longer than any KEM's encapsulated secret: refused before decoding.
		"ek too long":       {withHeader(func(m map[string]any) { m["ek"] = strings.Repeat("A", 179) }), []error{jose.ErrLimitExceeded}},
		"psk_id (mode_psk)": {withHeader(func(m map[string]any) { m["psk_id"] = "cHNr" }), []error{jose.ErrUnsupportedAlgorithm}},
		// The Recipient_structure binds enc: the same ciphertext under
		// another enc of the same key size does not decrypt.
		"enc changed": {withHeader(func(m map[string]any) { m["enc"] = "A128CBC-HS256" }), []error{jose.ErrDecryptionFailed}},
	} {
		_, err := d.DecryptCompact(c.tok)
		if !vectortest.WrapsAny(err, c.want...) {
			t.Errorf("%s: %s: %v, want one of %v", alg, name, err, c.want)
		}
	}
	od, _ := NewDecrypter(DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{alg}, ContentEncryptions: hpkeEncs, Key: other})
	if _, err := od.DecryptCompact(tok); !errors.Is(err, jose.ErrDecryptionFailed) {
		t.Errorf("%s: another key: %v, want ErrDecryptionFailed", alg, err)
	}
	wrongCurve := ecdh.X25519()
	if curve == ecdh.X25519() {
		wrongCurve = ecdh.P256()
	}
	wk, _ := wrongCurve.GenerateKey(rand.Reader)
	// A single key that fits no listed algorithm is refused by the constructor.
	if _, err := NewDecrypter(DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{alg}, ContentEncryptions: hpkeEncs, Key: wk}); !errors.Is(err, jose.ErrInvalidKey) {
		t.Errorf("%s: NewDecrypter with a key on %v: %v, want ErrInvalidKey", alg, wrongCurve, err)
	}
	if _, err := NewEncrypter(alg, jwa.A128GCM, wk.PublicKey(), nil); !errors.Is(err, jose.ErrInvalidKey) {
		t.Errorf("%s: NewEncrypter with a key on %v: %v", alg, wrongCurve, err)
	}
}

// TestHPKEIntegrated encrypts with every HPKE Integrated Encryption
// algorithm (no "enc"; the HPKE ciphertext is the JWE Ciphertext), compact,
// flattened with an AAD, and compressed, and decrypts with an empty
// ContentEncryptions; then refuses tampering with any part, an "enc" or an
// "ek" in the header, a non-empty IV or tag, another key, a key on another
// curve, two recipients, and an enc given to NewEncrypter.
func TestHPKEIntegrated(t *testing.T) {
	plaintext := []byte("integrated: the HPKE ciphertext is the JWE ciphertext")
	for _, alg := range jwa.HPKEIntegratedAlgorithms() {
		curve := hpkeCurves[alg+"-KE"]
		priv, _ := curve.GenerateKey(rand.Reader)
		other, _ := curve.GenerateKey(rand.Reader)
		e, err := NewEncrypter(alg, "", priv.PublicKey(), &EncrypterOptions{KeyID: "i1"})
		if err != nil {
			t.Fatal(err)
		}
		d, err := NewDecrypter(DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{alg}, Key: priv})
		if err != nil {
			t.Fatal(err)
		}
		tok, err := e.Compact(plaintext)
		if err != nil {
			t.Fatal(err)
		}
		parts := bytes.Split(tok, []byte("."))
		if len(parts[2]) != 0 || len(parts[4]) != 0 {
			t.Errorf("%s: IV %q and tag %q not empty", alg, parts[2], parts[4])
		}
		m, err := d.DecryptCompact(tok)
		if err != nil || !bytes.Equal(m.Plaintext, plaintext) {
			t.Fatalf("%s compact: %v", alg, err)
		}
		if m.Header.Encryption != "" || m.Header.Has("enc") {
			t.Errorf("%s: the header has enc", alg)
		}
		js, err := e.Flattened(plaintext, []byte("aad"))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(js, []byte(`"iv"`)) || bytes.Contains(js, []byte(`"tag"`)) {
			t.Errorf("%s flattened has iv or tag: %s", alg, js)
		}
		if m, err := d.DecryptJSON(js); err != nil || !bytes.Equal(m.Plaintext, plaintext) || string(m.AAD) != "aad" {
			t.Errorf("%s flattened: %v", alg, err)
		}
		ze, _ := NewEncrypter(alg, "", priv.PublicKey(), &EncrypterOptions{Compress: true})
		ztok, _ := ze.Compact(bytes.Repeat(plaintext, 10))
		if m, err := d.DecryptCompact(ztok); err != nil || !bytes.Equal(m.Plaintext, bytes.Repeat(plaintext, 10)) {
			t.Errorf("%s compressed: %v", alg, err)
		}

		join := func(i int, p []byte) []byte {
			q := append([][]byte{}, parts...)
			q[i] = p
			return bytes.Join(q, []byte("."))
		}
		for _, i := range []int{1, 3} {
			raw, _ := jose.Base64URLDecode(string(parts[i]))
			raw[len(raw)/2] ^= 1
			if _, err := d.DecryptCompact(join(i, []byte(jose.Base64URLEncode(raw)))); !errors.Is(err, jose.ErrDecryptionFailed) {
				t.Errorf("%s: part %d tampered: %v, want ErrDecryptionFailed", alg, i, err)
			}
		}
		for name, c := range map[string]struct {
			tok  []byte
			want error
		}{
			"IV not empty":           {join(2, []byte("AAAAAAAAAAAAAAAA")), jose.ErrDecryptionFailed},
			"tag not empty":          {join(4, []byte("AAAAAAAAAAAAAAAAAAAAAA")), jose.ErrDecryptionFailed},
			"encrypted key short":    {join(1, parts[1][:len(parts[1])-4]), jose.ErrMalformed},
			"encrypted key empty":    {join(1, nil), jose.ErrMalformed},
			"header with enc":        {hpkeEditHeader(t, tok, func(m map[string]any) { m["enc"] = "A128GCM" }), jose.ErrMalformed},
			"header with ek":         {hpkeEditHeader(t, tok, func(m map[string]any) { m["ek"] = "AAAA" }), jose.ErrMalformed},
			"header with psk_id":     {hpkeEditHeader(t, tok, func(m map[string]any) { m["psk_id"] = "AAAA" }), jose.ErrUnsupportedAlgorithm},
			"header changed (typ)":   {hpkeEditHeader(t, tok, func(m map[string]any) { m["typ"] = "JWT" }), jose.ErrDecryptionFailed},
			"another integrated alg": {hpkeEditHeader(t, tok, func(m map[string]any) { m["alg"] = string(hpkeOtherIntegrated(alg)) }), jose.ErrAlgorithmNotAllowed},
		} {
			_, err := d.DecryptCompact(c.tok)
			t.Logf("%s: %s: %v", alg, name, err)
			if !errors.Is(err, c.want) {
				t.Errorf("%s: %s: %v, want %v", alg, name, err, c.want)
			}
		}
		od, _ := NewDecrypter(DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{alg}, Key: other})
		if _, err := od.DecryptCompact(tok); !errors.Is(err, jose.ErrDecryptionFailed) {
			t.Errorf("%s: another key: %v", alg, err)
		}
		wrongCurve := ecdh.X25519()
		if curve == ecdh.X25519() {
			wrongCurve = ecdh.P384()
		}
		wk, _ := wrongCurve.GenerateKey(rand.Reader)
		if _, err := NewDecrypter(DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{alg}, Key: wk}); !errors.Is(err, jose.ErrInvalidKey) {
			t.Errorf("%s: NewDecrypter with a key on %v: %v, want ErrInvalidKey", alg, wrongCurve, err)
		}
		if _, err := NewEncrypter(alg, jwa.A128GCM, priv.PublicKey(), nil); err == nil {
			t.Errorf("%s: NewEncrypter with an enc succeeded", alg)
		}
		if _, err := EncryptGeneral(jwa.A128GCM, plaintext, nil, nil, Recipient{Algorithm: alg, Key: priv.PublicKey()}); err == nil {
			t.Errorf("%s: EncryptGeneral succeeded", alg)
		}
		// A general JSON token with two recipients, one of them integrated.
		two := []byte(`{"protected":"` + string(parts[0]) + `","recipients":[{"encrypted_key":"` + string(parts[1]) + `"},{"header":{"alg":"` + string(alg) + `"},"encrypted_key":"` + string(parts[1]) + `"}],"ciphertext":"` + string(parts[3]) + `"}`)
		_, err = d.DecryptJSON(two)
		t.Logf("%s: two recipients: %v", alg, err)
		if !errors.Is(err, jose.ErrMalformed) {
			t.Errorf("%s: two recipients: %v, want ErrMalformed", alg, err)
		}
	}
	// A Decrypter for RFC 7518 algorithms still needs its enc allow-list.
	if _, err := NewDecrypter(DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.HPKE0, jwa.ECDHES}, Key: []byte("k")}); err == nil {
		t.Error("NewDecrypter with ECDH-ES and no ContentEncryptions succeeded")
	}
}

func hpkeOtherIntegrated(alg jwa.KeyAlgorithm) jwa.KeyAlgorithm {
	if alg == jwa.HPKE0 {
		return jwa.HPKE7
	}
	return jwa.HPKE0
}

// hpkeEditHeader returns tok with its protected header changed by edit.
func hpkeEditHeader(t *testing.T, tok []byte, edit func(map[string]any)) []byte {
	t.Helper()
	parts := bytes.Split(tok, []byte("."))
	raw, _ := jose.Base64URLDecode(string(parts[0]))
	var h map[string]any
	if err := json.Unmarshal(raw, &h); err != nil {
		t.Fatal(err)
	}
	edit(h)
	b, _ := json.Marshal(h)
	parts[0] = []byte(jose.Base64URLEncode(b))
	return bytes.Join(parts, []byte("."))
}

// TestHPKEAllocs: HPKE-0-KE compact encryption and decryption allocate
// little more than the crypto/hpke calls they make (NewSender and Seal,
// NewRecipient and Open), whose own count depends on the Go release; the
// layer's share is the CEK, the content cipher, the header and the token,
// as for ECDH-ES. Before "ek" was a typed member it cost 16 more.
func TestHPKEAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts: not in -short")
	}
	if vectortest.RaceEnabled {
		t.Skip("allocation counts: not under -race (the race detector allocates; see vectortest.ZeroAllocs)")
	}
	priv, _ := ecdh.P256().GenerateKey(rand.Reader)
	e, err := NewEncrypter(jwa.HPKE0KE, jwa.A128GCM, priv.PublicKey(), nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDecrypter(DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.HPKE0KE}, ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM}, Key: priv})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := e.Compact(rtPlaintext)
	if err != nil {
		t.Fatal(err)
	}
	pk, _ := hpke.NewDHKEMPublicKey(priv.PublicKey())
	sk, _ := hpke.NewDHKEMPrivateKey(priv)
	info := []byte("JOSE-HPKE rcpt\xffA128GCM\xff")
	cek := make([]byte, 16)
	encap, s, _ := hpke.NewSender(pk, hpke.HKDFSHA256(), hpke.AES128GCM(), info)
	sealed, _ := s.Seal(nil, cek)
	const layer = 10 // the CEK, KeyParams, content cipher (3), header, token ...
	for _, c := range []struct {
		name       string
		bare, jose func()
	}{
		{"encrypt", func() {
			_, s, _ := hpke.NewSender(pk, hpke.HKDFSHA256(), hpke.AES128GCM(), info)
			_, _ = s.Seal(nil, cek)
		}, func() {
			if _, err := e.Compact(rtPlaintext); err != nil {
				t.Fatal(err)
			}
		}},
		{"decrypt", func() {
			r, _ := hpke.NewRecipient(encap, sk, hpke.HKDFSHA256(), hpke.AES128GCM(), info)
			_, _ = r.Open(nil, sealed)
		}, func() {
			if _, err := d.DecryptCompact(tok); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		bare, got := testing.AllocsPerRun(20, c.bare), testing.AllocsPerRun(20, c.jose)
		if got > bare+layer {
			t.Errorf("HPKE-0-KE %s: %v allocations, crypto/hpke alone %v: more than %d for the layer", c.name, got, bare, layer)
		}
	}
}

// TestHPKEIntegratedCompressedSizeLimit: Limits.MaxCompressedSize bounds
// the DEFLATE bytes of an HPKE Integrated Encryption token as of any other:
// its JWE Ciphertext holds the HPKE tag too (the JWE tag is empty), which
// is not compressed content. DEFLATE of exactly the limit decrypts, one
// byte more is refused with ErrLimitExceeded, compact and flattened.
func TestHPKEIntegratedCompressedSizeLimit(t *testing.T) {
	plaintextFor := plaintextDeflatingTo(t)
	for _, alg := range jwa.HPKEIntegratedAlgorithms() {
		priv, _ := hpkeCurves[alg+"-KE"].GenerateKey(rand.Reader)
		e, err := NewEncrypter(alg, "", priv.PublicKey(), &EncrypterOptions{Compress: true})
		if err != nil {
			t.Fatal(err)
		}
		d, err := NewDecrypter(DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{alg}, Key: priv})
		if err != nil {
			t.Fatal(err)
		}
		for _, over := range []int{0, 1} {
			pt := plaintextFor(jose.DefaultMaxCompressedSize + over)
			tok, err := e.Compact(pt)
			if err != nil {
				t.Fatal(err)
			}
			js, err := e.Flattened(pt, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, errC := d.DecryptCompact(tok)
			_, errJ := d.DecryptJSON(js)
			for name, err := range map[string]error{"compact": errC, "flattened": errJ} {
				if over == 0 && err != nil {
					t.Errorf("%s %s: DEFLATE of the limit refused: %v", alg, name, err)
				}
				if over == 1 && !errors.Is(err, jose.ErrLimitExceeded) {
					t.Errorf("%s %s: DEFLATE a byte over the limit: %v, want ErrLimitExceeded", alg, name, err)
				}
			}
		}
	}
}
