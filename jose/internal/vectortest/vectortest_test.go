package vectortest

import (
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const self = "github.com/josebench/josebench/jose/internal/vectortest"

// TestNotImportedByProduction checks that no package of the module, built
// without its tests, depends on this test-support package.
func TestNotImportedByProduction(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found")
	}
	out, err := exec.Command(goBin, "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`,
		"github.com/josebench/josebench/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	checked := 0
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] == self {
			continue
		}
		checked++
		if slices.Contains(f[1:], self) {
			t.Errorf("%s depends on %s", f[0], self)
		}
	}
	for _, pkg := range []string{"jose", "jose/jwa", "jose/jws", "jose/jwe"} {
		if !strings.Contains(string(out), "github.com/josebench/josebench/"+pkg+" ") {
			t.Errorf("go list did not report %s", pkg)
		}
	}
	t.Logf("%d production packages checked", checked)
}

func TestRSAKey(t *testing.T) {
	for _, bits := range []int{1024, 2048, 3072, 4096} {
		if k := RSAKey(t, bits); k.N.BitLen() != bits {
			t.Errorf("rsa%d.pem: %d-bit modulus", bits, k.N.BitLen())
		}
	}
}

func TestLoadWycheproof(t *testing.T) {
	f := LoadWycheproof(t, "json_web_signature_test")
	if f.NumberOfTests == 0 || len(f.TestGroups) == 0 {
		t.Fatalf("empty file: %d tests", f.NumberOfTests)
	}
	tc := f.TestGroups[0].Tests[0]
	if !Present(tc.JWS) || Present(tc.JWE) || len(Token(t, tc.JWS)) == 0 {
		t.Errorf("tcId %d: jws %q, jwe %q", tc.TcID, tc.JWS, tc.JWE)
	}
}

func TestPinned(t *testing.T) {
	type alg string
	supported := []alg{"A", "B", "C"}
	for _, c := range []struct {
		in   []string
		want []alg
	}{
		{nil, supported},
		{[]string{"X", ""}, supported},
		{[]string{"B", "X", "B", "A"}, []alg{"B", "A"}},
	} {
		if got := Pinned(c.in, supported); !slices.Equal(got, c.want) {
			t.Errorf("Pinned(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

var sink []byte

func TestIsKeySetWrapsAnyBytesAllocated(t *testing.T) {
	if !IsKeySet([]byte(`{"keys":[]}`)) || IsKeySet([]byte(`{"kty":"oct"}`)) {
		t.Error("IsKeySet")
	}
	if !WrapsAny(fmt.Errorf("x: %w", io.EOF), io.ErrClosedPipe, io.EOF) || WrapsAny(io.EOF, io.ErrClosedPipe) {
		t.Error("WrapsAny")
	}
	if BytesAllocated(func() { sink = make([]byte, 1<<20) }) < 1<<20 {
		t.Error("BytesAllocated missed a 1 MiB allocation")
	}
}

func TestRunCasesCounts(t *testing.T) {
	f := &WycheproofFile{TestGroups: []WycheproofGroup{{Comment: "g", Tests: []WycheproofTest{
		{TcID: 1, JWS: []byte(`"a.b.c"`), Result: "valid"},
		{TcID: 2, JWE: []byte(`"a.b.c.d.e"`), Result: "valid"},
		{TcID: 3, JWS: []byte(`"a.b.c"`), Result: "invalid"},
		{TcID: 4, JWS: []byte(`"a.b.c"`), Result: "acceptable"},
	}}}}
	var c Counts
	var ran []int
	groups := 0
	RunCases(t, f, &c,
		func(tc WycheproofTest) bool { return Present(tc.JWS) },
		func(*WycheproofGroup) string { groups++; return "key" },
		func(tc WycheproofTest) string {
			if tc.TcID == 3 {
				return "known faulty"
			}
			return ""
		},
		func(t *testing.T, g *WycheproofGroup, k string, tc WycheproofTest) {
			ran = append(ran, tc.TcID)
			if want := c.Expected(t, tc, map[int]string{1: "strict"}); tc.TcID == 1 && want != "invalid" {
				t.Errorf("tcId 1: want %q, not invalid", want)
			}
			if tc.Result == "acceptable" {
				c.Acceptable(false)
			}
		})
	if !slices.Equal(ran, []int{1, 4}) || groups != 1 {
		t.Errorf("ran %v in %d groups", ran, groups)
	}
	want := "run 3, passed 2, failed 0, skipped 1 [3], expected disagreements 1, acceptable accepted/refused 0/1"
	if c.String() != want {
		t.Errorf("counts %q, want %q", c.String(), want)
	}
}

func TestLatchsetNamesAndSection(t *testing.T) {
	names := LatchsetNames(t, "non-json/rfc7520_4.1.jws?", "rfc7520_4.1.jwsf")
	if !slices.Equal(names, []string{"non-json/rfc7520_4.1.jwsc", "rfc7520_4.1.jwsf"}) {
		t.Fatalf("names %q", names)
	}
	for _, n := range names {
		if got := RFC7520Section(n); got != "4.1" {
			t.Errorf("RFC7520Section(%q) = %q", n, got)
		}
	}
	if got := RFC7520Section("non-json/rfc7520_5.13.1.jwk"); got != "5.13.1" {
		t.Errorf("RFC7520Section(5.13.1.jwk) = %q", got)
	}
}

func TestZeroAllocs(t *testing.T) {
	if RaceEnabled {
		t.Skip("ZeroAllocs counts nothing under the race detector")
	}
	calls := 0
	errBoom := fmt.Errorf("boom")
	err := ZeroAllocs(t, "call", 10, func() error {
		calls++
		if calls == 2 {
			return errBoom
		}
		return nil
	})
	if err != errBoom || calls != 12 {
		t.Errorf("err %v after %d calls", err, calls)
	}
}

func TestSameJSON(t *testing.T) {
	if !SameJSON(t, []byte(`{"a":1,"b":[true,null]}`), []byte(` {"b":[true, null], "a":1.0}`)) {
		t.Error("equal values reported different")
	}
	if SameJSON(t, []byte(`{"a":1}`), []byte(`{"a":"1"}`)) || SameJSON(t, []byte(`[1,2]`), []byte(`[2,1]`)) {
		t.Error("different values reported equal")
	}
}
