package bearer

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// The claims are found through contexts derived from the handler's, and
// the request's cancellation still reaches them.
func TestDerivedContexts(t *testing.T) {
	m := newMiddleware(t, Options{Scopes: []string{"read"}})
	type key struct{}
	var checked bool
	parent, cancel := context.WithCancel(t.Context())
	defer cancel()
	h := m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(context.WithValue(r.Context(), key{}, 1), time.Hour)
		defer cancel()
		if c := ClaimsFrom(ctx); c == nil || c.Subject != "user-1234" || TokenFrom(ctx) == nil || ctx.Value(key{}) != 1 {
			t.Errorf("claims %v through derived contexts", c)
		}
		cancel() // the request's context ends: the client hung up
		<-ctx.Done()
		if !errors.Is(ctx.Err(), context.Canceled) {
			t.Errorf("derived context: %v", ctx.Err())
		}
		checked = true
	}))
	req := httptest.NewRequestWithContext(parent, "GET", "/", nil)
	req.Header.Set("Authorization", "Bearer "+sign(t, testKey, "", testClaims("read")))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 || !checked {
		t.Fatalf("status %d", rec.Code)
	}
}
