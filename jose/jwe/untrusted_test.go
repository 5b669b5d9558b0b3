package jwe_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// utGoJose reads the go-jose v4 fixture (testdata/gojose/README.md): the
// token as written, and the key of each recipient by kid.
func utGoJose(t *testing.T) ([]byte, map[string]any, string) {
	t.Helper()
	token := vectortest.ReadTrimmed(t, "..", "jose", "jwe", "testdata", "gojose", "general.json")
	var f struct {
		Keys      map[string]json.RawMessage `json:"keys"`
		Plaintext string                     `json:"plaintext"`
	}
	if err := json.Unmarshal(vectortest.ReadFile(t, "..", "jose", "jwe", "testdata", "gojose", "general.keys.json"), &f); err != nil {
		t.Fatal(err)
	}
	keys := map[string]any{"rsa": vectortest.RSAKey(t, 2048)}
	for kid, raw := range f.Keys {
		k, err := jose.ParseKey(raw)
		if err != nil {
			t.Fatalf("key %s: %v", kid, err)
		}
		keys[kid] = k.Key
	}
	return token, keys, f.Plaintext
}

// TestGoJoseGeneral: a general JSON JWE made by go-jose v4 (three
// recipients; the first one's encrypted_key repeated at the top level)
// decrypts for every recipient. A top-level encrypted_key that is not
// byte-identical to the first recipient's, or a top-level header beside
// recipients, stays refused.
func TestGoJoseGeneral(t *testing.T) {
	token, keys, plaintext := utGoJose(t)
	var tok map[string]any
	if err := json.Unmarshal(token, &tok); err != nil {
		t.Fatal(err)
	}
	recips := tok["recipients"].([]any)
	if tok["encrypted_key"] != recips[0].(map[string]any)["encrypted_key"] {
		t.Fatal("fixture: no top-level copy of the first encrypted_key, nothing to test")
	}
	for _, c := range []struct {
		kid string
		alg jwa.KeyAlgorithm
	}{{"sym", jwa.A128KW}, {"rsa", jwa.RSAOAEP256}, {"ec", jwa.ECDHESA128KW}} {
		t.Run(c.kid, func(t *testing.T) {
			d, err := jwe.NewDecrypter(jwe.DecryptOptions{
				KeyAlgorithms:      []jwa.KeyAlgorithm{c.alg},
				ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM},
				Key:                keys[c.kid],
			})
			if err != nil {
				t.Fatal(err)
			}
			m, err := d.DecryptJSON(token)
			if err != nil {
				t.Fatal(err)
			}
			if string(m.Plaintext) != plaintext || m.Header.KeyID != c.kid {
				t.Errorf("plaintext %q, kid %q", m.Plaintext, m.Header.KeyID)
			}
		})
	}
	refuse := func(name string, mutate func(m map[string]any)) {
		t.Run(name, func(t *testing.T) {
			var m map[string]any
			json.Unmarshal(token, &m)
			mutate(m)
			data, _ := json.Marshal(m)
			d := rvDecrypter(t, jwe.DecryptOptions{Key: keys["sym"]})
			if _, err := d.DecryptJSON(data); !errors.Is(err, jose.ErrMalformed) {
				t.Errorf("err = %v, want ErrMalformed", err)
			}
		})
	}
	refuse("top-level encrypted_key of the second recipient", func(m map[string]any) {
		m["encrypted_key"] = m["recipients"].([]any)[1].(map[string]any)["encrypted_key"]
	})
	refuse("top-level encrypted_key one character off", func(m map[string]any) {
		ek := m["encrypted_key"].(string)
		first := "A"
		if ek[0] == 'A' {
			first = "B"
		}
		m["encrypted_key"] = first + ek[1:] // still canonical base64url
	})
	refuse("empty top-level encrypted_key", func(m map[string]any) { m["encrypted_key"] = "" })
	refuse("top-level header beside recipients", func(m map[string]any) { m["header"] = map[string]any{"kid": "sym"} })
}

