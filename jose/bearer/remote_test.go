package bearer

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwks"
	"github.com/josebench/josebench/jose/jws"
	"github.com/josebench/josebench/jose/jwt"
)

// A provider whose JWK Set does not come holds a request no longer than
// the request's own deadline: the request is answered 503, without a
// challenge, by its deadline, well before the remote set's Timeout; once
// the provider answers, the same token is accepted.
func TestHangingProviderRequestDeadline(t *testing.T) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	set := &jose.Set{Keys: []*jose.JWK{{Key: &priv.PublicKey, KeyID: "k1", Use: "sig", Algorithm: "ES256"}}}
	body, err := set.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	var fetches atomic.Int32
	var expireRequest atomic.Pointer[func()]
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		if expire := expireRequest.Load(); expire != nil {
			(*expire)() // the request's deadline passes while the provider hangs
		}
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "application/jwk-set+json")
		w.Write(body)
	}))
	defer provider.Close()
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	const remoteTimeout = time.Minute
	remote, err := jwks.New(provider.URL, jwks.Options{AllowHTTP: true, Timeout: remoteTimeout, RefreshCooldown: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()
	ver, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, KeyFuncContext: remote.KeyFuncContext})
	if err != nil {
		t.Fatal(err)
	}
	o := testValidatorOptions(t)
	o.Verifier = ver
	v, err := jwt.NewValidator(o)
	if err != nil {
		t.Fatal(err)
	}
	var hookErr atomic.Pointer[Error]
	m := newMiddleware(t, Options{Validator: v, Realm: "api", OnError: func(w http.ResponseWriter, r *http.Request, e *Error) {
		hookErr.Store(e)
		WriteError(w, r, e)
	}})
	// The server gives each request a deadline of its own, as a
	// deployment would with its request timeout; the deadline passes
	// once the provider has the request for the set (a timer could fire
	// before the request reaches the key function on a slow machine:
	// the verifier would not call it, and nothing would be fetched).
	protected := m.Handler(echo)
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, expire := vectortest.Expiring()
		expireRequest.Store(&expire)
		defer expireRequest.Store(nil)
		protected.ServeHTTP(w, r.WithContext(ctx))
	}))

	s, err := jwt.NewSigner(jwa.ES256, priv, &jws.SignerOptions{KeyID: "k1"})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := s.Sign(testClaims(""))
	if err != nil {
		t.Fatal(err)
	}
	get := func() (*http.Response, []byte) {
		req, _ := http.NewRequestWithContext(t.Context(), "GET", srv.URL, nil)
		req.Header.Set("Authorization", "Bearer "+string(tok))
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	start := time.Now()
	resp, b := get()
	// A bound, not a timing: without the request's deadline the wait
	// would be the Remote's Timeout, a minute.
	if d := time.Since(start); d >= remoteTimeout/2 {
		t.Errorf("the request waited %v, beyond its deadline", d)
	}
	if resp.StatusCode != 503 || resp.Header.Values("WWW-Authenticate") != nil || string(b) != "Service Unavailable\n" {
		t.Errorf("answer %d %q %q", resp.StatusCode, resp.Header.Values("WWW-Authenticate"), b)
	}
	e := hookErr.Load()
	if e == nil || !errors.Is(e, context.DeadlineExceeded) || !errors.Is(e, jwks.ErrFetch) || e.Code != "" {
		t.Fatalf("hook error %v", e)
	}
	if fetches.Load() != 1 {
		t.Errorf("%d fetches", fetches.Load())
	}

	close(release)
	if err := remote.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	resp, b = get()
	if resp.StatusCode != 200 || string(b) != "user-1234 " {
		t.Errorf("after the provider answered: %d %q", resp.StatusCode, b)
	}
}
