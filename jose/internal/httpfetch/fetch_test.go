package httpfetch

import (
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
)

var testNow = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// get fetches path from srv with a client of NewClient trusting srv.
func get(t *testing.T, srv *httptest.Server, req Request) (*Response, error) {
	t.Helper()
	c := NewClient(5*time.Second, req.AllowHTTP)
	if srv.TLS != nil {
		c.Transport.(*http.Transport).TLSClientConfig = srv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	}
	t.Cleanup(c.CloseIdleConnections)
	if req.MaxSize == 0 {
		req.MaxSize = 1 << 10
	}
	if !strings.Contains(req.URL, "://") {
		req.URL = srv.URL + req.URL
	}
	return Get(t.Context(), c, req, func() time.Time { return testNow })
}

func TestGet(t *testing.T) {
	var hits atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.Header.Get("Accept") != "application/json" {
			http.Error(w, "accept", 400)
			return
		}
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.Header().Set("ETag", `"v2"`)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Last-Modified", "Tue, 01 Dec 2026 11:00:00 GMT")
		w.Header().Set("Cache-Control", "max-age=600")
		w.Write([]byte(`{"a":1}`))
	})
	mux.HandleFunc("/304", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotModified) })
	mux.HandleFunc("/500", func(w http.ResponseWriter, r *http.Request) { http.Error(w, strings.Repeat("x", 10000), 500) })
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) { w.Write(make([]byte, 2000)) })
	mux.HandleFunc("/endless", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for i := 0; i < 1000; i++ {
			if _, err := w.Write(make([]byte, 512)); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		w.Write([]byte(`{"a":`))
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/ok", http.StatusFound) })
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/tohttp", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://127.0.0.1:1/"+strings.Repeat("a", 5000), http.StatusFound)
	})
	srv := httptest.NewTLSServer(mux)
	defer srv.Close()

	res, err := get(t, srv, Request{URL: "/ok", Accept: "application/json"})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Body) != `{"a":1}` || res.Validators.ETag != `"v1"` || res.Lifetime != 10*time.Minute || !res.Explicit || res.Status != "200 OK" ||
		!res.Received.Equal(testNow) {
		t.Fatalf("response %+v", res)
	}
	// Received is set on every successful path (the cache counts the
	// lifetime from it: zero would make a value expired since year 1).
	moved, err := get(t, srv, Request{URL: "/moved", Accept: "application/json"})
	if err != nil || string(moved.Body) != `{"a":1}` || !moved.Received.Equal(testNow) {
		t.Fatalf("after a redirect: %+v, %v", moved, err)
	}
	res, err = get(t, srv, Request{URL: "/ok", Accept: "application/json", Validators: res.Validators})
	if err != nil || res.Body != nil || res.Validators.ETag != `"v2"` || !res.Received.Equal(testNow) {
		t.Fatalf("conditional: %+v, %v", res, err)
	}
	if v := (Validators{"a", "b"}).Update(Validators{ETag: "c"}); v != (Validators{"c", "b"}) {
		t.Fatalf("Update: %+v", v)
	}
	if v := (Validators{"a", "b"}).Update(Validators{LastModified: "d"}); v != (Validators{"a", "d"}) {
		t.Fatalf("Update: %+v", v)
	}

	for _, c := range []struct {
		path  string
		want  string
		is    error
		limit int
	}{
		{"/304", "304 Not Modified to an unconditional request", nil, 0},
		{"/500", "status 500 Internal Server Error", nil, 0},
		{"/big", "content length 2000 exceeds 1024 bytes", jose.ErrLimitExceeded, 0},
		{"/endless", "body exceeds 1024 bytes", jose.ErrLimitExceeded, 0},
		{"/broken", "reading the body", nil, 0},
		{"/loop", "stopped after 10 redirects", nil, 0},
		{"/tohttp", "https is required", nil, 200},
		{"/missing", "status 404 Not Found", nil, 0},
	} {
		_, err := get(t, srv, Request{URL: c.path})
		if err == nil || !strings.Contains(err.Error(), c.want) || c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%s: %v, want %q", c.path, err, c.want)
			continue
		}
		if limit := max(c.limit, 200); len(err.Error()) > limit {
			t.Errorf("%s: error of %d bytes: %v", c.path, len(err.Error()), err)
		}
	}
}

