package jwks

import (
	"bytes"
	"compress/gzip"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
)

// TestOversizedBody: a body longer than MaxResponseSize is refused, by its
// Content-Length before reading or at the limit while reading an endless
// stream; the memory used stays bounded by the limit, not by the body,
// and the set in use is kept.
func TestOversizedBody(t *testing.T) {
	const limit = 64 << 10
	k := newECKey(t, "k1")
	good := setJSON(t, k)
	var written atomic.Int64
	chunk := bytes.Repeat([]byte(" "), 32<<10)
	endless := func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte(`{"keys":[`))
		for i := 0; i < 2048; i++ { // 64 MiB if nobody stops reading
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}
	declared := func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(limit+1))
		w.Write(bytes.Repeat([]byte(" "), limit+1))
	}
	exact := append(bytes.Repeat([]byte(" "), limit-len(good)), good...)
	p := newProvider(t, true, serveSet(exact)) // plain HTTP: no TLS buffers in the count
	r := newRemote(t, p, newClock(), Options{MaxResponseSize: limit})
	if err := r.Refresh(t.Context()); err != nil {
		t.Fatalf("body of exactly the limit: %v", err)
	}
	for name, h := range map[string]http.HandlerFunc{"Content-Length": declared, "endless": endless} {
		p.set(h)
		var err error
		alloc := vectortest.BytesAllocated(func() { err = r.Refresh(t.Context()) })
		if !errors.Is(err, jose.ErrLimitExceeded) || !errors.Is(err, ErrFetch) || !strings.Contains(err.Error(), strconv.Itoa(limit)) {
			t.Fatalf("%s: %v", name, err)
		}
		// The client's buffers plus at most 1.5 × the limit for the
		// body; the endless server writes 64 MiB.
		t.Logf("%s: %d bytes allocated", name, alloc)
		if alloc > 8*limit+256<<10 {
			t.Errorf("%s: %d bytes allocated for a limit of %d", name, alloc, limit)
		}
		if st := r.Status(); st.Keys != 1 {
			t.Fatalf("%s: set in use dropped: %+v", name, st)
		}
	}
	if w := written.Load(); w >= 2048*int64(len(chunk)) {
		t.Errorf("the whole endless body was read (%d bytes)", w)
	}
}

// TestBodyReadError: a connection that breaks in the middle of the body.
func TestBodyReadError(t *testing.T) {
	p := newProvider(t, false, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", "1000")
		w.Write([]byte(`{"keys":[`))
	})
	r := newRemote(t, p, newClock(), Options{})
	if err := r.Refresh(t.Context()); !errors.Is(err, ErrFetch) || !strings.Contains(err.Error(), "reading the body") {
		t.Fatalf("broken body: %v", err)
	}
}

// TestSetLimits: Options.Limits reach jose.ParseSetWithLimits.
func TestSetLimits(t *testing.T) {
	p := newProvider(t, false, serveSet(setJSON(t, newECKey(t, "a"), newECKey(t, "b"))))
	r := newRemote(t, p, newClock(), Options{Limits: jose.Limits{MaxSetKeys: 1}})
	if err := r.Refresh(t.Context()); !errors.Is(err, jose.ErrLimitExceeded) || !errors.Is(err, ErrFetch) {
		t.Fatalf("two keys, MaxSetKeys 1: %v", err)
	}
}

// TestSetSizeIsBodySize: the set's byte limit (Limits.MaxSetSize) is
// MaxResponseSize unless set, so that a body read whole is not refused
// again for its size; an explicit MaxSetSize still applies.
func TestSetSizeIsBodySize(t *testing.T) {
	set := setJSON(t, newECKey(t, "a"))
	body := append(bytes.TrimSuffix(set, []byte("}")), `,"pad":"`+strings.Repeat("p", jose.DefaultMaxSetSize)+`"}`...)
	p := newProvider(t, false, serveSet(body))
	if err := newRemote(t, p, newClock(), Options{}).Refresh(t.Context()); err != nil {
		t.Fatalf("%d-byte set, default limits: %v", len(body), err)
	}
	r := newRemote(t, p, newClock(), Options{Limits: jose.Limits{MaxSetSize: jose.DefaultMaxSetSize}})
	if err := r.Refresh(t.Context()); !errors.Is(err, jose.ErrLimitExceeded) || !errors.Is(err, ErrFetch) {
		t.Fatalf("%d-byte set, MaxSetSize %d: %v", len(body), jose.DefaultMaxSetSize, err)
	}
}

// TestUnknownKidErrorText: a kid of 1 MiB is quoted and cut in the error
// (issue 18, finding 4).
func TestUnknownKidErrorText(t *testing.T) {
	p := newProvider(t, false, serveSet(setJSON(t, newECKey(t, "a"))))
	r := newRemote(t, p, newClock(), Options{})
	_, err := r.Get(t.Context(), strings.Repeat("k", 1<<20))
	if !errors.Is(err, jose.ErrKeyNotFound) || len(err.Error()) > 1<<10 || !strings.Contains(err.Error(), `…" (1048576 bytes)`) {
		t.Fatalf("error of %d bytes: %.300s", len(err.Error()), err)
	}
}

