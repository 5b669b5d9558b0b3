package jwe

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/jwa"
)

var rfKey16 = bytes.Repeat([]byte{0x17}, 16)

// rfFlip returns tok with the character at i replaced by another base64url
// character.
func rfFlip(tok []byte, i int) []byte {
	out := bytes.Clone(tok)
	if out[i] == 'A' {
		out[i] = 'B'
	} else {
		out[i] = 'A'
	}
	return out
}

// TestTamperEverySegment changes every character of compact tokens, one at
// a time: each change is refused, and outside the header always with the
// opaque decryption error or, for a non-canonical last character, as
// malformed.
func TestTamperEverySegment(t *testing.T) {
	for _, tc := range []struct {
		alg  jwa.KeyAlgorithm
		enc  jwa.ContentEncryption
		step int // test every step-th position (RSA is slow)
	}{
		{jwa.Direct, jwa.A128GCM, 1},
		{jwa.A128KW, jwa.A128CBCHS256, 1},
		{jwa.A256GCMKW, jwa.A256GCM, 1},
		{jwa.RSAOAEP, jwa.A128GCM, 23},
		{jwa.RSA1_5, jwa.A128CBCHS256, 23},
		{jwa.ECDHESA128KW, jwa.A128GCM, 7},
	} {
		t.Run(string(tc.alg), func(t *testing.T) {
			ek, dk := rtKeys(t, tc.alg, tc.enc, "")
			e, err := NewEncrypter(tc.alg, tc.enc, ek, nil)
			if err != nil {
				t.Fatal(err)
			}
			d := rtDecrypter(t, tc.alg, tc.enc, dk)
			tok, _ := e.Compact([]byte("tamper with me, if you can"))
			seg := 0
			for i := 0; i < len(tok); i++ {
				if tok[i] == '.' {
					seg++
					continue
				}
				if i%tc.step != 0 && i+1 != len(tok) && tok[i+1] != '.' {
					continue
				}
				m, err := d.DecryptCompact(rfFlip(tok, i))
				if err == nil || m != nil {
					t.Fatalf("segment %d offset %d: tampered token accepted", seg, i)
				}
				switch {
				case errors.Is(err, jose.ErrDecryptionFailed):
					if err.Error() != errDecrypt.Error() {
						t.Fatalf("decryption error %q is not the opaque one", err)
					}
				case errors.Is(err, jose.ErrMalformed):
				case seg == 0 && (errors.Is(err, jose.ErrAlgorithmNotAllowed) || errors.Is(err, jose.ErrUnsupportedAlgorithm) || errors.Is(err, jose.ErrInvalidKey)):
					// A changed header may name another algorithm, or hold an
					// epk that is not a point of its curve.
				default:
					t.Fatalf("segment %d offset %d: %v", seg, i, err)
				}
			}
			// A tag cut short, and an IV of the wrong size, are decryption
			// failures too.
			parts := bytes.Split(tok, []byte("."))
			tag, _ := jose.Base64URLDecode(parts[4])
			parts[4] = []byte(jose.Base64URLEncode(tag[:12]))
			if _, err := d.DecryptCompact(bytes.Join(parts, []byte("."))); err != errDecrypt {
				t.Fatalf("short tag: %v", err)
			}
		})
	}
}

// TestTamperProtectedHeader re-encodes a valid header with one more
// member: it parses, but the AAD no longer matches.
func TestTamperProtectedHeader(t *testing.T) {
	e, _ := NewEncrypter(jwa.A128KW, jwa.A128GCM, rfKey16, nil)
	d := rtDecrypter(t, jwa.A128KW, jwa.A128GCM, rfKey16)
	tok, _ := e.Compact([]byte("x"))
	i := bytes.IndexByte(tok, '.')
	h := jose.Base64URLEncode([]byte(`{"alg":"A128KW","enc":"A128GCM","kid":"x"}`))
	if _, err := d.DecryptCompact(append([]byte(h), tok[i:]...)); err != errDecrypt {
		t.Fatalf("err %v", err)
	}
}

