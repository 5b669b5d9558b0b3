package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/josebench/josebench/bench"
)

// storedRun reads the run id stored under dir/runs.
func storedRun(t *testing.T, dir, id string) (groups []string, filter string, results []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "runs", id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Groups  []string
		Filter  string
		Results []struct{ Benchmark, Subject string }
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	for _, x := range r.Results {
		results = append(results, x.Benchmark+"/"+x.Subject)
	}
	return r.Groups, r.Filter, results
}

// TestGroupCase: --group is matched with case ignored, and the run stores
// the group's own spelling; an unknown group gets a short "did you mean".
func TestGroupCase(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir)
	code, out, errs := runCLI(t, "run", "--config", cfg, "--group", "hs256,Hs256", "--store")
	if code != 0 {
		t.Fatalf("run --group hs256: exit %d: %s", code, errs)
	}
	m := uuidRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("run output:\n%s", out)
	}
	groups, _, results := storedRun(t, dir, m[1])
	if !slices.Equal(groups, []string{"HS256"}) || !slices.Equal(results, []string{"HS256Bench/benchSignature", "HS256Bench/benchVerification", "HS256Bench/benchRoundTrip"}) {
		t.Errorf("stored groups %v, results %v", groups, results)
	}
	_, lower, _ := runCLI(t, "list", "--config", cfg, "--group", "HMAC")
	_, exact, _ := runCLI(t, "list", "--config", cfg, "--group", "hmac")
	if lower != exact || strings.Count(exact, "\n") != 9 {
		t.Errorf("list --group HMAC:\n%s\nlist --group hmac:\n%s", lower, exact)
	}
	for _, args := range [][]string{{"run", "--config", cfg, "--group", "RSASing"}, {"list", "--config", cfg, "--group", "RSASing"}} {
		code, _, errs := runCLI(t, args...)
		want := "josebench: unknown group \"RSASing\" (did you mean RSASign? \"josebench list\" lists the groups)\n"
		if code != 2 || errs != want {
			t.Errorf("%v: exit %d, stderr %q, want %q", args, code, errs, want)
		}
	}
}

// TestFilterFlag: --filter keeps the variants whose name matches, stored
// with the run; list --filter shows the same names; a bad pattern and
// one that matches nothing are usage errors, not an empty run.
func TestFilterFlag(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir)
	code, out, errs := runCLI(t, "run", "--config", cfg, "--group", "hmac", "--filter", "Verification/alg=HS(256|512)$", "--store")
	if code != 0 {
		t.Fatalf("run --filter: exit %d: %s", code, errs)
	}
	m := uuidRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("run output:\n%s", out)
	}
	groups, filter, results := storedRun(t, dir, m[1])
	if !slices.Equal(groups, []string{"hmac"}) || filter != "Verification/alg=HS(256|512)$" || !slices.Equal(results, []string{"HS256Bench/benchVerification", "HS512Bench/benchVerification"}) {
		t.Errorf("stored groups %v, filter %q, results %v", groups, filter, results)
	}
	code, out, errs = runCLI(t, "list", "--config", cfg, "--group", "hmac", "--filter", "Verification/alg=HS(256|512)$")
	if want := "HS256Bench/benchVerification/alg=HS256\nHS512Bench/benchVerification/alg=HS512\n"; code != 0 || out != want {
		t.Errorf("list --filter: exit %d, %q, stderr %q; want %q", code, out, errs, want)
	}
	// Without --group, the configuration's groups, as run.
	code, out, _ = runCLI(t, "list", "--config", cfg, "--filter", "^HS384Bench/")
	if code != 0 || out != "HS384Bench/benchSignature/alg=HS384\nHS384Bench/benchVerification/alg=HS384\nHS384Bench/benchRoundTrip/alg=HS384\n" {
		t.Errorf("list --filter without --group: exit %d:\n%s", code, out)
	}
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"run", "--config", cfg, "--group", "hmac", "--filter", "HS(256"}, "josebench: --filter \"HS(256\" is not a valid Go regular expression: error parsing regexp: missing closing ): `HS(256`\n"},
		{[]string{"run", "--config", cfg, "--group", "HS256", "--filter", "HS384"}, "josebench: --filter \"HS384\" matches none of the 3 variants of the groups HS256 (\"josebench list --group HS256\" prints their names)\n"},
		{[]string{"list", "--config", cfg, "--group", "HS256", "--filter", "^BenchmarkSuite/"}, "josebench: --filter \"^BenchmarkSuite/\" matches none of the 3 variants"},
	} {
		code, out, errs := runCLI(t, tt.args...)
		if code != 2 || !strings.HasPrefix(errs, tt.msg) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want it to start %q", tt.args, code, out, errs, tt.msg)
		}
	}
	if ids := storedIDs(t, dir); len(ids) != 1 {
		t.Errorf("%d runs stored, want 1", len(ids))
	}
}

