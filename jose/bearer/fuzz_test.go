package bearer

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzAuthorization: no Authorization header makes the middleware panic,
// answer outside its fixed set, read a credential beyond MaxTokenSize, or
// accept anything but the good token (a b64token).
func FuzzAuthorization(f *testing.F) {
	good := sign(f, testKey, "", testClaims("read"))
	for _, s := range []string{"", "Bearer", "Bearer " + good, "bearer  " + good, "Basic x", "Bearer a b", "Bearer a==", "Bearer =", "Bearer a=b", "Bearer\t" + good} {
		f.Add(s)
	}
	m := newMiddleware(f, Options{Realm: "api", Scopes: []string{"read"}, MaxTokenSize: 1024})
	h := m.Handler(echo)
	f.Fuzz(func(t *testing.T, auth string) {
		tok, k := m.authorization(auth, scheme)
		if k == kindNone && tok != "" && (len(tok) > 1024 || !strings.HasSuffix(auth, tok)) {
			t.Fatalf("accepted %q from %q", tok, auth)
		}
		req := httptest.NewRequest("GET", "/", nil)
		req.Header["Authorization"] = []string{auth}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch rec.Code {
		case http.StatusOK:
			if tok != good || !b64token(tok) {
				t.Fatalf("accepted %q", auth)
			}
		case http.StatusBadRequest, http.StatusUnauthorized:
			if ch := rec.Header().Get("WWW-Authenticate"); !strings.HasPrefix(ch, `Bearer realm="api"`) || len(tok) >= 16 && strings.Contains(ch, tok) {
				t.Fatalf("challenge %q", ch)
			}
		default:
			t.Fatalf("status %d", rec.Code)
		}
	})
}

// b64token agrees with the grammar of RFC 6750 §2.1 read literally.
func FuzzB64Token(f *testing.F) {
	for _, s := range []string{"", "=", "a", "a=", "a==", "a=b", "ab~+/.-_", "a,b", "a b", "abcd=", "abcde\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		i := 0
		for i < len(s) && strings.IndexByte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/", s[i]) >= 0 {
			i++
		}
		want := i > 0 && strings.Trim(s[i:], "=") == ""
		if got := b64token(s); got != want {
			t.Fatalf("b64token(%q) = %v, want %v", s, got, want)
		}
	})
}
