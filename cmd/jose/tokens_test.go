package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// tamper returns tok with one character of its part i (of the compact
// serialization) changed.
func tamper(t *testing.T, tok []byte, i int) []byte {
	t.Helper()
	parts := bytes.Split(bytes.TrimSpace(tok), []byte("."))
	p := parts[i]
	if len(p) < 2 {
		t.Fatalf("part %d of %s is too short to tamper with", i, tok)
	}
	c := &p[len(p)/2]
	if *c == 'A' {
		*c = 'B'
	} else {
		*c = 'A'
	}
	return bytes.Join(parts, []byte("."))
}

// keyPair returns the files of a private key and of its public key (the
// same file for a symmetric key).
type keyPair struct{ private, public string }

func newKeyPair(t *testing.T, genArgs ...string) keyPair {
	t.Helper()
	priv := mustRun(t, nil, append([]string{"key", "generate"}, genArgs...)...)
	p := keyPair{private: writeTemp(t, "key.jwk", priv), public: ""}
	if parseKey(t, priv).IsSymmetric() {
		p.public = p.private
	} else {
		p.public = writeTemp(t, "pub.jwk", mustRun(t, priv, "key", "public"))
	}
	return p
}

func TestSignVerifyRoundTrip(t *testing.T) {
	rsa := keyPair{kRSA, writeTemp(t, "rsa-pub.pem", mustRun(t, nil, "key", "convert", "--to", "pem", writeTemp(t, "rsa-pub.jwk", mustRun(t, nil, "key", "public", kRSA))))}
	for _, tt := range []struct {
		alg  string
		keys keyPair
	}{
		{"HS256", newKeyPair(t, "--kty", "oct", "--alg", "HS256")},
		{"HS384", newKeyPair(t, "--kty", "oct", "--size", "384")},
		{"HS512", newKeyPair(t, "--kty", "oct", "--alg", "HS512")},
		{"ES256", newKeyPair(t, "--kty", "EC", "--alg", "ES256")},
		{"ES256K", newKeyPair(t, "--kty", "EC", "--alg", "ES256K")},
		{"ES384", newKeyPair(t, "--kty", "EC", "--alg", "ES384")},
		{"ES512", newKeyPair(t, "--kty", "EC", "--alg", "ES512")},
		{"EdDSA", newKeyPair(t, "--kty", "OKP", "--alg", "EdDSA")},
		{"Ed25519", newKeyPair(t, "--kty", "OKP")},
		{"RS256", rsa},
		{"PS512", rsa},
	} {
		payload := []byte(`{"sub":"alice","n":` + strings.Repeat("1", 40) + `}`)
		for _, mode := range [][]string{nil, {"--json"}, {"--detached"}, {"--json", "--detached"}} {
			name := tt.alg + " " + strings.Join(mode, " ")
			tok := mustRun(t, payload, append([]string{"sign", "--alg", tt.alg, "--key", tt.keys.private}, mode...)...)
			if !bytes.HasSuffix(tok, []byte("\n")) || bytes.Count(tok, []byte("\n")) != 1 {
				t.Errorf("%s: token %q is not one line", name, tok)
			}
			verify := []string{"verify", "--alg", "HS256," + tt.alg, "--key", tt.keys.public}
			detached := len(mode) > 0 && mode[len(mode)-1] == "--detached"
			if detached {
				verify = append(verify, "--payload", writeTemp(t, "payload", payload))
			}
			if got := mustRun(t, tok, verify...); !bytes.Equal(got, payload) {
				t.Errorf("%s: verified payload %q, want %q", name, got, payload)
			}
			// The inspected header is the one signed.
			var in struct {
				Verified   *bool
				Header     map[string]any
				Signatures []struct{ Protected map[string]any }
				Payload    map[string]any
				Detached   bool
			}
			if err := json.Unmarshal(mustRun(t, tok, "inspect"), &in); err != nil {
				t.Fatalf("%s: inspect: %v", name, err)
			}
			h := in.Header
			if len(in.Signatures) == 1 {
				h = in.Signatures[0].Protected
			}
			if in.Verified == nil || *in.Verified || h["alg"] != tt.alg || in.Detached != detached || (!detached && in.Payload["sub"] != "alice") {
				t.Errorf("%s: inspect: %+v", name, in)
			}

			// A tampered token, payload or signature, exits with 1.
			var bad []byte
			if len(mode) > 0 && mode[0] == "--json" {
				bad = bytes.Replace(tok, []byte(`"signature":"`), []byte(`"signature":"AAAA`), 1)
			} else {
				bad = tamper(t, tok, 2)
			}
			code, out, stderr := runCLI(t, bad, verify...)
			if code != exitFailure || out != "" || !strings.HasPrefix(stderr, "jose: verify: ") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("%s: tampered signature: exit %d, stdout %q, stderr %q", name, code, out, stderr)
			}
			if !detached && mode == nil {
				code, out, stderr = runCLI(t, tamper(t, tok, 1), verify...)
				if code != exitFailure || out != "" {
					t.Errorf("%s: tampered payload: exit %d, stdout %q, stderr %q", name, code, out, stderr)
				}
			}
			if detached {
				v := append(verify[:len(verify)-1:len(verify)-1], writeTemp(t, "other", []byte("other payload")))
				if code, out, stderr = runCLI(t, tok, v...); code != exitFailure || out != "" {
					t.Errorf("%s: other payload: exit %d, stdout %q, stderr %q", name, code, out, stderr)
				}
			}
		}
	}
}

