package jws_test

import (
	"bytes"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// TestProvenance checks that a verified Message (and each SignatureResult)
// tells the protected header apart from the merged one: an unprotected
// "typ", "cty" or "kid" added to a validly signed JSON token appears in
// Header but never in Protected (issue 9, point 4).
func TestProvenance(t *testing.T) {
	key := bytes.Repeat([]byte{0x5a}, 32)
	s, err := jws.NewSigner(jwa.HS256, key, &jws.SignerOptions{KeyID: "signed-kid"})
	if err != nil {
		t.Fatal(err)
	}
	v := rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: key})
	payload := []byte(`{"sub":"alice"}`)

	t.Run("compact", func(t *testing.T) {
		st, err := jws.NewSigner(jwa.HS256, key, &jws.SignerOptions{Type: "JWT", ContentType: "JWT"})
		if err != nil {
			t.Fatal(err)
		}
		tok, err := st.Compact(payload)
		if err != nil {
			t.Fatal(err)
		}
		m, err := v.VerifyCompact(tok)
		if err != nil {
			t.Fatal(err)
		}
		if m.Protected != m.Header || m.Protected.Type != "JWT" || m.Protected.ContentType != "JWT" {
			t.Fatalf("compact: Protected %+v, Header %p, want the same header with typ and cty", m.Protected, m.Header)
		}
		var reused jws.Message
		if err := v.VerifyCompactInto(&reused, tok); err != nil || reused.Protected != reused.Header {
			t.Fatalf("VerifyCompactInto: err %v, Protected %p, Header %p", err, reused.Protected, reused.Header)
		}
		if err := v.VerifyCompactInto(&reused, append(tok[:len(tok)-2:len(tok)-2], 'A', 'A')); err == nil || reused.Protected != nil {
			t.Fatalf("tampered VerifyCompactInto: err %v, Protected %v", err, reused.Protected)
		}
	})

	unprotected := []struct {
		name  string
		h     *jose.Header
		check func(p, h *jose.Header) bool // true when provenance is right
	}{
		{"typ", &jose.Header{Type: "JWT"}, func(p, h *jose.Header) bool {
			return h.Type == "JWT" && p.Type == "" && !p.Has("typ")
		}},
		{"cty", &jose.Header{ContentType: "JWT"}, func(p, h *jose.Header) bool {
			return h.ContentType == "JWT" && p.ContentType == "" && !p.Has("cty")
		}},
	}
	for _, c := range unprotected {
		t.Run("flattened unprotected "+c.name, func(t *testing.T) {
			tok, err := s.Flattened(payload, c.h)
			if err != nil {
				t.Fatal(err)
			}
			m, err := v.VerifyJSON(tok)
			if err != nil {
				t.Fatal(err)
			}
			if !c.check(m.Protected, m.Header) || m.Protected.KeyID != "signed-kid" {
				t.Fatalf("Protected %+v, Header %+v", m.Protected, m.Header)
			}
			res, _, err := v.VerifyEach(tok)
			if err != nil || len(res) != 1 || res[0].Protected == nil || !c.check(res[0].Protected, res[0].Header) {
				t.Fatalf("VerifyEach: err %v, results %+v", err, res)
			}
		})
	}

	t.Run("flattened unprotected kid", func(t *testing.T) {
		s2, err := jws.NewSigner(jwa.HS256, key, nil)
		if err != nil {
			t.Fatal(err)
		}
		tok, err := s2.Flattened(payload, &jose.Header{KeyID: "attacker-kid"})
		if err != nil {
			t.Fatal(err)
		}
		m, err := v.VerifyJSON(tok)
		if err != nil {
			t.Fatal(err)
		}
		if m.Header.KeyID != "attacker-kid" || m.Protected.KeyID != "" || m.Protected.Algorithm != "HS256" {
			t.Fatalf("Protected %+v, Header %+v", m.Protected, m.Header)
		}
	})

	t.Run("no protected header", func(t *testing.T) {
		// A flattened JWS whose alg sits in the unprotected header only:
		// Protected is an empty header, not nil.
		sig, err := jwa.NewSigner(jwa.HS256, key)
		if err != nil {
			t.Fatal(err)
		}
		seg := jose.Base64URLEncode(payload)
		sv, err := sig.Sign(nil, []byte("."+seg))
		if err != nil {
			t.Fatal(err)
		}
		tok := []byte(`{"payload":"` + seg + `","header":{"alg":"HS256","typ":"JWT"},"signature":"` + jose.Base64URLEncode(sv) + `"}`)
		m, err := v.VerifyJSON(tok)
		if err != nil {
			t.Fatal(err)
		}
		if m.Protected == nil || m.Protected.Algorithm != "" || m.Protected.Type != "" || m.Header.Type != "JWT" {
			t.Fatalf("Protected %+v, Header %+v", m.Protected, m.Header)
		}
	})

	t.Run("detached", func(t *testing.T) {
		tok, err := s.Flattened(payload, &jose.Header{Type: "JWT"})
		if err != nil {
			t.Fatal(err)
		}
		// Drop the payload member to make it detached.
		i := bytes.Index(tok, []byte(`"payload":`))
		j := bytes.IndexByte(tok[i+len(`"payload":"`):], '"') + i + len(`"payload":"`) + 1
		det := append(append([]byte{}, tok[:i]...), tok[j:]...)
		det = bytes.Replace(det, []byte("{,"), []byte("{"), 1)
		det = bytes.Replace(det, []byte(",,"), []byte(","), 1)
		det = bytes.Replace(det, []byte(",}"), []byte("}"), 1)
		m, err := v.VerifyDetached(det, payload)
		if err != nil {
			t.Fatalf("%s: %v", det, err)
		}
		if m.Protected == nil || m.Protected.Type != "" || m.Header.Type != "JWT" {
			t.Fatalf("Protected %+v, Header %+v", m.Protected, m.Header)
		}
	})
}
