package bearer

import (
	"context"
	"crypto"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/dpop"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
)

// recordingStore is a dpop.ReplayStore that counts the keys it is asked
// to remember, and remembers none.
type recordingStore struct {
	mu sync.Mutex
	n  int
}

func (s *recordingStore) Remember(context.Context, [32]byte, time.Time, time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	return false, nil
}

func (s *recordingStore) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// recordingNonces is a dpop.NonceSource whose only valid nonce is
// current, counting the calls of Valid.
type recordingNonces struct {
	current string
	mu      sync.Mutex
	valid   int
}

func (s *recordingNonces) Nonce(context.Context) (string, error) { return s.current, nil }
func (s *recordingNonces) Valid(_ context.Context, n string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.valid++
	return n == s.current, nil
}

func (s *recordingNonces) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.valid
}

// tamperSig flips a bit of the first byte of a JWS's signature.
func tamperSig(s string) string {
	i := strings.LastIndexByte(s, '.') + 1
	b := []byte(s)
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return string(b)
}

// TestDPoPTokenFirst: with the DPoP scheme the Middleware validates the
// access token before the proof's signature, and compares the proof key's
// thumbprint with the token's cnf.jkt before it too (RFC 9449 §6.1, §7.1):
// a request whose token is refused is answered invalid_token whatever its
// proof, and its proof reaches neither the replay store nor the nonce
// source; a valid token of another key is answered invalid_token (not
// bound) whatever the proof's signature; a proof whose signature does not
// verify never reaches the replay store.
func TestDPoPTokenFirst(t *testing.T) {
	const uri = "https://api.example/orders"
	prover, other := newProver(t), newProver(t)
	bound := boundToken(t, prover.Thumbprint())
	forgedTok := sign(t, otherKey, "", dpopClaims{Claims: testClaims("orders:read"), Cnf: &struct {
		JKT string `json:"jkt"`
	}{prover.Thumbprint()}})
	expired := testClaims("orders:read")
	expired.Expiry = expired.IssuedAt
	expiredTok := sign(t, testKey, "", dpopClaims{Claims: expired, Cnf: &struct {
		JKT string `json:"jkt"`
	}{prover.Thumbprint()}})
	otherTok := boundToken(t, other.Thumbprint())
	proofFor := func(tok, nonce string) string {
		p, err := prover.Proof(http.MethodGet, uri, &dpop.ProofOptions{AccessToken: tok, IssuedAt: testNow, Nonce: nonce})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name    string
		token   string
		proofs  []string
		nonce   bool // the Verifier requires nonce "n-1"
		status  int
		code    string
		wrapped error // the Error wraps it, when not nil
		stored  int   // keys the replay store is asked to remember
	}{
		{name: "valid", token: bound, proofs: []string{proofFor(bound, "")}, status: 200, stored: 1},
		{name: "forged token, valid proof", token: forgedTok, proofs: []string{proofFor(forgedTok, "")}, status: 401, code: CodeInvalidToken, wrapped: jose.ErrVerificationFailed},
		{name: "forged token, forged proof", token: forgedTok, proofs: []string{tamperSig(proofFor(forgedTok, ""))}, status: 401, code: CodeInvalidToken, wrapped: jose.ErrVerificationFailed},
		{name: "forged token, two proofs", token: forgedTok, proofs: []string{"a", "b"}, status: 401, code: CodeInvalidToken, wrapped: jose.ErrVerificationFailed},
		{name: "expired token, proof without nonce", token: expiredTok, proofs: []string{proofFor(expiredTok, "")}, nonce: true, status: 401, code: CodeInvalidToken},
		{name: "unbound token, no proof", token: boundToken(t, ""), status: 401, code: CodeInvalidToken, wrapped: dpop.ErrBinding},
		// The binding is compared once the proof's header names its key:
		// a proof refused before (two of them, a malformed one) is
		// answered for itself.
		{name: "unbound token, two proofs", token: boundToken(t, ""), proofs: []string{"a", "b"}, status: 401, code: CodeInvalidToken, wrapped: dpop.ErrBinding},
		{name: "token of another key, two proofs", token: otherTok, proofs: []string{"a", "b"}, status: 401, code: dpop.CodeInvalidProof, wrapped: dpop.ErrMultipleProofs},
		{name: "token of another key, malformed proof", token: otherTok, proofs: []string{"a.b.c"}, status: 401, code: dpop.CodeInvalidProof, wrapped: dpop.ErrMalformedProof},
		{name: "token of another key, forged proof", token: otherTok, proofs: []string{tamperSig(proofFor(otherTok, ""))}, status: 401, code: CodeInvalidToken, wrapped: dpop.ErrBinding},
		{name: "token of another key, proof without nonce", token: otherTok, proofs: []string{proofFor(otherTok, "")}, nonce: true, status: 401, code: CodeInvalidToken, wrapped: dpop.ErrBinding},
		{name: "bound token, forged proof", token: bound, proofs: []string{tamperSig(proofFor(bound, ""))}, status: 401, code: dpop.CodeInvalidProof, wrapped: dpop.ErrSignature},
		{name: "bound token, forged proof with nonce", token: bound, proofs: []string{tamperSig(proofFor(bound, "n-1"))}, nonce: true, status: 401, code: dpop.CodeInvalidProof, wrapped: dpop.ErrSignature},
		{name: "bound token, proof without nonce", token: bound, proofs: []string{proofFor(bound, "")}, nonce: true, status: 401, code: dpop.CodeUseNonce, wrapped: dpop.ErrNonce},
		{name: "bound token, proof with nonce", token: bound, proofs: []string{proofFor(bound, "n-1")}, nonce: true, status: 200, stored: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := new(recordingStore)
			nonces := &recordingNonces{current: "n-1"}
			opts := dpop.VerifierOptions{
				Algorithms: []jwa.SignatureAlgorithm{jwa.ES256},
				Replay:     store,
				Now:        func() time.Time { return testNow },
			}
			if tt.nonce {
				opts.Nonces = nonces
			}
			dv, err := dpop.NewVerifier(opts)
			if err != nil {
				t.Fatal(err)
			}
			var got *Error
			m := newMiddleware(t, Options{DPoP: dv, OnError: func(w http.ResponseWriter, r *http.Request, e *Error) {
				got = e
				WriteError(w, r, e)
			}})
			req := httptest.NewRequest(http.MethodGet, uri, nil)
			req.Header.Set("Authorization", "DPoP "+tt.token)
			for _, p := range tt.proofs {
				req.Header.Add("DPoP", p)
			}
			rec := httptest.NewRecorder()
			m.Handler(echo).ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d: %q", rec.Code, tt.status, rec.Header().Values("WWW-Authenticate"))
			}
			if tt.status != 200 {
				if got == nil || got.Code != tt.code {
					t.Fatalf("error %+v, want code %q", got, tt.code)
				}
				if tt.wrapped != nil && !errors.Is(got, tt.wrapped) {
					t.Errorf("error %v, want one wrapping %v", got, tt.wrapped)
				}
				if tt.code == CodeInvalidToken && errors.Is(got, dpop.ErrSignature) {
					t.Errorf("error %v: the proof's signature was checked", got)
				}
				if c := rec.Header().Get("WWW-Authenticate"); !strings.HasPrefix(c, "DPoP ") || !strings.Contains(c, `error="`+tt.code+`"`) {
					t.Errorf("challenge %q, want DPoP with error %q", c, tt.code)
				}
			}
			if n := store.count(); n != tt.stored {
				t.Errorf("the replay store was asked to remember %d keys, want %d", n, tt.stored)
			}
			if tt.code == CodeInvalidToken && nonces.count() != 0 {
				t.Errorf("the nonce source was asked %d times for a request whose token is refused", nonces.count())
			}
		})
	}
}

