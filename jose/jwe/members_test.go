package jwe_test

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

var membersCEK = bytes.Repeat([]byte{3}, 16)

// dirA128GCM encrypts plaintext with "dir" and A128GCM under the protected
// header JSON hdr, as written, with aad the AAD given to GCM, and returns
// the encoded header and the iv, ciphertext and tag, encoded.
func dirA128GCM(t *testing.T, hdr string, aad func(protected []byte) []byte, plaintext string) (prot, iv, ct, tag string) {
	t.Helper()
	block, err := aes.NewCipher(membersCEK)
	if err != nil {
		t.Fatal(err)
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		t.Fatal(err)
	}
	p := b64enc.Append(nil, []byte(hdr))
	nonce := bytes.Repeat([]byte{7}, 12)
	sealed := gcm.Seal(nil, nonce, []byte(plaintext), aad(p))
	n := len(sealed) - 16
	enc := func(b []byte) string { return string(b64enc.Append(nil, b)) }
	return string(p), enc(nonce), enc(sealed[:n]), enc(sealed[n:])
}

func dirDecrypter(t *testing.T) *jwe.Decrypter {
	t.Helper()
	d, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.Direct},
		ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM},
		Key:                membersCEK,
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestEmptyAAD is issue 18 finding 10(b): "aad" is present only when the
// JWE AAD is not empty (RFC 7516 §7.2.1), so "aad": "" is an absent AAD and
// the content is authenticated with the protected header alone, as go-jose
// and jwx compute it; it was authenticated with protected || ".", so the
// same token decrypted on one side only.
func TestEmptyAAD(t *testing.T) {
	d := dirDecrypter(t)
	hdr := `{"alg":"dir","enc":"A128GCM"}`
	alone := func(p []byte) []byte { return p }
	withDot := func(p []byte) []byte { return append(bytes.Clone(p), '.') }
	for _, c := range []struct {
		name string
		aad  func([]byte) []byte
		ok   bool
	}{
		{"AAD of the protected header alone", alone, true},
		{`AAD of protected || "."`, withDot, false},
	} {
		p, iv, ct, tag := dirA128GCM(t, hdr, c.aad, "plaintext")
		tok := `{"protected":"` + p + `","aad":"","iv":"` + iv + `","ciphertext":"` + ct + `","tag":"` + tag + `"}`
		m, err := d.DecryptJSON([]byte(tok))
		if c.ok && (err != nil || string(m.Plaintext) != "plaintext" || m.AAD != nil) {
			t.Errorf("%s: %v", c.name, err)
		}
		if !c.ok && !errors.Is(err, jose.ErrDecryptionFailed) {
			t.Errorf("%s: %v, want ErrDecryptionFailed", c.name, err)
		}
	}
	// An "aad" that is not empty is still bound as RFC 7516 §5.2 step 14
	// says: protected || "." || aad.
	p, iv, ct, tag := dirA128GCM(t, hdr, func(p []byte) []byte { return append(append(bytes.Clone(p), '.'), "YQ"...) }, "plaintext")
	tok := `{"protected":"` + p + `","aad":"YQ","iv":"` + iv + `","ciphertext":"` + ct + `","tag":"` + tag + `"}`
	if m, err := d.DecryptJSON([]byte(tok)); err != nil || string(m.AAD) != "a" {
		t.Errorf(`"aad":"YQ": %v`, err)
	}
}

