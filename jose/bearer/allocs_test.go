package bearer

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// The Middleware's own cost: at most three allocations per request beyond
// the Validator's, with an HS256 token from the Authorization header.
func TestAllocs(t *testing.T) {
	tok := sign(t, testKey, "", testClaims("read write"))
	v := testValidator(t)
	m := newMiddleware(t, Options{Validator: v, Scopes: []string{"write"}})
	var ok int
	h := m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ClaimsFrom(r.Context()) != nil {
			ok++
		}
	}))
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	rec := httptest.NewRecorder()
	through := testing.AllocsPerRun(200, func() { h.ServeHTTP(rec, req) })
	if rec.Code != 200 || ok == 0 {
		t.Fatalf("the request was refused: %d %q", rec.Code, rec.Body)
	}
	btok := []byte(tok)
	ctx := req.Context()
	alone := testing.AllocsPerRun(200, func() {
		var c Claims
		if _, err := v.ValidateContext(ctx, btok, &c); err != nil {
			t.Fatal(err)
		}
	})
	if through-alone > 3 {
		t.Errorf("the middleware allocates %v times per request, the Validator alone %v: %v more, want at most 3", through, alone, through-alone)
	}
	t.Logf("allocations per request: %v through the middleware, %v for the Validator alone", through, alone)
}
