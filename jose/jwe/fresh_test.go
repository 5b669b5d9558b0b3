package jwe_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// TestFreshCEKAndIV: every exported way to encrypt (Compact, AppendCompact,
// Flattened, EncryptGeneral) draws a new IV, and a new CEK where one is
// made, for each message: 64 messages under one key have 64 different IVs
// and, under A128KW (a deterministic wrap, so that the encrypted key
// differs exactly when the CEK does), 64 different encrypted keys. The
// vector tests pass chosen bytes through the same internal functions
// (the rnd argument), so the IV of the JSON serializations read from a
// constant when rnd is nil (every message of Flattened and EncryptGeneral
// under one IV, with dir under one key too) failed no other test:
// TestRoundTripAll compares two compact tokens only.
func TestFreshCEKAndIV(t *testing.T) {
	kw := bytes.Repeat([]byte{1}, 16)
	dir := bytes.Repeat([]byte{2}, 16)
	pt := []byte("the same plaintext each time")
	type parts struct{ ek, iv string }
	compact := func(tok []byte) parts {
		seg := strings.Split(string(tok), ".")
		if len(seg) != 5 {
			t.Fatalf("compact token of %d segments", len(seg))
		}
		return parts{seg[1], seg[2]}
	}
	flattened := func(tok []byte) parts {
		var m struct {
			IV         string `json:"iv"`
			EK         string `json:"encrypted_key"`
			Recipients []struct {
				EK string `json:"encrypted_key"`
			} `json:"recipients"`
		}
		if err := json.Unmarshal(tok, &m); err != nil {
			t.Fatal(err)
		}
		ek := m.EK
		for _, r := range m.Recipients {
			ek += "." + r.EK
		}
		return parts{ek, m.IV}
	}
	for _, c := range []struct {
		name    string
		alg     jwa.KeyAlgorithm
		enc     jwa.ContentEncryption
		key     []byte
		encrypt func(e *jwe.Encrypter) (parts, error)
	}{
		{"Compact A128KW", jwa.A128KW, jwa.A128GCM, kw, func(e *jwe.Encrypter) (parts, error) {
			tok, err := e.Compact(pt)
			return compact(tok), err
		}},
		{"AppendCompact A128KW", jwa.A128KW, jwa.A128CBCHS256, kw, func(e *jwe.Encrypter) (parts, error) {
			tok, err := e.AppendCompact(make([]byte, 0, 512), pt)
			return compact(tok), err
		}},
		{"Compact dir", jwa.Direct, jwa.A128GCM, dir, func(e *jwe.Encrypter) (parts, error) {
			tok, err := e.Compact(pt)
			return compact(tok), err
		}},
		{"Flattened A128KW", jwa.A128KW, jwa.A128GCM, kw, func(e *jwe.Encrypter) (parts, error) {
			tok, err := e.Flattened(pt, []byte("aad"))
			return flattened(tok), err
		}},
		{"Flattened dir", jwa.Direct, jwa.A128GCM, dir, func(e *jwe.Encrypter) (parts, error) {
			tok, err := e.Flattened(pt, nil)
			return flattened(tok), err
		}},
		{"EncryptGeneral A128KW", jwa.A128KW, jwa.A128GCM, kw, func(*jwe.Encrypter) (parts, error) {
			tok, err := jwe.EncryptGeneral(jwa.A128GCM, pt, nil, nil,
				jwe.Recipient{Algorithm: jwa.A128KW, Key: kw, Header: new(jose.Header)},
				jwe.Recipient{Algorithm: jwa.A128KW, Key: bytes.Repeat([]byte{3}, 16), Header: new(jose.Header)})
			return flattened(tok), err
		}},
	} {
		e, err := jwe.NewEncrypter(c.alg, c.enc, c.key, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ivs, eks := map[string]bool{}, map[string]bool{}
		for i := range 64 {
			p, err := c.encrypt(e)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if ivs[p.iv] {
				t.Fatalf("%s: message %d repeats the IV %s", c.name, i, p.iv)
			}
			ivs[p.iv] = true
			if c.alg == jwa.Direct {
				if p.ek != "" {
					t.Fatalf("%s: an encrypted key %q for dir", c.name, p.ek)
				}
				continue
			}
			if eks[p.ek] {
				t.Fatalf("%s: message %d repeats the encrypted key, so the CEK", c.name, i)
			}
			eks[p.ek] = true
		}
	}
}
