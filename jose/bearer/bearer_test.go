package bearer

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/jwt"
)

// The challenges of the loopback tests, byte for byte (RFC 6750 §3), with
// the realm `my "api"` to show its quoting (RFC 7235 §2.1).
const (
	wantNoCredential = `Bearer realm="my \"api\""`
	wantBadHeader    = `Bearer realm="my \"api\"", error="invalid_request", error_description="the Authorization header is not one bearer credential"`
	wantManyMethods  = `Bearer realm="my \"api\"", error="invalid_request", error_description="the access token is sent by more than one method"`
	wantBadParam     = `Bearer realm="my \"api\"", error="invalid_request", error_description="the access_token parameter is malformed"`
	wantBadForm      = `Bearer realm="my \"api\"", error="invalid_request", error_description="the form body is malformed or too large"`
	wantTooLarge     = `Bearer realm="my \"api\"", error="invalid_token", error_description="the access token is too large"`
	wantExpired      = `Bearer realm="my \"api\"", error="invalid_token", error_description="the access token expired"`
	wantInvalid      = `Bearer realm="my \"api\"", error="invalid_token", error_description="the access token is invalid"`
	wantScope        = `Bearer realm="my \"api\"", error="insufficient_scope", error_description="the access token does not have the scope needed", scope="read"`
)