// TestB64Ignored is issue 18 finding 10(d) for jwe: "b64" (RFC 7797) is a
// JWS extension, meaningless in a JWE, so a Decrypter ignores it whatever
// its type (it was type-checked, refusing "b64": "x"); it is kept in Extra.
// A crit that lists it is still refused unless the caller understands it.
func TestB64Ignored(t *testing.T) {
	d := dirDecrypter(t)
	alone := func(p []byte) []byte { return p }
	for _, hdr := range []string{`{"alg":"dir","enc":"A128GCM","b64":"x"}`, `{"alg":"dir","enc":"A128GCM","b64":false}`} {
		p, iv, ct, tag := dirA128GCM(t, hdr, alone, "plaintext")
		m, err := d.DecryptCompact([]byte(p + ".." + iv + "." + ct + "." + tag))
		if err != nil || string(m.Plaintext) != "plaintext" || m.Header.B64 != nil || m.Header.Extra["b64"] == nil {
			t.Errorf("%s: %v", hdr, err)
		}
	}
	p, iv, ct, tag := dirA128GCM(t, `{"alg":"dir","enc":"A128GCM","b64":1,"crit":["b64"]}`, alone, "plaintext")
	if _, err := d.DecryptCompact([]byte(p + ".." + iv + "." + ct + "." + tag)); !errors.Is(err, jose.ErrUnsupportedCritical) {
		t.Errorf("crit b64: %v", err)
	}
	// What a JWE reads is still checked.
	p, iv, ct, tag = dirA128GCM(t, `{"alg":"dir","enc":"A128GCM","zip":1}`, alone, "plaintext")
	if _, err := d.DecryptCompact([]byte(p + ".." + iv + "." + ct + "." + tag)); !errors.Is(err, jose.ErrMalformed) || !strings.Contains(err.Error(), `"zip"`) {
		t.Errorf("zip 1: %v", err)
	}
}

// TestEncryptRefusesJWEMembersInExtra (review finding): a caller's
// unprotected header (EncrypterOptions.Unprotected, Recipient.Header) may
// keep in Extra only members a JWE does not read: a member a Decrypter
// reads, written from Extra, skips its type check and its key-management
// rules, and made tokens that every Decrypter refused ("p2c": "-1"), since
// AppendJSON writes the members only one kind defines from Extra (for a
// header read as a JWS). "b64", which a JWE does not read, is written and
// ignored.
func TestEncryptRefusesJWEMembersInExtra(t *testing.T) {
	kek := bytes.Repeat([]byte{1}, 16)
	d, err := jwe.NewDecrypter(jwe.DecryptOptions{KeyAlgorithms: []jwa.KeyAlgorithm{jwa.A128KW},
		ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM}, Key: kek})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"enc", "zip", "epk", "apu", "apv", "iv", "tag", "p2s", "p2c", "ek", "b64"} {
		for _, value := range []string{`"!"`, `"AAAA"`, `1`} {
			h := &jose.Header{Extra: map[string]json.RawMessage{name: json.RawMessage(value)}}
			general, gerr := jwe.EncryptGeneral(jwa.A128GCM, []byte("x"), nil, nil, jwe.Recipient{Algorithm: jwa.A128KW, Key: kek, Header: h})
			var flat []byte
			e, ferr := jwe.NewEncrypter(jwa.A128KW, jwa.A128GCM, kek, &jwe.EncrypterOptions{Unprotected: h})
			if ferr == nil {
				flat, ferr = e.Flattened([]byte("x"), nil)
			}
			if name != "b64" {
				if gerr == nil || ferr == nil {
					t.Errorf("%s: %s in Extra: recipient header %v, shared header %v; want both refused", name, value, gerr, ferr)
				}
				continue
			}
			for _, tok := range [][]byte{general, flat} {
				if m, err := d.DecryptJSON(tok); err != nil || string(m.Plaintext) != "x" {
					t.Errorf("b64: %s in Extra: %v, %v, %v", value, gerr, ferr, err)
				}
			}
		}
	}
}

// TestIgnoredMembersDisjoint: "b64", which a JWE does not read, is still a
// member of the JOSE Header: the protected and an unprotected header may
// not both hold it (RFC 7516 §7.2.1).
func TestIgnoredMembersDisjoint(t *testing.T) {
	d := dirDecrypter(t)
	p, iv, ct, tag := dirA128GCM(t, `{"alg":"dir","enc":"A128GCM","b64":false}`, func(p []byte) []byte { return p }, "plaintext")
	for _, u := range []string{`"unprotected":{"b64":1}`, `"header":{"b64":false}`} {
		tok := `{"protected":"` + p + `",` + u + `,"iv":"` + iv + `","ciphertext":"` + ct + `","tag":"` + tag + `"}`
		if _, err := d.DecryptJSON([]byte(tok)); !errors.Is(err, jose.ErrMalformed) || !strings.Contains(err.Error(), "more than one header") {
			t.Errorf("%s: %v, want ErrMalformed", u, err)
		}
	}
}
