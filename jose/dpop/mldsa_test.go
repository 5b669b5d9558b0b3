//go:build go1.27

package dpop

import (
	"context"
	"crypto/mldsa"
	"errors"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose/jwa"
)

// TestMLDSAProofSize: ML-DSA proofs (RFC 9964) are made and checked, and
// their size against DefaultMaxProofSize is what its doc says: an
// ML-DSA-44 proof with "ath" and a nonce fits (5.9 KB); an ML-DSA-65 one
// (8.2 KB) and an ML-DSA-87 one (11.1 KB: its 2,592-byte public key in
// the header, its 4,627-byte signature, each base64url-encoded) do not,
// and are accepted once MaxProofSize is raised to 16 KiB.
func TestMLDSAProofSize(t *testing.T) {
	for _, c := range []struct {
		alg    jwa.SignatureAlgorithm
		params mldsa.Parameters
		fits   bool
	}{
		{jwa.MLDSA44, mldsa.MLDSA44(), true},
		{jwa.MLDSA65, mldsa.MLDSA65(), false},
		{jwa.MLDSA87, mldsa.MLDSA87(), false},
	} {
		key, err := mldsa.GenerateKey(c.params)
		if err != nil {
			t.Fatal(err)
		}
		p := newProver(t, c.alg, key)
		proof, err := p.Proof("GET", testURI, &ProofOptions{AccessToken: "an access token", Nonce: "a-server-nonce", IssuedAt: testNow})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: a proof of %d bytes", c.alg, len(proof))
		v := newVerifier(t, VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{c.alg}})
		_, err = v.Check(context.Background(), []string{proof}, "GET", testURI, "an access token")
		switch {
		case c.fits && err != nil:
			t.Errorf("%s, %d bytes: %v", c.alg, len(proof), err)
		case !c.fits && !errors.Is(err, ErrProofTooLarge):
			t.Errorf("%s, %d bytes, default limit: %v, want ErrProofTooLarge", c.alg, len(proof), err)
		}
		if c.fits {
			continue
		}
		v = newVerifier(t, VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{c.alg}, MaxProofSize: 16 << 10})
		if _, err := v.Check(context.Background(), []string{proof}, "GET", testURI, "an access token"); err != nil {
			t.Errorf("%s, MaxProofSize 16 KiB: %v", c.alg, err)
		}
		// The doc's room: an "htu" and a nonce of 1.9 KB each.
		uri := "https://api.example/" + strings.Repeat("a", 1900-len("https://api.example/"))
		long, err := p.Proof("GET", uri, &ProofOptions{AccessToken: "an access token", Nonce: strings.Repeat("n", 1900), IssuedAt: testNow})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := v.Check(context.Background(), []string{long}, "GET", uri, "an access token"); err != nil {
			t.Errorf("%s, MaxProofSize 16 KiB, %d bytes: %v", c.alg, len(long), err)
		}
	}
}
