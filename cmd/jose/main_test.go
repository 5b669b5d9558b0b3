package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/internal/version"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden/")

// testTime is the clock of every test run: the "now" of the claims "jwt
// issue" writes and "jwt validate" checks.
var testTime = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// runCLI runs the command with stdin as its standard input, at testTime.
func runCLI(t *testing.T, stdin []byte, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runCLIAt(t, testTime, stdin, args...)
}

// runCLIAt runs the command with stdin as its standard input and a clock
// that says now.
func runCLIAt(t *testing.T, now time.Time, stdin []byte, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	s := &streams{stdin: bytes.NewReader(stdin), stdout: &out, stderr: &errb, now: func() time.Time { return now }}
	code = runWith(s, args)
	return code, out.String(), errb.String()
}

// readFile returns the contents of a file under testdata.
func readFile(t *testing.T, elem ...string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(append([]string{"testdata"}, elem...)...))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Paths of the fixed keys and tokens (see testdata/keys/README.md).
const (
	kEC        = "testdata/keys/ec.jwk"
	kEd        = "testdata/keys/ed.jwk"
	kX25519    = "testdata/keys/x25519.jwk"
	kHS256     = "testdata/keys/hs256.jwk"
	kA128KW    = "testdata/keys/a128kw.jwk"
	kOctNoAlg  = "testdata/keys/oct-noalg.jwk"
	kHS256Any  = "testdata/keys/hs256-noalg.jwk"
	kSet       = "testdata/keys/set.json"
	kSetPublic = "testdata/keys/set-public.json"
	kECPEM     = "testdata/keys/ec.pem"
	kECPubPEM  = "testdata/keys/ec-pub.pem"
	kECSEC1    = "testdata/keys/ec-sec1.pem"
	kCert      = "testdata/keys/cert.pem"
	kRSA       = "testdata/keys/rsa2048.pem"
	kRSAPKCS1  = "testdata/keys/rsa2048-pkcs1.pem"
	kRSA1024   = "../../testdata/keys/rsa1024.pem"

	tHS256    = "testdata/tokens/hs256.jwt"
	tEd       = "testdata/tokens/ed.jws"
	tEdFlat   = "testdata/tokens/ed-flat.json"
	tEdDetach = "testdata/tokens/ed-detached.jws"
	tBinary   = "testdata/tokens/binary.jws"
	tGeneral  = "testdata/tokens/general.json"
	tA128KW   = "testdata/tokens/a128kw.jwe"
	tECDHFlat = "testdata/tokens/ecdh-flat.json"
)

