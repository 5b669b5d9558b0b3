package cachedfetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/internal/vectortest"
)

// lateTransport answers every request once its context has ended, with a
// 200 and body: a server that gave up as the client did (net/http then
// sends the 200 of a handler that wrote nothing) and whose answer the
// transport still delivered.
type lateTransport struct{ body string }

func (t lateTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	<-req.Context().Done()
	return &http.Response{
		Status: "200 OK", StatusCode: http.StatusOK, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{}, Body: io.NopCloser(strings.NewReader(t.body)),
		ContentLength: int64(len(t.body)), Request: req,
	}, nil
}

// TestTimeoutThenBadBody: a fetch whose Timeout passed is reported as the
// timeout, whatever the transport saw last, even when it was a body that
// does not parse (an empty 200 of a server that gave up with the client):
// as jwks.Remote reported it before the cache was shared (jwks TestTimeout
// failed now and then under -race with the parse error of the empty body).
func TestTimeoutThenBadBody(t *testing.T) {
	srv := newServer(t, serve("v1"))
	o := newOwner(t, srv, nil, Config[value]{Timeout: 20 * time.Millisecond})
	o.c.cfg.Client = &http.Client{Transport: lateTransport{"bad: empty"}}
	err := o.c.Refresh(t.Context())
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, errTest) ||
		!strings.Contains(err.Error(), "no complete answer within Options.Timeout 20ms") {
		t.Fatalf("answer after the deadline that does not parse: %v", err)
	}
	// A complete answer that parses is used, however late.
	o.c.cfg.Client = &http.Client{Transport: lateTransport{"v2"}}
	if err := o.c.Refresh(t.Context()); err != nil || o.c.Load().Value.body != "v2" {
		t.Fatalf("late answer that parses: %v", err)
	}
}

// ctxTransport is t, recording the context of each request it makes (the
// fetch's, bounded by Timeout) in ctxs.
type ctxTransport struct {
	t    http.RoundTripper
	ctxs chan context.Context
}

func (t ctxTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.ctxs <- req.Context()
	return t.t.RoundTrip(req)
}

// TestParseErrorPastTimeout: a body that arrived whole within Timeout
// and does not parse is reported with its parse error, even when Timeout
// passed while it was parsed: the answer was complete in time, and the
// error says what is wrong with it (jwks: wrapping jose.ErrMalformed).
//
// Parse waits for Timeout to pass. An attempt in which it had passed
// already when Parse was called, or before the answer came (a loaded
// machine stalled the fetch for longer than Timeout before httpfetch.Get
// returned), proves nothing either way: it is made again with Timeout
// doubled. Any other outcome is not a stall, and fails.
func TestParseErrorPastTimeout(t *testing.T) {
	srv := newServer(t, serve("bad: not a document"))
	for timeout := 20 * time.Millisecond; ; timeout *= 2 {
		if timeout > 30*time.Second {
			t.Fatalf("Timeout passed before every fetch's Parse, the last with Timeout %v", timeout/2)
		}
		o := newOwner(t, srv, nil, Config[value]{Timeout: timeout})
		ctxs := make(chan context.Context, 1)
		o.c.cfg.Client = &http.Client{Transport: ctxTransport{srv.srv.Client().Transport, ctxs}}
		parse := o.c.cfg.Parse
		parsed, atParse := false, error(nil) // atParse: the fetch context's error as Parse is called
		o.c.cfg.Parse = func(body []byte, status string, prev *value) (value, error) {
			ctx := <-ctxs
			parsed, atParse = true, ctx.Err()
			select {
			case <-ctx.Done(): // Timeout passes while the body is parsed
			case <-time.After(vectortest.Bound):
				t.Errorf("Timeout %v did not end the fetch within %v", timeout, vectortest.Bound)
			}
			return parse(body, status, prev)
		}
		err := o.c.Refresh(t.Context())
		if parsed && atParse != nil && atParse != context.DeadlineExceeded ||
			!parsed && !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Timeout %v: not a stall past Timeout: parsed %v (the request's context then: %v), %v", timeout, parsed, atParse, err)
		}
		if !parsed || atParse != nil {
			t.Logf("Timeout %v passed before Parse (%v): again", timeout, err)
			o.c.Close(nil)
			continue
		}
		if err == nil || errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, errTest) ||
			!strings.Contains(err.Error(), "a bad document") {
			t.Fatalf("body in time that does not parse, Timeout passed while parsing: %v", err)
		}
		return
	}
}