// TestRefLatestBack: latest~N is the Nth run before the latest, as the
// log lists them, for report --uuid and run --ref; beyond the stored
// runs it is an error that says how many there are.
func TestRefLatestBack(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir)
	var ids []string
	for _, g := range []string{"HS256", "HS384"} {
		code, out, errs := runCLI(t, "run", "--config", cfg, "--group", g, "--store")
		m := uuidRE.FindStringSubmatch(out)
		if code != 0 || m == nil {
			t.Fatalf("run: exit %d: %s", code, errs)
		}
		ids = append(ids, m[1])
	}
	_, log, _ := runCLI(t, "log", "--config", cfg)
	lines := strings.Split(strings.TrimSpace(log), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], ids[0]) || !strings.HasPrefix(lines[2], ids[1]) {
		t.Fatalf("log:\n%s", log)
	}
	for ref, want := range map[string]string{"latest": ids[1], "latest~0": ids[1], "latest~1": ids[0]} {
		code, out, errs := runCLI(t, "report", "--config", cfg, "--uuid", ref, "--report", "simple", "--output", "md")
		if code != 0 || !strings.Contains(out, "### suite: "+want+", ") {
			t.Errorf("report --uuid %s: exit %d, %s\n%s", ref, code, errs, out)
		}
	}
	code, out, errs := runCLI(t, "report", "--config", cfg, "--uuid", "latest", "--ref", "latest~1", "--report", "simple")
	if code != 0 || !strings.Contains(out, ids[0]) {
		t.Errorf("report --ref latest~1: exit %d, %s\n%s", code, errs, out)
	}
	code, _, errs = runCLI(t, "run", "--config", cfg, "--group", "HS256", "--ref", "latest~2")
	want := "josebench: no such stored run: latest~2: storage " + filepath.Join(dir, "runs") + " holds 2 runs, latest to latest~1\n"
	if code != 1 || errs != want {
		t.Errorf("--ref latest~2: exit %d, stderr %q, want %q", code, errs, want)
	}
	code, _, errs = runCLI(t, "report", "--config", cfg, "--uuid", "latest~x")
	if code != 1 || !strings.Contains(errs, `run reference "latest~x": want latest~N`) {
		t.Errorf("--uuid latest~x: exit %d, stderr %q", code, errs)
	}
}

// TestRefOtherVariants: --ref against a run made with another --filter
// (or other groups) warns of the variants it lacks, which are not
// compared and which --fail-slower cannot count; one of the same
// variants does not warn.
func TestRefOtherVariants(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir)
	code, _, errs := runCLI(t, "run", "--config", cfg, "--group", "HS256", "--filter", "Signature", "--store", "--tag", "sig")
	if code != 0 {
		t.Fatalf("run --filter: exit %d: %s", code, errs)
	}
	code, _, errs = runCLI(t, "run", "--config", cfg, "--group", "HS256", "--store", "--tag", "all")
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	// The same runner, and a second payload.
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	payloads := filepath.Join(dir, "payloads.yaml")
	if err := os.WriteFile(payloads, append(data, "measure:\n  payloads: [rfc7520, 1024]\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string // "" for no warning
	}{
		{[]string{"run", "--config", payloads, "--group", "HS256", "--filter", "Signature", "--ref", "sig"},
			`1 of 2 variants are not in run %s (made with other measure settings): they are not compared, and --fail-slower counts none of them: HS256Bench/benchSignature/alg=HS256/payload=1024`},
		{[]string{"run", "--group", "HS256", "--ref", "sig", "--fail-slower", "50"},
			`2 of 3 variants are not in run %s (made with --filter "Signature"): they are not compared, and --fail-slower counts none of them: HS256Bench/benchVerification/alg=HS256, HS256Bench/benchRoundTrip/alg=HS256`},
		{[]string{"report", "--uuid", "all", "--ref", "sig"}, `2 of 3 variants are not in run %s (made with --filter "Signature"): they are not compared`},
		{[]string{"run", "--group", "hmac", "--filter", "HS384", "--ref", "all"}, `3 of 3 variants are not in run %s (made with the groups HS256 and no --filter): no variant is compared`},
		{[]string{"run", "--group", "HS256", "--subject", "benchSignature,benchRoundTrip", "--ref", "sig"}, `1 of 2 variants are not in run %s (made with --filter "Signature" and the subjects benchSignature,benchVerification,`},
		{[]string{"run", "--group", "hmac", "--filter", "HS256Bench/benchSig", "--ref", "sig"}, ""},
		{[]string{"report", "--uuid", "sig", "--ref", "all"}, ""},
	} {
		ref := tt.args[slices.Index(tt.args, "--ref")+1]
		store := bench.Store{Dir: filepath.Join(dir, "runs")}
		r, err := store.Load(ref)
		if err != nil {
			t.Fatal(err)
		}
		args := tt.args
		if !slices.Contains(args, "--config") {
			args = append(args, "--config", cfg)
		}
		code, _, errs := runCLI(t, args...)
		got := strings.Contains(errs, "variants are not in run")
		if code != 0 || got != (tt.want != "") || tt.want != "" && !strings.Contains(errs, fmt.Sprintf(tt.want, r.ID)) {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant %q", tt.args, code, errs, tt.want)
		}
	}
}
