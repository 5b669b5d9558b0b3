package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/dpop"
	"github.com/josebench/josebench/jose/jwa"
)

// TestDPoP makes proofs with "jose dpop proof" and checks them with the
// library's Verifier, and the thumbprint with the Prover's.
func TestDPoP(t *testing.T) {
	tokFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokFile, []byte("the-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	v, err := dpop.NewVerifier(dpop.VerifierOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.ES256, jwa.EdDSA, jwa.PS256},
		Now:        func() time.Time { return testTime },
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		key   string
		extra []string
		token string
		nonce string
	}{
		{key: kEC},
		{key: kEd, extra: []string{"--access-token", tokFile}, token: "the-token"},
		{key: kRSA, extra: []string{"--alg", "PS256", "--nonce", "n-1"}, nonce: "n-1"},
	} {
		args := append([]string{"dpop", "proof", "--key", tt.key, "--method", "POST", "--url", "https://as.example/token?x=1"}, tt.extra...)
		code, out, errs := runCLI(t, nil, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		p, err := v.Check(context.Background(), []string{strings.TrimSpace(out)}, "POST", "https://as.example/token", tt.token)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if p.URI != "https://as.example/token" || p.Nonce != tt.nonce {
			t.Errorf("%v: proof %+v", args, p)
		}
		code, jkt, errs := runCLI(t, nil, "dpop", "thumbprint", "--key", tt.key)
		if code != exitOK || strings.TrimSpace(jkt) != p.Thumbprint {
			t.Errorf("thumbprint of %s: %q (%s), want %s", tt.key, jkt, errs, p.Thumbprint)
		}
	}
	for _, tt := range []struct {
		args []string
		code int
	}{
		{[]string{"dpop", "proof", "--method", "GET", "--url", "https://a/"}, exitUsage},
		{[]string{"dpop", "proof", "--key", kEC, "--url", "https://a/"}, exitUsage},
		{[]string{"dpop", "proof", "--key", kEC, "--method", "GET"}, exitUsage},
		{[]string{"dpop", "proof", "--key", "-", "--access-token", "-", "--method", "GET", "--url", "https://a/"}, exitUsage},
		{[]string{"dpop", "proof", "--key", kRSA, "--method", "GET", "--url", "https://a/"}, exitUsage},
		{[]string{"dpop", "proof", "--key", kEC, "--method", "GET", "--url", "/relative"}, exitFailure},
		{[]string{"dpop", "proof", "--key", kHS256, "--method", "GET", "--url", "https://a/"}, exitFailure},
		{[]string{"dpop", "proof", "--key", kECPubPEM, "--alg", "ES256", "--method", "GET", "--url", "https://a/"}, exitFailure},
		{[]string{"dpop", "thumbprint"}, exitUsage},
		{[]string{"dpop", "thumbprint", "--key", "testdata/none"}, exitFailure},
	} {
		if code, _, errs := runCLI(t, nil, tt.args...); code != tt.code {
			t.Errorf("%v: exit %d, want %d (%s)", tt.args, code, tt.code, errs)
		}
	}
	// "htm" is the method as sent, case-sensitive (RFC 9110 §9.1): a
	// standard method in another case is refused with its spelling, any
	// other method kept as it is.
	for _, tt := range []struct{ method, want string }{
		{"get", "use GET"},
		{"Post", "use POST"},
		{"patch", "use PATCH"},
	} {
		code, out, errs := runCLI(t, nil, "dpop", "proof", "--key", kEC, "--method", tt.method, "--url", "https://a/")
		if code != exitUsage || out != "" || !strings.Contains(errs, tt.want) || !strings.Contains(errs, "case-sensitive") {
			t.Errorf("--method %s: exit %d, stdout %q, stderr %q; want %q", tt.method, code, out, errs, tt.want)
		}
	}
	for _, m := range []string{"GET", "PROPFIND", "purge"} {
		code, out, errs := runCLI(t, nil, "dpop", "proof", "--key", kEC, "--method", m, "--url", "https://a/")
		if code != exitOK {
			t.Fatalf("--method %s: exit %d: %s", m, code, errs)
		}
		if p, err := v.Check(context.Background(), []string{strings.TrimSpace(out)}, m, "https://a/", ""); err != nil {
			t.Errorf("--method %s: %v", m, err)
		} else if p.Method != m {
			t.Errorf("--method %s: htm %q", m, p.Method)
		}
	}
	// A symmetric or key-agreement key has no jkt: no proof is signed
	// with it (RFC 9449 §4.2), though RFC 7638 would hash it.
	for _, tt := range []struct{ key, want string }{
		{kHS256, "a symmetric (oct) key is not a DPoP key"},
		{kX25519, "OKP X25519 is not a signature key"},
	} {
		code, out, errs := runCLI(t, nil, "dpop", "thumbprint", "--key", tt.key)
		if code != exitFailure || out != "" || !strings.Contains(errs, tt.want) {
			t.Errorf("thumbprint of %s: exit %d, stdout %q, stderr %q; want %q", tt.key, code, out, errs, tt.want)
		}
	}
}