// TestOpaqueErrors: wrong key, bad tag, bad wrapped key and RSA1_5 bad
// padding all give the same error value and message.
func TestOpaqueErrors(t *testing.T) {
	var errs []error
	e, _ := NewEncrypter(jwa.A128KW, jwa.A128CBCHS256, rfKey16, nil)
	tok, _ := e.Compact([]byte("secret"))
	other := rtDecrypter(t, jwa.A128KW, jwa.A128CBCHS256, bytes.Repeat([]byte{1}, 16))
	_, err := other.DecryptCompact(tok)
	errs = append(errs, err)
	d := rtDecrypter(t, jwa.A128KW, jwa.A128CBCHS256, rfKey16)
	_, err = d.DecryptCompact(rfFlip(tok, len(tok)-5)) // tag
	errs = append(errs, err)
	_, err = d.DecryptCompact(rfFlip(tok, bytes.IndexByte(tok, '.')+3)) // wrapped key
	errs = append(errs, err)
	ct := bytes.LastIndexByte(tok, '.') - 4 // last ciphertext block: padding
	_, err = d.DecryptCompact(rfFlip(tok, ct))
	errs = append(errs, err)

	rk := rtRSAKey()
	e, _ = NewEncrypter(jwa.RSA1_5, jwa.A128GCM, &rk.PublicKey, nil)
	tok, _ = e.Compact([]byte("secret"))
	d = rtDecrypter(t, jwa.RSA1_5, jwa.A128GCM, rk)
	_, err = d.DecryptCompact(rfFlip(tok, bytes.IndexByte(tok, '.')+10))
	errs = append(errs, err)
	for i, err := range errs {
		if err != errDecrypt {
			t.Errorf("case %d: %v, want %v", i, err, errDecrypt)
		}
	}
}

func rfExpect(t *testing.T, name string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%s: err %v, want %v", name, err, want)
	}
}