func TestVerifyRefuses(t *testing.T) {
	hs := kHS256
	// An unsecured token is refused whatever --alg says.
	none := jose.Base64URLEncode([]byte(`{"alg":"none"}`)) + "." + jose.Base64URLEncode([]byte("x")) + "."
	if code, out, stderr := runCLI(t, []byte(none), "verify", "--alg", "HS256", "--key", hs); code != exitFailure || out != "" {
		t.Errorf("alg none: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	// A token of another alg, signed with the HMAC key's bytes as if they
	// were allowed, is refused before any cryptography.
	tok := mustRun(t, []byte("x"), "sign", "--alg", "HS256", "--key", hs)
	if code, _, stderr := runCLI(t, tok, "verify", "--alg", "ES256", "--key", kSetPublic); code != exitFailure || !strings.Contains(stderr, "not allowed") {
		t.Errorf("alg outside the allow-list: exit %d, stderr %q", code, stderr)
	}
	// The key on standard input, the token from a file.
	if got := mustRun(t, readFile(t, "keys", "hs256.jwk"), "verify", "--alg", "HS256", "--key", "-", tHS256); !bytes.Contains(got, []byte("alice")) {
		t.Errorf("key on stdin: %q", got)
	}
	// A general JWS verifies only when every signature does.
	general := bytes.Replace(readFile(t, "tokens", "general.json"), []byte(`"signature": "u5`), []byte(`"signature": "u6`), 1)
	if code, out, stderr := runCLI(t, general, "verify", "--alg", "ES256,EdDSA", "--key", kSetPublic); code != exitFailure || out != "" || !strings.Contains(stderr, "signature 1 of 2") {
		t.Errorf("general, one bad signature: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	// A token over the size limit is refused before it is read whole.
	huge := bytes.Repeat([]byte("a"), maxToken+1)
	if code, _, stderr := runCLI(t, huge, "verify", "--alg", "HS256", "--key", hs); code != exitFailure || !strings.Contains(stderr, "larger than") {
		t.Errorf("huge token: exit %d, stderr %q", code, stderr)
	}
}

func TestEncryptDecryptRoundTrip(t *testing.T) {
	rsaPub := writeTemp(t, "rsa-pub.jwk", mustRun(t, nil, "key", "public", kRSA))
	password := writeTemp(t, "password.jwk", []byte(`{"kty":"oct","k":"`+jose.Base64URLEncode([]byte("correct horse battery staple"))+`"}`))
	for _, tt := range []struct {
		alg, enc string
		keys     keyPair
	}{
		{"dir", "A256GCM", newKeyPair(t, "--kty", "oct", "--alg", "dir")},
		{"dir", "A128CBC-HS256", newKeyPair(t, "--kty", "oct", "--alg", "dir", "--size", "256")},
		{"A128KW", "A128GCM", newKeyPair(t, "--kty", "oct", "--alg", "A128KW")},
		{"A256KW", "A256CBC-HS512", newKeyPair(t, "--kty", "oct", "--alg", "A256KW")},
		{"A192GCMKW", "A192GCM", newKeyPair(t, "--kty", "oct", "--alg", "A192GCMKW")},
		{"ECDH-ES", "A256GCM", newKeyPair(t, "--kty", "OKP", "--alg", "ECDH-ES")},
		{"ECDH-ES+A128KW", "A128GCM", newKeyPair(t, "--kty", "EC", "--alg", "ECDH-ES+A128KW")},
		{"ECDH-ES+A256KW", "A256GCM", newKeyPair(t, "--kty", "EC", "--crv", "P-521", "--alg", "ECDH-ES+A256KW")},
		{"RSA-OAEP-256", "A256GCM", keyPair{kRSA, rsaPub}},
		{"RSA-OAEP-384", "A192CBC-HS384", keyPair{kRSA, rsaPub}},
		{"RSA-OAEP-512", "A256CBC-HS512", keyPair{kRSA, rsaPub}},
		{"RSA-OAEP", "A128CBC-HS256", keyPair{kRSAPKCS1, kRSA}},
		{"PBES2-HS256+A128KW", "A128GCM", keyPair{password, password}},
	} {
		plaintext := bytes.Repeat([]byte("attack at dawn. "), 20)
		for _, mode := range [][]string{nil, {"--zip"}, {"--json"}} {
			name := tt.alg + " " + tt.enc + " " + strings.Join(mode, " ")
			args := append([]string{"encrypt", "--alg", tt.alg, "--enc", tt.enc, "--key", tt.keys.public}, mode...)
			if strings.HasPrefix(tt.alg, "PBES2") {
				args = append(args, "--p2c", "1000")
			}
			tok := mustRun(t, plaintext, args...)
			decrypt := []string{"decrypt", "--alg", "A128KW," + tt.alg, "--enc", tt.enc, "--key", tt.keys.private}
			if got := mustRun(t, tok, decrypt...); !bytes.Equal(got, plaintext) {
				t.Errorf("%s: decrypted %q", name, got)
			}
			var in struct {
				Type      string
				Verified  *bool
				Header    map[string]any
				Protected map[string]any
			}
			if err := json.Unmarshal(mustRun(t, tok, "inspect"), &in); err != nil {
				t.Fatalf("%s: inspect: %v", name, err)
			}
			h := in.Header
			if h == nil {
				h = in.Protected
			}
			zip := len(mode) > 0 && mode[0] == "--zip"
			if in.Type != "JWE" || in.Verified == nil || *in.Verified || h["alg"] != tt.alg || h["enc"] != tt.enc || (h["zip"] == "DEF") != zip {
				t.Errorf("%s: inspect: %+v", name, in)
			}
			if mode != nil && mode[0] == "--json" {
				continue
			}
			// Tampering with the ciphertext or the tag gives the one
			// opaque error.
			for _, part := range []int{3, 4} {
				code, out, stderr := runCLI(t, tamper(t, tok, part), decrypt...)
				if code != exitFailure || out != "" || stderr != "jose: decrypt: decryption failed\n" {
					t.Errorf("%s: part %d tampered: exit %d, stdout %q, stderr %q", name, part, code, out, stderr)
				}
			}
		}
	}
}

func TestConvertRoundTrip(t *testing.T) {
	// PKCS #8, SubjectPublicKeyInfo and certificates come back byte for byte.
	for _, file := range []string{kECPEM, kECPubPEM, kRSA, kCert} {
		jwk := mustRun(t, nil, "key", "convert", "--to", "jwk", file)
		k := parseKey(t, jwk)
		if k.KeyID != thumbprint(t, k) {
			t.Errorf("%s: kid %q is not the thumbprint", file, k.KeyID)
		}
		back := mustRun(t, jwk, "key", "convert", "--to", "pem")
		if want := readFile(t, strings.TrimPrefix(file, "testdata/")); !bytes.Equal(back, want) {
			t.Errorf("%s: PEM → JWK → PEM:\n%s\nwant\n%s", file, back, want)
		}
	}
	// PKCS #1 and SEC 1 give the same JWK as PKCS #8 (and PEM output is
	// PKCS #8).
	for _, pair := range [][2]string{{kRSAPKCS1, kRSA}, {kECSEC1, kECPEM}} {
		a := mustRun(t, nil, "key", "convert", "--to", "jwk", pair[0])
		b := mustRun(t, nil, "key", "convert", "--to", "jwk", pair[1])
		if !bytes.Equal(a, b) {
			t.Errorf("%s and %s differ:\n%s\n%s", pair[0], pair[1], a, b)
		}
		if got, want := mustRun(t, nil, "key", "convert", "--to", "pem", pair[0]), readFile(t, strings.TrimPrefix(pair[1], "testdata/")); !bytes.Equal(got, want) {
			t.Errorf("%s --to pem is not %s", pair[0], pair[1])
		}
	}
	// JWK → PEM → JWK keeps the key and thumbprint (kid, use and alg are
	// not part of PEM).
	for _, file := range []string{kEC, kEd, kX25519} {
		pem := mustRun(t, nil, "key", "convert", "--to", "pem", file)
		k := parseKey(t, mustRun(t, pem, "key", "convert", "--to", "jwk"))
		orig := parseKey(t, readFile(t, strings.TrimPrefix(file, "testdata/")))
		if thumbprint(t, k) != thumbprint(t, orig) || !k.IsPrivate() {
			t.Errorf("%s: JWK → PEM → JWK changed the key", file)
		}
	}
	// The thumbprint of a PEM key equals that of the JWK.
	a := mustRun(t, nil, "key", "thumbprint", kECPEM)
	b := mustRun(t, nil, "key", "thumbprint", kEC)
	c := mustRun(t, nil, "key", "thumbprint", kCert)
	if !bytes.Equal(a, b) || !bytes.Equal(a, c) {
		t.Errorf("thumbprints differ: %s %s %s", a, b, c)
	}
}

func TestInspectHostile(t *testing.T) {
	for _, tt := range []struct {
		name string
		tok  string
		msg  string
	}{
		{"dots", strings.Repeat(".", 500000), "not a JWS or JWE"},
		{"empty header", ".e30.", "the protected header is empty"},
		{"bad base64", "e30=.e30.", "protected header"},
		{"header not JSON", jose.Base64URLEncode([]byte("[1]")) + ".e30.", "the protected header is not a JSON object"},
		{"duplicate header member", jose.Base64URLEncode([]byte(`{"alg":"HS256","alg":"none"}`)) + ".e30.", `duplicate member name "alg"`},
		{"bad payload", jose.Base64URLEncode([]byte(`{"alg":"HS256"}`)) + ".e30=.", "payload"},
		{"duplicate JSON member", `{"payload":"e30","payload":"e31","signature":""}`, `duplicate member "payload"`},
		{"trailing data", `{"payload":"e30","signature":""} {}`, "data after the JSON object"},
		{"not an object", `{"payload"}`, "invalid JSON"},
		{"payload not a string", `{"payload":1,"signature":""}`, "payload: want a string"},
		{"protected not a string", `{"protected":1,"signature":""}`, "protected: want a string"},
		{"bad unprotected", `{"header":{"kid":1},"signature":""}`, "signature 1: header"},
		{"signatures not an array", `{"signatures":{}}`, "signatures: want a non-empty array"},
		{"too many signatures", `{"signatures":[` + strings.Repeat(`{},`, jose.DefaultMaxSignatures) + `{}]}`, "more than 16: limit exceeded"},
		{"signature not an object", `{"signatures":[1]}`, "not a JSON object"},
		{"JWE bad protected", `{"protected":"e30=","ciphertext":""}`, "protected header"},
		{"JWE protected not a string", `{"protected":[],"ciphertext":""}`, "protected: want a string"},
		{"JWE bad unprotected", `{"unprotected":{"alg":""},"ciphertext":""}`, "unprotected"},
		{"JWE bad recipient", `{"recipients":[{"header":{"enc":5}}],"ciphertext":""}`, "recipient 1: header"},
		{"JWE recipients empty", `{"recipients":[],"ciphertext":""}`, "recipients: want a non-empty array"},
		{"JWE bad compact header", "e30=....", "protected header"},
	} {
		code, out, stderr := runCLI(t, []byte(tt.tok), "inspect")
		if code != exitFailure || out != "" || !strings.Contains(stderr, tt.msg) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q (want %q)", tt.name, code, out, stderr, tt.msg)
		}
	}
}

func TestInspectForgeries(t *testing.T) {
	// Whatever a token claims, inspect says it is not verified.
	for _, tok := range []string{
		jose.Base64URLEncode([]byte(`{"alg":"none"}`)) + "." + jose.Base64URLEncode([]byte(`{"verified":true}`)) + ".",
		`{"payload":"` + jose.Base64URLEncode([]byte(`{"verified":true}`)) + `","protected":"` + jose.Base64URLEncode([]byte(`{"alg":"HS256","b64":false,"crit":["b64"]}`)) + `","header":{"verified":true},"signature":"AAAA"}`,
		`{"protected":"` + jose.Base64URLEncode([]byte(`{"enc":"A128GCM"}`)) + `","unprotected":{"verified":true},"recipients":[{},{"header":{"alg":"dir"}}],"ciphertext":"AAAA"}`,
	} {
		out := mustRun(t, []byte(tok), "inspect")
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatal(err)
		}
		if v["verified"] != false {
			t.Errorf("%s: %s", tok, out)
		}
	}
	// With "b64": false the payload is shown as it is (RFC 7797).
	tok := `{"payload":"$.02","protected":"` + jose.Base64URLEncode([]byte(`{"alg":"HS256","b64":false,"crit":["b64"]}`)) + `","signature":"AAAA"}`
	if out := mustRun(t, []byte(tok), "inspect"); !bytes.Contains(out, []byte(`"payload_text": "$.02"`)) {
		t.Errorf("unencoded payload: %s", out)
	}
}

// TestVerifyDetachedGeneral: a detached general JSON serialization of
// several signatures verifies with --payload, every signature checked, its
// payload base64url or, with "b64": false (RFC 7797), as it is; it said
// "use VerifyEach", an API name.
func TestVerifyDetachedGeneral(t *testing.T) {
	if got := mustRun(t, nil, "verify", "--alg", "ES256,EdDSA", "--key", kSetPublic, "--payload", "testdata/tokens/payload.txt", "testdata/tokens/general-detached.json"); string(got) != "hello" {
		t.Errorf("verified %q", got)
	}
	// A changed payload fails, naming the signature.
	other := writeTemp(t, "other.txt", []byte("hellO"))
	code, _, stderr := runCLI(t, nil, "verify", "--alg", "ES256,EdDSA", "--key", kSetPublic, "--payload", other, "testdata/tokens/general-detached.json")
	if code != exitFailure || !strings.Contains(stderr, "verification failed") {
		t.Errorf("changed payload: exit %d, stderr %q", code, stderr)
	}
	// Unencoded: the payload member is the payload itself.
	secret := readFile(t, "keys", "secret.txt")
	var signers []*jws.Signer
	for _, kid := range []string{"a", "b"} {
		s, err := jws.NewSigner(jwa.HS256, secret, &jws.SignerOptions{KeyID: kid, Unencoded: true})
		if err != nil {
			t.Fatal(err)
		}
		signers = append(signers, s)
	}
	tok, err := jws.SignGeneral([]byte("hello"), signers...)
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(tok, &top); err != nil {
		t.Fatal(err)
	}
	delete(top, "payload")
	detached, _ := json.Marshal(top)
	if got := mustRun(t, nil, "verify", "--alg", "HS256", "--secret-file", kSecret, "--payload", "testdata/tokens/payload.txt", string(detached)); string(got) != "hello" {
		t.Errorf("unencoded: verified %q", got)
	}
}
