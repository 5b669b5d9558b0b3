package subjects

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/jose/bearer"
)

// The checks of the Bearer variants beyond those of the JWT variants: the
// middleware's answers, status and WWW-Authenticate byte for byte.
const (
	CheckBearerNoToken  = "bearer: no token"     // 401, a challenge without error code
	CheckBearerForged   = "bearer: forged token" // 401 invalid_token
	CheckBearerExpired  = "bearer: expired"      // 401 invalid_token, "expired"
	CheckBearerScope    = "bearer: scope"        // 403 insufficient_scope
	CheckBearerAccepted = "bearer: accepted"     // 200, the handler gets the claims
)

// bearerScope is the scope the Bearer variants' middleware requires; the
// access token of the JWT variants has it ("read write").
const bearerScope = "read"

// prepareBearer returns the op of a Bearer variant after the checks: those
// of the JWT variant of the same algorithm (round trip, flipped signature
// and payload, other key, expired, wrong audience), then the middleware's
// answers to a request without a token, with a forged, an expired and an
// under-scoped token, and with the good one.
func prepareBearer(v *bench.Variant) (bench.Op, error) {
	if v.Subject != bench.SubjectValidate {
		return nil, fmt.Errorf("subjects: %s is not a Bearer subject", v.Subject)
	}
	p, err := jwtFuncs(v)
	if err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	claims := accessToken(jwtNow.Add(time.Hour), jwtAudience)
	tok, err := p.issue(claims)
	if err != nil {
		return nil, &CheckError{CheckRoundTrip, err}
	}
	m, err := bearer.New(bearer.Options{Validator: p.validate, Realm: "bench", Scopes: []string{bearerScope}})
	if err != nil {
		return nil, err
	}
	// The handler hands the claims to the recorder it writes to, so that
	// goroutines sharing the op (Runner.Parallel) share none of its state.
	h := m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.(*bearerRecorder).got = bearer.ClaimsFrom(r.Context())
	}))
	serve := func(tok []byte) (*httptest.ResponseRecorder, *bearer.Claims) {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		if tok != nil {
			req.Header.Set("Authorization", "Bearer "+string(tok))
		}
		rec := &bearerRecorder{ResponseRecorder: httptest.NewRecorder()}
		h.ServeHTTP(rec, req)
		return rec.ResponseRecorder, rec.got
	}
	if err := p.checkBearer(func(tok []byte) *httptest.ResponseRecorder { rec, _ := serve(tok); return rec }); err != nil {
		return nil, err
	}
	rec, got := serve(tok)
	if rec.Code != http.StatusOK || got == nil || got.Subject != claims.Subject || got.Scope != claims.Scope || got.ClientID != claims.ClientID {
		return nil, &CheckError{CheckBearerAccepted, fmt.Errorf("status %d, claims %+v", rec.Code, got)}
	}

	switch v.Param("via") {
	case bench.ViaMiddleware:
		// A request and a recorder per goroutine, reused from call to
		// call: a sync.Pool hands each call one no other call holds, and
		// costs no allocation once each goroutine's is made.
		calls := sync.Pool{New: func() any {
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			req.Header.Set("Authorization", "Bearer "+string(tok))
			return &bearerCall{req: req, rec: bearerRecorder{ResponseRecorder: httptest.NewRecorder()}}
		}}
		return func() error {
			c := calls.Get().(*bearerCall)
			c.rec.got = nil
			h.ServeHTTP(&c.rec, c.req)
			got := c.rec.got
			calls.Put(c)
			if got == nil {
				return errBearerRefused
			}
			return nil
		}, nil
	case bench.ViaValidator:
		ctx := httptest.NewRequest(http.MethodGet, "/", nil).Context()
		return func() error {
			var c bearer.Claims
			_, err := p.validate.ValidateContext(ctx, tok, &c)
			return err
		}, nil
	}
	return nil, fmt.Errorf("subjects: a Bearer variant via %q", v.Param("via"))
}

var errBearerRefused = errors.New("subjects: the middleware refused the request")

// bearerRecorder is the ResponseWriter of the Bearer variants: the handler
// behind the middleware sets got to the claims it was given.
type bearerRecorder struct {
	*httptest.ResponseRecorder
	got *bearer.Claims
}

// bearerCall is the state of one call of a via=middleware op.
type bearerCall struct {
	req *http.Request
	rec bearerRecorder
}

// checkBearer checks the middleware's refusals, through serve.
func (p *jwtPair) checkBearer(serve func(tok []byte) *httptest.ResponseRecorder) error {
	good, err := p.issue(accessToken(jwtNow.Add(time.Hour), jwtAudience))
	if err != nil {
		return &CheckError{CheckRoundTrip, err}
	}
	forged, err := flip(good, bench.SerializationCompact, 2, "signature")
	if err != nil {
		return &CheckError{CheckBearerForged, err}
	}
	expired, err := p.issue(accessToken(jwtNow.Add(-time.Second), jwtAudience))
	if err != nil {
		return &CheckError{CheckBearerExpired, err}
	}
	unscoped := accessToken(jwtNow.Add(time.Hour), jwtAudience)
	unscoped.Scope = "write"
	narrow, err := p.issue(unscoped)
	if err != nil {
		return &CheckError{CheckBearerScope, err}
	}
	for _, c := range []struct {
		check     string
		tok       []byte
		status    int
		challenge string
	}{
		{CheckBearerNoToken, nil, http.StatusUnauthorized, `Bearer realm="bench"`},
		{CheckBearerForged, forged, http.StatusUnauthorized, `Bearer realm="bench", error="invalid_token", error_description="the access token is invalid"`},
		{CheckBearerExpired, expired, http.StatusUnauthorized, `Bearer realm="bench", error="invalid_token", error_description="the access token expired"`},
		{CheckBearerScope, narrow, http.StatusForbidden, `Bearer realm="bench", error="insufficient_scope", error_description="the access token does not have the scope needed", scope="read"`},
	} {
		rec := serve(c.tok)
		if ch := rec.Header().Get("WWW-Authenticate"); rec.Code != c.status || ch != c.challenge {
			return &CheckError{c.check, fmt.Errorf("answer %d %q, want %d %q", rec.Code, ch, c.status, c.challenge)}
		}
	}
	return nil
}
