package bearer

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose/dpop"
	"github.com/josebench/josebench/jose/internal/vectortest"
)

// hostileHeaders are Authorization values an attacker may send, with the
// answer each gets.
var hostileHeaders = []struct {
	name, auth string
	status     int
	twin       string // a short header answered alike: the hostile one allocates no more
}{
	// Refused by its size, unread.
	{"1MiB-token", "Bearer " + strings.Repeat("a", 1<<20), 401, "Bearer " + strings.Repeat("a", DefaultMaxTokenSize+1)},
	{"1MiB-spaces", "Bearer" + strings.Repeat(" ", 1<<20) + "a", 401, "Bearer " + strings.Repeat("a", DefaultMaxTokenSize+1)},
	// Not of the Bearer scheme: no credential.
	{"1MiB-other-scheme", "Basic " + strings.Repeat("a", 1<<20), 401, "Basic a"},
	// The largest tokens read: scanned, then refused by the Validator.
	{"8KiB-b64token", "Bearer " + strings.Repeat("a", DefaultMaxTokenSize), 401, ""},
	{"8KiB-three-segments", "Bearer " + strings.Repeat("a", 4000) + "." + strings.Repeat("b", 4000) + ".c", 401, ""},
	// Scanned, refused on its last byte.
	{"8KiB-bad-char-at-end", "Bearer " + strings.Repeat("a", DefaultMaxTokenSize-1) + ",", 400, "Bearer ,"},
}

// A hostile Authorization header costs at most a scan of MaxTokenSize
// bytes and the Validator's refusal of a token of that size: a header
// beyond the limit is refused without reading it, with the allocations of
// the refusal alone.
func TestHostileHeaders(t *testing.T) {
	m := newMiddleware(t, Options{Realm: "api", OnError: func(w http.ResponseWriter, r *http.Request, e *Error) { w.WriteHeader(e.Status) }})
	h := m.Handler(echo)
	run := func(auth string) (status int, allocs float64) {
		req := httptest.NewRequest("GET", "/", nil)
		req.Header.Set("Authorization", auth)
		rec := httptest.NewRecorder()
		n := testing.AllocsPerRun(10, func() {
			rec = httptest.NewRecorder()
			h.ServeHTTP(rec, req)
		})
		return rec.Code, n
	}
	for _, c := range hostileHeaders {
		status, n := run(c.auth)
		if status != c.status {
			t.Errorf("%s: status %d, want %d", c.name, status, c.status)
		}
		if c.twin == "" {
			continue
		}
		// Under the race detector sync.Pool drops items at random, so
		// only the statuses are compared (as vectortest.ZeroAllocs does).
		if twin, m := run(c.twin); twin != status || n > m && !vectortest.RaceEnabled {
			t.Errorf("%s: %d, %v allocations; a short header %q: %d, %v", c.name, status, n, c.twin[:min(len(c.twin), 10)], twin, m)
		}
	}
}

// BenchmarkHostileHeader measures the answer to each hostile header beside
// a valid request (SECURITY.md):
//
//	go test -run '^$' -bench HostileHeader -count 6 ./jose/bearer/
func BenchmarkHostileHeader(b *testing.B) {
	m := newMiddleware(b, Options{Realm: "api", OnError: func(w http.ResponseWriter, r *http.Request, e *Error) { w.WriteHeader(e.Status) }})
	h := m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	cases := append([]struct {
		name, auth string
		status     int
		twin       string
	}{{"legit-HS256", "Bearer " + sign(b, testKey, "", testClaims("read")), 200, ""}}, hostileHeaders...)
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", "/", nil)
			req.Header.Set("Authorization", c.auth)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != c.status {
				b.Fatalf("status %d, want %d", rec.Code, c.status)
			}
			b.ReportAllocs()
			for b.Loop() {
				h.ServeHTTP(rec, req)
			}
		})
	}
}

// TestHostileDPoPHeaders: DPoP headers an attacker may send beside a
// DPoP credential are refused before any proof is read, whatever their
// size or number: a proof of 1 MiB costs no more allocations than one a
// byte over dpop.DefaultMaxProofSize (and less than 64 KiB each), and
// 1,000 DPoP headers no more than
// 100 (the count, in the error's detail, is written with an allocation
// from 100 on); each gets the DPoP challenge, invalid_dpop_proof.
func TestHostileDPoPHeaders(t *testing.T) {
	prover := newProver(t)
	tok := boundToken(t, prover.Thumbprint())
	proof, err := prover.Proof("GET", "https://api.example/orders", &dpop.ProofOptions{AccessToken: tok})
	if err != nil {
		t.Fatal(err)
	}
	m := newMiddleware(t, Options{Realm: "api", DPoP: newDPoPVerifier(t), OnError: func(w http.ResponseWriter, r *http.Request, e *Error) { w.WriteHeader(e.Status) }})
	h := m.Handler(echo)
	run := func(proofs []string) (status int, challenge string, allocs float64) {
		req := httptest.NewRequest("GET", "https://api.example/orders", nil)
		req.Header.Set("Authorization", "DPoP "+tok)
		req.Header["Dpop"] = proofs
		rec := httptest.NewRecorder()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		n := testing.AllocsPerRun(10, func() {
			rec = httptest.NewRecorder()
			h.ServeHTTP(rec, req)
		})
		runtime.ReadMemStats(&after)
		// 11 requests (AllocsPerRun's warm-up), each far below the
		// 1 MiB of a proof read.
		if b := after.TotalAlloc - before.TotalAlloc; b > 11*(64<<10) {
			t.Errorf("%d DPoP headers of %d bytes: %d bytes allocated for 11 requests", len(proofs), len(proofs[0]), b)
		}
		return rec.Code, rec.Header().Get("WWW-Authenticate"), n
	}
	many := make([]string, 1000)
	for i := range many {
		many[i] = proof
	}
	for _, c := range []struct {
		name          string
		hostile, twin []string
	}{
		{"1MiB-proof", []string{strings.Repeat("a", 1<<20)}, []string{strings.Repeat("a", dpop.DefaultMaxProofSize+1)}},
		{"1000-proofs", many, many[:100]},
	} {
		status, ch, n := run(c.hostile)
		if status != 401 || !strings.HasPrefix(ch, "DPoP ") || !strings.Contains(ch, `error="invalid_dpop_proof"`) {
			t.Errorf("%s: %d %q, want 401 and the DPoP challenge with invalid_dpop_proof", c.name, status, ch)
		}
		twin, _, m := run(c.twin)
		if twin != status || n > m && !vectortest.RaceEnabled {
			t.Errorf("%s: %d, %v allocations; its twin: %d, %v", c.name, status, n, twin, m)
		}
	}
	// The proof alone is accepted: the refusals above are the headers'.
	req := httptest.NewRequest("GET", "https://api.example/orders", nil)
	req.Header.Set("Authorization", "DPoP "+tok)
	req.Header.Set("DPoP", proof)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Errorf("the proof alone: %d %q", rec.Code, rec.Header().Get("WWW-Authenticate"))
	}
}