func TestNewDecrypterRefuses(t *testing.T) {
	algs := []jwa.KeyAlgorithm{jwa.A128KW}
	encs := []jwa.ContentEncryption{jwa.A128GCM}
	for name, o := range map[string]DecryptOptions{
		"no algs":  {ContentEncryptions: encs, Key: rfKey16},
		"no encs":  {KeyAlgorithms: algs, Key: rfKey16},
		"no key":   {KeyAlgorithms: algs, ContentEncryptions: encs},
		"two keys": {KeyAlgorithms: algs, ContentEncryptions: encs, Key: rfKey16, Keys: &jose.Set{}},
		"bad alg":  {KeyAlgorithms: []jwa.KeyAlgorithm{"none"}, ContentEncryptions: encs, Key: rfKey16},
		"bad enc":  {KeyAlgorithms: algs, ContentEncryptions: []jwa.ContentEncryption{"A128CBC"}, Key: rfKey16},
	} {
		if d, err := NewDecrypter(o); err == nil || d != nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestNewEncrypterRefuses(t *testing.T) {
	_, err := NewEncrypter("A128XX", jwa.A128GCM, rfKey16, nil)
	rfExpect(t, "alg", err, jose.ErrUnsupportedAlgorithm)
	_, err = NewEncrypter(jwa.A128KW, "A128XX", rfKey16, nil)
	rfExpect(t, "enc", err, jose.ErrUnsupportedAlgorithm)
	_, err = NewEncrypter(jwa.A256KW, jwa.A128GCM, rfKey16, nil)
	rfExpect(t, "key size", err, jose.ErrInvalidKey)
	_, err = NewEncrypter(jwa.RSAOAEP, jwa.A128GCM, rfKey16, nil)
	rfExpect(t, "key type", err, jose.ErrInvalidKey)
	_, err = NewEncrypter(jwa.PBES2HS256A128KW, jwa.A128GCM, &rtRSAKey().PublicKey, nil)
	rfExpect(t, "pbes2 key type", err, jose.ErrInvalidKey)
	_, err = NewEncrypter(jwa.Direct, jwa.A256GCM, rfKey16, nil)
	rfExpect(t, "dir key size", err, jose.ErrInvalidKey)
	j := &jose.JWK{Key: rfKey16, Algorithm: "A128GCMKW"}
	_, err = NewEncrypter(jwa.A128KW, jwa.A128GCM, j, nil)
	rfExpect(t, "jwk alg", err, jose.ErrAlgorithmNotAllowed)
	j = &jose.JWK{Key: rfKey16, KeyOps: []jose.KeyOp{jose.OpUnwrapKey}}
	_, err = NewEncrypter(jwa.A128KW, jwa.A128GCM, j, nil)
	rfExpect(t, "jwk key_ops", err, jose.ErrAlgorithmNotAllowed)
	if _, err := NewEncrypter(jwa.A128KW, jwa.A128GCM, rfKey16, &EncrypterOptions{Extra: map[string]any{"zip": "DEF"}}); err == nil {
		t.Error("extra registered member accepted")
	}
	if _, err := NewEncrypter(jwa.A128KW, jwa.A128GCM, rfKey16, &EncrypterOptions{Extra: map[string]any{"f": func() {}}}); err == nil {
		t.Error("unmarshalable extra member accepted")
	}
	if _, err := NewEncrypter(jwa.A128KW, jwa.A128GCM, rfKey16, &EncrypterOptions{KeyID: "a", Unprotected: &jose.Header{KeyID: "b"}}); err == nil {
		t.Error("kid both protected and unprotected accepted")
	}
	if _, err := NewEncrypter(jwa.A128GCMKW, jwa.A128GCM, rfKey16, &EncrypterOptions{Unprotected: &jose.Header{IV: []byte("123456789012")}}); err == nil {
		t.Error("iv both protected (GCM key wrap) and unprotected accepted")
	}
	if _, err := NewEncrypter(jwa.A128KW, jwa.A128GCM, rfKey16, &EncrypterOptions{Unprotected: &jose.Header{Compression: "DEF"}}); err == nil {
		t.Error("unprotected zip accepted")
	}
	e, err := NewEncrypter(jwa.A128KW, jwa.A128GCM, rfKey16, &EncrypterOptions{Unprotected: &jose.Header{JKU: "https://x"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Compact([]byte("x")); err == nil {
		t.Error("compact with an unprotected header accepted")
	}
}

// TestEncryptGeneralRefuses covers the recipient rules of EncryptGeneral.
func TestEncryptGeneralRefuses(t *testing.T) {
	two := func(alg jwa.KeyAlgorithm, key any) []Recipient {
		return []Recipient{{Algorithm: alg, Key: key}, {Algorithm: jwa.A128KW, Key: rfKey16}}
	}
	ecPub, _ := rtKeys(t, jwa.ECDHES, jwa.A128GCM, "")
	for name, tc := range map[string]struct {
		opts *EncrypterOptions
		rs   []Recipient
	}{
		"none":                 {nil, nil},
		"dir with two":         {nil, two(jwa.Direct, rfKey16)},
		"ECDH-ES with two":     {nil, two(jwa.ECDHES, ecPub)},
		"kid twice":            {&EncrypterOptions{KeyID: "a"}, []Recipient{{jwa.A128KW, rfKey16, &jose.Header{KeyID: "b"}}}},
		"shared and recipient": {&EncrypterOptions{Unprotected: &jose.Header{KeyID: "a"}}, []Recipient{{jwa.A128KW, rfKey16, &jose.Header{KeyID: "b"}}}},
		"recipient zip":        {nil, []Recipient{{jwa.A128KW, rfKey16, &jose.Header{Compression: "DEF"}}}},
		"recipient alg":        {nil, []Recipient{{jwa.A128KW, rfKey16, &jose.Header{Algorithm: "A256KW"}}}},
		"recipient iv":         {nil, []Recipient{{jwa.A128GCMKW, rfKey16, &jose.Header{IV: []byte("123456789012")}}}},
		"bad key":              {nil, []Recipient{{jwa.A128KW, []byte("short"), nil}}},
		"shared crit":          {&EncrypterOptions{Unprotected: &jose.Header{Critical: []string{"x"}}}, []Recipient{{jwa.A128KW, rfKey16, nil}}},
	} {
		if out, err := EncryptGeneral(jwa.A128GCM, []byte("x"), nil, tc.opts, tc.rs...); err == nil {
			t.Errorf("%s: accepted: %s", name, out)
		}
	}
	if _, err := EncryptGeneral("A1", []byte("x"), nil, nil, Recipient{Algorithm: jwa.A128KW, Key: rfKey16}); !errors.Is(err, jose.ErrUnsupportedAlgorithm) {
		t.Errorf("bad enc: %v", err)
	}
}

func rfDecrypter(t *testing.T, o DecryptOptions) *Decrypter {
	t.Helper()
	if o.KeyAlgorithms == nil {
		o.KeyAlgorithms = []jwa.KeyAlgorithm{jwa.A128KW}
	}
	if o.ContentEncryptions == nil {
		o.ContentEncryptions = []jwa.ContentEncryption{jwa.A128GCM}
	}
	if o.Key == nil && o.Keys == nil && o.KeyFunc == nil {
		o.Key = rfKey16
	}
	d, err := NewDecrypter(o)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// rfToken builds a compact token with the given protected header JSON and
// the other segments of a real A128KW+A128GCM token.
func rfToken(t *testing.T, header string) []byte {
	e, _ := NewEncrypter(jwa.A128KW, jwa.A128GCM, rfKey16, nil)
	tok, _ := e.Compact([]byte("x"))
	i := bytes.IndexByte(tok, '.')
	return append([]byte(jose.Base64URLEncode([]byte(header))), tok[i:]...)
}

// TestDecryptRefusesBeforeCrypto checks that the allow-lists, limits and
// header rules refuse a token before any key is looked up.
func TestDecryptRefusesBeforeCrypto(t *testing.T) {
	called := false
	keyFunc := func(*jose.Header) (any, error) { called = true; return rfKey16, nil }
	pbes := []jwa.KeyAlgorithm{jwa.PBES2HS256A128KW}
	million := bytes.Repeat([]byte("."), 1<<20-1)
	for _, tc := range []struct {
		name string
		tok  []byte
		opts DecryptOptions
		want error
	}{
		{"alg not allowed", rfToken(t, `{"alg":"A256KW","enc":"A128GCM"}`), DecryptOptions{}, jose.ErrAlgorithmNotAllowed},
		{"enc not allowed", rfToken(t, `{"alg":"A128KW","enc":"A256GCM"}`), DecryptOptions{}, jose.ErrAlgorithmNotAllowed},
		{"alg none", rfToken(t, `{"alg":"none","enc":"A128GCM"}`), DecryptOptions{}, jose.ErrAlgorithmNotAllowed},
		{"alg missing", rfToken(t, `{"enc":"A128GCM"}`), DecryptOptions{}, jose.ErrMalformed},
		{"enc missing", rfToken(t, `{"alg":"A128KW"}`), DecryptOptions{}, jose.ErrMalformed},
		{"alg not a string", rfToken(t, `{"alg":1,"enc":"A128GCM"}`), DecryptOptions{}, jose.ErrMalformed},
		{"duplicate member", rfToken(t, `{"alg":"A128KW","alg":"A128KW","enc":"A128GCM"}`), DecryptOptions{}, jose.ErrMalformed},
		{"header not an object", rfToken(t, `["alg"]`), DecryptOptions{}, jose.ErrMalformed},
		{"zip unknown", rfToken(t, `{"alg":"A128KW","enc":"A128GCM","zip":"GZIP"}`), DecryptOptions{}, jose.ErrUnsupportedAlgorithm},
		{"crit not understood", rfToken(t, `{"alg":"A128KW","enc":"A128GCM","crit":["exp"],"exp":1}`), DecryptOptions{}, jose.ErrUnsupportedCritical},
		{"crit registered", rfToken(t, `{"alg":"A128KW","enc":"A128GCM","crit":["kid"],"kid":"a"}`), DecryptOptions{Critical: []string{"kid"}}, jose.ErrMalformed},
		{"crit absent member", rfToken(t, `{"alg":"A128KW","enc":"A128GCM","crit":["exp"]}`), DecryptOptions{Critical: []string{"exp"}}, jose.ErrMalformed},
		{"crit empty", rfToken(t, `{"alg":"A128KW","enc":"A128GCM","crit":[]}`), DecryptOptions{}, jose.ErrMalformed},
		{"p2c too large", rfToken(t, `{"alg":"PBES2-HS256+A128KW","enc":"A128GCM","p2s":"AAAAAAAAAAAAAAAAAAAAAA","p2c":1000000000}`), DecryptOptions{KeyAlgorithms: pbes}, jose.ErrLimitExceeded},
		{"p2c too small", rfToken(t, `{"alg":"PBES2-HS256+A128KW","enc":"A128GCM","p2s":"AAAAAAAAAAAAAAAAAAAAAA","p2c":999}`), DecryptOptions{KeyAlgorithms: pbes}, jose.ErrLimitExceeded},
		{"p2c missing", rfToken(t, `{"alg":"PBES2-HS256+A128KW","enc":"A128GCM","p2s":"AAAAAAAAAAAAAAAAAAAAAA"}`), DecryptOptions{KeyAlgorithms: pbes}, jose.ErrLimitExceeded},
		{"four segments", []byte("a.b.c.d"), DecryptOptions{}, jose.ErrMalformed},
		{"six segments", []byte("a.b.c.d.e.f"), DecryptOptions{}, jose.ErrMalformed},
		{"a million dots", million, DecryptOptions{}, jose.ErrMalformed},
		{"token too large", append(million, '.', '.'), DecryptOptions{}, jose.ErrLimitExceeded},
		{"header too large", rfToken(t, `{"alg":"A128KW","enc":"A128GCM","x":"`+strings.Repeat("a", 200)+`"}`), DecryptOptions{Limits: jose.Limits{MaxHeaderSize: 100}}, jose.ErrLimitExceeded},
		{"empty header", []byte(".a.b.c.d"), DecryptOptions{}, jose.ErrMalformed},
		{"header not base64url", []byte("ey+J.a.b.c.d"), DecryptOptions{}, jose.ErrMalformed},
		{"epk not EC", rfToken(t, `{"alg":"ECDH-ES","enc":"A128GCM","epk":{"kty":"oct","k":"AAAA"}}`), DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.ECDHES}}, jose.ErrMalformed},
		{"epk missing", rfToken(t, `{"alg":"ECDH-ES","enc":"A128GCM"}`), DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.ECDHES}}, jose.ErrMalformed},
		{"dir with encrypted key", rfToken(t, `{"alg":"dir","enc":"A128GCM"}`), DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.Direct}}, jose.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			called = false
			tc.opts.KeyFunc = keyFunc
			d := rfDecrypter(t, tc.opts)
			m, err := d.DecryptCompact(tc.tok)
			if !errors.Is(err, tc.want) || m != nil {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
			if called {
				t.Fatal("key function called")
			}
			if !strings.HasPrefix(err.Error(), "jwe: ") {
				t.Fatalf("error %q lacks the package prefix", err)
			}
		})
	}
}

