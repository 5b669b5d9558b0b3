package bearer

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkRequest measures a request with an HS256 token through the
// Middleware (into an httptest.ResponseRecorder, to a handler that reads
// the claims) against the Validator alone validating the same token into
// the same Claims, in the same run. go test runs the -count repetitions of
// a sub-benchmark one after the other; to interleave the two, run the test
// binary several times:
//
//	go test -c -o bearer.test ./jose/bearer
//	for i in 1 2 3 4 5 6; do ./bearer.test -test.run '^$' -test.bench Request; done
func BenchmarkRequest(b *testing.B) {
	tok := sign(b, testKey, "", testClaims("read write"))
	v := testValidator(b)
	m := newMiddleware(b, Options{Validator: v, Realm: "api", Scopes: []string{"write"}})
	b.Run("middleware", func(b *testing.B) {
		h := m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if ClaimsFrom(r.Context()) == nil {
				b.Fatal("no claims")
			}
		}))
		req := httptest.NewRequest("GET", "/", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatalf("refused: %d", rec.Code)
		}
		b.ReportAllocs()
		for b.Loop() {
			h.ServeHTTP(rec, req)
		}
	})
	b.Run("validator", func(b *testing.B) {
		btok := []byte(tok)
		ctx := httptest.NewRequest("GET", "/", nil).Context()
		b.ReportAllocs()
		for b.Loop() {
			var c Claims
			if _, err := v.ValidateContext(ctx, btok, &c); err != nil {
				b.Fatal(err)
			}
		}
	})
}
