// Package vectortest is test support; not for production code.
//
// It holds what the tests of jose, jwa, jws and jwe share: locating and
// reading the repository's testdata (RFC 7520 cookbook, latchset-jose,
// Wycheproof, the fixed RSA keys of testdata/keys), the Wycheproof JSON
// schema and its loader, and allocation measuring; and, for the tests of
// concurrent code (cachedfetch, jwks, oidc and bearer too), contexts that
// say when a call waits or whose deadline passes on cue, and bounded
// waits. Only _test.go files may import it; TestNotImportedByProduction
// checks that no production package depends on it. It imports nothing but
// the standard library, so that the internal (package jose, package jwa)
// tests can use it too.
package vectortest

import (
	"bytes"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var root = sync.OnceValues(func() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("vectortest: no go.mod above the working directory")
		}
		dir = parent
	}
})

// Path returns the path of elem below the repository's testdata directory
// (found from the working directory, which go test sets to the package's).
// It panics if there is no go.mod above the working directory.
func Path(elem ...string) string {
	dir, err := root()
	if err != nil {
		panic(err)
	}
	return filepath.Join(append([]string{dir}, elem...)...)
}

// ReadFile returns the content of the testdata file elem, or fails t.
func ReadFile(t testing.TB, elem ...string) []byte {
	t.Helper()
	data, err := os.ReadFile(Path(elem...))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// ReadTrimmed is ReadFile with surrounding white space removed, as the
// latchset-jose token and key files need.
func ReadTrimmed(t testing.TB, elem ...string) []byte {
	t.Helper()
	return bytes.TrimSpace(ReadFile(t, elem...))
}

// Glob returns the paths of the testdata files that match each pattern (a
// filepath.Match pattern below testdata), in pattern order.
func Glob(t testing.TB, patterns ...string) []string {
	t.Helper()
	var out []string
	for _, p := range patterns {
		names, err := filepath.Glob(Path(p))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, names...)
	}
	return out
}

// ReadAllTrimmed returns the trimmed contents of every testdata file that
// matches one of patterns, in Glob order.
func ReadAllTrimmed(t testing.TB, patterns ...string) [][]byte {
	t.Helper()
	var out [][]byte
	for _, name := range Glob(t, patterns...) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, bytes.TrimSpace(data))
	}
	return out
}

