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
// without a nonce source, for Check and CheckBound alike.
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
	} {
		f.Add(s, false, false)
		f.Add(s, true, true)
	}
	key := ecKey(f)
	header := goodHeader(f, key, "ES256")
	jkt := newProver(f, jwa.ES256, key).Thumbprint()
	verifiers := func(nonces NonceSource) (with, without *Verifier) {
		opts := VerifierOptions{Replay: forgetful{}, Nonces: nonces}
		with, without = newVerifier(f, opts), newVerifier(f, opts)
		without.validator = newVerifier(f, opts).validator
		return with, without
	}
	var vs [2][2]*Verifier
	vs[0][0], vs[0][1] = verifiers(nil)
	vs[1][0], vs[1][1] = verifiers(fixedNonces("n-1"))
	f.Fuzz(func(t *testing.T, payload string, nonce, bound bool) {
		proof := signRaw(t, key, header, payload)
		pair := vs[0]
		if nonce {
			pair = vs[1]
		}
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