// TestCriticalUnderstood: a "crit" extension the caller declares is
// accepted.
func TestCriticalUnderstood(t *testing.T) {
	e, err := NewEncrypter(jwa.A128KW, jwa.A128GCM, rfKey16, &EncrypterOptions{Extra: map[string]any{"exp": 1363284000}, Critical: []string{"exp"}})
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := e.Compact([]byte("x"))
	if _, err := rfDecrypter(t, DecryptOptions{}).DecryptCompact(tok); !errors.Is(err, jose.ErrUnsupportedCritical) {
		t.Fatalf("undeclared: %v", err)
	}
	m, err := rfDecrypter(t, DecryptOptions{Critical: []string{"exp"}}).DecryptCompact(tok)
	if err != nil || string(m.Header.Extra["exp"]) != "1363284000" {
		t.Fatalf("declared: %v", err)
	}
}

// TestPBES2Limits: the configured range is honoured both ways.
func TestPBES2Limits(t *testing.T) {
	pw := []byte("pw")
	e, err := NewEncrypter(jwa.PBES2HS256A128KW, jwa.A128GCM, pw, &EncrypterOptions{PBES2Count: 1200})
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := e.Compact([]byte("x"))
	for _, tc := range []struct {
		min, max int
		want     error
	}{{1000, 1200, nil}, {1000, 1199, jose.ErrLimitExceeded}, {1201, 5000, jose.ErrLimitExceeded}} {
		d := rfDecrypter(t, DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.PBES2HS256A128KW}, Key: pw,
			Limits: jose.Limits{PBES2MinCount: tc.min, PBES2MaxCount: tc.max}})
		_, err := d.DecryptCompact(tok)
		if !errors.Is(err, tc.want) {
			t.Errorf("[%d, %d]: %v, want %v", tc.min, tc.max, err, tc.want)
		}
	}
}