// TestLoopback sends every kind of request through a real net/http client
// to a real server on the loopback, and checks each answer's status,
// WWW-Authenticate and Cache-Control byte for byte.
func TestLoopback(t *testing.T) {
	all := newMiddleware(t, Options{Realm: `my "api"`, Scopes: []string{"read"}, AllowForm: true, AllowQuery: true, MaxTokenSize: 1024, MaxFormSize: 4096})
	hdr := newMiddleware(t, Options{Realm: `my "api"`, Scopes: []string{"read"}})
	mux := http.NewServeMux()
	mux.Handle("/all", all.Handler(echo))
	mux.Handle("/hdr", hdr.Handler(echo))
	srv := serve(t, mux)

	good := sign(t, testKey, "", testClaims("write read"))
	expired := testClaims("read")
	expired.Expiry = jwt.NewNumericDate(testNow.Add(-time.Second))
	otherAud := testClaims("read")
	otherAud.Audience = jwt.Audience{"https://other.example"}
	scp := testClaims("")
	scp.Scp = []string{"write", "read"}
	form := "application/x-www-form-urlencoded"

	for _, c := range []struct {
		name        string
		method      string
		path        string // "/all" by default
		query       string
		auth        []string
		contentType string
		body        string
		status      int
		challenge   string // "" : no WWW-Authenticate
		cache       string // Cache-Control
		reply       string // the body of a 200
	}{
		{name: "no credential", status: 401, challenge: wantNoCredential},
		{name: "empty header", auth: []string{""}, status: 401, challenge: wantNoCredential},
		{name: "other scheme", auth: []string{"Basic dXNlcjpwYXNz"}, status: 401, challenge: wantNoCredential},
		{name: "scheme prefix", auth: []string{"Bearerx " + good}, status: 401, challenge: wantNoCredential},
		{name: "valid", auth: []string{"Bearer " + good}, status: 200, reply: "user-1234 write read"},
		{name: "scheme lower case", auth: []string{"bearer " + good}, status: 200, reply: "user-1234 write read"},
		{name: "scheme upper case, two spaces", auth: []string{"BEARER  " + good}, status: 200, reply: "user-1234 write read"},
		{name: "scp array", auth: []string{"Bearer " + sign(t, testKey, "", scp)}, status: 200, reply: "user-1234 "},
		{name: "scheme alone", auth: []string{"Bearer"}, status: 400, challenge: wantBadHeader},
		{name: "two credentials", auth: []string{"Bearer " + good + " " + good}, status: 400, challenge: wantBadHeader},
		{name: "auth-param", auth: []string{"Bearer token=" + good}, status: 400, challenge: wantBadHeader},
		{name: "comma", auth: []string{"Bearer " + good + ","}, status: 400, challenge: wantBadHeader},
		{name: "padding inside", auth: []string{"Bearer ab=c"}, status: 400, challenge: wantBadHeader},
		{name: "tab", auth: []string{"Bearer a\tb"}, status: 400, challenge: wantBadHeader},
		{name: "two headers", auth: []string{"Bearer " + good, "Bearer " + good}, status: 400, challenge: wantBadHeader},
		{name: "b64token, not a JWT", auth: []string{"Bearer abc=="}, status: 401, challenge: wantInvalid},
		{name: "too large", auth: []string{"Bearer " + strings.Repeat("a", 1025)}, status: 401, challenge: wantTooLarge},
		{name: "too many spaces", auth: []string{"Bearer" + strings.Repeat(" ", 1025) + "a"}, status: 401, challenge: wantTooLarge},
		{name: "largest", auth: []string{"Bearer " + strings.Repeat("a", 1024)}, status: 401, challenge: wantInvalid},
		{name: "expired", auth: []string{"Bearer " + sign(t, testKey, "", expired)}, status: 401, challenge: wantExpired},
		{name: "other key", auth: []string{"Bearer " + sign(t, otherKey, "", testClaims("read"))}, status: 401, challenge: wantInvalid},
		{name: "other audience", auth: []string{"Bearer " + sign(t, testKey, "", otherAud)}, status: 401, challenge: wantInvalid},
		{name: "explicit type", auth: []string{"Bearer " + sign(t, testKey, TypeAccessToken, testClaims("read"))}, status: 401, challenge: wantInvalid},
		{name: "scope missing", auth: []string{"Bearer " + sign(t, testKey, "", testClaims("write"))}, status: 403, challenge: wantScope},
		{name: "scope prefix", auth: []string{"Bearer " + sign(t, testKey, "", testClaims("readwrite reader"))}, status: 403, challenge: wantScope},
		{name: "no scope", auth: []string{"Bearer " + sign(t, testKey, "", testClaims(""))}, status: 403, challenge: wantScope},
		{name: "form", method: "POST", contentType: form, body: "a=1&access_token=" + good, status: 200, reply: "user-1234 write read"},
		{name: "form with charset", method: "PUT", contentType: "Application/X-WWW-Form-Urlencoded; charset=utf-8", body: "access_token=" + good, status: 200, reply: "user-1234 write read"},
		{name: "form and header", method: "POST", auth: []string{"Bearer " + good}, contentType: form, body: "access_token=" + good, status: 400, challenge: wantManyMethods},
		{name: "form twice", method: "POST", contentType: form, body: "access_token=" + good + "&access_token=" + good, status: 400, challenge: wantBadParam},
		{name: "form empty", method: "POST", contentType: form, body: "access_token=", status: 400, challenge: wantBadParam},
		{name: "form not b64token", method: "POST", contentType: form, body: "access_token=a%20b", status: 400, challenge: wantBadParam},
		{name: "form too large", method: "POST", contentType: form, body: "x=" + strings.Repeat("a", 4096) + "&access_token=" + good, status: 400, challenge: wantBadForm},
		{name: "form token too large", method: "POST", contentType: form, body: "access_token=" + strings.Repeat("a", 1025), status: 401, challenge: wantTooLarge},
		{name: "form malformed", method: "POST", contentType: form, body: "access_token=%zz", status: 400, challenge: wantBadForm},
		{name: "form without token", method: "POST", contentType: form, body: "a=1", status: 401, challenge: wantNoCredential},
		{name: "form with header", method: "POST", auth: []string{"Bearer " + good}, contentType: form, body: "a=1", status: 200, reply: "user-1234 write read"},
		{name: "form on GET", method: "GET", contentType: form, body: "access_token=" + good, status: 401, challenge: wantNoCredential},
		{name: "other body", method: "POST", contentType: "text/plain", body: "access_token=" + good, status: 401, challenge: wantNoCredential},
		{name: "form not allowed", method: "POST", path: "/hdr", contentType: form, body: "access_token=" + good, status: 401, challenge: wantNoCredential},
		{name: "query", query: "access_token=" + good, status: 200, cache: "private", reply: "user-1234 write read"},
		{name: "query and header", query: "access_token=" + good, auth: []string{"Bearer " + good}, status: 400, challenge: wantManyMethods},
		{name: "query and form", method: "POST", query: "access_token=" + good, contentType: form, body: "access_token=" + good, status: 400, challenge: wantManyMethods},
		{name: "query twice", query: "access_token=" + good + "&access_token=" + good, status: 400, challenge: wantBadParam},
		{name: "query empty", query: "access_token=", status: 400, challenge: wantBadParam},
		{name: "query malformed", query: "access_token=%zz", status: 400, challenge: wantBadParam},
		{name: "query token too large", query: "access_token=" + strings.Repeat("a", 1025), status: 401, challenge: wantTooLarge},
		{name: "query other parameter", query: "a=1", auth: []string{"Bearer " + good}, status: 200, reply: "user-1234 write read"},
		{name: "query not allowed", path: "/hdr", query: "access_token=" + good, status: 401, challenge: wantNoCredential},
		{name: "query expired", query: "access_token=" + sign(t, testKey, "", expired), status: 401, challenge: wantExpired},
	} {
		t.Run(c.name, func(t *testing.T) {
			method, path := c.method, c.path
			if method == "" {
				method = "GET"
			}
			if path == "" {
				path = "/all"
			}
			u := srv.URL + path
			if c.query != "" {
				u += "?" + c.query
			}
			var body io.Reader
			if c.body != "" {
				body = strings.NewReader(c.body)
			}
			req, err := http.NewRequestWithContext(t.Context(), method, u, body)
			if err != nil {
				t.Fatal(err)
			}
			if c.auth != nil {
				req.Header["Authorization"] = c.auth
			}
			if c.contentType != "" {
				req.Header.Set("Content-Type", c.contentType)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != c.status {
				t.Errorf("status %d, want %d (%q)", resp.StatusCode, c.status, got)
			}
			if ch := resp.Header.Values("WWW-Authenticate"); c.challenge == "" && len(ch) != 0 || c.challenge != "" && (len(ch) != 1 || ch[0] != c.challenge) {
				t.Errorf("WWW-Authenticate %q\nwant %q", ch, c.challenge)
			}
			if cc := resp.Header.Get("Cache-Control"); cc != c.cache {
				t.Errorf("Cache-Control %q, want %q", cc, c.cache)
			}
			want := c.reply
			if c.status != 200 {
				want = http.StatusText(c.status) + "\n"
			}
			if string(got) != want {
				t.Errorf("body %q, want %q", got, want)
			}
		})
	}
}

// The hook gets the error with the Validator's cause, after the challenge
// is set; no text of the token reaches the error's message.
func TestOnError(t *testing.T) {
	var got *Error
	m := newMiddleware(t, Options{OnError: func(w http.ResponseWriter, r *http.Request, e *Error) {
		got = e
		if w.Header().Get("WWW-Authenticate") == "" {
			t.Error("the hook ran before the challenge was set")
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(e.Status)
		w.Write([]byte(`{"error":"` + e.Code + `"}`))
	}})
	srv := serve(t, m.Handler(echo))
	claims := testClaims("read")
	claims.Expiry = jwt.NewNumericDate(testNow.Add(-time.Second))
	claims.Subject = "SECRET-SUBJECT"
	tok := sign(t, testKey, "", claims)
	req, _ := http.NewRequest("GET", srv.URL, nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 401 || string(b) != `{"error":"invalid_token"}` || resp.Header.Get("WWW-Authenticate") != `Bearer error="invalid_token", error_description="the access token expired"` {
		t.Errorf("answer %d %q %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), b)
	}
	if got == nil || got.Status != 401 || got.Code != CodeInvalidToken || got.Description != "the access token expired" || got.Scope != "" {
		t.Fatalf("error %#v", got)
	}
	if !errors.Is(got, jwt.ErrExpired) {
		t.Errorf("%v does not wrap jwt.ErrExpired", got)
	}
	if msg := got.Error(); msg != "bearer: the access token expired" || strings.Contains(msg, tok[:20]) {
		t.Errorf("message %q", msg)
	}
}

// The messages of the errors without a description.
func TestErrorMessages(t *testing.T) {
	for k, want := range map[kind]string{
		kindNoCredential:      "bearer: the request has no bearer token",
		kindUnavailable:       "bearer: the keys to validate the access token are unavailable",
		kindInsufficientScope: "bearer: the access token does not have the scope needed",
		kindNone:              "bearer: request refused",
	} {
		e := &Error{Status: kinds[k].status, Code: kinds[k].code, Description: kinds[k].description}
		if got := e.Error(); got != want {
			t.Errorf("%d: %q, want %q", k, got, want)
		}
	}
}

// Without a realm, the challenge of a request without a credential is the
// scheme alone (RFC 7235 §2.1).
func TestNoRealm(t *testing.T) {
	m := newMiddleware(t, Options{Scopes: []string{"a", "b"}})
	for k, want := range map[kind]string{
		kindNoCredential:      "Bearer",
		kindInvalidToken:      `Bearer error="invalid_token", error_description="the access token is invalid"`,
		kindInsufficientScope: `Bearer error="insufficient_scope", error_description="the access token does not have the scope needed", scope="a b"`,
		kindUnavailable:       "",
	} {
		if got := m.challenges[k]; got != want {
			t.Errorf("%d: %q, want %q", k, got, want)
		}
	}
	if got := challenge(`a\b`, kindNoCredential, ""); got != `Bearer realm="a\\b"` {
		t.Errorf("backslash: %q", got)
	}
}

func TestNewRefuses(t *testing.T) {
	v := testValidator(t)
	for name, o := range map[string]Options{
		"no validator":       {},
		"realm control":      {Validator: v, Realm: "a\nb"},
		"realm non-ASCII":    {Validator: v, Realm: "é"},
		"scope space":        {Validator: v, Scopes: []string{"a b"}},
		"scope empty":        {Validator: v, Scopes: []string{""}},
		"scope quote":        {Validator: v, Scopes: []string{`a"`}},
		"scope backslash":    {Validator: v, Scopes: []string{`a\`}},
		"scope twice":        {Validator: v, Scopes: []string{"a", "b", "a"}},
		"negative token":     {Validator: v, MaxTokenSize: -1},
		"negative form size": {Validator: v, MaxFormSize: -1},
	} {
		if _, err := New(o); err == nil || !strings.HasPrefix(err.Error(), "bearer: ") {
			t.Errorf("%s: %v", name, err)
		}
	}
	m := newMiddleware(t, Options{})
	if m.maxToken != DefaultMaxTokenSize || m.maxForm != DefaultMaxFormSize {
		t.Errorf("defaults %d %d", m.maxToken, m.maxForm)
	}
	defer func() {
		if recover() == nil {
			t.Error("Handler(nil) did not panic")
		}
	}()
	m.Handler(nil)
}

func TestHasScope(t *testing.T) {
	c := Claims{Scope: "  read  write ", Scp: []string{"admin"}}
	for s, want := range map[string]bool{"read": true, "write": true, "admin": true, "": false, "rea": false, "read write": false, " ": false} {
		if got := c.HasScope(s); got != want {
			t.Errorf("%q: %v", s, got)
		}
	}
	if n := testing.AllocsPerRun(100, func() { c.HasScope("write") }); n != 0 {
		t.Errorf("HasScope allocates %v times", n)
	}
}

func TestContextOutsideMiddleware(t *testing.T) {
	if ClaimsFrom(t.Context()) != nil || TokenFrom(t.Context()) != nil {
		t.Error("claims in a context the middleware did not make")
	}
	c := &claimsContext{Context: t.Context()}
	if c.String() != "bearer.claimsContext" || c.Value("other") != nil {
		t.Error(c)
	}
}

func TestIsForm(t *testing.T) {
	for ct, want := range map[string]bool{
		"application/x-www-form-urlencoded":                  true,
		" application/x-www-form-urlencoded ; charset=utf-8": true,
		"application/x-www-form-urlencodedx":                 false,
		"multipart/form-data; boundary=x":                    false,
		"":                                                   false,
	} {
		if got := isForm(ct); got != want {
			t.Errorf("%q: %v", ct, got)
		}
	}
}

// Concurrent requests with different tokens each get their own claims (run
// with -race).
func TestConcurrentRequests(t *testing.T) {
	m := newMiddleware(t, Options{Scopes: []string{"read"}})
	srv := serve(t, m.Handler(echo))
	const workers, requests = 8, 20
	errs := make(chan error, workers)
	for i := range workers {
		c := testClaims("read")
		c.Subject = "user-" + strconv.Itoa(i)
		tok := sign(t, testKey, "", c)
		go func() {
			for range requests {
				req, _ := http.NewRequest("GET", srv.URL, nil)
				req.Header.Set("Authorization", "Bearer "+tok)
				resp, err := srv.Client().Do(req)
				if err != nil {
					errs <- err
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if want := c.Subject + " read"; string(b) != want {
					errs <- fmt.Errorf("got %q, want %q", b, want)
					return
				}
			}
			errs <- nil
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestFormAndQueryEdges: a request made in the program (no body) with
// the form content type does not panic; a malformed pair of the query or
// body that is not access_token refuses nothing; the body stays readable
// by the handler.
func TestFormAndQueryEdges(t *testing.T) {
	m := newMiddleware(t, Options{AllowForm: true, AllowQuery: true})
	tok := sign(t, testKey, "", testClaims(""))
	var body string
	h := m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil {
			b, _ := io.ReadAll(r.Body)
			body = string(b)
		}
		w.Write([]byte(r.PostForm.Get("x")))
	}))
	req := httptest.NewRequest(http.MethodPost, "/?q=100%", nil)
	req.Body = nil
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+tok)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Errorf("nil body, malformed query pair: %d %q", rec.Code, rec.Header().Get("WWW-Authenticate"))
	}
	req = httptest.NewRequest(http.MethodPost, "/", strings.NewReader("x=1&y=100%&access_token="+tok))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || rec.Body.String() != "1" || !strings.HasPrefix(body, "x=1&") {
		t.Errorf("form with a malformed pair: %d %q, body %q", rec.Code, rec.Body.String(), body)
	}
	req = httptest.NewRequest(http.MethodGet, "/?access_token=%zz", nil)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusBadRequest {
		t.Errorf("malformed access_token: %d", rec.Code)
	}
}