// goldenCases are the commands whose whole output (exit status, standard
// output and standard error) is fixed: each has testdata/golden/NAME.txt.
// in names the file given as standard input, if any.
var goldenCases = []struct {
	name string
	in   string
	args []string
}{
	// Help.
	{"help", "", []string{"help"}},
	{"help-flag", "", []string{"--help"}},
	{"help-key", "", []string{"help", "key"}},
	{"help-set", "", []string{"help", "set"}},
	{"help-key-generate", "", []string{"help", "key", "generate"}},
	{"help-key-public", "", []string{"help", "key", "public"}},
	{"help-key-thumbprint", "", []string{"help", "key", "thumbprint"}},
	{"help-key-analyze", "", []string{"help", "key", "analyze"}},
	{"help-key-convert", "", []string{"help", "key", "convert"}},
	{"help-set-generate", "", []string{"help", "set", "generate"}},
	{"help-set-add", "", []string{"help", "set", "add"}},
	{"help-set-remove", "", []string{"help", "set", "remove"}},
	{"help-set-public", "", []string{"help", "set", "public"}},
	{"help-set-rotate", "", []string{"help", "set", "rotate"}},
	{"help-sign", "", []string{"help", "sign"}},
	{"help-verify", "", []string{"help", "verify"}},
	{"help-encrypt", "", []string{"help", "encrypt"}},
	{"help-decrypt", "", []string{"help", "decrypt"}},
	{"help-inspect", "", []string{"help", "inspect"}},
	{"help-jwt", "", []string{"help", "jwt"}},
	{"help-jwt-issue", "", []string{"help", "jwt", "issue"}},
	{"help-jwt-validate", "", []string{"help", "jwt", "validate"}},
	{"help-version", "", []string{"help", "version"}},
	{"jwt-h", "", []string{"jwt", "-h"}},
	{"key-h", "", []string{"key", "-h"}},
	{"sign-h", "", []string{"sign", "-h"}},
	{"set-rotate-h", "", []string{"set", "rotate", "--help"}},

	// Usage errors: exit 2.
	{"usage-none", "", nil},
	{"usage-unknown", "", []string{"jwk"}},
	{"usage-unknown-sub", "", []string{"key", "make"}},
	{"usage-group", "", []string{"key"}},
	{"usage-help-unknown", "", []string{"help", "nope"}},
	{"usage-help-extra", "", []string{"help", "key", "public", "extra"}},
	{"usage-flag", "", []string{"sign", "--nope"}},
	{"usage-extra-arg", "", []string{"key", "public", kEC, kEd}},
	{"usage-generate-no-kty", "", []string{"key", "generate"}},
	{"usage-generate-kty", "", []string{"key", "generate", "--kty", "DSA"}},
	{"usage-generate-crv-oct", "", []string{"key", "generate", "--kty", "oct", "--crv", "P-256"}},
	{"usage-generate-size-ec", "", []string{"key", "generate", "--kty", "EC", "--size", "256"}},
	{"usage-generate-use", "", []string{"key", "generate", "--kty", "EC", "--use", "both"}},
	{"usage-generate-alg-none", "", []string{"key", "generate", "--kty", "oct", "--alg", "none"}},
	{"usage-generate-alg-unknown", "", []string{"key", "generate", "--kty", "oct", "--alg", "HS1"}},
	{"usage-generate-alg-misfit", "", []string{"key", "generate", "--kty", "EC", "--alg", "RS256"}},
	{"usage-generate-short-hmac", "", []string{"key", "generate", "--kty", "oct", "--alg", "HS512", "--size", "256"}},
	{"usage-thumbprint-hash", "", []string{"key", "thumbprint", "--hash", "MD5", kEC}},
	{"usage-convert-no-to", "", []string{"key", "convert", kECPEM}},
	{"usage-convert-to", "", []string{"key", "convert", "--to", "der", kECPEM}},
	{"usage-convert-pem-kid", "", []string{"key", "convert", "--to", "pem", "--kid", "x", kEC}},
	{"usage-convert-use", "", []string{"key", "convert", "--to", "jwk", "--use", "x", kECPEM}},
	{"usage-set-add-no-key", "", []string{"set", "add", kSet}},
	{"usage-set-add-stdin", "", []string{"set", "add", "--key", "-"}},
	{"usage-set-remove-no-kid", "", []string{"set", "remove", kSet}},
	{"usage-set-rotate-keep", "", []string{"set", "rotate", "--keep", "-1", kSet}},
	{"usage-sign-no-alg", "", []string{"sign", "--key", kHS256}},
	{"usage-sign-none", "", []string{"sign", "--alg", "none", "--key", kHS256}},
	{"usage-sign-unknown", "", []string{"sign", "--alg", "HS999", "--key", kHS256}},
	{"usage-sign-no-key", "", []string{"sign", "--alg", "HS256"}},
	{"usage-sign-stdin-twice", "", []string{"sign", "--alg", "HS256", "--key", "-"}},
	{"usage-verify-no-alg", tHS256, []string{"verify", "--key", kHS256}},
	{"usage-verify-none", tHS256, []string{"verify", "--alg", "HS256,none", "--key", kHS256}},
	{"usage-verify-payload-stdin", "", []string{"verify", "--alg", "EdDSA", "--key", kEd, "--payload", "-"}},
	{"usage-encrypt-no-enc", "", []string{"encrypt", "--alg", "A128KW", "--key", kA128KW}},
	{"usage-encrypt-p2c", "", []string{"encrypt", "--alg", "PBES2-HS256+A128KW", "--enc", "A128GCM", "--p2c", "-5", "--key", kA128KW}},
	{"usage-decrypt-no-enc", tA128KW, []string{"decrypt", "--alg", "A128KW", "--key", kA128KW}},
	{"usage-decrypt-no-alg", tA128KW, []string{"decrypt", "--enc", "A128GCM", "--key", kA128KW}},
	{"usage-decrypt-no-key", tA128KW, []string{"decrypt", "--alg", "A128KW", "--enc", "A128GCM"}},

	// Keys.
	{"key-public", "", []string{"key", "public", kEC}},
	{"key-public-stdin", kEC, []string{"key", "public"}},
	{"key-public-pem", "", []string{"key", "public", kECPEM}},
	{"key-public-oct", "", []string{"key", "public", kHS256}},
	{"key-public-set", "", []string{"key", "public", kSet}},
	{"key-public-missing", "", []string{"key", "public", "testdata/keys/nope.jwk"}},
	{"key-public-empty", "", []string{"key", "public", "-"}},
	{"key-public-malformed", "", []string{"key", "public", tHS256}},
	{"key-thumbprint", "", []string{"key", "thumbprint", kEC}},
	{"key-thumbprint-pem", "", []string{"key", "thumbprint", kECPubPEM}},
	{"key-thumbprint-uri", "", []string{"key", "thumbprint", "--uri", kEC}},
	{"key-thumbprint-sha512", "", []string{"key", "thumbprint", "--hash", "SHA-512", kEd}},
	{"key-analyze-ok", "", []string{"key", "analyze", kEC}},
	{"key-analyze-weak", "", []string{"key", "analyze", kOctNoAlg}},
	{"key-analyze-rsa1024", "", []string{"key", "analyze", kRSA1024}},
	{"key-analyze-set", "", []string{"key", "analyze", kSet}},
	{"key-analyze-set-public", "", []string{"key", "analyze", "--public", kSet}},
	{"key-analyze-key-public", "", []string{"key", "analyze", "--public", kHS256}},
	{"key-analyze-published", "", []string{"key", "analyze", "--public", kSetPublic}},
	{"key-convert-pkcs8", "", []string{"key", "convert", "--to", "jwk", kECPEM}},
	{"key-convert-sec1", "", []string{"key", "convert", "--to", "jwk", "--kid", "ec-1", "--alg", "ES256", "--use", "sig", kECSEC1}},
	{"key-convert-spki", "", []string{"key", "convert", "--to", "jwk", kECPubPEM}},
	{"key-convert-pkcs1", "", []string{"key", "convert", "--to", "jwk", kRSAPKCS1}},
	{"key-convert-cert", "", []string{"key", "convert", "--to", "jwk", kCert}},
	{"key-convert-to-pem", "", []string{"key", "convert", "--to", "pem", kEC}},
	{"key-convert-oct-pem", "", []string{"key", "convert", "--to", "pem", kHS256}},
	{"key-convert-misfit", "", []string{"key", "convert", "--to", "jwk", "--alg", "RS256", kECPEM}},

	// Sets.
	{"set-add", "", []string{"set", "add", "--key", kX25519, kSet}},
	{"set-add-first-pem", kSet, []string{"set", "add", "--first", "--key", kRSA}},
	{"set-add-private-to-public", "", []string{"set", "add", "--key", kX25519, kSetPublic}},
	{"set-add-public-to-private", "", []string{"set", "add", "--key", kECPubPEM, "--first", kSet}},
	{"set-add-dup", "", []string{"set", "add", "--key", kEC, kSet}},
	{"set-add-not-set", "", []string{"set", "add", "--key", kEd, kEC}},
	{"set-remove", "", []string{"set", "remove", "--kid", "ec-1", kSet}},
	{"set-remove-unknown", "", []string{"set", "remove", "--kid", "nope", kSet}},
	{"set-public", kSet, []string{"set", "public"}},
	{"set-rotate-public", "", []string{"set", "rotate", kSetPublic}},

	// Signatures. HMAC and Ed25519 signatures are deterministic.
	{"sign-hs256", tEd, []string{"sign", "--alg", "HS256", "--key", kHS256, "--kid", "other", "--typ", "JWT", "--cty", "text"}},
	{"sign-eddsa-json", "", []string{"sign", "--alg", "EdDSA", "--key", kEd, "--json", tEdDetach}},
	{"sign-eddsa-json-detached", tEd, []string{"sign", "--alg", "EdDSA", "--key", kEd, "--json", "--detached"}},
	{"sign-misfit", tEd, []string{"sign", "--alg", "HS256", "--key", kEC}},
	{"sign-alg-not-permitted", tEd, []string{"sign", "--alg", "ES384", "--key", kEC}},
	{"sign-set", tEd, []string{"sign", "--alg", "ES256", "--key", kSet}},
	{"verify-hs256", tHS256, []string{"verify", "--alg", "HS256", "--key", kHS256}},
	{"verify-file", "", []string{"verify", "--alg", "EdDSA,ES256", "--key", kEd, tEd}},
	{"verify-set", tEd, []string{"verify", "--alg", "EdDSA", "--key", kSetPublic}},
	{"verify-flattened", tEdFlat, []string{"verify", "--alg", "EdDSA", "--key", kEd}},
	{"verify-general", tGeneral, []string{"verify", "--alg", "ES256", "--alg", "EdDSA", "--key", kSetPublic}},
	{"verify-general-one-key", tGeneral, []string{"verify", "--alg", "ES256,EdDSA", "--key", kEd}},
	{"verify-detached", tEdDetach, []string{"verify", "--alg", "EdDSA", "--key", kEd, "--payload", "testdata/tokens/payload.txt"}},
	{"verify-detached-no-payload", tEdDetach, []string{"verify", "--alg", "EdDSA", "--key", kEd}},
	{"verify-alg-not-allowed", tHS256, []string{"verify", "--alg", "HS384", "--key", kHS256Any}},
	{"verify-key-permits-none", tHS256, []string{"verify", "--alg", "HS384", "--key", kHS256}},
	{"verify-wrong-key", tEd, []string{"verify", "--alg", "EdDSA", "--key", "testdata/keys/x25519.jwk"}},
	{"verify-malformed", kEC, []string{"verify", "--alg", "EdDSA", "--key", kEd}},
	{"verify-empty", "", []string{"verify", "--alg", "EdDSA", "--key", kEd, "-"}},
	{"verify-mixed-set", tEd, []string{"verify", "--alg", "EdDSA", "--key", "testdata/keys/set-mixed.json"}},

	// Encryption. Every JWE is random; the fixed tokens decrypt.
	{"decrypt-a128kw", tA128KW, []string{"decrypt", "--alg", "A128KW", "--enc", "A128GCM,A256GCM", "--key", kA128KW}},
	{"decrypt-ecdh-json", tECDHFlat, []string{"decrypt", "--alg", "ECDH-ES", "--enc", "A256GCM", "--key", kX25519}},
	{"decrypt-wrong-key", tA128KW, []string{"decrypt", "--alg", "A128KW", "--enc", "A128GCM", "--key", "testdata/keys/oct-a128kw-other.jwk"}},
	{"decrypt-enc-not-allowed", tA128KW, []string{"decrypt", "--alg", "A128KW", "--enc", "A256GCM", "--key", kA128KW}},
	{"decrypt-unknown-enc", tA128KW, []string{"decrypt", "--alg", "A128KW", "--enc", "A1GCM", "--key", kA128KW}},
	{"encrypt-misfit", tEd, []string{"encrypt", "--alg", "A128KW", "--enc", "A128GCM", "--key", kEd}},
	{"encrypt-missing-key", tEd, []string{"encrypt", "--alg", "A128KW", "--enc", "A128GCM", "--key", "testdata/keys/nope.jwk"}},

	// Inspection.
	{"inspect-jwt", tHS256, []string{"inspect"}},
	{"inspect-text", "", []string{"inspect", tEd}},
	{"inspect-binary", tBinary, []string{"inspect"}},
	{"inspect-detached", tEdDetach, []string{"inspect"}},
	{"inspect-flattened", tEdFlat, []string{"inspect"}},
	{"inspect-general", tGeneral, []string{"inspect"}},
	{"inspect-jwe", tA128KW, []string{"inspect"}},
	{"inspect-jwe-json", tECDHFlat, []string{"inspect"}},
	{"inspect-garbage", kEd, []string{"inspect"}},
	{"inspect-parts", "testdata/tokens/payload.txt", []string{"inspect"}},
	{"inspect-missing", "", []string{"inspect", "testdata/tokens/nope"}},
}