// rfGeneral returns a general JSON token for two A128KW recipients, as a
// map to edit.
func rfGeneral(t *testing.T) map[string]any {
	tok, err := EncryptGeneral(jwa.A128GCM, []byte("x"), []byte("aad"), &EncrypterOptions{Type: "JWE"},
		Recipient{Algorithm: jwa.A128KW, Key: bytes.Repeat([]byte{2}, 16), Header: &jose.Header{KeyID: "other"}},
		Recipient{Algorithm: jwa.A128KW, Key: rfKey16, Header: &jose.Header{KeyID: "me"}})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(tok, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func rfMarshal(m map[string]any) []byte {
	b, _ := json.Marshal(m)
	return b
}

// TestDecryptJSONRefuses covers the JSON serialization rules.
func TestDecryptJSONRefuses(t *testing.T) {
	d := rfDecrypter(t, DecryptOptions{})
	if m, err := d.DecryptJSON(rfMarshal(rfGeneral(t))); err != nil || string(m.Plaintext) != "x" || m.Header.KeyID != "me" || string(m.AAD) != "aad" {
		t.Fatalf("valid token: %v", err)
	}
	edit := func(f func(m map[string]any)) []byte {
		m := rfGeneral(t)
		f(m)
		return rfMarshal(m)
	}
	recips := func(m map[string]any) []any { return m["recipients"].([]any) }
	hdr := func(m map[string]any, i int) map[string]any {
		return recips(m)[i].(map[string]any)["header"].(map[string]any)
	}
	for _, tc := range []struct {
		name string
		tok  []byte
		opts DecryptOptions
		want error
	}{
		{"zip in shared header", edit(func(m map[string]any) { m["unprotected"] = map[string]any{"zip": "DEF"} }), DecryptOptions{}, jose.ErrMalformed},
		{"zip in recipient header", edit(func(m map[string]any) { hdr(m, 1)["zip"] = "DEF" }), DecryptOptions{}, jose.ErrMalformed},
		{"crit in shared header", edit(func(m map[string]any) { m["unprotected"] = map[string]any{"crit": []string{"x"}, "x": 1} }), DecryptOptions{Critical: []string{"x"}}, jose.ErrMalformed},
		{"typ protected and shared", edit(func(m map[string]any) { m["unprotected"] = map[string]any{"typ": "JWE"} }), DecryptOptions{}, jose.ErrMalformed},
		{"kid shared and recipient", edit(func(m map[string]any) { m["unprotected"] = map[string]any{"kid": "me"} }), DecryptOptions{}, jose.ErrMalformed},
		{"typ protected and recipient", edit(func(m map[string]any) { hdr(m, 1)["typ"] = "x"; hdr(m, 0)["typ"] = "x" }), DecryptOptions{}, jose.ErrMalformed},
		{"too many recipients", rfMarshal(rfGeneral(t)), DecryptOptions{Limits: jose.Limits{MaxRecipients: 1}}, jose.ErrLimitExceeded},
		{"no recipients", edit(func(m map[string]any) { m["recipients"] = []any{} }), DecryptOptions{}, jose.ErrMalformed},
		{"recipients not an array", edit(func(m map[string]any) { m["recipients"] = map[string]any{} }), DecryptOptions{}, jose.ErrMalformed},
		{"recipient not an object", edit(func(m map[string]any) { m["recipients"] = []any{"x"} }), DecryptOptions{}, jose.ErrMalformed},
		{"recipients and header", edit(func(m map[string]any) { m["header"] = map[string]any{"kid": "x"} }), DecryptOptions{}, jose.ErrMalformed},
		{"no ciphertext", edit(func(m map[string]any) { delete(m, "ciphertext") }), DecryptOptions{}, jose.ErrMalformed},
		{"iv not a string", edit(func(m map[string]any) { m["iv"] = 1 }), DecryptOptions{}, jose.ErrMalformed},
		{"header not an object", edit(func(m map[string]any) { recips(m)[1].(map[string]any)["header"] = "x" }), DecryptOptions{}, jose.ErrMalformed},
		{"encrypted_key not a string", edit(func(m map[string]any) { recips(m)[1].(map[string]any)["encrypted_key"] = 1 }), DecryptOptions{}, jose.ErrMalformed},
		{"aad changed", edit(func(m map[string]any) { m["aad"] = "YWFi" }), DecryptOptions{}, jose.ErrDecryptionFailed},
		{"aad removed", edit(func(m map[string]any) { delete(m, "aad") }), DecryptOptions{}, jose.ErrDecryptionFailed},
		{"aad not base64url", edit(func(m map[string]any) { m["aad"] = "a+b" }), DecryptOptions{}, jose.ErrMalformed},
		{"no key matches", rfMarshal(rfGeneral(t)), DecryptOptions{Keys: &jose.Set{Keys: []*jose.JWK{{Key: rfKey16, KeyID: "nobody"}}}}, jose.ErrKeyNotFound},
		{"not JSON", []byte(`{"protected":`), DecryptOptions{}, jose.ErrMalformed},
		{"duplicate member", []byte(`{"iv":"AAAA","iv":"AAAA","ciphertext":"","tag":""}`), DecryptOptions{}, jose.ErrMalformed},
		{"too large", []byte(`{"iv":"` + strings.Repeat("A", 2000) + `"}`), DecryptOptions{Limits: jose.Limits{MaxTokenSize: 1000}}, jose.ErrLimitExceeded},
		{"no alg anywhere", []byte(`{"unprotected":{"enc":"A128GCM"},"iv":"AAAA","ciphertext":"","tag":""}`), DecryptOptions{}, jose.ErrMalformed},
		{"no header at all", []byte(`{"iv":"AAAA","ciphertext":"","tag":""}`), DecryptOptions{}, jose.ErrMalformed},
		{"dir with two recipients", edit(func(m map[string]any) {
			hdr(m, 1)["alg"] = "dir"
			delete(recips(m)[1].(map[string]any), "encrypted_key")
		}),
			DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.A128KW, jwa.Direct}}, jose.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := rfDecrypter(t, tc.opts).DecryptJSON(tc.tok)
			if !errors.Is(err, tc.want) || m != nil {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
		})
	}
}

