package bearer

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// The authentication scheme (RFC 6750 §2.1) and the parameter name of the
// form and query methods (§2.2, §2.3). A scheme bound to the same tokens
// (DPoP, RFC 9449) would be read here as well, beside Bearer.
const (
	scheme     = "Bearer"
	dpopScheme = "DPoP"
	paramName  = "access_token"
	// dpopHeader is the DPoP header field's name (RFC 9449 §4.1) as
	// net/http keys it, textproto.CanonicalMIMEHeaderKey("DPoP"), so
	// that reading it costs no canonicalization (an allocation, for a
	// name net/http does not know).
	dpopHeader = "Dpop"
)

// source says which method carried a token.
type source uint8

const (
	fromNone source = iota
	fromHeader
	fromForm
	fromQuery
	fromDPoP // the Authorization header, DPoP scheme (RFC 9449 §7.1)
)

// credential returns the access token of r and the method that carried
// it, or the kind of its refusal and the method it concerns (fromNone when
// none can be told: two Authorization headers, two methods):
// kindNoCredential when no method allowed carries one. Each credential's
// size is checked before it is read. Its syntax (b64token) is checked by
// syntaxKind, once the Validator has refused it. With DPoPOnly, nothing of
// the Bearer scheme is read: an Authorization header of another scheme,
// Bearer included, is no credential (New has refused AllowForm and
// AllowQuery).
func (m *Middleware) credential(w http.ResponseWriter, r *http.Request) (string, source, kind) {
	var tok string
	from := fromNone
	switch hs := r.Header["Authorization"]; len(hs) {
	case 0:
	case 1:
		if m.dpop != nil {
			t, k := m.authorization(hs[0], dpopScheme)
			if k != kindNone {
				return "", fromDPoP, k
			}
			if t != "" {
				tok, from = t, fromDPoP
			}
		}
		if from == fromNone && !m.dpopOnly {
			t, k := m.authorization(hs[0], scheme)
			if k != kindNone {
				return "", fromHeader, k
			}
			if t != "" {
				tok, from = t, fromHeader
			}
		}
	default:
		return "", fromNone, kindMalformedHeader
	}
	if m.allowForm && r.Body != nil && r.Body != http.NoBody && (r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodPatch) && isForm(r.Header.Get("Content-Type")) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, m.maxForm))
		if err != nil {
			return "", fromForm, kindMalformedForm
		}
		form, err := url.ParseQuery(string(body))
		if err != nil && badParam(string(body)) {
			return "", fromForm, kindMalformedForm
		}
		// The handler finds the body's values where ParseForm puts them
		// (which, PostForm set, reads no body again), and the bytes in
		// r.Body.
		r.PostForm, r.Body = form, io.NopCloser(bytes.NewReader(body))
		t, ok, k := m.param(form)
		if k != kindNone {
			return "", fromForm, k
		}
		if ok {
			if from != fromNone {
				return "", fromNone, kindManyMethods
			}
			tok, from = t, fromForm
		}
	}
	if m.allowQuery && r.URL != nil && r.URL.RawQuery != "" {
		q, err := url.ParseQuery(r.URL.RawQuery)
		if err != nil && badParam(r.URL.RawQuery) {
			return "", fromQuery, kindMalformedParam
		}
		t, ok, k := m.param(q)
		if k != kindNone {
			return "", fromQuery, k
		}
		if ok {
			if from != fromNone {
				return "", fromNone, kindManyMethods
			}
			tok, from = t, fromQuery
		}
	}
	if from == fromNone {
		return "", fromNone, kindNoCredential
	}
	return tok, from, kindNone
}

// syntaxKind is the answer to a token from the Validator refused: a token
// that is not a b64token (RFC 6750 §2.1) is a malformed request (400), any
// other an invalid token. The syntax is checked only then, off the path of
// accepted tokens: a token a Validator accepts is a JWS or JWE in the
// Compact Serialization, base64url segments and dots, all b64token
// characters.
func syntaxKind(tok string, from source, refused kind) kind {
	if b64token(tok) {
		return refused
	}
	if from == fromHeader || from == fromDPoP {
		return kindMalformedHeader
	}
	return kindMalformedParam
}

// authorization returns the token of an Authorization header value h
// (RFC 6750 §2.1, RFC 9449 §7.1, RFC 7235 §2.1): "" when h is not of the
// scheme sch (another scheme, or empty), or the kind of its refusal. The
// scheme is compared case-insensitively; the credential follows one or
// more spaces and has at most MaxTokenSize bytes (its b64token syntax:
// syntaxKind).
func (m *Middleware) authorization(h, sch string) (string, kind) {
	n := len(sch)
	if len(h) < n || !strings.EqualFold(h[:n], sch) || len(h) > n && h[n] != ' ' {
		return "", kindNone
	}
	if len(h) > n+1+m.maxToken { // leading spaces count: bounded before the scan
		return "", kindTooLarge
	}
	t := strings.TrimLeft(h[n:], " ")
	if t == "" {
		return "", kindMalformedHeader
	}
	if len(t) > m.maxToken {
		return "", kindTooLarge
	}
	return t, kindNone
}

// param returns the access_token parameter of values, whether it is there,
// or the kind of its refusal: repeated, empty or beyond MaxTokenSize.
func (m *Middleware) param(values url.Values) (string, bool, kind) {
	vs, ok := values[paramName]
	if !ok {
		return "", false, kindNone
	}
	if len(vs) != 1 || vs[0] == "" {
		return "", false, kindMalformedParam
	}
	if len(vs[0]) > m.maxToken {
		return "", false, kindTooLarge
	}
	return vs[0], true, kindNone
}

// badParam reports whether an access_token pair of the URL-encoded s is
// malformed: a malformed pair elsewhere (a search for "100%") is none of
// the middleware's business, and url.ParseQuery keeps the other pairs.
func badParam(s string) bool {
	for s != "" {
		var pair string
		pair, s, _ = strings.Cut(s, "&")
		name, value, _ := strings.Cut(pair, "=")
		if name != paramName {
			continue
		}
		if _, err := url.QueryUnescape(value); err != nil || strings.Contains(pair, ";") {
			return true
		}
	}
	return false
}

// isForm reports whether a Content-Type value is
// application/x-www-form-urlencoded, with parameters or not (RFC 6750
// §2.2).
func isForm(ct string) bool {
	const form = "application/x-www-form-urlencoded"
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return strings.EqualFold(strings.TrimSpace(ct), form)
}

// b64char is 1 for the characters of a b64token before its padding (RFC
// 6750 §2.1): ALPHA, DIGIT, "-", ".", "_", "~", "+", "/".
var b64char = func() (t [256]uint8) {
	for c := 'A'; c <= 'Z'; c++ {
		t[c], t[c+'a'-'A'] = 1, 1
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = 1
	}
	for _, c := range "-._~+/" {
		t[c] = 1
	}
	return t
}()

// b64token reports whether s is a b64token (RFC 6750 §2.1):
// 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=".
// The characters are checked without a branch per byte, four at a time.
func b64token(s string) bool {
	s = strings.TrimRight(s, "=")
	if s == "" {
		return false
	}
	ok := uint8(1)
	for len(s) >= 4 {
		ok &= b64char[s[0]] & b64char[s[1]] & b64char[s[2]] & b64char[s[3]]
		s = s[4:]
	}
	for i := 0; i < len(s); i++ {
		ok &= b64char[s[i]]
	}
	return ok == 1
}
