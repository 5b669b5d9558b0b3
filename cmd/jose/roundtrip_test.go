package main

import (
	"bytes"
	"crypto"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
)

// mustRun runs the command and fails the test unless it exits with 0.
func mustRun(t *testing.T, stdin []byte, args ...string) []byte {
	t.Helper()
	code, stdout, stderr := runCLI(t, stdin, args...)
	if code != exitOK {
		t.Fatalf("jose %s: exit %d, stderr %q", strings.Join(args, " "), code, stderr)
	}
	if stderr != "" {
		t.Errorf("jose %s: stderr %q", strings.Join(args, " "), stderr)
	}
	return []byte(stdout)
}

// writeTemp writes data to a file in a temporary directory.
func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// parseKey parses the output of a key command.
func parseKey(t *testing.T, out []byte) *jose.JWK {
	t.Helper()
	k, err := jose.ParseKey(bytes.TrimSpace(out))
	if err != nil {
		t.Fatalf("output is not a JWK: %v\n%s", err, out)
	}
	return k
}

func thumbprint(t *testing.T, k *jose.JWK) string {
	t.Helper()
	tp, err := k.Thumbprint(crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	return jose.Base64URLEncode(tp)
}

func octBits(k *jose.JWK) int {
	if b, ok := k.Key.([]byte); ok {
		return 8 * len(b)
	}
	return 0
}

func TestKeyGenerate(t *testing.T) {
	for _, tt := range []struct {
		args          []string
		kty, crv, alg string
		use, kid      string
		bits          int
	}{
		// Without --alg, the key gets the alg and use of its type, size or
		// curve (defaultAlg), so that "key analyze" has nothing to say.
		{[]string{"--kty", "oct"}, "oct", "", "HS256", "sig", "", 256},
		{[]string{"--kty", "oct", "--size", "400"}, "oct", "", "HS384", "sig", "", 400},
		{[]string{"--kty", "oct", "--size", "1024"}, "oct", "", "HS512", "sig", "", 1024},
		{[]string{"--kty", "oct", "--size", "128"}, "oct", "", "A128KW", "enc", "", 128},
		{[]string{"--kty", "oct", "--use", "enc"}, "oct", "", "A256KW", "enc", "", 256},
		{[]string{"--kty", "oct", "--size", "136", "--alg", "PBES2-HS256+A128KW"}, "oct", "", "PBES2-HS256+A128KW", "enc", "", 136},
		{[]string{"--kty", "oct", "--alg", "HS384"}, "oct", "", "HS384", "sig", "", 384},
		{[]string{"--kty", "oct", "--alg", "HS512", "--use", "sig"}, "oct", "", "HS512", "sig", "", 512},
		{[]string{"--kty", "oct", "--alg", "A192KW"}, "oct", "", "A192KW", "enc", "", 192},
		{[]string{"--kty", "oct", "--alg", "A128GCMKW", "--kid", "k1"}, "oct", "", "A128GCMKW", "enc", "k1", 128},
		{[]string{"--kty", "oct", "--alg", "dir"}, "oct", "", "dir", "enc", "", 256},
		{[]string{"--kty", "EC"}, "EC", "P-256", "ES256", "sig", "", 0},
		{[]string{"--kty", "EC", "--crv", "P-521"}, "EC", "P-521", "ES512", "sig", "", 0},
		{[]string{"--kty", "EC", "--alg", "ES384"}, "EC", "P-384", "ES384", "sig", "", 0},
		{[]string{"--kty", "EC", "--alg", "ES512"}, "EC", "P-521", "ES512", "sig", "", 0},
		{[]string{"--kty", "EC", "--alg", "ES256K"}, "EC", "secp256k1", "ES256K", "sig", "", 0},
		{[]string{"--kty", "EC", "--crv", "secp256k1"}, "EC", "secp256k1", "ES256K", "sig", "", 0},
		{[]string{"--kty", "EC", "--crv", "P-384", "--alg", "ECDH-ES+A256KW"}, "EC", "P-384", "ECDH-ES+A256KW", "enc", "", 0},
		{[]string{"--kty", "EC", "--use", "enc"}, "EC", "P-256", "ECDH-ES", "enc", "", 0},
		{[]string{"--kty", "OKP"}, "OKP", "Ed25519", "Ed25519", "sig", "", 0},
		{[]string{"--kty", "OKP", "--use", "enc"}, "OKP", "X25519", "ECDH-ES", "enc", "", 0},
		{[]string{"--kty", "OKP", "--alg", "Ed25519"}, "OKP", "Ed25519", "Ed25519", "sig", "", 0},
		{[]string{"--kty", "OKP", "--alg", "ECDH-ES"}, "OKP", "X25519", "ECDH-ES", "enc", "", 0},
		{[]string{"--kty", "OKP", "--crv", "X25519"}, "OKP", "X25519", "ECDH-ES", "enc", "", 0},
	} {
		name := strings.Join(tt.args, " ")
		k := parseKey(t, mustRun(t, nil, append([]string{"key", "generate"}, tt.args...)...))
		if k.KeyType() != tt.kty || k.Curve() != tt.crv || k.Algorithm != tt.alg || k.Use != tt.use {
			t.Errorf("%s: kty %q crv %q alg %q use %q, want %q %q %q %q", name, k.KeyType(), k.Curve(), k.Algorithm, k.Use, tt.kty, tt.crv, tt.alg, tt.use)
		}
		if !k.IsPrivate() {
			t.Errorf("%s: not a private key", name)
		}
		wantKid := tt.kid
		if wantKid == "" {
			wantKid = thumbprint(t, k)
		}
		if k.KeyID != wantKid {
			t.Errorf("%s: kid %q, want %q", name, k.KeyID, wantKid)
		}
		if got := octBits(k); got != tt.bits {
			t.Errorf("%s: %d bits, want %d", name, got, tt.bits)
		}
		if tt.alg != "" && k.KeyType() != "RSA" {
			if code, out, errs := runCLI(t, mustRun(t, nil, append([]string{"key", "generate"}, tt.args...)...), "key", "analyze"); code != exitOK || out != "" || errs != "" {
				t.Errorf("%s: key analyze: exit %d, stdout %q, stderr %q", name, code, out, errs)
			}
		}
	}
}

func TestKeyGenerateDiffers(t *testing.T) {
	a := mustRun(t, nil, "key", "generate", "--kty", "oct")
	b := mustRun(t, nil, "key", "generate", "--kty", "oct")
	if bytes.Equal(a, b) {
		t.Fatal("two generated keys are equal")
	}
}

func TestKeyGenerateRSA(t *testing.T) {
	// RSA sizes are checked before any key is generated: a usage error
	// naming the flag.
	for _, size := range []string{"1024", "2047", "16392"} {
		code, out, stderr := runCLI(t, nil, "key", "generate", "--kty", "RSA", "--size", size)
		if code != exitUsage || out != "" || stderr != "jose: key generate: --size "+size+": an RSA key has 2048 to 16384 bits\n" {
			t.Errorf("--size %s: exit %d, stdout %q, stderr %q", size, code, out, stderr)
		}
	}
	if testing.Short() {
		t.Skip("generates a 2048-bit RSA key")
	}
	k := parseKey(t, mustRun(t, nil, "key", "generate", "--kty", "RSA", "--alg", "PS256"))
	if k.KeyType() != "RSA" || !k.IsPrivate() || k.Algorithm != "PS256" || k.Use != "sig" {
		t.Errorf("kty %q alg %q use %q private %v", k.KeyType(), k.Algorithm, k.Use, k.IsPrivate())
	}
	if len(jose.AnalyzeKey(k)) != 0 {
		t.Errorf("findings %v", jose.AnalyzeKey(k))
	}
}

// parseSet parses the output of a set command.
func parseSet(t *testing.T, out []byte) *jose.Set {
	t.Helper()
	s, err := jose.ParseSet(out)
	if err != nil {
		t.Fatalf("output is not a JWK Set: %v\n%s", err, out)
	}
	for i, k := range s.Keys {
		if !k.Supported() {
			t.Fatalf("key %d unusable: %v", i, k.Err())
		}
	}
	return s
}

func kids(s *jose.Set) []string {
	var out []string
	for _, k := range s.Keys {
		out = append(out, k.KeyID)
	}
	return out
}

func TestSetRotate(t *testing.T) {
	for _, gen := range [][]string{
		{"--kty", "EC", "--alg", "ES384"},
		{"--kty", "oct", "--alg", "HS384"},
		{"--kty", "OKP", "--alg", "ECDH-ES"},
	} {
		s0 := parseSet(t, mustRun(t, nil, append([]string{"set", "generate"}, gen...)...))
		if len(s0.Keys) != 1 {
			t.Fatalf("%v: set generate made %d keys", gen, len(s0.Keys))
		}
		first := s0.Keys[0]
		cur := mustRun(t, nil, append([]string{"set", "generate"}, gen...)...)
		var history []string
		history = append(history, parseSet(t, cur).Keys[0].KeyID)
		for i := range 3 {
			cur = mustRun(t, cur, "set", "rotate")
			s := parseSet(t, cur)
			newKey := s.Keys[0]
			history = append([]string{newKey.KeyID}, history...)
			want := history[:min(2, len(history))]
			if got := kids(s); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%v: rotation %d: kids %v, want %v", gen, i+1, got, want)
			}
			if newKey.KeyID != thumbprint(t, newKey) {
				t.Errorf("%v: new kid %q is not the thumbprint", gen, newKey.KeyID)
			}
			if newKey.KeyType() != first.KeyType() || newKey.Curve() != first.Curve() || newKey.Algorithm != first.Algorithm ||
				newKey.Use != first.Use || octBits(newKey) != octBits(first) || !newKey.IsPrivate() {
				t.Errorf("%v: new key %s %s %s %s %d bits is not like %s %s %s %s %d bits", gen,
					newKey.KeyType(), newKey.Curve(), newKey.Algorithm, newKey.Use, octBits(newKey),
					first.KeyType(), first.Curve(), first.Algorithm, first.Use, octBits(first))
			}
		}
		s := parseSet(t, mustRun(t, cur, "set", "rotate", "--keep", "0"))
		if len(s.Keys) != 1 || s.Keys[0].KeyID == history[0] {
			t.Errorf("%v: --keep 0: kids %v", gen, kids(s))
		}
		s = parseSet(t, mustRun(t, cur, "set", "rotate", "--keep", "5"))
		if len(s.Keys) != 3 {
			t.Errorf("%v: --keep 5 of 2 keys: kids %v", gen, kids(s))
		}
	}
}