// TestJSONLimitsSentinel: every limit of jose.Limits that a JWE JSON
// Serialization can hit, at any level (the serialization object, a
// recipient object, a protected, shared or per-recipient header), is
// refused with an error wrapping jose.ErrLimitExceeded.
func TestJSONLimitsSentinel(t *testing.T) {
	b64 := jose.Base64URLEncode
	lim := jose.Limits{}.WithDefaults()
	members := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, `,"m%d":0`, i)
		}
		return b.String()
	}
	nested := func(depth int) string { return strings.Repeat("[", depth) + strings.Repeat("]", depth) }
	prot := b64([]byte(`{"enc":"A128GCM"}`))
	tail := `"iv":"AAAAAAAAAAAAAAAA","ciphertext":"AAAA","tag":"AAAAAAAAAAAAAAAAAAAAAA"`
	flat := func(top, shared, hdr string) string {
		return `{"protected":"` + prot + `","unprotected":{"kid":"k"` + shared + `},"header":{"alg":"dir"` + hdr + `},` + tail + top + `}`
	}
	general := func(top, recip, hdr string, n int) string {
		one := `{"header":{"alg":"A128KW"` + hdr + `},"encrypted_key":"AAAA"` + recip + `}`
		return `{"protected":"` + prot + `","recipients":[` + strings.TrimSuffix(strings.Repeat(one+",", n), ",") + `],` + tail + top + `}`
	}
	bigProt := b64([]byte(`{"enc":"A128GCM"` + members(lim.MaxHeaderMembers) + `}`))
	cases := map[string]string{
		"flattened: members of the serialization": flat(members(lim.MaxHeaderMembers), "", ""),
		"flattened: depth in the serialization":   flat(`,"x":`+nested(lim.MaxJSONDepth+3), "", ""),
		"flattened: members of the shared header": flat("", members(lim.MaxHeaderMembers), ""),
		"flattened: depth in the shared header":   flat("", `,"x":`+nested(lim.MaxJSONDepth), ""),
		"flattened: members of the header":        flat("", "", members(lim.MaxHeaderMembers)),
		"flattened: depth in the header":          flat("", "", `,"x":`+nested(lim.MaxJSONDepth)),
		"flattened: members of the protected":     strings.Replace(flat("", "", ""), prot, bigProt, 1),
		"flattened: header size":                  flat("", "", `,"x":"`+strings.Repeat("a", lim.MaxHeaderSize)+`"`),
		"flattened: token size":                   flat(`,"x":"`+strings.Repeat("a", lim.MaxTokenSize)+`"`, "", ""),
		"general: members of the serialization":   general(members(lim.MaxHeaderMembers), "", "", 1),
		"general: depth in the serialization":     general(`,"x":`+nested(lim.MaxJSONDepth+3), "", "", 1),
		"general: members of a recipient":         general("", members(lim.MaxHeaderMembers), "", 1),
		"general: depth in a recipient":           general("", `,"x":`+nested(lim.MaxJSONDepth+2), "", 1),
		"general: members of a header":            general("", "", members(lim.MaxHeaderMembers), 1),
		"general: depth in a header":              general("", "", `,"x":`+nested(lim.MaxJSONDepth), 1),
		"general: recipients":                     general("", "", "", lim.MaxRecipients+1),
	}
	d := rvDecrypter(t, jwe.DecryptOptions{Key: bytes.Repeat([]byte{1}, 16)})
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := d.DecryptJSON([]byte(data)); !errors.Is(err, jose.ErrLimitExceeded) {
				t.Errorf("DecryptJSON: %v, want ErrLimitExceeded", err)
			}
		})
	}
}