func TestGolden(t *testing.T) {
	for _, tt := range goldenCases {
		t.Run(tt.name, func(t *testing.T) {
			checkGolden(t, tt.name, tt.in, testTime, tt.args)
		})
	}
}

// checkGolden runs the command at now, with the file in (if any) as its
// standard input, and compares the run with testdata/golden/NAME.txt, or
// rewrites that file with -update.
func checkGolden(t *testing.T, name, in string, now time.Time, args []string) {
	t.Helper()
	var stdin []byte
	if in != "" {
		var err error
		if stdin, err = os.ReadFile(in); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := runCLIAt(t, now, stdin, args...)
	got := formatRun(in, args, code, stdout, stderr)
	path := filepath.Join("testdata", "golden", name+".txt")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("got:\n%s\nwant (%s):\n%s", got, path, want)
	}
}

// formatRun is the golden form of one run.
func formatRun(in string, args []string, code int, stdout, stderr string) string {
	var b strings.Builder
	b.WriteString("$ jose")
	for _, a := range args {
		if a == "" {
			a = "''" // as a shell gives it
		}
		b.WriteString(" " + a)
	}
	if in != "" {
		b.WriteString(" < " + in)
	}
	b.WriteString("\nexit " + string(rune('0'+code)) + "\n-- stdout --\n" + stdout)
	if stdout != "" && !strings.HasSuffix(stdout, "\n") {
		b.WriteString("\n(no final line break)\n")
	}
	b.WriteString("-- stderr --\n" + stderr)
	// The algorithm lists depend on the build (ML-DSA needs Go 1.27):
	// golden files name them.
	return strings.NewReplacer(
		joinAlgs(signatureAlgs), "$SIGNATURE_ALGORITHMS",
		joinAlgs(keyAlgs), "$KEY_ALGORITHMS",
		joinAlgs(contentEncs), "$CONTENT_ENCRYPTIONS",
	).Replace(b.String())
}

// TestVersion: "jose version", --version and -version print the same one
// line, "jose" and the line of internal/version (module version, the VCS
// facts the version does not hold, toolchain), on standard output; an
// argument after them is refused.
func TestVersion(t *testing.T) {
	want := version.Line("jose") + "\n"
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		code, out, errs := runCLI(t, nil, args...)
		if code != exitOK || errs != "" || out != want || !strings.HasPrefix(out, "jose ") || !strings.HasSuffix(out, " "+runtime.Version()+"\n") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	for _, args := range [][]string{{"version", "x"}, {"--version", "x"}} {
		if code, out, errs := runCLI(t, nil, args...); code != exitUsage || out != "" || !strings.Contains(errs, `unexpected argument "x"`) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}
