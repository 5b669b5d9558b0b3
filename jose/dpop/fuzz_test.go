package dpop

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/jwa"
)

// FuzzParseProof checks a Verifier on arbitrary proofs: it never panics,
// every refusal is an *Error with a code, and a proof accepted once is
// refused the second time.
func FuzzParseProof(f *testing.F) {
	for _, vec := range rfcVectors(f) {
		f.Add(vec.Proof, vec.Method, vec.URI, vec.Now)
	}
	key := ecKey(f)
	f.Add(forge(f, jwa.ES256, key, goodHeader(f, key, "ES256"), goodClaims("f")), "GET", testURI, testNow.Unix())
	f.Add("e30.e30.", "GET", testURI, int64(0))
	f.Add("..", "GET", "https://h/", int64(0))
	f.Fuzz(func(t *testing.T, proof, method, uri string, now int64) {
		v, err := NewVerifier(VerifierOptions{
			Algorithms: []jwa.SignatureAlgorithm{jwa.ES256, jwa.EdDSA, jwa.PS256},
			Now:        func() time.Time { return time.Unix(now, 0) },
		})
		if err != nil {
			t.Fatal(err)
		}
		p, err := v.Check(context.Background(), []string{proof}, method, uri, "")
		if err != nil {
			var e *Error
			if errors.As(err, &e) && e.Code == "" {
				t.Fatalf("refusal without a code: %v", err)
			}
			return
		}
		if p.Thumbprint == "" || p.Key == nil || p.Key.IsPrivate() {
			t.Fatalf("accepted proof %+v", p)
		}
		if _, err := v.Check(context.Background(), []string{proof}, method, uri, ""); !errors.Is(err, ErrReplay) {
			t.Fatalf("second check: %v, want ErrReplay", err)
		}
	})
}
