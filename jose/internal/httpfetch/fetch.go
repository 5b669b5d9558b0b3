package httpfetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
)

// MaxHeaderBytes bounds the response headers the client of [NewClient]
// reads (net/http's default is 10 MB): a provider's are a few KiB.
const MaxHeaderBytes = 1 << 20

// MaxRedirects is the most redirects the client of [NewClient] follows.
const MaxRedirects = 10

// NewClient returns a client of its own transport (so that the caller can
// close its connections), with timeout as its timeout, reading at most
// MaxHeaderBytes of response headers and following at most MaxRedirects
// redirects, none to plain http unless allowHTTP.
func NewClient(timeout time.Duration, allowHTTP bool) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxResponseHeaderBytes = MaxHeaderBytes
	return &http.Client{
		Transport: tr,
		Timeout:   timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= MaxRedirects {
				return fmt.Errorf("stopped after %d redirects", MaxRedirects)
			}
			if req.URL.Scheme != "https" && !allowHTTP {
				return fmt.Errorf("redirect to %s refused: https is required", untrusted.Quote(req.URL.Redacted()))
			}
			return nil
		},
	}
}

// Validators are the response headers a conditional request sends back
// (RFC 9110 §8.8, §13.1.1, §13.1.3).
type Validators struct {
	ETag         string // sent as If-None-Match
	LastModified string // sent as If-Modified-Since
}

// Update returns v with the validators n carries (a 304 may send new
// ones, RFC 9111 §4.3.4).
func (v Validators) Update(n Validators) Validators {
	if n.ETag != "" {
		v.ETag = n.ETag
	}
	if n.LastModified != "" {
		v.LastModified = n.LastModified
	}
	return v
}

// Request is one GET.
type Request struct {
	URL    string
	Accept string // the Accept header
	// MaxSize bounds the body, in bytes (> 0).
	MaxSize int64
	// AllowHTTP accepts a response whose final URL is http.
	AllowHTTP bool
	// Validators make the request conditional; a 304 is an error
	// without them.
	Validators Validators
}

// Response is a successful GET: 200 with its body, or 304 Not Modified
// (Body nil) to a conditional request.
type Response struct {
	Body       []byte // nil: 304 Not Modified
	Status     string // the status line for an error, bounded (see [Status])
	Validators Validators
	// Lifetime is the freshness lifetime the response states, and
	// Explicit whether it states one (see [Freshness]), counted from
	// Received, when its headers arrived (RFC 9111 §4.2.3
	// response_time), however long the body then took.
	Lifetime time.Duration
	Explicit bool
	Received time.Time
}

// Get makes the GET req with client, bounded by ctx, and returns the
// response, or an error for a transport failure, a final URL that is
// http without AllowHTTP, a status other than 200 (or 304 to a
// conditional request), or a body beyond MaxSize (wrapping
// [jose.ErrLimitExceeded]). now is the clock, read once the response
// headers have arrived: the freshness lifetime is counted from then (for
// a response without Date, RFC 9110 §6.6.1 takes the time it was
// received). Every text of the server's in the error is bounded.
func Get(ctx context.Context, client *http.Client, req Request, now func() time.Time) (*Response, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodGet, req.URL, nil)
	if err != nil {
		return nil, untrusted.Error(err)
	}
	if req.Accept != "" {
		hr.Header.Set("Accept", req.Accept)
	}
	conditional := req.Validators != (Validators{})
	if req.Validators.ETag != "" {
		hr.Header.Set("If-None-Match", req.Validators.ETag)
	}
	if req.Validators.LastModified != "" {
		hr.Header.Set("If-Modified-Since", req.Validators.LastModified)
	}
	resp, err := client.Do(hr)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL repeated
		}
		// net/http's errors may repeat what the server sent (a status
		// line, a redirect's Location): bounded.
		return nil, untrusted.Error(err)
	}
	defer resp.Body.Close()
	if resp.Request != nil && resp.Request.URL.Scheme != "https" && !req.AllowHTTP {
		return nil, fmt.Errorf("redirected to %s: https is required", untrusted.Quote(resp.Request.URL.Redacted()))
	}
	res := &Response{
		Status:     Status(resp),
		Validators: Validators{resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")},
	}
	res.Received = now()
	res.Lifetime, res.Explicit = Freshness(resp.Header, res.Received)
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotModified:
		if !conditional {
			return nil, fmt.Errorf("status %s to an unconditional request", res.Status)
		}
		return res, nil
	default:
		// Read a little of the body, so that the connection can be reused.
		_, _ = io.CopyN(io.Discard, resp.Body, 4<<10)
		return nil, fmt.Errorf("status %s", res.Status)
	}
	body, err := ReadBody(resp, req.MaxSize)
	if err != nil {
		return nil, fmt.Errorf("status %s: %w", res.Status, err)
	}
	res.Body = body
	return res, nil
}

// Status is the status line of resp for an error: "200 OK", or, when the
// server sent another reason phrase than the standard one, its text
// quoted and cut (it may be up to MaxHeaderBytes long).
func Status(resp *http.Response) string {
	if std := strconv.Itoa(resp.StatusCode) + " " + http.StatusText(resp.StatusCode); resp.Status == std {
		return std
	}
	return untrusted.Quote(resp.Status)
}

// ReadBody reads the body of resp, refusing one longer than max bytes: by
// its Content-Length before reading, or at byte max+1 while reading (the
// error wraps [jose.ErrLimitExceeded]). The buffer never exceeds max+1
// bytes.
func ReadBody(resp *http.Response, max int64) ([]byte, error) {
	if resp.ContentLength > max {
		return nil, fmt.Errorf("content length %d exceeds %d bytes: %w", resp.ContentLength, max, jose.ErrLimitExceeded)
	}
	size := int64(4 << 10)
	if resp.ContentLength >= 0 {
		size = resp.ContentLength + 1 // room to see the end of the body
	}
	buf := make([]byte, 0, min(size, max+1))
	for {
		n, err := resp.Body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > max {
			return nil, fmt.Errorf("body exceeds %d bytes: %w", max, jose.ErrLimitExceeded)
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			// net/http's may repeat what the server sent (a
			// malformed trailer line): bounded.
			return nil, fmt.Errorf("reading the body: %w", untrusted.Error(err))
		}
		if len(buf) == cap(buf) {
			grown := make([]byte, len(buf), min(2*int64(cap(buf)), max+1))
			copy(grown, buf)
			buf = grown
		}
	}
}
