package dpop

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/jwa"
)

// recordingStore is a ReplayStore that records every key it is asked to
// remember, and remembers none.
type recordingStore struct {
	mu   sync.Mutex
	keys [][32]byte
}

func (s *recordingStore) Remember(_ context.Context, key [32]byte, _, _ time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keys = append(s.keys, key)
	return false, nil
}

func (s *recordingStore) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.keys)
}

// checkFor checks proof for a request of method (GET when "") to testURI
// presenting token: with CheckBound when jkt is set, Check otherwise.
func checkFor(v *Verifier, proof, method, token, jkt string) (*Proof, error) {
	if method == "" {
		method = http.MethodGet
	}
	if jkt != "" {
		return v.CheckBound(context.Background(), []string{proof}, method, testURI, token, jkt)
	}
	return v.Check(context.Background(), []string{proof}, method, testURI, token)
}

// wantRefusedUnrecorded is wantRefusal, of code CodeInvalidProof when
// code is "", for a refusal of which store was asked to remember nothing.
func wantRefusedUnrecorded(t testing.TB, err, sentinel error, code string, store *recordingStore) {
	t.Helper()
	if code == "" {
		code = CodeInvalidProof
	}
	wantRefusal(t, err, sentinel, code)
	if n := store.len(); n != 0 {
		t.Errorf("the replay store was asked to remember %d keys of a refused proof", n)
	}
}

// TestCheckCheapFirst: the checks that need no signature run before it
// (RFC 9449 §4.3): a proof signed by a key other than its "jwk", so that
// its signature cannot verify, is refused for its cheap defect (a claim,
// its key's thumbprint against the token's jkt with CheckBound), which a
// check verifying the signature first would never report; with no cheap
// defect, for its signature. Claims read before the signature only
// refuse: a proof whose claims pass but whose signature does not is
// refused. No refused proof reaches the replay store.
func TestCheckCheapFirst(t *testing.T) {
	key, other := ecKey(t), ecKey(t)
	const token = "an-access-token"
	// forged carries key's jwk and other's signature.
	forged := func(mod func(c map[string]any)) string {
		c := goodClaims("id")
		c["ath"] = AccessTokenHash(token)
		if mod != nil {
			mod(c)
		}
		return forge(t, jwa.ES256, other, goodHeader(t, key, "ES256"), c)
	}
	jkt := newProver(t, jwa.ES256, key).Thumbprint()
	otherJKT := newProver(t, jwa.ES256, other).Thumbprint()
	tests := []struct {
		name   string
		proof  string
		method string
		jkt    string // CheckBound's when not "", Check otherwise
		nonces NonceSource
		want   error
		code   string
	}{
		{name: "signature only", proof: forged(nil), want: ErrSignature},
		{name: "signature only, bound", proof: forged(nil), jkt: jkt, want: ErrSignature},
		{name: "another key than the token's", proof: forged(nil), jkt: otherJKT, want: ErrBinding, code: CodeInvalidToken},
		{name: "htm", proof: forged(nil), method: http.MethodPost, want: ErrMethod},
		{name: "htu", proof: forged(func(c map[string]any) { c["htu"] = "https://api.example/other" }), want: ErrURI},
		{name: "htu not a URI", proof: forged(func(c map[string]any) { c["htu"] = "not a uri" }), want: ErrURI},
		{name: "empty htm", proof: forged(func(c map[string]any) { c["htm"] = "" }), want: ErrMissingClaim},
		{name: "no jti", proof: forged(func(c map[string]any) { delete(c, "jti") }), want: ErrMissingClaim},
		{name: "no iat", proof: forged(func(c map[string]any) { delete(c, "iat") }), want: ErrMissingClaim},
		{name: "iat too old", proof: forged(func(c map[string]any) { c["iat"] = testNow.Add(-time.Hour).Unix() }), want: ErrIssuedAt},
		{name: "iat in the future", proof: forged(func(c map[string]any) { c["iat"] = testNow.Add(time.Hour).Unix() }), want: ErrIssuedAt},
		{name: "no ath", proof: forged(func(c map[string]any) { delete(c, "ath") }), want: ErrMissingClaim},
		{name: "wrong ath", proof: forged(func(c map[string]any) { c["ath"] = AccessTokenHash("another") }), want: ErrAccessTokenHash},
		{name: "no nonce", proof: forged(nil), nonces: fixedNonces("n-1"), want: ErrNonce, code: CodeUseNonce},
		{name: "stale nonce", proof: forged(func(c map[string]any) { c["nonce"] = "n-0" }), nonces: fixedNonces("n-1"), want: ErrNonce, code: CodeUseNonce},
		{name: "current nonce", proof: forged(func(c map[string]any) { c["nonce"] = "n-1" }), nonces: fixedNonces("n-1"), want: ErrSignature},
		// The binding is compared before the claims.
		{name: "another key and htm", proof: forged(nil), method: http.MethodPost, jkt: otherJKT, want: ErrBinding, code: CodeInvalidToken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := new(recordingStore)
			v := newVerifier(t, VerifierOptions{Replay: store, Nonces: tt.nonces})
			_, err := checkFor(v, tt.proof, tt.method, token, tt.jkt)
			wantRefusedUnrecorded(t, err, tt.want, tt.code, store)
		})
	}
}