// TestKeySelection covers the JWK Set, key function and JWK permission
// paths of the decrypter.
func TestKeySelection(t *testing.T) {
	e, _ := NewEncrypter(jwa.A128KW, jwa.A128GCM, rfKey16, &EncrypterOptions{KeyID: "k2"})
	tok, _ := e.Compact([]byte("x"))
	wrong := bytes.Repeat([]byte{3}, 16)
	set := &jose.Set{Keys: []*jose.JWK{
		{Key: wrong, KeyID: "k1"},
		{Key: rfKey16, KeyID: "k2", KeyOps: []jose.KeyOp{jose.OpWrapKey}}, // may not unwrap
		{Key: rfKey16, KeyID: "k2", Use: "enc"},
	}}
	if m, err := rfDecrypter(t, DecryptOptions{Keys: set}).DecryptCompact(tok); err != nil || string(m.Plaintext) != "x" {
		t.Fatalf("set: %v", err)
	}
	set.Keys = set.Keys[:2]
	_, err := rfDecrypter(t, DecryptOptions{Keys: set}).DecryptCompact(tok)
	// jose.Select's policy: entries of that kid exist, none may serve alg.
	rfExpect(t, "set without a permitted key", err, jose.ErrAlgorithmNotAllowed)

	// Without a kid in the token, every key is tried: the wrong one first.
	e, _ = NewEncrypter(jwa.A128KW, jwa.A128GCM, rfKey16, nil)
	tok2, _ := e.Compact([]byte("y"))
	set = &jose.Set{Keys: []*jose.JWK{{Key: wrong}, {Key: rfKey16}}}
	if m, err := rfDecrypter(t, DecryptOptions{Keys: set}).DecryptCompact(tok2); err != nil || string(m.Plaintext) != "y" {
		t.Fatalf("set, no kid: %v", err)
	}
	set = &jose.Set{Keys: []*jose.JWK{{Key: wrong}, {Key: bytes.Repeat([]byte{4}, 16)}}}
	_, err = rfDecrypter(t, DecryptOptions{Keys: set}).DecryptCompact(tok2)
	if err != errDecrypt {
		t.Fatalf("set of wrong keys: %v", err)
	}

	var seen *jose.Header
	kf := func(h *jose.Header) (any, error) { seen = h; return &jose.JWK{Key: rfKey16}, nil }
	if m, err := rfDecrypter(t, DecryptOptions{KeyFunc: kf}).DecryptCompact(tok); err != nil || string(m.Plaintext) != "x" || seen.KeyID != "k2" {
		t.Fatalf("key func: %v", err)
	}
	boom := errors.New("boom")
	_, err = rfDecrypter(t, DecryptOptions{KeyFunc: func(*jose.Header) (any, error) { return nil, boom }}).DecryptCompact(tok)
	rfExpect(t, "key func error", err, boom)
	if err == nil || err.Error() != "jwe: KeyFunc: boom" { // as jws says it
		t.Errorf("key func error reads %v", err)
	}
	_, err = rfDecrypter(t, DecryptOptions{KeyFunc: func(*jose.Header) (any, error) { return nil, nil }}).DecryptCompact(tok)
	rfExpect(t, "key func nil", err, jose.ErrKeyNotFound)
	if want := "jwe: KeyFunc returned no key: " + jose.ErrKeyNotFound.Error(); err == nil || err.Error() != want {
		t.Errorf("key func nil reads %v, want %s", err, want)
	}
	_, err = rfDecrypter(t, DecryptOptions{KeyFunc: func(*jose.Header) (any, error) {
		return &jose.JWK{Key: rfKey16, Algorithm: "A256KW"}, nil
	}}).DecryptCompact(tok)
	rfExpect(t, "key func JWK alg", err, jose.ErrAlgorithmNotAllowed)
	// As the one Key, a JWK that permits none of the listed algorithms
	// is refused by NewDecrypter; one that permits another listed
	// algorithm is accepted, and the A128KW token is refused.
	kwOnly := DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.A128KW}, ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM}}
	for name, jwk := range map[string]*jose.JWK{
		"use sig":         {Key: rfKey16, Use: "sig"},
		"alg dir":         {Key: rfKey16, Algorithm: "dir"},
		"key_ops decrypt": {Key: rfKey16, KeyOps: []jose.KeyOp{jose.OpDecrypt}},
	} {
		o := kwOnly
		o.Key = jwk
		_, err = NewDecrypter(o)
		rfExpect(t, "NewDecrypter, A128KW only, JWK "+name, err, jose.ErrInvalidKey)
	}
	for name, jwk := range map[string]*jose.JWK{
		"alg dir":         {Key: rfKey16, Algorithm: "dir"},
		"key_ops decrypt": {Key: rfKey16, KeyOps: []jose.KeyOp{jose.OpDecrypt}},
	} {
		_, err = rfDecrypter(t, DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.A128KW, jwa.Direct}, Key: jwk}).DecryptCompact(tok)
		rfExpect(t, "JWK "+name+", A128KW token", err, jose.ErrAlgorithmNotAllowed)
	}
	if m, err := rfDecrypter(t, DecryptOptions{Key: &jose.JWK{Key: rfKey16, KeyOps: []jose.KeyOp{jose.OpUnwrapKey}}}).DecryptCompact(tok); err != nil || string(m.Plaintext) != "x" {
		t.Fatalf("JWK unwrapKey: %v", err)
	}
	_, err = rfDecrypter(t, DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.A128KW, jwa.RSAOAEP}, Key: rtRSAKey()}).DecryptCompact(tok)
	rfExpect(t, "key of the wrong type", err, jose.ErrInvalidKey)
	// A PBES2 token needs a []byte password.
	pe, _ := NewEncrypter(jwa.PBES2HS256A128KW, jwa.A128GCM, []byte("pw"), &EncrypterOptions{PBES2Count: 1000})
	ptok, _ := pe.Compact([]byte("z"))
	_, err = rfDecrypter(t, DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.PBES2HS256A128KW, jwa.RSAOAEP}, Key: rtRSAKey()}).DecryptCompact(ptok)
	rfExpect(t, "PBES2 with an RSA key", err, jose.ErrInvalidKey)
	_, err = NewDecrypter(DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.PBES2HS256A128KW}, ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM}, Key: rtRSAKey()})
	rfExpect(t, "NewDecrypter, PBES2 only, with an RSA key", err, jose.ErrInvalidKey)
}