// TestDPoPForgedTokenCostsNoProof: a forged access token with a proof of
// the costliest key the Verifier allows (RSA 4096 bits, e = 2^31-1, PS256:
// about 10 ES256 verifications, dpop.DefaultMaxRSABits) never reaches the
// Verifier (its clock is never read: Check and CheckBound read it first
// thing once the proof's size and URI pass) and costs no more allocations
// than the forged token without a proof: the proof is not read. Verifying
// its signature first would add the RSA verification's. Under -race,
// where sync.Pool drops items at random and the allocation counts of the
// two sides differ by one either way, only the clock is compared.
func TestDPoPForgedTokenCostsNoProof(t *testing.T) {
	const uri = "https://api.example/orders"
	data, err := os.ReadFile("../../testdata/keys/rsa4096-e2147483647.pem")
	if err != nil {
		t.Fatal(err)
	}
	k, err := jose.ParseKeyPEM(data)
	if err != nil {
		t.Fatal(err)
	}
	prover, err := dpop.NewProver(jwa.PS256, k.Key.(crypto.Signer))
	if err != nil {
		t.Fatal(err)
	}
	tok := sign(t, otherKey, "", dpopClaims{Claims: testClaims("orders:read"), Cnf: &struct {
		JKT string `json:"jkt"`
	}{prover.Thumbprint()}})
	proof, err := prover.Proof(http.MethodGet, uri, &dpop.ProofOptions{AccessToken: tok, IssuedAt: testNow})
	if err != nil {
		t.Fatal(err)
	}
	var clock atomic.Int64 // reads of the Verifier's clock
	dv, err := dpop.NewVerifier(dpop.VerifierOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.ES256, jwa.PS256},
		Replay:     noReplay{},
		Now:        func() time.Time { clock.Add(1); return testNow },
	})
	if err != nil {
		t.Fatal(err)
	}
	h := newMiddleware(t, Options{DPoP: dv}).Handler(echo)
	allocs := func(proofs ...string) float64 {
		req := httptest.NewRequest(http.MethodGet, uri, nil)
		req.Header.Set("Authorization", "DPoP "+tok)
		for _, p := range proofs {
			req.Header.Add("DPoP", p)
		}
		w := &discardWriter{h: http.Header{}}
		n := testing.AllocsPerRun(20, func() {
			clear(w.h)
			h.ServeHTTP(w, req)
		})
		if w.code != http.StatusUnauthorized || !strings.Contains(w.h.Get("WWW-Authenticate"), `error="invalid_token"`) {
			t.Fatalf("answer %d %q, want 401 invalid_token", w.code, w.h.Values("WWW-Authenticate"))
		}
		return n
	}
	with, without := allocs(proof), allocs()
	if n := clock.Load(); n != 0 {
		t.Errorf("the Verifier read its clock %d times for requests whose token is forged: the proof was read", n)
	}
	if with > without && !vectortest.RaceEnabled {
		t.Errorf("a forged token allocates %v times with an RSA-4096 proof, %v without: the proof was read", with, without)
	}
	t.Logf("allocations per refusal of a forged token: %v with an RSA-4096 proof, %v without", with, without)
}