// TestCheckBound: CheckBound accepts a proof of the token's key, once, and
// refuses an unbound token (jkt "") or a proof of another key, as
// CheckBinding would after Check.
func TestCheckBound(t *testing.T) {
	key, other := ecKey(t), ecKey(t)
	const token = "an-access-token"
	p := newProver(t, jwa.ES256, key)
	proof, err := p.Proof(http.MethodGet, testURI, &ProofOptions{AccessToken: token, IssuedAt: testNow})
	if err != nil {
		t.Fatal(err)
	}
	store := new(recordingStore)
	v := newVerifier(t, VerifierOptions{Replay: store})
	ctx := context.Background()
	for _, jkt := range []string{"", newProver(t, jwa.ES256, other).Thumbprint(), p.Thumbprint()[1:]} {
		_, err := v.CheckBound(ctx, []string{proof}, http.MethodGet, testURI, token, jkt)
		wantRefusal(t, err, ErrBinding, CodeInvalidToken)
	}
	if n := store.len(); n != 0 {
		t.Fatalf("the replay store was asked to remember %d keys of refused proofs", n)
	}
	got, err := v.CheckBound(ctx, []string{proof}, http.MethodGet, testURI, token, p.Thumbprint())
	if err != nil {
		t.Fatal(err)
	}
	if got.Thumbprint != p.Thumbprint() || CheckBinding(p.Thumbprint(), got) != nil {
		t.Errorf("thumbprint %q, want %q", got.Thumbprint, p.Thumbprint())
	}
	if n := store.len(); n != 1 {
		t.Errorf("the replay store was asked to remember %d keys, want 1", n)
	}
	// The same proof through Check: the same replay key.
	if _, err := v.Check(ctx, []string{proof}, http.MethodGet, testURI, token); err != nil {
		t.Fatal(err)
	}
	if store.len() != 2 || store.keys[0] != store.keys[1] {
		t.Errorf("Check and CheckBound remember different keys for one proof")
	}
}

// TestCheckBoundRSA: a proof of the largest RSA key the Verifier allows
// (4096 bits, e = 2^31-1: its verification the costliest, 10 ES256 ones,
// DefaultMaxRSABits) for a token bound to another key is refused for its
// binding, whatever its signature: no signature is verified.
func TestCheckBoundRSA(t *testing.T) {
	rk := rsaKey(t, "rsa4096-e2147483647.pem")
	const token = "an-access-token"
	c := goodClaims("id")
	c["ath"] = AccessTokenHash(token)
	// Signed by another key: a verification would refuse it (ErrSignature).
	proof := forge(t, jwa.PS256, rsaKey(t, "rsa2048.pem"), goodHeader(t, rk, "PS256"), c)
	store := new(recordingStore)
	v := newVerifier(t, VerifierOptions{Replay: store})
	_, err := v.CheckBound(context.Background(), []string{proof}, http.MethodGet, testURI, token, newProver(t, jwa.ES256, ecKey(t)).Thumbprint())
	wantRefusal(t, err, ErrBinding, CodeInvalidToken)
	jkt := newProver(t, jwa.PS256, rk).Thumbprint()
	_, err = v.CheckBound(context.Background(), []string{proof}, http.MethodGet, testURI, token, jkt)
	wantRefusal(t, err, ErrSignature, CodeInvalidProof)
	if n := store.len(); n != 0 {
		t.Errorf("the replay store was asked to remember %d keys of refused proofs", n)
	}
}
