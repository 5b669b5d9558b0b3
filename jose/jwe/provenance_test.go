package jwe_test

import (
	"bytes"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// TestProvenance checks that a decrypted Message tells the JWE Protected
// Header (the only part the AAD binds) apart from the merged one: an
// unprotected "cty", "typ" or "kid" (shared or per-recipient) appears in
// Header but never in Protected (issue 9, point 4).
func TestProvenance(t *testing.T) {
	key := bytes.Repeat([]byte{0x42}, 16)
	pt := []byte(`{"sub":"alice"}`)
	d, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.Direct, jwa.A128KW},
		ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM},
		Key:                key,
	})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("compact", func(t *testing.T) {
		e, err := jwe.NewEncrypter(jwa.Direct, jwa.A128GCM, key, &jwe.EncrypterOptions{ContentType: "JWT", Type: "JWT"})
		if err != nil {
			t.Fatal(err)
		}
		tok, err := e.Compact(pt)
		if err != nil {
			t.Fatal(err)
		}
		m, err := d.DecryptCompact(tok)
		if err != nil {
			t.Fatal(err)
		}
		if m.Protected != m.Header || m.Protected.ContentType != "JWT" || m.Protected.Type != "JWT" {
			t.Fatalf("Protected %+v, Header %p", m.Protected, m.Header)
		}
		var reused jwe.Message
		if err := d.DecryptCompactInto(&reused, tok); err != nil || reused.Protected != reused.Header {
			t.Fatalf("DecryptCompactInto: err %v, Protected %p, Header %p", err, reused.Protected, reused.Header)
		}
		bad := append([]byte{}, tok...)
		bad[len(bad)-3] ^= 1
		if err := d.DecryptCompactInto(&reused, bad); err == nil || reused.Protected != nil {
			t.Fatalf("tampered: err %v, Protected %v", err, reused.Protected)
		}
	})

	for _, c := range []struct {
		name  string
		h     *jose.Header
		check func(p, h *jose.Header) bool
	}{
		{"cty", &jose.Header{ContentType: "JWT"}, func(p, h *jose.Header) bool {
			return h.ContentType == "JWT" && p.ContentType == "" && !p.Has("cty")
		}},
		{"typ", &jose.Header{Type: "JWT"}, func(p, h *jose.Header) bool {
			return h.Type == "JWT" && p.Type == "" && !p.Has("typ")
		}},
		{"kid", &jose.Header{KeyID: "attacker"}, func(p, h *jose.Header) bool {
			return h.KeyID == "attacker" && p.KeyID == "" && !p.Has("kid")
		}},
	} {
		t.Run("flattened shared unprotected "+c.name, func(t *testing.T) {
			e, err := jwe.NewEncrypter(jwa.Direct, jwa.A128GCM, key, &jwe.EncrypterOptions{Unprotected: c.h})
			if err != nil {
				t.Fatal(err)
			}
			tok, err := e.Flattened(pt, nil)
			if err != nil {
				t.Fatal(err)
			}
			m, err := d.DecryptJSON(tok)
			if err != nil {
				t.Fatal(err)
			}
			if m.Protected == nil || !c.check(m.Protected, m.Header) || m.Protected.Encryption != "A128GCM" {
				t.Fatalf("Protected %+v, Header %+v", m.Protected, m.Header)
			}
		})
		t.Run("general recipient header "+c.name, func(t *testing.T) {
			tok, err := jwe.EncryptGeneral(jwa.A128GCM, pt, nil, nil, jwe.Recipient{Algorithm: jwa.A128KW, Key: key, Header: c.h})
			if err != nil {
				t.Fatal(err)
			}
			m, err := d.DecryptJSON(tok)
			if err != nil {
				t.Fatal(err)
			}
			if m.Protected == nil || !c.check(m.Protected, m.Header) || m.Protected.Algorithm != "" || m.Header.Algorithm != "A128KW" {
				t.Fatalf("Protected %+v, Header %+v", m.Protected, m.Header)
			}
		})
	}
}
