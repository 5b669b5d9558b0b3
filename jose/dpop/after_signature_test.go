package dpop

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwt"
)

// TestCheckAfterSignatureAlone: the checks after the signature refuse, on
// their own, every proof the checks before it would: what is read before
// the signature only ever refuses earlier, never accepts. Each proof is
// signed by its own key and has one defect; it is checked twice: with
// claims the reading before the signature leaves alone (a nested claim,
// beyond preLimits; a null "nonce"), and through a Verifier whose key
// function never finds its checks (its validator is another Verifier's:
// headerKey runs the header checks only), so that neither the claims nor,
// with CheckBound, the binding are checked before the signature.
func TestCheckAfterSignatureAlone(t *testing.T) {
	key, other := ecKey(t), ecKey(t)
	const token = "an-access-token"
	jkt := newProver(t, jwa.ES256, key).Thumbprint()
	otherJKT := newProver(t, jwa.ES256, other).Thumbprint()
	tests := []struct {
		name   string
		mod    func(c map[string]any)
		method string
		jkt    string // CheckBound's when not "", Check otherwise
		nonces NonceSource
		want   error
		code   string
	}{
		{name: "valid"},
		{name: "valid, bound", jkt: jkt},
		{name: "another key than the token's", jkt: otherJKT, want: ErrBinding, code: CodeInvalidToken},
		{name: "htm", method: http.MethodPost, want: ErrMethod},
		{name: "htu", mod: func(c map[string]any) { c["htu"] = "https://api.example/other" }, want: ErrURI},
		{name: "iat too old", mod: func(c map[string]any) { c["iat"] = testNow.Add(-time.Hour).Unix() }, want: ErrIssuedAt},
		{name: "iat in the future", mod: func(c map[string]any) { c["iat"] = testNow.Add(time.Hour).Unix() }, want: ErrIssuedAt},
		{name: "no ath", mod: func(c map[string]any) { delete(c, "ath") }, want: ErrMissingClaim},
		{name: "wrong ath", mod: func(c map[string]any) { c["ath"] = AccessTokenHash("another") }, want: ErrAccessTokenHash},
		{name: "no nonce", nonces: fixedNonces("n-1"), want: ErrNonce, code: CodeUseNonce},
		{name: "stale nonce", mod: func(c map[string]any) { c["nonce"] = "n-0" }, nonces: fixedNonces("n-1"), want: ErrNonce, code: CodeUseNonce},
		{name: "current nonce", mod: func(c map[string]any) { c["nonce"] = "n-1" }, nonces: fixedNonces("n-1")},
	}
	for _, tt := range tests {
		for _, how := range []string{"nested claim", "null nonce", "no check before the signature"} {
			if how == "null nonce" && tt.mod != nil {
				if c := goodClaims("id"); func() bool { tt.mod(c); _, ok := c["nonce"]; return ok }() {
					continue // the nonce is the defect
				}
			}
			t.Run(tt.name+", "+how, func(t *testing.T) {
				c := goodClaims("id")
				c["ath"] = AccessTokenHash(token)
				if tt.mod != nil {
					tt.mod(c)
				}
				switch how {
				case "nested claim":
					c["x"] = map[string]any{"y": 1}
				case "null nonce":
					c["nonce"] = nil
				}
				proof := forge(t, jwa.ES256, key, goodHeader(t, key, "ES256"), c)
				store := new(recordingStore)
				opts := VerifierOptions{Replay: store, Nonces: tt.nonces}
				v := newVerifier(t, opts)
				if how == "no check before the signature" {
					v.validator = newVerifier(t, opts).validator
				}
				_, err := checkFor(v, proof, tt.method, token, tt.jkt)
				if tt.want == nil {
					if tt.nonces != nil && how == "null nonce" {
						wantRefusal(t, err, ErrNonce, CodeUseNonce)
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					if n := store.len(); n != 1 {
						t.Errorf("the replay store was asked to remember %d keys, want 1", n)
					}
					return
				}
				wantRefusedUnrecorded(t, err, tt.want, tt.code, store)
			})
		}
	}
}

// TestCheckBoundNeedsAccessToken: CheckBound with an empty access token
// is a caller's error, not a proof checked without "ath" (RFC 9449 §4.3
// check 12, §7.1: a proof for a bound token carries the token's hash).
func TestCheckBoundNeedsAccessToken(t *testing.T) {
	key := ecKey(t)
	p := newProver(t, jwa.ES256, key)
	proof, err := p.Proof(http.MethodGet, testURI, &ProofOptions{IssuedAt: testNow}) // no ath
	if err != nil {
		t.Fatal(err)
	}
	store := new(recordingStore)
	v := newVerifier(t, VerifierOptions{Replay: store})
	got, err := v.CheckBound(context.Background(), []string{proof}, http.MethodGet, testURI, "", p.Thumbprint())
	if err == nil {
		t.Fatalf("a proof without ath accepted for a bound token: %+v", got)
	}
	if _, ok := err.(*Error); ok {
		t.Errorf("error %v is an *Error: the client's, where the caller erred", err)
	}
	if n := store.len(); n != 0 {
		t.Errorf("the replay store was asked to remember %d keys", n)
	}
}

// TestCheckClaimsNonceAfterSignature: after the signature, a nonce the
// source found current before it is not asked again only when it is the
// verified claim's: a verified "nonce" other than the one read before the
// signature is asked about, whatever was found then. The two readers of
// the claims agree on every proof, so this is checked on checkClaims.
func TestCheckClaimsNonceAfterSignature(t *testing.T) {
	v := newVerifier(t, VerifierOptions{Nonces: fixedNonces("n-1")})
	uri, err := normalizeURI(testURI)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	iat := jwt.NumericDateOf(testNow)
	for _, tt := range []struct {
		pre, verified string
		want          error
	}{
		{pre: "n-1", verified: "n-1"},
		{pre: "n-1", verified: "n-0", want: ErrNonce},
		{pre: "n-1", verified: "", want: ErrNonce},
	} {
		pc := &checkedProof{Context: ctx, v: v, method: http.MethodGet, uri: uri, now: testNow,
			nonce: tt.pre, nonceChecked: true}
		err := checkClaims(ctx, pc, false, http.MethodGet, testURI, "", tt.verified, iat)
		if tt.want == nil {
			if err != nil {
				t.Errorf("nonce %q found current before the signature, %q after: %v", tt.pre, tt.verified, err)
			}
			continue
		}
		wantRefusal(t, err, tt.want, CodeUseNonce)
	}
}

// TestCheckIssuedAtPrecision: an "iat" of whole seconds that jwt accepts
// (it compares now, rounded up to the second, plus the leeway) is not
// refused by the reading before the signature when now has a fraction of
// a second; one a second later is refused.
func TestCheckIssuedAtPrecision(t *testing.T) {
	key := ecKey(t)
	now := testNow.Add(500 * time.Millisecond)
	v := newVerifier(t, VerifierOptions{Now: func() time.Time { return now }})
	late := testNow.Add(DefaultLeeway + time.Second).Unix() // after now + leeway, not after it rounded up
	for _, tt := range []struct {
		iat  int64
		want error
	}{
		{iat: late},
		{iat: late + 1, want: ErrIssuedAt},
	} {
		c := goodClaims("id-" + strconv.FormatInt(tt.iat, 10))
		c["iat"] = tt.iat
		proof := forge(t, jwa.ES256, key, goodHeader(t, key, "ES256"), c)
		_, err := v.Check(context.Background(), []string{proof}, http.MethodGet, testURI, "")
		if tt.want == nil {
			if err != nil {
				t.Errorf("iat %d, now %v: %v", tt.iat, now, err)
			}
			continue
		}
		wantRefusal(t, err, tt.want, CodeInvalidProof)
	}
}
