package jose_test

// RFC 7517 and RFC 7638 conformance with the keys of latchset-jose
// (latchset/jose @ b58fdb1a, tests/vectors, Apache-2.0,
// ../testdata/latchset/LICENSE) and joserfc (authlib/joserfc @ 7facdee7,
// BSD-3-Clause, ../testdata/joserfc/LICENSE):
//
//   - every JWK and JWK Set parses, and marshals back to the same members
//     and values (RFC 7517 §4, §5);
//   - the RFC 7638 thumbprint of every key equals one computed here
//     independently from the JSON (§3.2: the required members only, in
//     lexicographic order, without whitespace, hashed with SHA-256), and
//     §3.1's example equals the published value.

import (
	"bytes"
	"crypto"
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
)

// cfRequired lists the members of RFC 7638 §3.2 by key type (RFC 8037 §2
// for OKP).
var cfRequired = map[string][]string{
	"EC":  {"crv", "kty", "x", "y"},
	"RSA": {"e", "kty", "n"},
	"oct": {"k", "kty"},
	"OKP": {"crv", "kty", "x"},
}

// cfThumbprint computes the RFC 7638 SHA-256 thumbprint of a JWK from its
// JSON members, without package jose.
func cfThumbprint(t *testing.T, members map[string]any) []byte {
	t.Helper()
	kty, _ := members["kty"].(string)
	req, ok := cfRequired[kty]
	if !ok {
		t.Fatalf("kty %q", kty)
	}
	var b strings.Builder
	b.WriteString("{")
	for i, name := range req {
		v, ok := members[name].(string)
		if !ok {
			t.Fatalf("member %q missing", name)
		}
		if i > 0 {
			b.WriteString(",")
		}
		// The values are base64url or ASCII names: no escaping needed.
		b.WriteString(`"` + name + `":"` + v + `"`)
	}
	b.WriteString("}")
	sum := sha256.Sum256([]byte(b.String()))
	return sum[:]
}

func cfMembers(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// cfCheckKey checks one key: its thumbprint and its round trip.
func cfCheckKey(t *testing.T, k *jose.JWK, members map[string]any) {
	t.Helper()
	got, err := k.Thumbprint(crypto.SHA256)
	if err != nil {
		t.Fatalf("Thumbprint: %v", err)
	}
	if want := cfThumbprint(t, members); !bytes.Equal(got, want) {
		t.Errorf("thumbprint %s, want %s", jose.Base64URLEncode(got), jose.Base64URLEncode(want))
	}
	out, err := json.Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	back := cfMembers(t, out)
	// Every member read is written back with the same value. (latchset's
	// RFC 7517 A.3 kid had its spaces stripped; it is compared as found.)
	for name, v := range members {
		if !reflect.DeepEqual(back[name], v) {
			t.Errorf("member %q: %v became %v", name, v, back[name])
		}
	}
	for name := range back {
		if _, ok := members[name]; !ok {
			t.Errorf("member %q added", name)
		}
	}
}

func TestConformanceJWKFiles(t *testing.T) {
	keys, _ := filepath.Glob("../testdata/latchset/*.jwk")
	rfc, _ := filepath.Glob("../testdata/joserfc/RFC7516-*.json")
	files := append(keys, rfc...)
	if len(files) < 40 {
		t.Fatalf("found only %d key files", len(files))
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			k, err := jose.ParseKey(data)
			if err != nil {
				t.Fatalf("ParseKey: %v", err)
			}
			cfCheckKey(t, k, cfMembers(t, data))
		})
	}
}

func TestConformanceJWKSetFiles(t *testing.T) {
	sets, _ := filepath.Glob("../testdata/latchset/*.jwkset")
	if len(sets) < 5 {
		t.Fatalf("found only %d set files", len(sets))
	}
	for _, name := range sets {
		t.Run(filepath.Base(name), func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			s, err := jose.ParseSet(data)
			if err != nil {
				t.Fatalf("ParseSet: %v", err)
			}
			var raw struct {
				Keys []json.RawMessage `json:"keys"`
			}
			if err := json.Unmarshal(data, &raw); err != nil {
				t.Fatal(err)
			}
			if len(s.Keys) != len(raw.Keys) {
				t.Fatalf("%d keys, file has %d", len(s.Keys), len(raw.Keys))
			}
			for i, k := range s.Keys {
				m := cfMembers(t, raw.Keys[i])
				if !k.Supported() {
					t.Fatalf("key %d unusable: %v", i, k.Err())
				}
				cfCheckKey(t, k, m)
				if kid, _ := m["kid"].(string); kid != "" && !slices.Contains(s.LookupKeyID(kid), k) {
					t.Errorf("LookupKeyID(%q) misses key %d", kid, i)
				}
			}
		})
	}
}

// TestConformanceRFC7638Example: the thumbprint of RFC 7638 §3.1's key is
// the published value (latchset non-json/rfc7638_3.1.thp).
func TestConformanceRFC7638Example(t *testing.T) {
	data, err := os.ReadFile("../testdata/latchset/rfc7638_3.1.jwk")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../testdata/latchset/non-json/rfc7638_3.1.thp")
	if err != nil {
		t.Fatal(err)
	}
	k, err := jose.ParseKey(data)
	if err != nil {
		t.Fatal(err)
	}
	got, err := k.Thumbprint(crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	if jose.Base64URLEncode(got) != string(bytes.TrimSpace(want)) {
		t.Fatalf("thumbprint %s, RFC 7638 §3.1 says %s", jose.Base64URLEncode(got), bytes.TrimSpace(want))
	}
}
