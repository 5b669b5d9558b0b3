package jwe_test

// Wycheproof JWE conformance (C2SP/wycheproof @ dac1dd47, testvectors_v1,
// Apache-2.0, ../../testdata/wycheproof/LICENSE): json_web_encryption_test
// and the JWE half of json_web_crypto_test.
//
// Every test case is its own subtest, named "<file>/tcId=<n>". A valid case
// must decrypt (to pt where given), an invalid one must be refused. Each case
// runs under two caller policies, and both must give the expected result:
//
//   - pinned: the key-management allow-list is the alg of the caller's key
//     (every supported algorithm when the key has none or an unknown one);
//   - open: every supported key-management algorithm is allowed, so that
//     only the binding of the algorithm to the key stands between the token
//     and acceptance.
//
// Content encryptions are always all allowed: a JWK does not name one.

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

type (
	wpGroup  = vectortest.WycheproofGroup
	wpTest   = vectortest.WycheproofTest
	wpCounts = vectortest.Counts
)

// wpDisagree lists the cases labelled valid that the strict policy refuses:
// they are asserted refused. No JWE case is skipped.
var wpDisagree = map[string]map[int]string{
	"json_web_encryption_test": {
		// The key's alg (A128GCM, a content encryption) differs from the
		// token's alg (dir); other vectors (tcId 106-111) expect that
		// binding to be enforced, and so do we.
		132: `key alg A128GCM, token alg dir: the key's alg is enforced`,
	},
}

type wpKeys struct {
	key    *jose.JWK
	set    *jose.Set
	err    error
	pinned []jwa.KeyAlgorithm
}

// wpGroupKeys parses the decrypter's key: always the private one.
func wpGroupKeys(g *wpGroup) wpKeys {
	var k wpKeys
	var algs []string
	if vectortest.IsKeySet(g.Private) {
		k.set, k.err = jose.ParseSet(g.Private)
		if k.err == nil {
			for _, key := range k.set.Keys {
				algs = append(algs, key.Algorithm)
			}
		}
	} else {
		k.key, k.err = jose.ParseKey(g.Private)
		if k.err == nil {
			algs = append(algs, k.key.Algorithm)
		}
	}
	k.pinned = vectortest.Pinned(algs, jwa.KeyAlgorithms())
	return k
}

func (k wpKeys) options(algs []jwa.KeyAlgorithm) jwe.DecryptOptions {
	opts := jwe.DecryptOptions{KeyAlgorithms: algs, ContentEncryptions: jwa.ContentEncryptions()}
	if k.set != nil {
		opts.Keys = k.set
	} else {
		opts.Key = k.key
	}
	return opts
}

func wpDecrypt(opts jwe.DecryptOptions, token []byte, json bool) (*jwe.Message, error) {
	d, err := jwe.NewDecrypter(opts)
	if err != nil {
		return nil, fmt.Errorf("NewDecrypter: %w", err)
	}
	if json {
		return d.DecryptJSON(token)
	}
	return d.DecryptCompact(token)
}

func TestWycheproofJWE(t *testing.T) {
	for _, name := range []string{"json_web_encryption_test", "json_web_crypto_test"} {
		t.Run(name, func(t *testing.T) {
			c := wpRunJWEFile(t, name)
			t.Logf("wycheproof %s (jwe): %v", name, c)
		})
	}
}

func wpRunJWEFile(t *testing.T, name string) *wpCounts {
	c := new(wpCounts)
	has := func(tc wpTest) bool {
		return vectortest.Present(tc.JWE) // else a JWS case of json_web_crypto_test: see package jws
	}
	vectortest.RunCases(t, vectortest.LoadWycheproof(t, name), c, has, wpGroupKeys, nil,
		func(t *testing.T, g *wpGroup, keys wpKeys, tc wpTest) { wpRunJWECase(t, name, g, keys, tc, c) })
	return c
}