// TestUntrustedHeaderRSAKey: issue 9's pre-authentication DoS through a
// JWE. A protected or per-recipient header whose "epk" or "jwk" carries RSA
// private members (n and p of 16384 bits) is refused on the member names,
// before any key is built: allocation stays a small multiple of the token.
func TestUntrustedHeaderRSAKey(t *testing.T) {
	b64 := jose.Base64URLEncode
	key := vectortest.Issue9RSAJWK(16384, 9)
	d := rvDecrypter(t, jwe.DecryptOptions{Key: bytes.Repeat([]byte{1}, 16)})
	tail := `"iv":"AAAAAAAAAAAAAAAA","ciphertext":"AAAA","tag":"AAAAAAAAAAAAAAAAAAAAAA"`
	for _, member := range []string{"epk", "jwk"} {
		hdr := `{"alg":"ECDH-ES","enc":"A128GCM","` + member + `":` + key + `}`
		compact := []byte(b64([]byte(hdr)) + "..AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA")
		one := `{"header":{"alg":"ECDH-ES+A128KW","` + member + `":` + key + `},"encrypted_key":"AAAA"}`
		general := []byte(`{"protected":"` + b64([]byte(`{"enc":"A128GCM"}`)) + `","recipients":[` +
			strings.TrimSuffix(strings.Repeat(one+",", jose.DefaultMaxRecipients), ",") + `],` + tail + `}`)
		for _, c := range []struct {
			name    string
			token   []byte
			decrypt func([]byte) (*jwe.Message, error)
		}{
			{"compact", compact, d.DecryptCompact},
			{"general JSON, 16 recipients", general, d.DecryptJSON},
		} {
			t.Run(member+"/"+c.name, func(t *testing.T) {
				var err error
				alloc := vectortest.BytesAllocated(func() { _, err = c.decrypt(c.token) })
				if !errors.Is(err, jose.ErrMalformed) || !strings.Contains(err.Error(), "secret key material") {
					t.Fatalf("err = %v, want the secret-material refusal", err)
				}
				bound := uint64(4*len(c.token) + 64<<10)
				t.Logf("%d-byte token: %d bytes allocated (bound %d)", len(c.token), alloc, bound)
				if alloc > bound {
					t.Errorf("allocated %d bytes, more than %d", alloc, bound)
				}
			})
		}
	}
}