// TestDecompressionBomb: 10 MB of zeros deflate to about 10 kB; the
// default limit (1 MB) refuses them.
func TestDecompressionBomb(t *testing.T) {
	key := bytes.Repeat([]byte{5}, 16)
	e, _ := NewEncrypter(jwa.Direct, jwa.A128GCM, key, &EncrypterOptions{Compress: true})
	tok, err := e.Compact(make([]byte, 10<<20))
	if err != nil {
		t.Fatal(err)
	}
	if len(tok) > 100<<10 {
		t.Fatalf("bomb token of %d bytes", len(tok))
	}
	d := rfDecrypter(t, DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.Direct}, Key: key})
	if _, err := d.DecryptCompact(tok); !errors.Is(err, jose.ErrLimitExceeded) {
		t.Fatalf("bomb: %v", err)
	}
	// Invalid DEFLATE data, authenticated, is malformed.
	e, _ = NewEncrypter(jwa.Direct, jwa.A128GCM, key, nil)
	aead, _, _, _ := e.contentKey(nil)
	tok = e.appendCompact(nil, nil, []byte("not deflate data"), aead, nil, b64enc.Append(nil, []byte(`{"alg":"dir","enc":"A128GCM","zip":"DEF"}`)))
	if _, err := d.DecryptCompact(tok); !errors.Is(err, jose.ErrMalformed) {
		t.Fatalf("bad deflate: %v", err)
	}
}

// TestConcurrentDecrypt shares one Decrypter (and its key cache) between
// goroutines; run with -race.
func TestConcurrentDecrypt(t *testing.T) {
	e, _ := NewEncrypter(jwa.A128KW, jwa.A128GCM, rfKey16, nil)
	d := rfDecrypter(t, DecryptOptions{})
	done := make(chan error)
	for g := range 4 {
		go func() {
			for i := range 50 {
				pt := []byte(fmt.Sprint(g, i))
				tok, err := e.Compact(pt)
				if err == nil {
					var m *Message
					m, err = d.DecryptCompact(tok)
					if err == nil && !bytes.Equal(m.Plaintext, pt) {
						err = errors.New("wrong plaintext")
					}
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