// TestHTTP: a plain http server is refused without AllowHTTP, whatever
// the client, and accepted with it.
func TestHTTP(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("{}")) }))
	defer srv.Close()
	if _, err := get(t, srv, Request{URL: "/"}); err == nil || !strings.Contains(err.Error(), "https is required") {
		t.Fatalf("http without AllowHTTP: %v", err)
	}
	if res, err := get(t, srv, Request{URL: "/", AllowHTTP: true}); err != nil || string(res.Body) != "{}" {
		t.Fatalf("http with AllowHTTP: %v", err)
	}
	if _, err := get(t, srv, Request{URL: "::bad"}); err == nil {
		t.Fatal("bad URL accepted")
	}
}

// TestStatusText: a reason phrase other than the standard one is quoted
// and cut.
func TestStatusText(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hj, _, _ := w.(http.Hijacker).Hijack()
		defer hj.Close()
		hj.Write([]byte("HTTP/1.1 503 " + strings.Repeat("\x1bevil", 2000) + "\r\nContent-Length: 0\r\n\r\n"))
	}))
	defer srv.Close()
	_, err := get(t, srv, Request{URL: "/"})
	if err == nil || strings.Contains(err.Error(), "\x1b") || len(err.Error()) > 400 || !strings.Contains(err.Error(), "(10004 bytes)") {
		t.Fatalf("hostile status line: %v", err)
	}
}

func TestFreshness(t *testing.T) {
	date := testNow.Add(-time.Minute).Format(http.TimeFormat)
	for _, c := range []struct {
		hdr      []string
		want     time.Duration
		explicit bool
	}{
		{nil, 0, false},
		{[]string{"Cache-Control", "max-age=600"}, 600 * time.Second, true},
		{[]string{"Cache-Control", `public, MAX-AGE="60", must-revalidate`}, time.Minute, true},
		{[]string{"Cache-Control", "max-age=600, max-age=60"}, time.Minute, true},
		{[]string{"Cache-Control", "max-age=600", "Age", "100"}, 500 * time.Second, true},
		{[]string{"Cache-Control", "max-age=ten"}, 0, true},
		{[]string{"Cache-Control", "max-age=99999999999999999999"}, maxDelta * time.Second, true},
		{[]string{"Cache-Control", "max-age=600, no-store"}, 0, true},
		{[]string{"Expires", testNow.Add(time.Hour).Format(http.TimeFormat), "Date", date}, time.Hour + time.Minute, true},
		{[]string{"Expires", testNow.Add(time.Hour).Format(http.TimeFormat)}, time.Hour, true},
		{[]string{"Expires", "0"}, 0, true},
		{[]string{"Expires", "Mon, 01 Jan 0001 00:00:00 GMT", "Date", "Fri, 31 Dec 9999 23:59:59 GMT", "Age", "99999999999"}, math.MinInt64, true},
	} {
		h := http.Header{}
		for i := 0; i < len(c.hdr); i += 2 {
			h.Set(c.hdr[i], c.hdr[i+1])
		}
		if got, explicit := Freshness(h, testNow); got != c.want || explicit != c.explicit {
			t.Errorf("%v: %v %v, want %v %v", c.hdr, got, explicit, c.want, c.explicit)
		}
	}
	for _, c := range []struct {
		in       time.Duration
		explicit bool
		want     time.Duration
	}{
		{0, true, time.Minute}, {-time.Hour, true, time.Minute}, {10 * time.Minute, true, 10 * time.Minute},
		{48 * time.Hour, true, time.Hour}, {0, false, time.Hour},
	} {
		if got := Clamp(c.in, c.explicit, time.Minute, time.Hour); got != c.want {
			t.Errorf("Clamp(%v, %v) = %v, want %v", c.in, c.explicit, got, c.want)
		}
	}
}