// TestBodyErrorText: net/http's errors while the body is read repeat what
// the server sent: a malformed trailer line, up to 4 KB, quoted, four
// times that with escapes. A hostile provider's answer makes a failed
// fetch, not an error of 16 KB in Status().LastError and in the error of
// every token while no set is usable (issue 18, finding 4).
func TestBodyErrorText(t *testing.T) {
	p := newProvider(t, true, func(w http.ResponseWriter, r *http.Request) {
		c, rw, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close()
		rw.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
		rw.WriteString("b\r\n{\"keys\":[]}\r\n0\r\nX-Trailer: " + strings.Repeat("\x1b", 3000) + "\r\n\r\n")
		rw.Flush()
	})
	r := newRemote(t, p, newClock(), Options{})
	err := r.Refresh(t.Context())
	if !errors.Is(err, ErrFetch) || !strings.Contains(err.Error(), "reading the body") {
		t.Fatalf("err = %.300v", err)
	}
	_, kerr := r.Get(t.Context(), "a")
	for _, e := range []error{err, r.Status().LastError, kerr} {
		if msg := e.Error(); len(msg) > 1<<10 || strings.ContainsFunc(msg, func(r rune) bool { return !strconv.IsPrint(r) }) {
			t.Errorf("error of %d bytes: %.300q", len(msg), msg)
		}
	}
}

// TestUnusableEntries: entries jose cannot use are kept (and counted) but
// never selected; they do not make the set fail.
func TestUnusableEntries(t *testing.T) {
	k := newECKey(t, "k1")
	body := bytes.Replace(setJSON(t, k), []byte(`{"keys":[`), []byte(`{"keys":[{"kty":"XYZ","kid":"odd"},`), 1)
	p := newProvider(t, false, serveSet(body))
	r := newRemote(t, p, newClock(), Options{})
	v := verifier(t, r)
	if _, err := v.VerifyCompact(k.token(t, false)); err != nil {
		t.Fatal(err)
	}
	if st := r.Status(); st.Keys != 2 {
		t.Fatalf("status %+v", st)
	}
}

// FuzzFreshness: any Cache-Control, Expires, Date and Age headers give a
// lifetime without panicking, and within the bounds once clamped.
func FuzzFreshness(f *testing.F) {
	f.Add("public, max-age=600", "", "", "")
	f.Add(`max-age="60", no-cache`, "Tue, 01 Dec 2026 13:00:00 GMT", "Tue, 01 Dec 2026 12:00:00 GMT", "30")
	f.Add("max-age=99999999999999999999999", "0", "", "99999999999999999999")
	f.Add("", "Mon, 01 Jan 0001 00:00:00 GMT", "Fri, 31 Dec 9999 23:59:59 GMT", "99999999999")
	f.Fuzz(func(t *testing.T, cc, expires, date, age string) {
		h := http.Header{}
		for k, v := range map[string]string{"Cache-Control": cc, "Expires": expires, "Date": date, "Age": age} {
			if v != "" {
				h.Set(k, v)
			}
		}
		now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
		d, explicit := freshness(h, now)
		if cc == "" && expires == "" && explicit {
			t.Fatalf("lifetime %v stated by no header", d)
		}
		// An Expires not after Date is stale, whatever the Age.
		exp, err1 := http.ParseTime(expires)
		dt, err2 := http.ParseTime(date)
		if cc == "" && err1 == nil && err2 == nil && !exp.After(dt) && d > 0 {
			t.Fatalf("Expires %q not after Date %q, lifetime %v", expires, date, d)
		}
		r := &Remote{opts: Options{MinRefreshInterval: time.Minute, MaxRefreshInterval: time.Hour}}
		if c := r.clamp(d, explicit); c < time.Minute || c > time.Hour {
			t.Fatalf("clamped lifetime %v", c)
		}
	})
}

