package bearer

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/dpop"
	"github.com/josebench/josebench/jose/jwks"
	"github.com/josebench/josebench/jose/jwt"
)

// Default limits of Options.
const (
	// DefaultMaxTokenSize bounds an access token, in bytes: 8 KiB, twice
	// what the largest tokens of common providers take (a signed JWT with
	// a few dozen claims), and far below the 1 MiB of headers net/http
	// reads by default.
	DefaultMaxTokenSize = 8 << 10
	// DefaultMaxFormSize bounds the form body read for a token (RFC 6750
	// §2.2), in bytes: 64 KiB.
	DefaultMaxFormSize = 64 << 10
)

// Options configure a Middleware. Validator is required; every other field
// has a safe default.
type Options struct {
	// Validator validates the access tokens, with the request's context
	// bounding its wait on a key source (jwt.Validator.ValidateContext).
	// Its options decide which tokens are valid: issuer, audience, type
	// (see NewAccessTokenValidator for RFC 9068 access tokens).
	Validator *jwt.Validator

	// Realm is the realm attribute of the challenges (RFC 6750 §3, RFC
	// 7235 §2.2), written as a quoted-string; no realm attribute when
	// empty. It must be printable ASCII (spaces allowed).
	Realm string

	// Scopes lists the scopes every request needs (RFC 6750 §3.1): each
	// must be in the token's "scope" claim, space-separated (RFC 9068
	// §2.2.3, RFC 8693 §4.2), or in its "scp" array; otherwise the answer
	// is 403 insufficient_scope with the scope attribute listing Scopes.
	// Each is a scope-token of RFC 6749 §3.3 (printable ASCII without
	// space, '"' or '\'). Make one Middleware per set of scopes: they may
	// share the Validator.
	Scopes []string

	// AllowForm accepts the token in an "access_token" parameter of a
	// form body (RFC 6750 §2.2): a POST, PUT or PATCH request whose
	// Content-Type is application/x-www-form-urlencoded. The body is read
	// (at most MaxFormSize bytes) with http.Request.ParseForm, so the
	// handler finds it in r.PostForm, not in r.Body.
	AllowForm bool
	// AllowQuery accepts the token in an "access_token" parameter of the
	// URI query (RFC 6750 §2.3), which ends up in logs and browser
	// histories: only for clients that cannot send a header. A successful
	// response to such a request gets Cache-Control: private (§2.3).
	AllowQuery bool

	// MaxTokenSize bounds the token, in bytes, whatever method carries it
	// (default DefaultMaxTokenSize); a longer one is refused with
	// invalid_token before it is read. The Validator's own limit
	// (jose.Limits.MaxTokenSize) applies as well.
	MaxTokenSize int
	// MaxFormSize bounds the form body read when AllowForm is set, in
	// bytes (default DefaultMaxFormSize); a longer body is refused with
	// invalid_request.
	MaxFormSize int64

	// OnError writes the answer to a refused request, after the
	// Middleware has set its WWW-Authenticate header: it may log e (whose
	// message holds no token text) and must write the status, e.Status,
	// and a body. Default WriteError.
	OnError func(w http.ResponseWriter, r *http.Request, e *Error)

	// DPoP, when set, also accepts access tokens bound to a key, sent with
	// the DPoP scheme (RFC 9449 §7.1): "Authorization: DPoP <token>" with
	// exactly one DPoP header, the proof, which DPoP checks (every check
	// of §4.3, its "ath" against the token), and the token's "cnf" "jkt"
	// must be the proof key's thumbprint (§6.1). The cheap checks come
	// first: the Validator validates the token (and its "cnf") before the
	// proof is read; then dpop.Verifier.CheckBound checks the proof's
	// header, compares its key's thumbprint with the token's "jkt", checks
	// its claims, then its signature, last its replay (the store only
	// records proofs whose signature verified). A request without a valid
	// token thus costs no proof signature, nor does a token used with a
	// key other than its own. When token and proof are both bad, the
	// answer is the token's: a token the Validator refuses is answered as
	// it would be without a proof (invalid_token, for one), an unbound
	// token invalid_token, and a token bound to another key invalid_token
	// too unless the proof is refused before its key is compared (two
	// DPoP headers, an oversized or malformed proof, a header refused:
	// invalid_dpop_proof). Only a valid token bound to the proof's key
	// gets invalid_dpop_proof for the proof's claims or signature, or
	// use_dpop_nonce.
	// With DPoP set, a token bound to a key is refused with the
	// Bearer scheme (§7.2). Every refusal of the DPoP scheme, a malformed or
	// oversized DPoP credential included, is answered with
	// WWW-Authenticate: DPoP algs="...", error="invalid_dpop_proof",
	// "use_dpop_nonce" (with a DPoP-Nonce header, §8), "invalid_token" or
	// "invalid_request"; a bound token sent as Bearer gets the DPoP
	// challenge beside its Bearer one (§7.2); a request whose scheme
	// cannot be told (no token, two Authorization headers, two methods)
	// gets both challenges. When DPoP has a nonce source
	// (dpop.VerifierOptions.Nonces), every accepted DPoP request's
	// response carries the current nonce in a DPoP-Nonce header (§8.2),
	// so that clients move to a new nonce before theirs expires.
	DPoP *dpop.Verifier
	// DPoPOnly accepts only the DPoP scheme: the Bearer scheme is never
	// read, an Authorization header of any other scheme being no
	// credential, and every refusal carries the DPoP challenge alone. It
	// needs DPoP, and excludes AllowForm and AllowQuery.
	DPoPOnly bool
	// DPoPURI returns the target URI of a request, which a proof's "htu"
	// must match (RFC 9449 §4.3 check 9): by default the scheme of the
	// connection (https with TLS), the Host header (or the host of a
	// request line in absolute form) and the path the request line
	// carries (r.RequestURI, in origin or absolute form, so that a handler
	// in front that rewrites r.URL, such as http.StripPrefix, changes
	// nothing; a "#" in it, which net/http keeps in r.URL.Path, compared
	// as "%23"; an empty path in asterisk and authority form). Behind a proxy that terminates TLS or rewrites paths,
	// return the URI the client addressed. The host is the client's
	// choice: by default "htu" binds a proof to the path of this server,
	// but to any host the request names, so that a proof a client sent to
	// another server (which gets the token too when the client can be
	// made to send it there) is accepted with that server's name in
	// Host; a server that knows its public origin returns it here, with
	// the path of r.RequestURI, and every proof for another host is
	// refused. A URI that dpop.NormalizeURI refuses (a Host
	// header with a port beyond 65535, a character no host holds) is
	// answered 400 invalid_request, with the DPoP challenge.
	DPoPURI func(r *http.Request) string
}