func wpRunJWECase(t *testing.T, name string, g *wpGroup, keys wpKeys, tc wpTest, c *wpCounts) {
	token := vectortest.Token(t, tc.JWE)
	want := c.Expected(t, tc, wpDisagree[name])
	t.Logf("%s (group %s) flags %v enc %s: %s", tc.Comment, g.Comment, tc.Flags, tc.Enc, token)
	if keys.err != nil {
		if want == "valid" {
			t.Fatalf("key of a valid case refused: %v", keys.err)
		}
		t.Logf("refused at key parsing: %v", keys.err)
		return
	}
	var pt []byte
	if tc.Pt != nil {
		var err error
		if pt, err = hex.DecodeString(*tc.Pt); err != nil {
			t.Fatal(err)
		}
	}
	policies := []struct {
		name string
		algs []jwa.KeyAlgorithm
	}{
		{"pinned", keys.pinned},
		{"open", jwa.KeyAlgorithms()},
	}
	accepted := 0
	for _, p := range policies {
		msg, err := wpDecrypt(keys.options(p.algs), token, false)
		switch want {
		case "valid":
			if err != nil {
				t.Errorf("%s policy %v: valid token refused: %v", p.name, p.algs, err)
				continue
			}
			if pt != nil && !bytes.Equal(msg.Plaintext, pt) {
				t.Errorf("%s policy: plaintext %x, want %x", p.name, msg.Plaintext, pt)
			}
			if tc.Enc != "" && msg.Header != nil && msg.Header.Encryption != tc.Enc {
				t.Errorf("%s policy: enc %q, want %q", p.name, msg.Header.Encryption, tc.Enc)
			}
		case "invalid":
			if err == nil {
				t.Errorf("%s policy %v: invalid token decrypted (plaintext %x)", p.name, p.algs, msg.Plaintext)
				continue
			}
			t.Logf("%s policy: refused: %v", p.name, err)
			if !wpKnownError(err) {
				t.Errorf("%s policy: refusal does not wrap a jose sentinel error: %v", p.name, err)
			}
		case "acceptable":
			if err == nil {
				accepted++
			}
			t.Logf("%s policy: acceptable case: err = %v", p.name, err)
		default:
			t.Fatalf("unknown result %q", tc.Result)
		}
	}
	if want == "acceptable" {
		c.Acceptable(accepted > 0)
	}
	// (json_web_signature_test tcId 17 holds a truncated JSON text: only a
	// well-formed one is checked.)
	// The same five segments as a flattened JWE JSON Serialization
	// (RFC 7516 §7.2.2) must give the same result through DecryptJSON.
	if flat, ok := wpFlattened(token); ok && want != "acceptable" {
		for _, p := range policies {
			msg, err := wpDecrypt(keys.options(p.algs), flat, true)
			switch {
			case want == "valid" && err != nil:
				t.Errorf("%s policy: flattened form of a valid token refused: %v\n%s", p.name, err, flat)
			case want == "valid" && pt != nil && !bytes.Equal(msg.Plaintext, pt):
				t.Errorf("%s policy: flattened form: plaintext %x, want %x", p.name, msg.Plaintext, pt)
			case want == "invalid" && err == nil:
				t.Errorf("%s policy: flattened form of an invalid token decrypted\n%s", p.name, flat)
			}
		}
	}
	if slices.Contains(tc.Flags, "JsonSerialization") && json.Valid(token) {
		// Refused above because a compact-only API gets a JSON token. The
		// token is a well-formed flattened JWE JSON Serialization
		// (RFC 7516 §7.2.2) for the right key: DecryptJSON must accept it.
		for _, p := range policies {
			msg, err := wpDecrypt(keys.options(p.algs), token, true)
			if err != nil {
				t.Errorf("%s policy: DecryptJSON of the JSON form refused: %v", p.name, err)
			} else if string(msg.Plaintext) != "foo" {
				t.Errorf("%s policy: DecryptJSON plaintext %q, want %q", p.name, msg.Plaintext, "foo")
			}
		}
	}
}

// wpFlattened rewrites a compact JWE of exactly five segments as a
// flattened JSON serialization; empty members other than ciphertext are
// omitted, as RFC 7516 §7.2.1 requires.
func wpFlattened(token []byte) ([]byte, bool) {
	parts := strings.Split(string(token), ".")
	if len(parts) != 5 || (len(token) > 0 && token[0] == '{') {
		return nil, false
	}
	m := map[string]string{"ciphertext": parts[3]}
	for i, name := range []string{"protected", "encrypted_key", "iv", "", "tag"} {
		if name != "" && parts[i] != "" {
			m[name] = parts[i]
		}
	}
	b, err := json.Marshal(m)
	return b, err == nil
}

// wpKnownError reports whether err wraps one of the errors of jose/errors.go
// (or jwa's parameter error).
func wpKnownError(err error) bool {
	return vectortest.WrapsAny(err,
		jose.ErrMalformed, jose.ErrUnsupportedAlgorithm, jose.ErrAlgorithmNotAllowed,
		jose.ErrLimitExceeded, jose.ErrKeyNotFound, jose.ErrVerificationFailed,
		jose.ErrDecryptionFailed, jose.ErrInvalidKey, jose.ErrUnsupportedCritical,
		jwa.ErrInvalidParameter)
}