func TestSetRotateKeyOps(t *testing.T) {
	set := []byte(`{"keys":[{"kty":"oct","k":"` + jose.Base64URLEncode(bytes.Repeat([]byte{7}, 32)) + `","kid":"a","key_ops":["sign","verify"]}]}`)
	s := parseSet(t, mustRun(t, set, "set", "rotate"))
	if got := s.Keys[0].KeyOps; len(got) != 2 || got[0] != jose.OpSign || got[1] != jose.OpVerify {
		t.Errorf("key_ops %v", got)
	}
	if code, _, stderr := runCLI(t, []byte(`{"keys":[]}`), "set", "rotate"); code != exitFailure || !strings.Contains(stderr, "no keys") {
		t.Errorf("empty set: exit %d, %q", code, stderr)
	}
	unusable := []byte(`{"keys":[{"kty":"EC","crv":"P-192","x":"AA","y":"AA","kid":"old"}]}`)
	if code, _, stderr := runCLI(t, unusable, "set", "rotate"); code != exitFailure || !strings.Contains(stderr, `the newest key (kid "old") is unusable`) {
		t.Errorf("unusable key: exit %d, %q", code, stderr)
	}
}

func TestSetAddRemove(t *testing.T) {
	set := mustRun(t, nil, "set", "generate", "--kty", "EC", "--alg", "ES256")
	key := writeTemp(t, "k.jwk", mustRun(t, nil, "key", "generate", "--kty", "OKP", "--alg", "EdDSA", "--kid", "new"))
	s := parseSet(t, mustRun(t, set, "set", "add", "--key", key))
	if got := kids(s); len(got) != 2 || got[1] != "new" {
		t.Fatalf("add: kids %v", got)
	}
	s = parseSet(t, mustRun(t, mustRun(t, set, "set", "add", "--key", key), "set", "remove", "--kid", "new"))
	if !bytes.Equal(mustJSON(t, s), mustJSON(t, parseSet(t, set))) {
		t.Errorf("add then remove changed the set")
	}
	// A PEM key gets its thumbprint as kid.
	s = parseSet(t, mustRun(t, []byte(`{"keys":[]}`), "set", "add", "--key", kECPEM))
	if k := s.Keys[0]; k.KeyID != thumbprint(t, k) {
		t.Errorf("PEM key: kid %q", k.KeyID)
	}
	// An entry this module cannot use is kept as it was.
	unusable := `{"kty":"XYZ","kid":"future","extra":[1,2]}`
	out := mustRun(t, []byte(`{"keys":[`+unusable+`]}`), "set", "add", "--key", kEd)
	var v struct{ Keys []json.RawMessage }
	if err := json.Unmarshal(out, &v); err != nil || len(v.Keys) != 2 {
		t.Fatalf("unusable entry: %v\n%s", err, out)
	}
	if !sameJSON(t, v.Keys[0], []byte(unusable)) {
		t.Errorf("unusable entry became %s", v.Keys[0])
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return reflect.DeepEqual(va, vb)
}

func TestLikeKeyRSA(t *testing.T) {
	// Rotating an RSA set makes a key of the same size; checked without
	// generating one.
	k := parseKey(t, mustRun(t, nil, "key", "convert", "--to", "jwk", "--alg", "RS256", "--use", "sig", kRSA))
	p, err := likeKey(k)
	if err != nil {
		t.Fatal(err)
	}
	if p.KeyType != "RSA" || p.Bits != 2048 || p.Algorithm != "RS256" || p.Use != "sig" || p.Curve != "" || p.KeyID != "" {
		t.Errorf("%+v", p)
	}
}

func TestInputBounds(t *testing.T) {
	big := bytes.Repeat([]byte(" "), maxKeyFile+1)
	for _, args := range [][]string{
		{"key", "public"},
		{"set", "public"},
		{"key", "analyze"},
	} {
		code, out, stderr := runCLI(t, big, args...)
		if code != exitFailure || out != "" || stderr != "jose: "+strings.Join(args, " ")+": standard input: larger than 8388608 bytes\n" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, stderr)
		}
	}
	dir := t.TempDir()
	if code, _, stderr := runCLI(t, nil, "key", "public", dir); code != exitFailure || !strings.Contains(stderr, "is a directory") {
		t.Errorf("directory: exit %d, stderr %q", code, stderr)
	}
}