// RSAKey returns the fixed PKCS #8 RSA key testdata/keys/rsa<bits>.pem
// (bits: 1024, 2048, 3072 or 4096), or fails t. Tests never generate RSA
// keys.
func RSAKey(t testing.TB, bits int) *rsa.PrivateKey {
	t.Helper()
	k, err := LoadRSAKey(bits)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// RSAKeyLargeExponent returns the fixed PKCS #8 RSA key
// testdata/keys/rsa<bits>-e2147483647.pem (bits: 4096 or 8192), whose
// public exponent is 2^31-1, the largest crypto/rsa takes: the costliest
// public operation of its size. Or it fails t.
func RSAKeyLargeExponent(t testing.TB, bits int) *rsa.PrivateKey {
	t.Helper()
	k, err := loadRSAKeyFile("rsa" + strconv.Itoa(bits) + "-e2147483647.pem")
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// LoadRSAKey is RSAKey for callers without a testing.TB (a sync.OnceValue,
// a benchmark table built at package level).
func LoadRSAKey(bits int) (*rsa.PrivateKey, error) {
	return loadRSAKeyFile("rsa" + strconv.Itoa(bits) + ".pem")
}

// loadRSAKeyFile reads the PKCS #8 RSA key testdata/keys/name.
func loadRSAKeyFile(name string) (*rsa.PrivateKey, error) {
	data, err := os.ReadFile(Path("keys", name))
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, fmt.Errorf("%s: no PEM block", name)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	rk, ok := k.(*rsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("%s: %T, not an RSA key", name, k)
	}
	return rk, nil
}

// BytesAllocated returns the bytes allocated (runtime.MemStats.TotalAlloc)
// while f runs, after a garbage collection.
func BytesAllocated(f func()) uint64 {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// MaxErrorText is the longest error text a parser of attacker input may
// return (issue 18): the attacker's text in an error is quoted and cut to
// 64 bytes (internal/untrusted), so that an error naming a few such
// pieces stays well below it, whatever the input.
const MaxErrorText = 1 << 10

// CheckErrorText fails t if the text of err is longer than MaxErrorText
// bytes.
func CheckErrorText(t testing.TB, err error) {
	t.Helper()
	if err != nil && len(err.Error()) > MaxErrorText {
		t.Fatalf("error of %d bytes, more than %d: %.300s…", len(err.Error()), MaxErrorText, err)
	}
}

// WrapsAny reports whether errors.Is(err, target) for one of targets.
func WrapsAny(err error, targets ...error) bool {
	for _, target := range targets {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

// WycheproofFile is one file of C2SP/wycheproof testvectors_v1 for JOSE
// (json_web_signature_test, json_web_encryption_test, json_web_key_test,
// json_web_crypto_test).
type WycheproofFile struct {
	NumberOfTests int               `json:"numberOfTests"`
	TestGroups    []WycheproofGroup `json:"testGroups"`
}

// WycheproofGroup is a test group: the key (a JWK or a JWK Set) and its
// cases.
type WycheproofGroup struct {
	Comment string           `json:"comment"`
	Private json.RawMessage  `json:"private"`
	Public  json.RawMessage  `json:"public"`
	Tests   []WycheproofTest `json:"tests"`
}

// WycheproofTest is one test case; Result is "valid", "invalid" or
// "acceptable".
type WycheproofTest struct {
	TcID    int             `json:"tcId"`
	Comment string          `json:"comment"`
	JWS     json.RawMessage `json:"jws"`
	JWE     json.RawMessage `json:"jwe"`
	Enc     string          `json:"enc"`
	Pt      *string         `json:"pt"`
	Result  string          `json:"result"`
	Flags   []string        `json:"flags"`
}

// LoadWycheproof reads testdata/wycheproof/<name>.json and fails t unless
// its groups hold exactly numberOfTests cases.
func LoadWycheproof(t testing.TB, name string) *WycheproofFile {
	t.Helper()
	data := ReadFile(t, "wycheproof", name+".json")
	var f WycheproofFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	n := 0
	for _, g := range f.TestGroups {
		n += len(g.Tests)
	}
	if n != f.NumberOfTests {
		t.Fatalf("%s: %d tests, header says %d", name, n, f.NumberOfTests)
	}
	return &f
}

// Present reports whether a member is there and not null.
func Present(raw json.RawMessage) bool {
	return len(raw) > 0 && !bytes.Equal(raw, []byte("null"))
}

// Token returns the token bytes of a jws or jwe member: the string, or the
// JSON object as is.
func Token(t testing.TB, raw json.RawMessage) []byte {
	t.Helper()
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		return []byte(s)
	}
	return bytes.Clone(raw)
}

// IsKeySet reports whether a group's key is a JWK Set (has a "keys"
// member) rather than a single JWK.
func IsKeySet(raw json.RawMessage) bool {
	var probe struct {
		Keys json.RawMessage `json:"keys"`
	}
	_ = json.Unmarshal(raw, &probe)
	return probe.Keys != nil
}

// Pinned returns the allow-list of the "pinned" policy: the algorithms of
// algs (the keys' alg members) that are in supported, without repeats, in
// order; all of supported when none is.
func Pinned[A ~string](algs []string, supported []A) []A {
	var out []A
	for _, a := range algs {
		if slices.Contains(supported, A(a)) && !slices.Contains(out, A(a)) {
			out = append(out, A(a))
		}
	}
	if len(out) == 0 {
		return supported
	}
	return out
}

// Counts tallies the outcome of a Wycheproof file; its String is the line
// the tests log.
type Counts struct {
	Run, Passed, Failed, Skipped, Disagreements int
	AcceptableAccepted, AcceptableRefused       int
	SkippedIDs                                  []int
}

func (c *Counts) String() string {
	return fmt.Sprintf("run %d, passed %d, failed %d, skipped %d %v, expected disagreements %d, acceptable accepted/refused %d/%d",
		c.Run, c.Passed, c.Failed, c.Skipped, c.SkippedIDs, c.Disagreements, c.AcceptableAccepted, c.AcceptableRefused)
}

// RunCases runs, in file order, each case of f for which has is true as
// the subtest "tcId=<n>" of t, counting it in c as run and passed or
// failed. keys gives a group's key material, computed once per group. A
// case for which skip (if not nil) gives a reason is counted as skipped
// and its subtest skipped with that reason.
func RunCases[K any](t *testing.T, f *WycheproofFile, c *Counts,
	has func(WycheproofTest) bool,
	keys func(*WycheproofGroup) K,
	skip func(WycheproofTest) string,
	run func(t *testing.T, g *WycheproofGroup, k K, tc WycheproofTest),
) {
	t.Helper()
	for gi := range f.TestGroups {
		g := &f.TestGroups[gi]
		k := keys(g)
		for _, tc := range g.Tests {
			if !has(tc) {
				continue
			}
			c.Run++
			name := fmt.Sprintf("tcId=%d", tc.TcID)
			if skip != nil {
				if reason := skip(tc); reason != "" {
					c.Skipped++
					c.SkippedIDs = append(c.SkippedIDs, tc.TcID)
					t.Run(name, func(t *testing.T) { t.Skip(reason) })
					continue
				}
			}
			if t.Run(name, func(t *testing.T) { run(t, g, k, tc) }) {
				c.Passed++
			} else {
				c.Failed++
			}
		}
	}
}

// Expected returns the result tc is asserted to have: its label, or
// "invalid" when disagree lists it (a case labelled valid that the strict
// policy refuses; counted and logged, and t fails if the case is no longer
// labelled valid).
func (c *Counts) Expected(t testing.TB, tc WycheproofTest, disagree map[int]string) string {
	t.Helper()
	reason, ok := disagree[tc.TcID]
	if !ok {
		return tc.Result
	}
	if tc.Result != "valid" {
		t.Fatalf("expected disagreement on a case labelled %q: revisit", tc.Result)
	}
	t.Logf("labelled valid, asserted refused: %s", reason)
	c.Disagreements++
	return "invalid"
}

// Acceptable counts an "acceptable" case as accepted (by at least one
// policy) or refused.
func (c *Counts) Acceptable(accepted bool) {
	if accepted {
		c.AcceptableAccepted++
	} else {
		c.AcceptableRefused++
	}
}

// ZeroAllocs runs f once to warm buffers and caches, then fails t unless f
// allocates nothing on average over runs more calls (testing.AllocsPerRun).
// what names f in the failure ("round trip"). It returns the first error f
// returned, which the caller must check. Under the race detector, whose
// sync.Pool drops items at random, f runs once and nothing is counted.
func ZeroAllocs(t testing.TB, what string, runs int, f func() error) error {
	t.Helper()
	var first error
	call := func() {
		if err := f(); err != nil && first == nil {
			first = err
		}
	}
	call()
	if RaceEnabled {
		return first
	}
	if n := testing.AllocsPerRun(runs, call); n != 0 {
		t.Errorf("%v allocations per %s, want 0", n, what)
	}
	return first
}

// LatchsetNames returns the latchset-jose files that match patterns (below
// testdata/latchset), as paths relative to that directory, in pattern
// order.
func LatchsetNames(t testing.TB, patterns ...string) []string {
	t.Helper()
	dir := Path("latchset") + string(filepath.Separator)
	var out []string
	for _, p := range patterns {
		for _, name := range Glob(t, filepath.Join("latchset", p)) {
			out = append(out, filepath.ToSlash(strings.TrimPrefix(name, dir)))
		}
	}
	return out
}

// RFC7520Section returns the RFC 7520 section of a latchset-jose file name:
// "4.8" for "non-json/rfc7520_4.8.jwsg".
func RFC7520Section(name string) string {
	base := path.Base(name)
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		base = base[:i]
	}
	return strings.TrimPrefix(base, "rfc7520_")
}

// SameJSON reports whether the JSON texts a and b hold the same value
// (member order and white space aside); it fails t if either is not JSON.
func SameJSON(t testing.TB, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("invalid JSON %s: %v", a, err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("invalid JSON %s: %v", b, err)
	}
	return reflect.DeepEqual(va, vb)
}
