package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
)

// The fixtures of the issue 23 cases: a raw HMAC secret of 32 bytes (no
// line break), and the HS256 JWS of payload.txt made with it.
const (
	kSecret  = "testdata/keys/secret.txt"
	tSecret  = "testdata/tokens/secret-hs256.jws"
	tNotAJWS = "testdata/tokens/not-a-token.txt" // "not.a.token"

	// kAPIName is ec.jwk's public key, kid "Verify", in a file whose name
	// looks like an API name; kKidSet is a set of six keys of kid
	// "Verify" and ec.jwk.
	kAPIName = "testdata/keys/JWK.json"
	kKidSet  = "testdata/keys/kid-set.json"
	// kKidDup holds two P-256 keys of kid "ec-1".
	kKidDup = "testdata/keys/kid-dup.json"

	// secretEnv and shortEnv are environment variables the tests set:
	// the secret of kSecret, and one too short for HS256.
	secretEnv = "JOSE_TEST_SECRET"
	shortEnv  = "JOSE_TEST_SHORT_SECRET"

	// kSecretNL is kSecret's secret and a line break, as echo writes
	// it; newlineEnv holds the same.
	kSecretNL  = "testdata/keys/secret-nl.txt"
	newlineEnv = "JOSE_TEST_SECRET_NL"
)

// token is the token in the file name, without its line break, as a user
// pastes it.
func token(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(data))
}

// setSecrets sets the environment variables of the secret cases.
func setSecrets(t *testing.T) {
	t.Setenv(secretEnv, "correct horse battery staple 123")
	t.Setenv(shortEnv, "hunter2")
	t.Setenv(newlineEnv, "correct horse battery staple 123\n")
}

