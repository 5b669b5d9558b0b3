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

// FuzzPrecheckDifferential checks that the claims read before the
// signature only ever refuse earlier: a payload, signed by its proof's
// key, is accepted by a Verifier exactly when it is by one whose key
// function never finds the checks before the signature (its validator is
// another Verifier's, as in TestCheckAfterSignatureAlone), with and
// without a nonce source, for Check and CheckBound alike, at a whole
// second and half a second past it.
func FuzzPrecheckDifferential(f *testing.F) {
	const token = "an-access-token"
	ath := AccessTokenHash(token)
	for _, s := range []string{
		`{"jti":"a","htm":"GET","htu":"` + testURI + `","iat":1800000000,"ath":"` + ath + `"}`,
		`{"jti":"a","htm":"GET","htu":"` + testURI + `","iat":1800000000,"ath":"` + ath + `","nonce":"n-1"}`,
		`{"jti":"a","h\u0074m":"G\u0045T","htu":"https:\/\/api.example\/r","iat":1.8e9,"ath":"` + ath + `"}`,
		`{"jti":"a","htm":"GET","htu":"https://API.example:443/r","iat":1800000005.5,"ath":"` + ath + `","nonce":null}`,
		`{"jti":"a","htm":"GET","htu":"` + testURI + `","iat":1800000005,"ath":"` + ath + `"}`,
		`{"jti":"a","htm":"GET","htm":"POST","htu":"` + testURI + `","iat":1800000000,"ath":"` + ath + `"}`,
		`{"jti":"a","htm":"GET","htu":"` + testURI + `","iat":1799999935,"ath":"` + ath + `","x":{"y":[1]}}`,
		`{"jti":"a","htm":"GET","htu":"` + testURI + `","iat":1800000006,"ath":"` + ath + `"}`,
	} {
		f.Add(s, false, false, false)
		f.Add(s, true, true, true)
		f.Add(s, false, true, true)
	}
	key := ecKey(f)
	header := goodHeader(f, key, "ES256")
	jkt := newProver(f, jwa.ES256, key).Thumbprint()
	verifiers := func(nonces NonceSource, now func() time.Time) (with, without *Verifier) {
		opts := VerifierOptions{Replay: forgetful{}, Nonces: nonces, Now: now}
		with, without = newVerifier(f, opts), newVerifier(f, opts)
		without.validator = newVerifier(f, opts).validator
		return with, without
	}
	// vs[nonce][frac]: with frac, now is half a second past testNow, where
	// jwt rounds it up to compare an "iat" of whole seconds.
	var vs [2][2][2]*Verifier
	for i, nonces := range []NonceSource{nil, fixedNonces("n-1")} {
		vs[i][0][0], vs[i][0][1] = verifiers(nonces, fixedNow)
		vs[i][1][0], vs[i][1][1] = verifiers(nonces, func() time.Time { return testNow.Add(500 * time.Millisecond) })
	}
	f.Fuzz(func(t *testing.T, payload string, nonce, bound, frac bool) {
		proof := signRaw(t, key, header, payload)
		pair := vs[b2i(nonce)][b2i(frac)]
		var errs [2]error
		for i, v := range pair {
			if bound {
				_, errs[i] = v.CheckBound(context.Background(), []string{proof}, "GET", testURI, token, jkt)
			} else {
				_, errs[i] = v.Check(context.Background(), []string{proof}, "GET", testURI, token)
			}
		}
		if (errs[0] == nil) != (errs[1] == nil) {
			t.Fatalf("payload %q: with the checks before the signature %v, without them %v", payload, errs[0], errs[1])
		}
	})
}

// forgetful is a ReplayStore that remembers nothing.
type forgetful struct{}

func (forgetful) Remember(context.Context, [32]byte, time.Time, time.Time) (bool, error) {
	return false, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