// TestPBES2Defaults: an Encrypter's default count is the Decrypter's
// default maximum, 10,000, so default tokens round-trip (and interoperate
// with implementations that refuse more by default); a count above it is
// refused by a default Decrypter and accepted by one whose limit is raised
// to it; and one token's PBES2 work is at most one maximum count over all
// its recipients: with 16 recipients at the maximum count, the key of the
// second is past the budget.
func TestPBES2Defaults(t *testing.T) {
	pw := []byte("correct horse battery staple")
	for _, alg := range []jwa.KeyAlgorithm{jwa.PBES2HS256A128KW, jwa.PBES2HS384A192KW, jwa.PBES2HS512A256KW} {
		t.Run(string(alg), func(t *testing.T) {
			tok := rvCompact(t, alg, jwa.A128GCM, pw, nil)
			d := rvDecrypter(t, jwe.DecryptOptions{Key: pw})
			m, err := d.DecryptCompact(tok)
			if err != nil {
				t.Fatalf("default token, default decrypter: %v", err)
			}
			if m.Header.P2C != jose.DefaultPBES2MaxCount || jwa.DefaultPBES2Count != jose.DefaultPBES2MaxCount {
				t.Errorf("p2c %d, want %d", m.Header.P2C, jose.DefaultPBES2MaxCount)
			}
		})
	}
	more := rvCompact(t, jwa.PBES2HS256A128KW, jwa.A128GCM, pw, &jwe.EncrypterOptions{PBES2Count: jose.DefaultPBES2MaxCount + 1})
	if _, err := rvDecrypter(t, jwe.DecryptOptions{Key: pw}).DecryptCompact(more); !errors.Is(err, jose.ErrLimitExceeded) {
		t.Errorf("p2c above the default maximum: %v, want ErrLimitExceeded", err)
	}
	raised := rvDecrypter(t, jwe.DecryptOptions{Key: pw, Limits: jose.Limits{PBES2MaxCount: jose.DefaultPBES2MaxCount + 1}})
	if _, err := raised.DecryptCompact(more); err != nil {
		t.Errorf("p2c within a raised maximum: %v", err)
	}

	var rs []jwe.Recipient
	for i := range jose.DefaultMaxRecipients {
		rs = append(rs, jwe.Recipient{Algorithm: jwa.PBES2HS512A256KW, Key: []byte(fmt.Sprintf("password %d", i))})
	}
	tok, err := jwe.EncryptGeneral(jwa.A128GCM, []byte("pt"), nil, nil, rs...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rvDecrypter(t, jwe.DecryptOptions{Key: rs[0].Key}).DecryptJSON(tok); err != nil {
		t.Errorf("first recipient: %v", err)
	}
	if _, err := rvDecrypter(t, jwe.DecryptOptions{Key: rs[1].Key}).DecryptJSON(tok); !errors.Is(err, jose.ErrLimitExceeded) {
		t.Errorf("second recipient at the maximum count: %v, want ErrLimitExceeded", err)
	}
}

// TestKeyAttemptsPerToken: over all its recipients and keys, one JWE costs
// at most Limits.MaxKeyAttempts key decryptions (4 by default): with 16
// A128KW recipients, the key of the fourth is found, that of the fifth is
// refused with ErrLimitExceeded before its unwrap (where RSA or ECDH
// recipients made 16 × MaxKeyCandidates private-key operations possible),
// and found again once the limit is raised.
func TestKeyAttemptsPerToken(t *testing.T) {
	var rs []jwe.Recipient
	for i := range jose.DefaultMaxRecipients {
		rs = append(rs, jwe.Recipient{Algorithm: jwa.A128KW, Key: bytes.Repeat([]byte{byte(i + 1)}, 16)})
	}
	tok, err := jwe.EncryptGeneral(jwa.A128GCM, []byte("pt"), nil, nil, rs...)
	if err != nil {
		t.Fatal(err)
	}
	set := &jose.Set{}
	for i := range jwe.MaxKeyCandidates {
		k, _ := jose.NewJWK(bytes.Repeat([]byte{0xf0 + byte(i)}, 16))
		set.Keys = append(set.Keys, k)
	}
	for _, c := range []struct {
		name string
		opts jwe.DecryptOptions
		want error // nil: decrypts
	}{
		{"the fourth recipient's key", jwe.DecryptOptions{Key: rs[3].Key}, nil},
		{"the fifth recipient's key", jwe.DecryptOptions{Key: rs[4].Key}, jose.ErrLimitExceeded},
		{"the fifth recipient's key, limit raised", jwe.DecryptOptions{Key: rs[4].Key, Limits: jose.Limits{MaxKeyAttempts: 5}}, nil},
		{"the last recipient's key, limit raised", jwe.DecryptOptions{Key: rs[15].Key, Limits: jose.Limits{MaxKeyAttempts: 16}}, nil},
		{"a set of 4 wrong keys", jwe.DecryptOptions{Keys: set}, jose.ErrLimitExceeded},
		{"a wrong key, limit raised", jwe.DecryptOptions{Key: bytes.Repeat([]byte{0xee}, 16), Limits: jose.Limits{MaxKeyAttempts: 16}}, jose.ErrDecryptionFailed},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := rvDecrypter(t, c.opts).DecryptJSON(tok)
			if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
				t.Errorf("err = %v, want %v", err, c.want)
			}
		})
	}
}

// TestKeyAttemptsBeforeKeyFunc: once a token has spent its
// Limits.MaxKeyAttempts, no further recipient reaches the caller's KeyFunc
// (which may be costly): of 16 recipients whose key does not unwrap,
// KeyFunc is called for the 4 that are tried.
func TestKeyAttemptsBeforeKeyFunc(t *testing.T) {
	var rs []jwe.Recipient
	for i := range jose.DefaultMaxRecipients {
		rs = append(rs, jwe.Recipient{Algorithm: jwa.A128KW, Key: bytes.Repeat([]byte{byte(i + 1)}, 16)})
	}
	tok, err := jwe.EncryptGeneral(jwa.A128GCM, []byte("pt"), nil, nil, rs...)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	d := rvDecrypter(t, jwe.DecryptOptions{KeyFunc: func(*jose.Header) (any, error) {
		calls++
		return bytes.Repeat([]byte{0xee}, 16), nil
	}})
	if _, err := d.DecryptJSON(tok); !errors.Is(err, jose.ErrLimitExceeded) {
		t.Errorf("err = %v, want ErrLimitExceeded", err)
	}
	if calls != jose.DefaultMaxKeyAttempts {
		t.Errorf("KeyFunc called %d times, want %d", calls, jose.DefaultMaxKeyAttempts)
	}
}