// TestUserTextGolden pins what issue 23 asked the command to say and do:
// tokens given on the command line, raw HMAC secrets, --kid picking a key
// from a set, --header, and each error in the user's words (the file or
// flag, and what to do).
func TestUserTextGolden(t *testing.T) {
	setSecrets(t)
	hs := token(t, tHS256)
	for _, tt := range []struct {
		name string
		in   string
		args []string
	}{
		// A pasted token.
		{"paste-verify", "", []string{"verify", "--alg", "HS256", "--key", kHS256, hs}},
		{"paste-verify-json", "", []string{"verify", "--alg", "EdDSA", "--key", kEd, token(t, tEdFlat)}},
		{"paste-decrypt", "", []string{"decrypt", "--alg", "A128KW", "--enc", "A128GCM", "--key", kA128KW, token(t, tA128KW)}},
		{"paste-inspect", "", []string{"inspect", hs}},
		{"paste-jwt-validate", "", []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--any-audience", "--no-exp", hs}},
		{"paste-not-a-token", "", []string{"verify", "--alg", "HS256", "--key", kHS256, "not.a.token"}},
		{"paste-long-broken", "", []string{"inspect", "eyJhbGciOiJIUzI1NiIsImI2NCI6InRydWUifQ." + strings.Repeat("A", 300) + ".AAAA"}},
		{"paste-cut", "", []string{"inspect", strings.Repeat("A", 100) + ".e30.x"}},
		{"paste-missing-file", "", []string{"verify", "--alg", "HS256", "--key", kHS256, "token.jwt"}},
		{"stdin-not-a-token", tNotAJWS, []string{"verify", "--alg", "HS256", "--key", kHS256}},
		{"inspect-not-a-token", tNotAJWS, []string{"inspect"}},
		{"jwt-validate-not-a-token", tNotAJWS, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--any-audience"}},

		// An empty argument or file flag ("$(cat missing)") is refused,
		// standard input (given here) left unread: only - means it.
		{"empty-token-verify", tHS256, []string{"verify", "--alg", "HS256", "--key", kHS256, ""}},
		{"empty-token-decrypt", tA128KW, []string{"decrypt", "--alg", "A128KW", "--enc", "A128GCM", "--key", kA128KW, ""}},
		{"empty-token-jwt-validate", tHS256, []string{"jwt", "validate", "--alg", "HS256", "--key", kHS256, "--any-audience", ""}},
		{"empty-token-inspect", tHS256, []string{"inspect", ""}},
		{"empty-file-key-public", kEC, []string{"key", "public", ""}},
		{"empty-file-sign", tEd, []string{"sign", "--alg", "HS256", "--key", kHS256, ""}},
		{"empty-flag-key", tHS256, []string{"verify", "--alg", "HS256", "--key", "", tHS256}},
		{"empty-flag-secret-file", tHS256, []string{"verify", "--alg", "HS256", "--secret-file", "", tHS256}},
		{"empty-flag-secret-env", tHS256, []string{"verify", "--alg", "HS256", "--secret-env", "", tHS256}},
		{"empty-flag-payload", "", []string{"verify", "--alg", "EdDSA", "--key", kEd, "--payload", "", tEdDetach}},

		// Raw HMAC secrets.
		{"secret-file-sign", "", []string{"sign", "--alg", "HS256", "--secret-file", kSecret, "testdata/tokens/payload.txt"}},
		{"secret-env-verify", "", []string{"verify", "--alg", "HS256", "--secret-env", secretEnv, tSecret}},
		{"secret-env-verify-wrong", "", []string{"verify", "--alg", "HS256", "--secret-env", secretEnv, tHS256}},
		{"secret-jwt-issue", "", []string{"jwt", "issue", "--alg", "HS256", "--secret-env", secretEnv, "--sub", "alice", "--aud", "api"}},
		{"secret-short", "", []string{"sign", "--alg", "HS256", "--secret-env", shortEnv, "testdata/tokens/payload.txt"}},
		{"secret-short-hs512", "", []string{"verify", "--alg", "HS256,HS512", "--secret-file", kSecret, tSecret}},
		{"secret-not-hmac", "", []string{"sign", "--alg", "ES256", "--secret-file", kSecret, "testdata/tokens/payload.txt"}},
		{"secret-unset", "", []string{"sign", "--alg", "HS256", "--secret-env", "JOSE_TEST_UNSET", "testdata/tokens/payload.txt"}},
		{"secret-and-key", "", []string{"sign", "--alg", "HS256", "--key", kHS256, "--secret-env", secretEnv}},
		// A key file given as a raw secret: its text would be the
		// HMAC key.
		{"secret-file-jwk", tEd, []string{"sign", "--alg", "HS256", "--secret-file", kHS256}},
		{"secret-file-set", tHS256, []string{"verify", "--alg", "HS256", "--secret-file", kSet, tHS256}},
		{"secret-file-pem", tEd, []string{"sign", "--alg", "HS256", "--secret-file", kECPEM}},
		{"secret-stdin-twice", "", []string{"sign", "--alg", "HS256", "--secret-file", "-"}},

		// A secret file written by echo: its line break is part of the
		// secret, and a failed verification says so.
		{"secret-newline-verify", "", []string{"verify", "--alg", "HS256", "--secret-file", kSecretNL, tSecret}},
		{"secret-newline-jwt-validate", "", []string{"jwt", "validate", "--alg", "HS256", "--secret-file", kSecretNL, "--any-audience", tSecret}},
		{"secret-newline-env", "", []string{"verify", "--alg", "HS256", "--secret-env", newlineEnv, tSecret}},
		{"secret-crlf-verify", "", []string{"verify", "--alg", "HS256", "--secret-file", "testdata/keys/secret-crlf.txt", tSecret}},
		{"secret-newline-alg", "", []string{"verify", "--alg", "HS384", "--secret-file", kSecretNL, tSecret}},

		// --kid picks the key of a set.
		{"kid-sign-set", tEd, []string{"sign", "--alg", "EdDSA", "--key", kSet, "--kid", "ed-1"}},
		{"kid-jwt-issue-set", "", []string{"jwt", "issue", "--alg", "EdDSA", "--key", kSet, "--kid", "ed-1", "--sub", "alice", "--aud", "api"}},
		{"kid-unknown", tEd, []string{"sign", "--alg", "EdDSA", "--key", kSet, "--kid", "nope"}},
		{"kid-misfit", tEd, []string{"sign", "--alg", "ES256", "--key", kSet, "--kid", "ed-1"}},
		{"kid-nested-set", "", []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--enc-alg", "ECDH-ES", "--enc", "A256GCM", "--enc-key", kSet}},
		{"kid-encrypt-set", tEd, []string{"encrypt", "--alg", "ECDH-ES", "--enc", "A256GCM", "--key", kSet}},

		// --header.
		{"header-sign", tEd, []string{"sign", "--alg", "HS256", "--key", kHS256, "--header", "org=acme", "--header", "ver=2", "--header", `x={"a":[1,true]}`, "--header", `s="2"`}},
		{"header-kid", tEd, []string{"sign", "--alg", "HS256", "--key", kHS256, "--header", "kid=x"}},
		{"header-crit", tEd, []string{"sign", "--alg", "HS256", "--key", kHS256, "--header", `crit=["x"]`}},
		{"header-twice", tEd, []string{"sign", "--alg", "HS256", "--key", kHS256, "--header", "a=1", "--header", "a=2"}},
		{"header-no-value", tEd, []string{"sign", "--alg", "HS256", "--key", kHS256, "--header", "org"}},
		{"header-registered-type", tEd, []string{"sign", "--alg", "HS256", "--key", kHS256, "--header", "x5u=5"}},
		{"header-encrypt-enc", tEd, []string{"encrypt", "--alg", "A128KW", "--enc", "A128GCM", "--key", kA128KW, "--header", "enc=A256GCM"}},
		{"header-jwt-issue", "", []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--header", "typ=at+jwt"}},
		{"header-jwt-issue-cty", "", []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--header", "cty=JWT"}},
		{"header-null-empty", tEd, []string{"sign", "--alg", "HS256", "--key", kHS256, "--header", "n=null", "--header", "e="}},
		{"header-overflow", tEd, []string{"sign", "--alg", "HS256", "--key", kHS256, "--header", "x=1e400"}},
		{"header-overflow-nested", tEd, []string{"encrypt", "--alg", "A128KW", "--enc", "A128GCM", "--key", kA128KW, "--header", `x={"a":[1e-400]}`}},

		// Errors in the user's words.
		{"sign-public-key", tEd, []string{"sign", "--alg", "ES256", "--key", kECPubPEM}},
		{"sign-public-set", tEd, []string{"sign", "--alg", "EdDSA", "--key", kSetPublic, "--kid", "ed-1"}},
		{"sign-key-alg", tEd, []string{"sign", "--alg", "HS384", "--key", kHS256}},
		{"jwt-issue-key-alg", "", []string{"jwt", "issue", "--alg", "HS512", "--key", kHS256}},
		{"verify-detached-json", "", []string{"verify", "--alg", "EdDSA", "--key", kEd, "testdata/tokens/ed-detached.json"}},
		{"key-not-json", "", []string{"key", "public", "testdata/tokens/payload.txt"}},
		{"key-bad-json", "", []string{"key", "public", "testdata/tokens/ed-flat.json"}},
		{"decrypt-public-key", tECDHFlat, []string{"decrypt", "--alg", "ECDH-ES", "--enc", "A256GCM", "--key", "testdata/keys/x25519-pub.jwk"}},
		{"verify-misfit-all", tEd, []string{"verify", "--alg", "HS256,ES256", "--key", kEd}},
		{"verify-enc-key", tHS256, []string{"verify", "--alg", "HS256", "--key", "testdata/keys/oct-enc.jwk"}},
		{"sign-enc-key", tEd, []string{"sign", "--alg", "HS256", "--key", "testdata/keys/oct-enc.jwk"}},
		{"encrypt-key-alg", tEd, []string{"encrypt", "--alg", "A256KW", "--enc", "A256GCM", "--key", kHS256}},
		{"encrypt-sig-key", tEd, []string{"encrypt", "--alg", "A256KW", "--enc", "A256GCM", "--key", kHS256Any}},
		{"decrypt-misfit", tA128KW, []string{"decrypt", "--alg", "A128KW", "--enc", "A128GCM", "--key", kEd}},
		{"decrypt-misfit-all", tA128KW, []string{"decrypt", "--alg", "A128KW,ECDH-ES", "--enc", "A128GCM", "--key", kHS256}},
		{"decrypt-key-alg", tA128KW, []string{"decrypt", "--alg", "A256KW", "--enc", "A128GCM", "--key", kHS256}},
		{"decrypt-key-alg-other", tA128KW, []string{"decrypt", "--alg", "dir", "--enc", "A128GCM", "--key", kA128KW}},
		{"decrypt-sig-key", tA128KW, []string{"decrypt", "--alg", "A256KW", "--enc", "A128GCM", "--key", kHS256Any}},
		{"secret-file-missing", "", []string{"sign", "--alg", "HS256", "--secret-file", "testdata/keys/nope.txt", "testdata/tokens/payload.txt"}},
		{"generate-size-unbound", "", []string{"key", "generate", "--kty", "oct", "--size", "136"}},
		{"generate-size-unbound-enc", "", []string{"key", "generate", "--kty", "oct", "--size", "136", "--use", "enc"}},
		{"generate-ed-enc", "", []string{"key", "generate", "--kty", "OKP", "--crv", "Ed25519", "--use", "enc"}},

		// Common mistakes of a new user: each message says what to do.
		{"walk-alg-case", tEd, []string{"sign", "--alg", "hs256", "--key", kHS256}},
		{"walk-generate-alg-case", "", []string{"key", "generate", "--kty", "EC", "--alg", "es256"}},
		{"walk-generate-alg-case-enc", "", []string{"set", "generate", "--kty", "RSA", "--alg", "rsa-oaep-256"}},
		{"walk-sign-text", "", []string{"sign", "--alg", "HS256", "--key", kHS256, "hello"}},
		{"walk-encrypt-text", "", []string{"encrypt", "--alg", "A128KW", "--enc", "A128GCM", "--key", kA128KW, "secret text"}},
		{"walk-dpop-thumbprint-arg", "", []string{"dpop", "thumbprint", kEC}},
		{"walk-verify-payload-attached", "", []string{"verify", "--alg", "HS256", "--key", kHS256, "--payload", "testdata/tokens/payload.txt", tHS256}},
		{"walk-dpop-url-host", "", []string{"dpop", "proof", "--key", kEC, "--method", "GET", "--url", "server.example"}},
		{"walk-alg-space", tEd, []string{"sign", "--alg", "HS256 ", "--key", kHS256}},
		{"walk-kty-case", "", []string{"key", "generate", "--kty", "ec"}},
		{"walk-crv", "", []string{"key", "generate", "--kty", "EC", "--crv", "p256"}},
		{"walk-crv-okp", "", []string{"key", "generate", "--kty", "OKP", "--crv", "X448"}},
		{"walk-size-oct", "", []string{"key", "generate", "--kty", "oct", "--size", "100"}},
		{"walk-verify-jwe", "", []string{"verify", "--alg", "HS256", "--key", kHS256, tA128KW}},
		{"walk-verify-jwe-json", "", []string{"verify", "--alg", "HS256", "--key", kHS256, tECDHFlat}},
		{"walk-decrypt-jws", "", []string{"decrypt", "--alg", "A128KW", "--enc", "A128GCM", "--key", kA128KW, tHS256}},
		{"walk-raw-secret-as-key", tEd, []string{"sign", "--alg", "HS256", "--key", kSecret}},
		{"walk-raw-secret-as-key-validate", "", []string{"jwt", "validate", "--alg", "HS256", "--key", kSecret, "--any-audience", tSecret}},
		{"walk-raw-secret-not-hmac", "", []string{"verify", "--alg", "HS256,ES256", "--key", kSecret, tSecret}},
		{"walk-flag-after-arg", "", []string{"key", "thumbprint", kEC, "--uri"}},
		{"walk-flag-after-token", "", []string{"verify", "--alg", "HS256", tHS256, "--key", kHS256}},
		{"walk-dpop-public-key", "", []string{"dpop", "proof", "--key", kECPubPEM, "--method", "GET", "--url", "https://server.example/"}},
		{"walk-dpop-oct-key", "", []string{"dpop", "proof", "--key", kHS256, "--method", "GET", "--url", "https://server.example/"}},

		// The key checked against the token's alg, when --alg allows
		// several, in the user's words rather than the library's.
		{"walk-token-alg-misfit", "", []string{"verify", "--alg", "HS256,ES256,EdDSA", "--key", kEC, tEd}},
		{"walk-token-alg-misfit-jwt", "", []string{"jwt", "validate", "--alg", "HS256,ES256,EdDSA", "--key", kAPIName, "--any-audience", tEd}},
		{"walk-token-hmac-short", "", []string{"verify", "--alg", "HS256", "--key", kOctNoAlg, tHS256}},
		{"walk-general-misfit", "", []string{"verify", "--alg", "ES256,EdDSA", "--key", kEd, tGeneral}},
		{"walk-general-key-type", "", []string{"verify", "--alg", "ES256,EdDSA,HS256", "--key", kHS256Any, tGeneral}},
		{"walk-general-not-allowed", "", []string{"verify", "--alg", "EdDSA", "--key", kSetPublic, tGeneral}},
		{"walk-decrypt-token-misfit", "", []string{"decrypt", "--alg", "A128KW,ECDH-ES", "--enc", "A256GCM", "--key", kA128KW, tECDHFlat}},
		{"walk-decrypt-public-set", "", []string{"decrypt", "--alg", "ECDH-ES", "--enc", "A256GCM", "--key", kSetPublic, tECDHFlat}},
		{"walk-decrypt-mixed-set", "", []string{"decrypt", "--alg", "ECDH-ES", "--enc", "A256GCM", "--key", "testdata/keys/set-mixed.json", tECDHFlat}},

		{"walk-dpop-alg-misfit", "", []string{"dpop", "proof", "--alg", "ES384", "--key", kEC, "--method", "GET", "--url", "https://server.example/"}},
		{"walk-dpop-rsa-no-alg", "", []string{"dpop", "proof", "--key", kRSA, "--method", "GET", "--url", "https://server.example/"}},
		{"walk-dpop-enc-key", "", []string{"dpop", "proof", "--key", kX25519, "--method", "GET", "--url", "https://server.example/"}},
		{"walk-dir-key-size", tEd, []string{"encrypt", "--alg", "dir", "--enc", "A128GCM", "--key", "testdata/keys/oct-enc.jwk"}},
		{"walk-sign-enc-alg-key", tEd, []string{"sign", "--alg", "ES256", "--key", "testdata/keys/ec-enc.jwk"}},

		// What the user gave is kept whole in a message, even when it
		// looks like one of the library's API or package names.
		{"text-dir", "", []string{"inspect", "testdata/keys"}},
		{"text-dir-key", "", []string{"verify", "--alg", "HS256", "--key", "testdata/keys", tHS256}},
		{"text-file-api-name", "", []string{"key", "public", "VerifyOptions"}},
		{"text-file-pkg-name", "", []string{"verify", "--alg", "HS256", "--key", "jws", tHS256}},
		{"text-token-api-name", "", []string{"inspect", "KeyFunc"}},
		{"text-file-jwk-json", tEd, []string{"sign", "--alg", "ES256", "--key", kAPIName}},
		{"text-kid-api-name", tEd, []string{"sign", "--alg", "ES256", "--key", kSet, "--kid", "Verify"}},
		{"text-header-name", tEd, []string{"sign", "--alg", "HS256", "--key", kHS256, "--header", "VerifyOptions=1", "--header", "VerifyOptions=2"}},

		// --kid with several keys of that kid: the first usable one, or
		// all of them described (at most 5) when none is.
		{"kid-several-one-fits", tEd, []string{"sign", "--alg", "EdDSA", "--key", kKidSet, "--kid", "Verify"}},
		{"kid-several-none-fit", tEd, []string{"sign", "--alg", "ES256", "--key", kKidSet, "--kid", "Verify"}},
		{"kid-several-hmac-short", tEd, []string{"sign", "--alg", "HS384", "--key", kKidSet, "--kid", "Verify"}},
		{"kid-several-encrypt", tEd, []string{"encrypt", "--alg", "RSA-OAEP", "--enc", "A128GCM", "--key", kKidSet, "--kid", "Verify"}},
		// Two keys of the kid that fit: refused, as a verifier given
		// the set refuses the token.
		{"kid-ambiguous", tEd, []string{"sign", "--alg", "ES256", "--key", kKidDup, "--kid", "ec-1"}},
		{"kid-ambiguous-hmac", tEd, []string{"sign", "--alg", "HS256", "--key", kKidSet, "--kid", "Verify"}},
		// A key too weak for its algorithm: the library's refusal, the
		// key named.
		{"claims-twice-nested", "", []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--claims", `{"cnf":{"jkt":"x","jkt":"y"}}`}},
		{"weak-rsa-sign", tEd, []string{"sign", "--alg", "RS256", "--key", kRSA1024}},
		{"weak-rsa-jwt-issue", "", []string{"jwt", "issue", "--alg", "PS256", "--key", kRSA1024}},
		{"weak-rsa-encrypt", tEd, []string{"encrypt", "--alg", "RSA-OAEP", "--enc", "A128GCM", "--key", kRSA1024}},
		{"weak-rsa-nested", "", []string{"jwt", "issue", "--alg", "HS256", "--key", kHS256, "--enc-alg", "RSA-OAEP-256", "--enc", "A128GCM", "--enc-key", kRSA1024}},
		{"weak-rsa-dpop", "", []string{"dpop", "proof", "--alg", "RS256", "--key", kRSA1024, "--method", "GET", "--url", "https://server.example/"}},
		{"sign-hmac-short", tEd, []string{"sign", "--alg", "HS512", "--key", kHS256Any}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkGolden(t, tt.name, tt.in, testTime, tt.args)
		})
	}
}

// TestSecretIsRaw: the secret of --secret-file is its bytes exactly, the
// HMAC key of RFC 7518 §3.2, as another implementation computes it.
func TestSecretIsRaw(t *testing.T) {
	setSecrets(t)
	secret := readFile(t, "keys", "secret.txt")
	tok := strings.TrimSpace(string(mustRun(t, []byte("hello"), "sign", "--alg", "HS256", "--secret-env", secretEnv)))
	i := strings.LastIndexByte(tok, '.')
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(tok[:i]))
	if want := jose.Base64URLEncode(mac.Sum(nil)); tok[i+1:] != want {
		t.Errorf("signature %s, want %s", tok[i+1:], want)
	}
}

// TestSecretNewlineKept: a secret file's final line break stays part of
// the secret (the documented behaviour): the token it signs is the HMAC
// of those bytes, and it verifies with the same file, without a hint.
func TestSecretNewlineKept(t *testing.T) {
	secret := readFile(t, "keys", "secret-nl.txt")
	tok := strings.TrimSpace(string(mustRun(t, []byte("hello"), "sign", "--alg", "HS256", "--secret-file", kSecretNL)))
	i := strings.LastIndexByte(tok, '.')
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(tok[:i]))
	if want := jose.Base64URLEncode(mac.Sum(nil)); tok[i+1:] != want {
		t.Errorf("signature %s, want the HMAC of the file's %d bytes, %s", tok[i+1:], len(secret), want)
	}
	if got := mustRun(t, nil, "verify", "--alg", "HS256", "--secret-file", kSecretNL, tok); string(got) != "hello" {
		t.Errorf("verified %q", got)
	}
}

// TestKidEncrypt: --kid picks the recipient of a set, whose kid goes
// into the header, and the token decrypts with the set.
func TestKidEncrypt(t *testing.T) {
	set := writeTemp(t, "set.json", []byte(`{"keys":[`+string(readFile(t, "keys", "a128kw.jwk"))+`,`+string(readFile(t, "keys", "x25519.jwk"))+`]}`))
	tok := mustRun(t, []byte("hi"), "encrypt", "--alg", "ECDH-ES", "--enc", "A256GCM", "--key", set, "--kid", "x-1", "--header", "org=acme")
	var in struct{ Header map[string]any }
	if err := json.Unmarshal(mustRun(t, tok, "inspect"), &in); err != nil || in.Header["kid"] != "x-1" || in.Header["org"] != "acme" {
		t.Errorf("header %v (%v)", in.Header, err)
	}
	if got := mustRun(t, tok, "decrypt", "--alg", "ECDH-ES", "--enc", "A256GCM", "--key", set); string(got) != "hi" {
		t.Errorf("decrypted %q", got)
	}
	// The same for the JWE of a nested JWT, with --enc-kid.
	tok = mustRun(t, nil, "jwt", "issue", "--alg", "HS256", "--key", kHS256, "--aud", "api", "--enc-alg", "ECDH-ES", "--enc", "A256GCM", "--enc-key", set, "--enc-kid", "x-1")
	if got := mustRun(t, tok, "jwt", "validate", "--alg", "HS256", "--key", kHS256, "--aud", "api", "--enc-alg", "ECDH-ES", "--enc", "A256GCM", "--enc-key", set); !strings.Contains(string(got), `"aud": "api"`) {
		t.Errorf("nested: validated %s", got)
	}
}

// TestMessage: the library's chains are cut to the user's words: package
// names, API names after a package name, a repeated sentinel. Whatever
// else the text holds is kept, quoted or not: a part that only looks like
// an API name or a package name ("Verify", "KeyFile", "JWK.json", "jws"),
// and a part said twice that is not a sentinel.
func TestMessage(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`jwt: jws: key: jose: key "ec-1" is for alg "ES256", not "HS256": algorithm not allowed`, `key "ec-1" is for alg "ES256", not "HS256": algorithm not allowed`},
		{`jws: VerifyOptions: jose: JWK Set mixes keys: invalid key for algorithm`, `JWK Set mixes keys: invalid key for algorithm`},
		{`jws: SignerOptions: jose: header member "x5u": must be a string, not a number: malformed input`, `header member "x5u": must be a string, not a number`},
		{`jwk: must be an object; the text is not JSON: malformed input`, `must be an object; the text is not JSON`},
		{`jws: VerifyOptions: the key is a P-256 ECDSA public key; ES384 needs a P-384 ECDSA key: invalid key for algorithm`, `the key is a P-256 ECDSA public key; ES384 needs a P-384 ECDSA key: invalid key for algorithm`},
		{`jwe: key: jwa: the key is a 32-byte secret; A128KW needs a 16-byte secret: invalid key for algorithm`, `the key is a 32-byte secret; A128KW needs a 16-byte secret: invalid key for algorithm`},
		{`jose: no key of kid "a: jose: b: jose: \"x: jose": no matching key`, `no key of kid "a: jose: b: jose: \"x: jose": no matching key`},
		{`malformed input`, `malformed input`},
		{`jws: verification failed: verification failed`, `verification failed`},
		// The JSON parser's '"' opens no quoted text.
		{`jwk: jsonx: invalid character '"' after an object member at offset 13: malformed input`, `invalid character '"' after an object member at offset 13`},
		{`jose: x '"' y: jose: header member "a: jose": jws: z`, `x '"' y: header member "a: jose": z`},
		{`jose: kid "'": jose: x`, `kid "'": x`},
		// Not the library's names: kept.
		{`a: b: a`, `a: b: a`},
		{`Verify: KeyFile: JWK.json: VerifyOptions: no such file or directory`, `Verify: KeyFile: JWK.json: VerifyOptions: no such file or directory`},
		{`jws: key: RS256 needs an RSA key`, `key: RS256 needs an RSA key`},
		{`jose: no key of kid "Verify": no matching key`, `no key of kid "Verify": no matching key`},
		{`jose: header member "jws": jws: x`, `header member "jws": x`},
		{`x: jws: x`, `x: x`},
	} {
		if got := message(errors.New(tt.in)); got != tt.want {
			t.Errorf("message(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestErrorfKeepsText: the command's own errors are printed as they are,
// whatever file name or value they hold, and the library errors they
// embed are cleaned; errors.Is sees through them.
func TestErrorfKeepsText(t *testing.T) {
	lib := errors.New("jws: NewSigner: jose: key \"k\": no matching key")
	for _, tt := range []struct {
		err  error
		want string
	}{
		{errorf("%s: %v", "jws", errors.New("no such file or directory")), "jws: no such file or directory"},
		{errorf("%s: empty key file", "Verify"), "Verify: empty key file"},
		{errorf("%s: %s: %w", "KeyFile", "KeyFile", lib), `KeyFile: KeyFile: key "k": no matching key`},
		{usagef("--header %s: given twice", "VerifyOptions"), "--header VerifyOptions: given twice"},
	} {
		if got := userText(tt.err); got != tt.want {
			t.Errorf("userText = %q, want %q", got, tt.want)
		}
	}
	if err := errorf("x: %w", lib); !errors.Is(err, lib) {
		t.Errorf("errorf does not wrap %v", lib)
	}
}

// TestTokenArgBound: a TOKEN argument is bounded as a token file is.
func TestTokenArgBound(t *testing.T) {
	huge := strings.Repeat("a", maxToken+1) + ".e30.x"
	code, out, stderr := runCLI(t, nil, "inspect", huge)
	if code != exitFailure || out != "" || !strings.Contains(stderr, "larger than") || len(stderr) > 1<<10 {
		t.Errorf("exit %d, stdout %q, stderr %.300q", code, out, stderr)
	}
}

// TestMessageKeepsQuoted: whatever text the library quotes (a kid, a
// header name, a value of the token), message keeps it whole, at any
// place in a chain of package and API names, however much it looks like
// them.
func TestMessageKeepsQuoted(t *testing.T) {
	for _, s := range []string{
		"jws", "jose", "VerifyOptions", "NewSigner", "Verify", "JWK.json", "malformed input",
		"a: jws: b", `": jose: "`, `\": x`, "key", "key: key", "verification failed",
		strings.Repeat("jws: ", 40), "\x1b[31m: jose", "\"", "\\", "",
	} {
		q := untrusted.Quote(s)
		for _, chain := range []string{
			"jws: NewSigner: jose: key %s: no matching key",
			"jose: header member %s: must be a string, not a number: malformed input",
			"jwt: jws: key: jose: key %s is for alg \"ES256\": algorithm not allowed",
			"%s: jose: %s",
		} {
			msg := strings.ReplaceAll(chain, "%s", q)
			if got := message(errors.New(msg)); strings.Count(got, q) != strings.Count(msg, q) {
				t.Errorf("message(%q) = %q: lost %s", msg, got, q)
			}
		}
	}
}

// TestListKidsBound: a message lists at most 10 kids of a set.
func TestListKidsBound(t *testing.T) {
	var kids []string
	for i := range 12 {
		kids = append(kids, "k"+strconv.Itoa(i))
	}
	want := `"k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9" and 2 more`
	if got := listKids(kids); got != want {
		t.Errorf("listKids = %s, want %s", got, want)
	}
}

// TestKidAmbiguous: --kid picks a key as a verifier picks one for a token
// of that kid. Two keys of the kid that fit the algorithm are refused, as
// the verifier given the same set refuses them; otherwise the token made
// with the set verifies with it.
func TestKidAmbiguous(t *testing.T) {
	for _, tt := range []struct{ alg, set, kid string }{
		{"ES256", kKidDup, "ec-1"},   // two P-256 keys
		{"HS256", kKidSet, "Verify"}, // three oct keys with no alg or alg HS256
		{"EdDSA", kKidSet, "Verify"}, // one Ed25519 key: signs
		{"ES256", kKidSet, "ec-1"},   // one key of that kid: signs
		{"HS384", kKidSet, "Verify"}, // no key long enough: refused
		{"EdDSA", kSet, "ed-1"},
	} {
		code, stdout, stderr := runCLI(t, []byte("hello"), "sign", "--alg", tt.alg, "--key", tt.set, "--kid", tt.kid)
		if code != exitOK {
			if code != exitFailure || stdout != "" || !strings.Contains(stderr, untrusted.Quote(tt.kid)) {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q", tt.alg, tt.set, code, stdout, stderr)
			}
			continue
		}
		// Signed: the set verifies it.
		vcode, out, verr := runCLI(t, nil, "verify", "--alg", tt.alg, "--key", tt.set, strings.TrimSpace(stdout))
		if vcode != exitOK || out != "hello" {
			t.Errorf("%s %s --kid %s: signed, but the set does not verify it: exit %d, %q, %s", tt.alg, tt.set, tt.kid, vcode, out, verr)
		}
	}
	// The same for the recipient of a JWE: two 128-bit oct keys of kid
	// "Verify" fit A128KW, and the set would not decrypt the token.
	code, stdout, stderr := runCLI(t, []byte("hello"), "encrypt", "--alg", "A128KW", "--enc", "A128GCM", "--key", kKidSet, "--kid", "Verify")
	if want := `has 2 keys of kid "Verify" that fit A128KW`; code != exitFailure || stdout != "" || !strings.Contains(stderr, want) {
		t.Errorf("encrypt: exit %d, stderr %q, want %q", code, stderr, want)
	}
	// A key of the kid and an entry of that kid and type the module
	// cannot use (a curve it does not know): the verifier cannot tell
	// them apart either.
	set := writeTemp(t, "set.json", []byte(`{"keys":[`+string(readFile(t, "keys", "ec.jwk"))+`,{"kty":"EC","crv":"P-192","x":"AA","y":"AA","kid":"ec-1"}]}`))
	code, stdout, stderr = runCLI(t, []byte("hello"), "sign", "--alg", "ES256", "--key", set, "--kid", "ec-1")
	if want := `an entry of that kid this module cannot use`; code != exitFailure || stdout != "" || !strings.Contains(stderr, want) {
		t.Errorf("unusable entry: exit %d, stderr %q, want %q", code, stderr, want)
	}
	code, _, stderr = runCLI(t, []byte("hello"), "sign", "--alg", "ES256", "--key", kKidDup, "--kid", "ec-1")
	if want := `has 2 keys of kid "ec-1" that fit ES256`; code != exitFailure || !strings.Contains(stderr, want) {
		t.Errorf("two P-256 keys: exit %d, stderr %q, want %q", code, stderr, want)
	}
}

// TestRefusalQuotedAlg: a token's alg or enc outside the allow-list is
// named in the command's words whatever it holds: one cut by
// untrusted.Quote (longer than 64 bytes), or with a quote or a control
// character escaped.
func TestRefusalQuotedAlg(t *testing.T) {
	for _, alg := range []string{"HS512", `a"b`, "\x1b[31m", strings.Repeat("A", 300), `x\`} {
		h, _ := json.Marshal(map[string]string{"alg": alg})
		tok := base64.RawURLEncoding.EncodeToString(h) + ".e30.AAAA"
		code, _, stderr := runCLI(t, nil, "verify", "--alg", "HS256", "--key", kHS256, tok)
		want := "jose: verify: the token's alg " + untrusted.Quote(alg) + " is not allowed by --alg\n"
		if code != exitFailure || stderr != want {
			t.Errorf("alg %q: exit %d, stderr %q, want %q", alg, code, stderr, want)
		}
	}
}

// TestFlagErrors: the flag package's refusals name the flag as --name
// and say what it wants, the value quoted as the command quotes input.
func TestFlagErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"key", "generate", "--kty", "oct", "--size", "x"}, `jose: key generate: --size "x": want a whole number (run "jose key generate -h" for usage)`},
		{[]string{"encrypt", "--p2c", "1e3"}, `jose: encrypt: --p2c "1e3": want a whole number`},
		{[]string{"jwt", "validate", "--leeway", "5"}, `jose: jwt validate: --leeway "5": want a duration such as 30s, 5m or 1h`},
		{[]string{"sign", "--detached=maybe"}, `jose: sign: --detached "maybe": want true or false (--detached alone is true)`},
		{[]string{"sign", "--algo", "HS256"}, `jose: sign: unknown flag --algo (run "jose sign -h" for usage)`},
		{[]string{"sign", "--alg"}, `jose: sign: --alg needs a value`},
		{[]string{"key", "generate", "--size", "a\x1b" + strings.Repeat("9", 100)}, `jose: key generate: --size ` + untrusted.Quote("a\x1b"+strings.Repeat("9", 100)) + `: want a whole number`},
	} {
		code, out, stderr := runCLI(t, nil, tt.args...)
		if code != exitUsage || out != "" || !strings.HasPrefix(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q, want %q", tt.args, code, stderr, tt.want)
		}
	}
}

// TestFileNameEscaped: a file name with a control character (an escape
// sequence, as a shell glob may pass one) is escaped in every message
// that names it, whole.
func TestFileNameEscaped(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows file names cannot hold control characters")
	}
	name := writeTemp(t, "a\x1b[2Jb", []byte("x"))
	missing := filepath.Join(filepath.Dir(name), "no\x1b[2Jpe")
	for _, args := range [][]string{
		{"inspect", name},
		{"key", "public", missing},
		{"key", "public", name},
		{"sign", "--alg", "HS256", "--secret-file", name},
		{"verify", "--alg", "HS256", "--key", missing, tHS256},
	} {
		code, _, stderr := runCLI(t, nil, args...)
		if code == exitOK || strings.ContainsRune(stderr, 0x1b) || !strings.Contains(stderr, `\x1b[2J`) {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
}