// Middleware authenticates requests with bearer tokens (RFC 6750). It is
// made by New and is safe for concurrent use.
type Middleware struct {
	v          *jwt.Validator
	scopes     []string
	allowForm  bool
	allowQuery bool
	maxToken   int
	maxForm    int64
	onError    func(http.ResponseWriter, *http.Request, *Error)
	challenges [numKinds]string
	scope      string // Scopes, space-separated

	dpop           *dpop.Verifier
	dpopOnly       bool
	dpopURI        func(*http.Request) string
	dpopChallenges [numKinds]string
}

// New returns a Middleware for opts, or an error naming the option that is
// not valid.
func New(opts Options) (*Middleware, error) {
	if opts.Validator == nil {
		return nil, errors.New("bearer: Options.Validator is required")
	}
	if opts.MaxTokenSize < 0 || opts.MaxFormSize < 0 {
		return nil, errors.New("bearer: Options.MaxTokenSize and MaxFormSize must not be negative")
	}
	if !printable(opts.Realm, true) {
		return nil, errors.New("bearer: Options.Realm must be printable ASCII")
	}
	m := &Middleware{
		v:          opts.Validator,
		allowForm:  opts.AllowForm,
		allowQuery: opts.AllowQuery,
		maxToken:   opts.MaxTokenSize,
		maxForm:    opts.MaxFormSize,
		onError:    opts.OnError,
	}
	for i, s := range opts.Scopes {
		if s == "" || !printable(s, false) || strings.ContainsAny(s, `"\`) {
			return nil, errors.New("bearer: Options.Scopes must be scope-tokens (RFC 6749 §3.3)")
		}
		for _, t := range opts.Scopes[:i] {
			if t == s {
				return nil, errors.New("bearer: Options.Scopes lists a scope twice")
			}
		}
	}
	m.scopes = append([]string(nil), opts.Scopes...)
	m.scope = strings.Join(m.scopes, " ")
	if m.maxToken == 0 {
		m.maxToken = DefaultMaxTokenSize
	}
	if m.maxForm == 0 {
		m.maxForm = DefaultMaxFormSize
	}
	if m.onError == nil {
		m.onError = WriteError
	}
	for k := range m.challenges {
		m.challenges[k] = challenge(opts.Realm, kind(k), m.scope)
	}
	if opts.DPoPOnly && (opts.DPoP == nil || opts.AllowForm || opts.AllowQuery) {
		return nil, errors.New("bearer: Options.DPoPOnly needs DPoP, and excludes AllowForm and AllowQuery")
	}
	if opts.DPoP != nil {
		m.dpop, m.dpopOnly, m.dpopURI = opts.DPoP, opts.DPoPOnly, opts.DPoPURI
		if m.dpopURI == nil {
			m.dpopURI = requestURI
		}
		var algs []string
		for _, a := range opts.DPoP.Algorithms() {
			algs = append(algs, string(a))
		}
		for k := range m.dpopChallenges {
			m.dpopChallenges[k] = schemeChallenge(dpopScheme, strings.Join(algs, " "), opts.Realm, kind(k), m.scope)
		}
	}
	return m, nil
}

// Handler returns next protected by m: a request reaches next only with a
// valid token that has the scopes needed, and with its claims in the
// request's context ([ClaimsFrom], [TokenFrom]); every other request is
// answered by Options.OnError.
func (m *Middleware) Handler(next http.Handler) http.Handler {
	if next == nil {
		panic("bearer: Handler of a nil http.Handler")
	}
	return &handler{m: m, next: next}
}

type handler struct {
	m    *Middleware
	next http.Handler
}

// ServeHTTP authenticates r and calls the next handler.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m := h.m
	tok, from, k := m.credential(w, r)
	if k != kindNone {
		m.fail(w, r, k, nil, from, "")
		return
	}
	ctx := r.Context()
	c := &claimsContext{Context: ctx}
	// The token first, then the proof: a request without a valid token
	// costs no proof signature, whatever proof it carries.
	t, err := m.v.ValidateContext(ctx, []byte(tok), &c.claims)
	if err != nil {
		m.fail(w, r, syntaxKind(tok, from, validationKind(err)), err, from, "")
		return
	}
	// The token's binding (RFC 7800 §3.1): a "cnf" the Middleware cannot
	// check refuses the token, whatever its scheme; a "jkt" must be the
	// proof key's with the DPoP scheme (RFC 9449 §6.1), and is refused
	// with the Bearer scheme (§7.2).
	var jkt string
	if mayHaveCnf(t.Payload) {
		j, unchecked, err := confirmation(t.Payload, m.dpop != nil)
		switch {
		case err != nil:
			m.fail(w, r, kindInvalidToken, err, from, "")
			return
		case unchecked != nil:
			m.fail(w, r, kindUncheckedBinding, unchecked, from, "")
			return
		}
		jkt = j
	}
	switch {
	case from == fromDPoP:
		// CheckBound compares the proof key's thumbprint with jkt before
		// the proof's signature, and refuses an unbound token (jkt "")
		// before reading the proof.
		p, err := m.dpop.CheckBound(ctx, r.Header[dpopHeader], r.Method, m.dpopURI(r), tok, jkt)
		if err != nil {
			k, nonce := kindUnavailable, ""
			if e, ok := errors.AsType[*dpop.Error](err); ok {
				k, nonce = kindDPoPProof, e.Nonce
				switch {
				case e.Code == dpop.CodeUseNonce:
					k = kindDPoPNonce
				case errors.Is(e.Err, dpop.ErrBinding):
					k = kindDPoPBinding
				}
			} else if errors.Is(err, dpop.ErrRequestURI) {
				k = kindBadURI // a Host header no URI can hold
			}
			m.fail(w, r, k, err, from, nonce)
			return
		}
		c.proof = p
	case jkt != "": // m.dpop is set: confirmation found jkt unchecked otherwise
		m.fail(w, r, kindBoundBearer, dpop.CheckBearer(jkt), from, "")
		return
	}
	if !c.claims.hasScopes(m.scopes) {
		m.fail(w, r, kindInsufficientScope, nil, from, "")
		return
	}
	c.token = t
	if from == fromQuery {
		w.Header().Set("Cache-Control", "private")
	}
	if from == fromDPoP {
		// The current nonce, so that the client moves to it before its
		// own expires (RFC 9449 §8.2). The request passed with its
		// nonce: a source failing now costs it no answer.
		if n, err := m.dpop.Nonce(ctx); err == nil && n != "" {
			w.Header().Set("DPoP-Nonce", n)
		}
	}
	h.next.ServeHTTP(w, r.WithContext(c))
}

// validationKind is the answer to a token the Validator refused with err.
func validationKind(err error) kind {
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded), errors.Is(err, jwks.ErrFetch):
		return kindUnavailable
	case errors.Is(err, jwt.ErrExpired):
		return kindExpired
	case errors.Is(err, jose.ErrLimitExceeded):
		return kindTooLarge
	}
	return kindInvalidToken
}

// fail answers r, whose token came from, with the error of kind k,
// caused by cause (or nil); nonce is the DPoP-Nonce to send, or "". The
// challenge is of the request's scheme: DPoP for the DPoP scheme, Bearer
// for the Bearer scheme and the form and query methods, and for a bound
// token sent as Bearer the DPoP challenge as well (RFC 9449 §7.2: the
// scheme to use); a request whose scheme cannot be told (no token, two
// Authorization headers, two methods) gets those of every scheme accepted
// (RFC 9449 §7.1). With DPoPOnly, only the DPoP challenge is ever sent.
func (m *Middleware) fail(w http.ResponseWriter, r *http.Request, k kind, cause error, from source, nonce string) {
	e := &Error{Status: kinds[k].status, Code: kinds[k].code, Description: kinds[k].description, Err: cause, kind: k}
	if k == kindInsufficientScope {
		e.Scope = m.scope
	}
	h := w.Header()
	add := func(c string) {
		if c != "" {
			h.Add("WWW-Authenticate", c)
		}
	}
	switch {
	case m.dpop == nil:
		add(m.challenges[k])
	case from == fromDPoP:
		add(m.dpopChallenges[k])
	case m.dpopOnly:
		// Nothing of the Bearer scheme was read: k is of no scheme.
		add(m.dpopChallenges[k])
	case from == fromNone:
		add(m.challenges[k])
		add(m.dpopChallenges[k])
	case k == kindBoundBearer:
		add(m.challenges[k])
		add(m.dpopChallenges[kindNoCredential])
	default:
		add(m.challenges[k])
	}
	if nonce != "" {
		h.Set("DPoP-Nonce", nonce)
	}
	m.onError(w, r, e)
}

// requestURI is the default Options.DPoPURI: the request's scheme (https
// on a TLS connection), host and path, without the query (RFC 9449 §4.3
// compares "htu" without it). The path is the request-target's as the
// client sent it (r.RequestURI), not r.URL's, which a handler in front
// (http.StripPrefix) may have rewritten: in origin form ("/api/orders")
// and in absolute form ("http://host/api/orders", RFC 9112 §3.2.2, which
// any client may send, and whose host net/http puts in r.Host; without an
// authority, "http:/api/orders", net/http takes the Host header's); empty
// in asterisk and authority form (RFC 9112 §3.3). A request line holds no
// fragment: a "#" in it is part of the path for net/http (r.URL.Path
// "/a#b"), and is compared as "%23", never cut there. r.URL's path only
// for a request without a request line (made in the program: then its
// scheme too when r.URL has one, as http.NewRequest's does). A target
// that is none of these forms ("http:api") gets "", which no "htu"
// matches (400).
func requestURI(r *http.Request) string {
	sch := "http"
	if r.TLS != nil {
		sch = "https"
	}
	var path string
	switch t := r.RequestURI; {
	case t == "":
		if r.URL != nil {
			path = r.URL.EscapedPath()
			if r.URL.Scheme != "" && r.TLS == nil {
				sch = r.URL.Scheme
			}
		}
	case t == "*" || r.Method == http.MethodConnect && t[0] != '/':
		// Asterisk form, authority form: no path.
	case t[0] == '/':
		path = t
	default:
		// Absolute form: a scheme, then the authority after "//" (which
		// holds no '/' or '?': RFC 3986 §3.2; net/http refuses a '#'
		// there), then the path.
		i := strings.IndexByte(t, ':')
		if i < 0 {
			return ""
		}
		path = t[i+1:]
		if strings.HasPrefix(path, "//") {
			if j := strings.IndexAny(path[2:], "/?"); j >= 0 {
				path = path[2+j:]
			} else {
				path = ""
			}
		}
		if path != "" && path[0] != '/' && path[0] != '?' {
			return "" // "http:api": no path, no authority
		}
	}
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	if strings.IndexByte(path, '#') >= 0 {
		path = strings.ReplaceAll(path, "#", "%23")
	}
	return sch + "://" + r.Host + path
}

// printable reports whether s is printable ASCII, with spaces when space.
func printable(s string, space bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x21 && !(space && c == ' ') || c > 0x7e {
			return false
		}
	}
	return true
}
