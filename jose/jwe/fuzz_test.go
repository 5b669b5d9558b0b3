package jwe_test

// Fuzz targets for the JWE loaders: the compact serialization
// (Decrypter.DecryptCompact) and the JSON serializations
// (Decrypter.DecryptJSON), with a fixed key and a fixed allow-list.
//
// Beyond "no panic", nothing fuzzed may decrypt unless it is one of the
// tokens made with the key. Those are deterministic: the test builds them by
// hand from jwa primitives (fixed CEK and IV; RFC 7516 §5.1), so every
// fuzzing process has the same ones, and they double as an interoperability
// check (each must decrypt). The valid Wycheproof tokens for the same key are
// added to the known set. A compact token that decrypts must be
// byte-identical to a known one; a JSON one may differ in its unprotected
// parts, but its protected header, IV, ciphertext, tag and aad must be those
// of a known token.

import (
	"bytes"
	"compress/flate"
	"crypto/aes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// fzKeyB64 is the A256KW key of the Wycheproof jwe_aes group
// (kid-aes-encrypt), so that its valid tokens decrypt too.
const fzKeyB64 = "W1vBUI1-5HARc-qyT8hcYBt6q9sFNsztBrhlbl9W2CA"

var fzAlgs = []jwa.KeyAlgorithm{jwa.A256KW, jwa.A256GCMKW, jwa.Direct}

func fzKey(t testing.TB) []byte {
	k, err := jose.Base64URLDecode(fzKeyB64)
	if err != nil || len(k) != 32 {
		t.Fatalf("fuzz key: %v", err)
	}
	return k
}

func fzDecrypter(t testing.TB) *jwe.Decrypter {
	d, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms:      fzAlgs,
		ContentEncryptions: jwa.ContentEncryptions(),
		Key:                fzKey(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// fzParts is what the content encryption of a JWE JSON Serialization
// authenticates, as read with encoding/json by exact member names.
type fzParts struct{ protected, iv, ciphertext, tag, aad string }

func fzReadParts(data []byte) (fzParts, bool) {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return fzParts{}, false
	}
	str := func(name string) string {
		var s string
		_ = json.Unmarshal(top[name], &s)
		return s
	}
	return fzParts{str("protected"), str("iv"), str("ciphertext"), str("tag"), str("aad")}, true
}

type fzSeeds struct {
	compact    map[string][]byte // token -> plaintext
	parts      map[fzParts]bool
	plaintexts map[string]bool
	json       [][]byte
	known      map[string][]byte // every token made with the key -> plaintext
}

// fzBuild makes one JWE with the fuzz key, deterministically: alg is
// A256KW or dir, in the protected header or (JSON only) in a per-recipient
// header.
func fzBuild(t testing.TB, s *fzSeeds, alg jwa.KeyAlgorithm, enc jwa.ContentEncryption, pt []byte, zip bool, aad []byte) {
	key := fzKey(t)
	b64 := jose.Base64URLEncode
	sum := sha256.Sum256([]byte("cek " + string(enc)))
	cek := append(sum[:], sum[:]...)[:enc.KeySize()]
	var ek []byte
	if alg == jwa.Direct {
		if enc.KeySize() != len(key) {
			t.Fatalf("dir with %s needs a %d-byte key", enc, enc.KeySize())
		}
		cek = key
	} else {
		block, err := aes.NewCipher(key)
		if err != nil {
			t.Fatal(err)
		}
		if ek, err = jwa.WrapKey(nil, block, cek); err != nil {
			t.Fatal(err)
		}
	}
	iv := bytes.Repeat([]byte{7}, enc.IVSize())
	content := pt
	if zip {
		var buf bytes.Buffer
		w, _ := flate.NewWriter(&buf, flate.BestCompression)
		w.Write(pt)
		w.Close()
		content = buf.Bytes()
	}
	aead, err := jwa.NewContentCipher(enc, cek)
	if err != nil {
		t.Fatal(err)
	}
	zipMember := ""
	if zip {
		zipMember = `,"zip":"DEF"`
	}
	seal := func(protected string) (ct, tag string) {
		a := protected
		if aad != nil {
			a += "." + b64(aad)
		}
		sealed := aead.Seal(nil, iv, content, []byte(a))
		n := len(sealed) - enc.TagSize()
		return b64(sealed[:n]), b64(sealed[n:])
	}
	s.plaintexts[string(pt)] = true
	aadMember := ""
	if aad != nil {
		aadMember = fmt.Sprintf(`,"aad":%q`, b64(aad))
	} else {
		// The compact serialization has no aad.
		prot := b64([]byte(fmt.Sprintf(`{"alg":%q,"enc":%q%s}`, alg, enc, zipMember)))
		ct, tag := seal(prot)
		tok := prot + "." + b64(ek) + "." + b64(iv) + "." + ct + "." + tag
		s.compact[tok] = pt
		s.known[tok] = pt
	}
	// Flattened, alg protected, with a shared unprotected header.
	prot := b64([]byte(fmt.Sprintf(`{"alg":%q,"enc":%q%s}`, alg, enc, zipMember)))
	ct, tag := seal(prot)
	ekMember := ""
	if ek != nil {
		ekMember = fmt.Sprintf(`"encrypted_key":%q,`, b64(ek))
	}
	flat := fmt.Sprintf(`{"protected":%q,"unprotected":{"kid":"u"},%s"iv":%q,"ciphertext":%q,"tag":%q%s}`,
		prot, ekMember, b64(iv), ct, tag, aadMember)
	s.known[flat] = pt
	s.parts[fzParts{prot, b64(iv), ct, tag, b64(aad)}] = true
	// General, alg in the per-recipient header.
	prot = b64([]byte(fmt.Sprintf(`{"enc":%q%s}`, enc, zipMember)))
	ct, tag = seal(prot)
	recipient := fmt.Sprintf(`{"header":{"alg":%q,"kid":"r"}}`, alg)
	if ek != nil {
		recipient = fmt.Sprintf(`{"header":{"alg":%q,"kid":"r"},"encrypted_key":%q}`, alg, b64(ek))
	}
	gen := fmt.Sprintf(`{"protected":%q,"recipients":[%s],"iv":%q,"ciphertext":%q,"tag":%q%s}`,
		prot, recipient, b64(iv), ct, tag, aadMember)
	s.known[gen] = pt
	s.parts[fzParts{prot, b64(iv), ct, tag, b64(aad)}] = true
	s.json = append(s.json, []byte(flat), []byte(gen))
}

func fzMakeSeeds(t testing.TB) *fzSeeds {
	s := &fzSeeds{compact: map[string][]byte{}, parts: map[fzParts]bool{}, plaintexts: map[string]bool{}, known: map[string][]byte{}}
	pts := [][]byte{{}, []byte("foo"), bytes.Repeat([]byte("The true sign of intelligence is not knowledge but imagination. "), 4)}
	for _, enc := range jwa.ContentEncryptions() {
		for i, pt := range pts {
			fzBuild(t, s, jwa.A256KW, enc, pt, i == 2, nil)
		}
		fzBuild(t, s, jwa.A256KW, enc, pts[1], false, []byte("aad"))
	}
	for _, enc := range []jwa.ContentEncryption{jwa.A256GCM, jwa.A128CBCHS256} {
		fzBuild(t, s, jwa.Direct, enc, pts[1], false, nil)
		fzBuild(t, s, jwa.Direct, enc, pts[2], true, []byte{0, 1, 2})
	}
	// Every token built must decrypt: this checks the construction above
	// and the decrypter against each other.
	d := fzDecrypter(t)
	for tok, pt := range s.known {
		var msg *jwe.Message
		var err error
		if tok[0] == '{' {
			msg, err = d.DecryptJSON([]byte(tok))
		} else {
			msg, err = d.DecryptCompact([]byte(tok))
		}
		if err != nil || !bytes.Equal(msg.Plaintext, pt) {
			t.Fatalf("hand-built JWE does not decrypt: %v\n%s", err, tok)
		}
	}
	return s
}

// fzVectorTokens returns every JWE of the Wycheproof files, and adds the
// valid ones made with the fuzz key to s.
func fzVectorTokens(f *testing.F, s *fzSeeds) [][]byte {
	var out [][]byte
	for _, name := range []string{"json_web_encryption_test", "json_web_crypto_test"} {
		file := vectortest.LoadWycheproof(f, name)
		for _, g := range file.TestGroups {
			var k struct {
				K string `json:"k"`
			}
			_ = json.Unmarshal(g.Private, &k)
			for _, tc := range g.Tests {
				if !vectortest.Present(tc.JWE) {
					continue
				}
				tok := vectortest.Token(f, tc.JWE)
				out = append(out, tok)
				// Known: the valid ones, and the well-formed JSON
				// serializations labelled invalid only because the
				// Wycheproof API under test is compact-only.
				jsonForm := slices.Contains(tc.Flags, "JsonSerialization") && json.Valid(tok)
				if k.K == fzKeyB64 && (tc.Result == "valid" || jsonForm) {
					pt := []byte("foo")
					s.plaintexts[string(pt)] = true
					if tok[0] == '{' {
						if p, ok := fzReadParts(tok); ok {
							s.parts[p] = true
						}
					} else {
						s.compact[string(tok)] = pt
					}
				}
			}
		}
	}
	out = append(out, vectortest.ReadAllTrimmed(f, "latchset/non-json/*.jwec", "latchset/*.jwef", "latchset/*.jweg", "latchset/cve-2023-50967/*.jwe")...)
	if len(out) < 150 {
		f.Fatalf("only %d vector tokens found", len(out))
	}
	return out
}

func fzCheckError(t *testing.T, err error) {
	t.Helper()
	vectortest.CheckErrorText(t, err)
	for _, target := range []error{
		jose.ErrMalformed, jose.ErrUnsupportedAlgorithm, jose.ErrAlgorithmNotAllowed,
		jose.ErrLimitExceeded, jose.ErrKeyNotFound, jose.ErrDecryptionFailed,
		jose.ErrInvalidKey, jose.ErrUnsupportedCritical, jwa.ErrInvalidParameter,
	} {
		if errors.Is(err, target) {
			return
		}
	}
	t.Fatalf("error %q wraps no jose sentinel error", err)
}

// fzLong is a name or value longer than any error may repeat; the headers
// of fzLongHeaders put it where errors name a member or a value.
var (
	fzLong        = strings.Repeat("\u00e9", 1000)
	fzLongHeaders = []string{
		`{"alg":"` + fzLong + `","enc":"A128GCM"}`, `{"alg":"dir","enc":"` + fzLong + `"}`,
		`{"alg":"dir","enc":"A128GCM","zip":"` + fzLong + `"}`, `{"alg":"dir","enc":"A128GCM","` + fzLong + `":1,"` + fzLong + `":2}`,
		`{"alg":"dir","enc":"A128GCM","crit":["` + fzLong + `"],"` + fzLong + `":1}`, `{"alg":"HPKE-0","enc":"` + fzLong + `"}`,
	}
)

func FuzzDecryptCompact(f *testing.F) {
	seeds := fzMakeSeeds(f)
	d := fzDecrypter(f)
	for tok := range seeds.compact {
		f.Add([]byte(tok))
	}
	for _, tok := range fzVectorTokens(f, seeds) {
		if tok[0] != '{' {
			f.Add(tok)
		}
	}
	f.Add([]byte("...."))
	for _, h := range fzLongHeaders {
		f.Add([]byte(jose.Base64URLEncode([]byte(h)) + "..AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA"))
	}
	f.Fuzz(func(t *testing.T, token []byte) {
		msg, err := d.DecryptCompact(token)
		if err != nil {
			fzCheckError(t, err)
			return
		}
		want, ok := seeds.compact[string(token)]
		if !ok {
			t.Fatalf("a token not made with the key decrypted: %q (plaintext %q)", token, msg.Plaintext)
		}
		if !bytes.Equal(msg.Plaintext, want) {
			t.Fatalf("plaintext %q, encrypted %q", msg.Plaintext, want)
		}
	})
}

func FuzzDecryptJSON(f *testing.F) {
	seeds := fzMakeSeeds(f)
	d := fzDecrypter(f)
	for _, tok := range seeds.json {
		f.Add(tok)
	}
	for _, tok := range fzVectorTokens(f, seeds) {
		if tok[0] == '{' {
			f.Add(tok)
		}
	}
	f.Add([]byte(`{"protected":"","recipients":[],"iv":"","ciphertext":"","tag":""}`))
	for _, h := range fzLongHeaders {
		f.Add([]byte(`{"protected":"` + jose.Base64URLEncode([]byte(h)) + `","iv":"AAAAAAAAAAAAAAAA","ciphertext":"AAAA","tag":"AAAAAAAAAAAAAAAAAAAAAA"}`))
		f.Add([]byte(`{"unprotected":` + h + `,"iv":"AAAAAAAAAAAAAAAA","ciphertext":"AAAA","tag":"AAAAAAAAAAAAAAAAAAAAAA"}`))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		msg, err := d.DecryptJSON(data)
		if err != nil {
			fzCheckError(t, err)
			return
		}
		p, ok := fzReadParts(data)
		if !ok || !seeds.parts[p] {
			t.Fatalf("a JWE not made with the key decrypted: %s (read as %+v)", data, p)
		}
		if !seeds.plaintexts[string(msg.Plaintext)] {
			t.Fatalf("plaintext %q was never encrypted", msg.Plaintext)
		}
	})
}
