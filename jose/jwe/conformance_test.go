package jwe_test

// RFC 7520 §5 examples as latchset-jose ships them (latchset/jose @
// b58fdb1a, tests/vectors, Apache-2.0, ../../testdata/latchset/LICENSE):
// every compact (.jwec), flattened (.jwef) and general (.jweg) token is
// decrypted through the public API with its key (.jwk) to the plaintext
// (.pt), under an allow-list of exactly the example's algorithms. Each
// token is also refused with the key of another example.

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// cfSections gives, for each RFC 7520 §5 example, its key management
// algorithm(s) and content encryption, as the RFC states them.
var cfSections = map[string]struct {
	algs []jwa.KeyAlgorithm
	enc  jwa.ContentEncryption
}{
	"5.1":  {[]jwa.KeyAlgorithm{jwa.RSA1_5}, jwa.A128CBCHS256},
	"5.2":  {[]jwa.KeyAlgorithm{jwa.RSAOAEP}, jwa.A256GCM},
	"5.3":  {[]jwa.KeyAlgorithm{jwa.PBES2HS512A256KW}, jwa.A128CBCHS256},
	"5.4":  {[]jwa.KeyAlgorithm{jwa.ECDHESA128KW}, jwa.A128GCM},
	"5.5":  {[]jwa.KeyAlgorithm{jwa.ECDHES}, jwa.A128CBCHS256},
	"5.6":  {[]jwa.KeyAlgorithm{jwa.Direct}, jwa.A128GCM},
	"5.7":  {[]jwa.KeyAlgorithm{jwa.A256GCMKW}, jwa.A128CBCHS256},
	"5.8":  {[]jwa.KeyAlgorithm{jwa.A128KW}, jwa.A128GCM},
	"5.9":  {[]jwa.KeyAlgorithm{jwa.A128KW}, jwa.A128GCM},
	"5.10": {[]jwa.KeyAlgorithm{jwa.A128KW}, jwa.A128GCM},
	"5.11": {[]jwa.KeyAlgorithm{jwa.A128KW}, jwa.A128GCM},
	"5.12": {[]jwa.KeyAlgorithm{jwa.A128KW}, jwa.A128GCM},
	"5.13": {[]jwa.KeyAlgorithm{jwa.RSA1_5, jwa.ECDHESA256KW, jwa.A256GCMKW}, jwa.A128CBCHS256},
}

func cfKey(t *testing.T, name string) *jose.JWK {
	t.Helper()
	k, err := jose.ParseKey(vectortest.ReadTrimmed(t, "latchset", name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return k
}

func TestConformanceLatchsetRFC7520JWE(t *testing.T) {
	tokens := vectortest.LatchsetNames(t, "non-json/rfc7520_5.*.jwec", "rfc7520_5.*.jwef", "rfc7520_5.*.jweg")
	if len(tokens) != 32 {
		t.Fatalf("found %d latchset JWE files, want 32", len(tokens))
	}
	for _, name := range tokens {
		t.Run(name, func(t *testing.T) {
			sec := vectortest.RFC7520Section(name)
			want, ok := cfSections[sec]
			if !ok {
				t.Fatalf("unknown section %q", sec)
			}
			pt := vectortest.ReadTrimmed(t, "latchset", "non-json/rfc7520_"+sec+".pt")
			tok := vectortest.ReadTrimmed(t, "latchset", name)
			var keys []*jose.JWK
			if sec == "5.13" {
				for _, i := range []string{"1", "2", "3"} {
					keys = append(keys, cfKey(t, "rfc7520_5.13."+i+".jwk"))
				}
			} else {
				keys = append(keys, cfKey(t, "rfc7520_"+sec+".jwk"))
			}
			// decryptWith decrypts the token with opts, which gets the
			// allow-lists algs and the section's enc.
			decryptWith := func(opts jwe.DecryptOptions, algs []jwa.KeyAlgorithm) (*jwe.Message, error) {
				opts.KeyAlgorithms = algs
				opts.ContentEncryptions = []jwa.ContentEncryption{want.enc}
				d, err := jwe.NewDecrypter(opts)
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasSuffix(name, ".jwec") {
					return d.DecryptCompact(tok)
				}
				return d.DecryptJSON(tok)
			}
			decrypt := func(key *jose.JWK, algs []jwa.KeyAlgorithm) (*jwe.Message, error) {
				return decryptWith(jwe.DecryptOptions{Key: key}, algs)
			}
			for i, key := range keys {
				algs := want.algs
				if sec == "5.13" {
					algs = want.algs[i : i+1]
				}
				if sec == "5.6" {
					// The published key says "alg":"A128GCM" (an enc):
					// the strict binding refuses it for "dir", as the
					// one Key in NewDecrypter and, from a KeyFunc, per
					// token; the caller who rebinds the key gets the
					// plaintext.
					_, err := jwe.NewDecrypter(jwe.DecryptOptions{KeyAlgorithms: algs, ContentEncryptions: []jwa.ContentEncryption{want.enc}, Key: key})
					if !errors.Is(err, jose.ErrInvalidKey) {
						t.Errorf("key bound to A128GCM as the one Key for dir: %v, want ErrInvalidKey", err)
					}
					kf := func(*jose.Header) (any, error) { return key, nil }
					if _, err := decryptWith(jwe.DecryptOptions{KeyFunc: kf}, algs); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
						t.Errorf("key bound to A128GCM from a KeyFunc for dir: %v, want ErrAlgorithmNotAllowed", err)
					}
					key.Algorithm = ""
				}
				msg, err := decrypt(key, algs)
				if err != nil {
					t.Fatalf("key %d (%s): %v", i, key.KeyID, err)
				}
				if !bytes.Equal(msg.Plaintext, pt) {
					t.Fatalf("key %d: plaintext %q, want %q", i, msg.Plaintext, pt)
				}
				if msg.Header == nil || msg.Header.Encryption != string(want.enc) {
					t.Errorf("key %d: header %+v", i, msg.Header)
				}
				if sec == "5.10" && len(msg.AAD) == 0 {
					t.Errorf("5.10: AAD not returned")
				}
			}
			// The key of another example never decrypts it.
			other := cfKey(t, "rfc7520_5.8.jwk")
			if sec == "5.8" || sec == "5.9" || sec == "5.10" || sec == "5.11" || sec == "5.12" {
				other = cfKey(t, "rfc7520_5.7.jwk")
			}
			if _, err := decrypt(other, jwa.KeyAlgorithms()); err == nil {
				t.Errorf("decrypted with the key %s of another example", other.KeyID)
			}
		})
	}
}