// TestCompressedBody: the default client asks for gzip and decompresses
// the body itself; MaxResponseSize bounds the decompressed body, so a
// small gzip bomb (2 MiB of JSON whitespace in about 2 KiB, 32 times the limit) is refused at
// the limit, with memory bounded by it, and a compressed set within the
// limit is read.
func TestCompressedBody(t *testing.T) {
	const limit = 64 << 10
	k := newECKey(t, "k1")
	good := setJSON(t, k)
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		w.Write(b)
		w.Close()
		return buf.Bytes()
	}
	bomb := gz(append(append([]byte(`{"keys":[`), bytes.Repeat([]byte(" "), 2<<20)...), good[len(`{"keys":[`):]...))
	small := gz(good)
	var encodings atomic.Value
	serve := func(body []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, req *http.Request) {
			encodings.Store(req.Header.Get("Accept-Encoding"))
			w.Header().Set("Content-Encoding", "gzip")
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.Write(body)
		}
	}
	p := newProvider(t, true, serve(small)) // plain: the default client
	r := newRemote(t, p, newClock(), Options{MaxResponseSize: limit})
	if err := r.Refresh(t.Context()); err != nil {
		t.Fatalf("compressed set: %v", err)
	}
	if e, _ := encodings.Load().(string); !strings.Contains(e, "gzip") {
		t.Fatalf("Accept-Encoding %q: the test does not test compression", e)
	}
	p.set(serve(bomb))
	var err error
	alloc := vectortest.BytesAllocated(func() { err = r.Refresh(t.Context()) })
	if !errors.Is(err, jose.ErrLimitExceeded) || !errors.Is(err, ErrFetch) {
		t.Fatalf("gzip bomb of %d bytes: %v", len(bomb), err)
	}
	t.Logf("gzip bomb: %d bytes allocated", alloc)
	if alloc > 8*limit+256<<10 {
		t.Errorf("gzip bomb: %d bytes allocated for a limit of %d", alloc, limit)
	}
	if st := r.Status(); st.Keys != 1 {
		t.Fatalf("set in use dropped: %+v", st)
	}
}

// TestPrivateKeysRefusedBeforeParsing: without AllowSecretKeys, a set with
// an entry carrying private members is refused on the members' names,
// before any key is built: a hostile provider's consistent 16384-bit
// private RSA keys (about 10 ms and 1 MB each to validate; 169 fit in
// MaxResponseSize) cost their scan, and a broken private entry beside a
// public key (kept as unusable by jose.ParseSet) is refused too.
func TestPrivateKeysRefusedBeforeParsing(t *testing.T) {
	pub := strings.TrimSuffix(strings.TrimPrefix(string(setJSON(t, newECKey(t, "ec"))), `{"keys":[`), "]}")
	for name, entries := range map[string][]string{
		"16384-bit private keys":          {vectortest.HostileRSAJWK(16384, 1, true, ""), vectortest.HostileRSAJWK(16384, 2, true, "")},
		"inconsistent private and public": {pub, vectortest.HostileRSAJWK(2048, 1, false, "")},
		"escaped member name":             {pub, `{"kty":"EC","crv":"P-256","\u0064":"AAAA","x":"AAAA","y":"AAAA"}`},
	} {
		p := newProvider(t, false, serveSet([]byte(`{"keys":[`+strings.Join(entries, ",")+`]}`)))
		r := newRemote(t, p, newClock(), Options{})
		var err error
		alloc := vectortest.BytesAllocated(func() { err = r.Refresh(t.Context()) })
		if !errors.Is(err, jose.ErrInvalidKey) || !errors.Is(err, ErrFetch) {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s: %d bytes allocated", name, alloc)
		if alloc > 512<<10 { // one validation of a 16384-bit key allocates 1 MB
			t.Errorf("%s: %d bytes allocated: keys were built", name, alloc)
		}
	}
}

// TestFreshnessHostileHeader: a provider's Cache-Control of a million
// empty directives (the default transport reads headers up to 10 MB) is
// scanned without a slice of them: the memory is the header's, not
// sixteen times it.
func TestFreshnessHostileHeader(t *testing.T) {
	h := http.Header{}
	h.Set("Cache-Control", strings.Repeat(",", 1<<20)+"max-age=60")
	var d time.Duration
	alloc := vectortest.BytesAllocated(func() { d, _ = freshness(h, time.Now()) })
	if d != time.Minute {
		t.Fatalf("lifetime %v", d)
	}
	if alloc > 64<<10 {
		t.Fatalf("%d bytes allocated for a header of 1 MiB", alloc)
	}
}

// TestHugeHeader: the default client reads at most 1 MiB of response
// headers (the transport's own default is 10 MB).
func TestHugeHeader(t *testing.T) {
	p := newProvider(t, true, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("X-Padding", strings.Repeat("a", 2<<20))
		w.Write(setJSON(t, newECKey(t, "k1")))
	})
	r := newRemote(t, p, newClock(), Options{}) // plain: the default client
	if err := r.Refresh(t.Context()); !errors.Is(err, ErrFetch) || !strings.Contains(err.Error(), "header") {
		t.Fatalf("2 MiB of headers: %v", err)
	}
}

// TestErrorsRedactURL: a password in the URL (a key service behind basic
// authentication) appears in no error text.
func TestErrorsRedactURL(t *testing.T) {
	p := newProvider(t, true, http.NotFound)
	u := strings.Replace(p.srv.URL, "://", "://svc:hunter2@", 1) + "/jwks.json"
	r, err := New(u, Options{AllowHTTP: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	err = r.Refresh(t.Context())
	if !errors.Is(err, ErrFetch) || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "svc:xxxxx@") {
		t.Fatalf("error %v", err)
	}
	if st := r.Status(); strings.Contains(st.URL, "hunter2") || strings.Contains(st.LastError.Error(), "hunter2") {
		t.Fatalf("status %+v", st)
	}
	if got := p.lastHeader().Get("Authorization"); got == "" {
		t.Fatal("the credentials were not sent")
	}
}
