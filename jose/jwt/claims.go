package jwt

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/jsonx"
)

// Claims are the registered claims of a JWT Claims Set (RFC 7519 §4.1).
// A zero field is an absent claim.
//
// To carry private claims (RFC 7519 §4.3), embed Claims in a struct of
// your own: [Signer.Sign] marshals the whole struct, and
// [Validator.Validate] decodes the private claims into it from the same
// bytes and sets its Claims to the validated registered claims.
type Claims struct {
	Issuer    string      `json:"iss,omitempty"` // "iss" (RFC 7519 §4.1.1)
	Subject   string      `json:"sub,omitempty"` // "sub" (RFC 7519 §4.1.2)
	Audience  Audience    `json:"aud,omitempty"` // "aud" (RFC 7519 §4.1.3)
	Expiry    NumericDate `json:"exp,omitzero"`  // "exp" (RFC 7519 §4.1.4)
	NotBefore NumericDate `json:"nbf,omitzero"`  // "nbf" (RFC 7519 §4.1.5)
	IssuedAt  NumericDate `json:"iat,omitzero"`  // "iat" (RFC 7519 §4.1.6)
	ID        string      `json:"jti,omitempty"` // "jti" (RFC 7519 §4.1.7)
}

// Registered returns c itself. Through embedding, it lets [Validator]
// find the Claims inside a caller's struct.
func (c *Claims) Registered() *Claims { return c }

// registered is implemented by *Claims and by every struct embedding
// Claims.
type registered interface{ Registered() *Claims }

// AppendJSON appends c as a JSON object with the present claims in the
// order iss, sub, aud, exp, nbf, iat, jti (encoding/json's order for the
// struct) and returns the extended buffer. It allocates only to grow dst.
// It writes the dates as they are; [Signer.Sign] refuses those a
// Validator would refuse.
func (c *Claims) AppendJSON(dst []byte) []byte {
	return closeObject(c.appendMembers(dst), len(dst))
}

// check returns the ClaimError of the first date of c that cannot be
// issued (see NumericDate.MarshalJSON), or nil.
func (c *Claims) check() *ClaimError {
	if err := c.Expiry.check(); err != nil {
		return c.Expiry.claimError("exp", err)
	}
	if err := c.NotBefore.check(); err != nil {
		return c.NotBefore.claimError("nbf", err)
	}
	if err := c.IssuedAt.check(); err != nil {
		return c.IssuedAt.claimError("iat", err)
	}
	return nil
}

// appendMembers appends the present claims as object members, each one
// preceded by a comma (see closeObject).
func (c *Claims) appendMembers(dst []byte) []byte {
	if c.Issuer != "" {
		dst = jsonx.AppendString(append(dst, `,"iss":`...), c.Issuer)
	}
	if c.Subject != "" {
		dst = jsonx.AppendString(append(dst, `,"sub":`...), c.Subject)
	}
	if len(c.Audience) > 0 {
		dst = c.Audience.appendJSON(append(dst, `,"aud":`...))
	}
	if c.Expiry.set {
		dst = c.Expiry.AppendJSON(append(dst, `,"exp":`...))
	}
	var nbf []byte // the digits of "nbf", which "iat" often repeats
	if c.NotBefore.set {
		dst = append(dst, `,"nbf":`...)
		start := len(dst)
		dst = c.NotBefore.AppendJSON(dst)
		nbf = dst[start:]
	}
	if c.IssuedAt.set {
		if dst = append(dst, `,"iat":`...); nbf != nil && c.IssuedAt == c.NotBefore {
			dst = append(dst, nbf...)
		} else {
			dst = c.IssuedAt.AppendJSON(dst)
		}
	}
	if c.ID != "" {
		dst = jsonx.AppendString(append(dst, `,"jti":`...), c.ID)
	}
	return dst
}

// closeObject makes the members appended to dst[:start], each preceded by
// a comma, a JSON object: the first comma becomes its '{' (or, with no
// member, '{' is appended), and '}' is appended.
func closeObject(dst []byte, start int) []byte {
	if len(dst) > start {
		dst[start] = '{'
		return append(dst, '}')
	}
	return append(dst, '{', '}')
}

// Audience is the "aud" claim (RFC 7519 §4.1.3): the recipients a JWT is
// intended for. It decodes from a single string or an array of strings,
// and is written as a single string when it holds exactly one value (as
// RFC 7519 §4.1.3 allows), as an array otherwise.
type Audience []string

// Contains reports whether s is one of a's values; StringOrURI values are
// compared as case-sensitive strings (RFC 7519 §2).
func (a Audience) Contains(s string) bool { return slices.Contains(a, s) }

func (a Audience) appendJSON(dst []byte) []byte {
	if len(a) == 1 {
		return jsonx.AppendString(dst, a[0])
	}
	dst = append(dst, '[')
	for i, s := range a {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendString(dst, s)
	}
	return append(dst, ']')
}

// MarshalJSON implements json.Marshaler: a string for one value, an array
// otherwise.
func (a Audience) MarshalJSON() ([]byte, error) { return a.appendJSON(nil), nil }

// UnmarshalJSON implements json.Unmarshaler: a string or an array of
// strings; anything else is refused.
func (a *Audience) UnmarshalJSON(data []byte) error {
	if err := jsonx.Valid(data, jsonx.Limits{}); err != nil {
		return err
	}
	var s stringPool
	aud, err := parseAudience(data, &s, jsonx.DefaultMaxMembers)
	if err != nil {
		return err
	}
	*a = aud
	return nil
}

// stringPool makes the string values of one claims set: the values without
// escapes share one copy of the JSON text, so that a claims set costs one
// string allocation, however many string claims it has.
type stringPool struct {
	src []byte // the JSON text the values are subslices of
	str string // string(src), made on first use
}

// text returns str, making it on first use.
func (s *stringPool) text() string {
	if s.str == "" {
		s.str = string(s.src)
	}
	return s.str
}

// of returns v, a decoded JSON string, as a string.
func (s *stringPool) of(v []byte) string {
	if len(v) == 0 {
		return ""
	}
	if s.src != nil && cap(v) <= cap(s.src) {
		// v is s.src[off : off+len(v)] when it shares s.src's array.
		off := cap(s.src) - cap(v)
		if off+len(v) <= len(s.src) && &s.src[off] == &v[0] {
			return s.text()[off : off+len(v)]
		}
	}
	return string(v)
}

// plain returns the content of v, a string value of plain bytes (see
// jsonx.ScanObjectPlain) that is a subslice of s.src: a substring of the
// one copy of the text.
func (s *stringPool) plain(v []byte) string {
	if len(v) <= 2 {
		return ""
	}
	off := cap(s.src) - cap(v) + 1
	return s.text()[off : off+len(v)-2]
}

// value decodes the raw JSON value v, which must be a string.
func (s *stringPool) value(v []byte) (string, error) {
	if len(v) < 2 || v[0] != '"' {
		return "", &jsonx.TypeError{Want: "string", Got: jsonx.KindOf(v)} // "must be a string, not a number"
	}
	if in := v[1 : len(v)-1]; bytes.IndexByte(in, '\\') < 0 {
		// No escape: the content as is (v has been validated).
		return s.of(in), nil
	}
	b, err := jsonx.StringBytes(v)
	if err != nil {
		return "", err
	}
	return s.of(b), nil
}

// parseAudience decodes a validated "aud" value: a string or an array of
// at most max strings.
func parseAudience(v []byte, s *stringPool, max int) (Audience, error) {
	switch jsonx.KindOf(v) {
	case jsonx.KindString:
		str, err := s.value(v)
		if err != nil {
			return nil, err
		}
		return Audience{str}, nil
	case jsonx.KindArray:
		n := 0
		if err := jsonx.ScanArray(v, jsonx.Limits{}, func([]byte) error { n++; return nil }); err != nil {
			return nil, err
		}
		if n > max {
			return nil, &ClaimError{Claim: "aud", Err: errLimit, Detail: fmt.Sprintf("%d values, more than %d", n, max)}
		}
		aud := make(Audience, 0, n)
		err := jsonx.ScanArray(v, jsonx.Limits{}, func(elem []byte) error {
			str, err := s.value(elem)
			if err != nil {
				return err
			}
			aud = append(aud, str)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("array element: %w", err)
		}
		return aud, nil
	}
	return nil, &jsonx.TypeError{Want: "string or an array of strings", Got: jsonx.KindOf(v)}
}

// errLimit is the cause sentinel of a claims set beyond a limit.
var errLimit error = &sentinel{msg: "claims exceed a limit", also: jose.ErrLimitExceeded}

// The registered claim names as parseClaims switches on them: their three
// bytes in a little-endian integer.
const (
	nameIss = 'i' | 's'<<8 | 's'<<16
	nameSub = 's' | 'u'<<8 | 'b'<<16
	nameAud = 'a' | 'u'<<8 | 'd'<<16
	nameExp = 'e' | 'x'<<8 | 'p'<<16
	nameNbf = 'n' | 'b'<<8 | 'f'<<16
	nameIat = 'i' | 'a'<<8 | 't'<<16
	nameJti = 'j' | 't'<<8 | 'i'<<16
)

// parseClaims decodes the registered claims of the JWT Claims Set data into
// c with the strict reader (RFC 7519 §7.2 steps 9-10): data must be one
// JSON object within lim, with no duplicate member names at any depth.
// Every other member goes to sink, when not nil.
func parseClaims(data []byte, lim jsonx.Limits, c *Claims, sink *privateSink) error {
	var pool stringPool
	s := &pool
	if sink != nil {
		s = &sink.pool
	}
	*s = stringPool{src: data}
	var bad *ClaimError
	// fail records the error of a registered claim's value.
	fail := func(claim string, err error) error {
		if ce, ok := err.(*ClaimError); ok {
			bad = ce
		} else {
			bad = &ClaimError{Claim: claim, Err: ErrMalformedClaims, Cause: err}
		}
		return bad
	}
	err := jsonx.ScanObjectPlain(data, lim, func(name, v []byte, plain bool) error {
		// The registered names have three bytes: switch on them as an
		// integer. A string claim goes to str, a date to date.
		key := uint32(0)
		if len(name) == 3 {
			key = uint32(name[0]) | uint32(name[1])<<8 | uint32(name[2])<<16
		}
		var str *string
		var date *NumericDate
		switch key {
		case nameIss:
			str = &c.Issuer
		case nameSub:
			str = &c.Subject
		case nameJti:
			str = &c.ID
		case nameAud:
			if sink == nil || sink.aud == nil || jsonx.KindOf(v) != jsonx.KindString {
				var err error
				if c.Audience, err = parseAudience(v, s, lim.MaxMembers); err != nil {
					return fail("aud", err)
				}
				return nil
			}
			// One audience, in the caller's storage.
			str = &sink.aud[0]
			c.Audience = sink.aud[:1:1]
		case nameExp:
			date = &c.Expiry
		case nameNbf:
			date = &c.NotBefore
		case nameIat:
			date = &c.IssuedAt
		default:
			if sink != nil {
				sink.member(name, v, plain)
			}
			return nil
		}
		var err error
		switch {
		case str != nil && plain:
			*str = s.plain(v)
			return nil
		case str != nil:
			*str, err = s.value(v)
		default:
			*date, err = parseNumericDate(v)
		}
		if err != nil {
			return fail(string(name), err)
		}
		return nil
	})
	if err == nil {
		return nil
	}
	if bad != nil && errors.Is(err, bad) {
		*c = Claims{}
		return bad
	}
	*c = Claims{}
	var le *jsonx.LimitError
	if errors.As(err, &le) {
		return &ClaimError{Err: errLimit, Cause: err}
	}
	return &ClaimError{Err: ErrMalformedClaims, Cause: err}
}

// privateSink collects what a Validator needs of the private members while
// parseClaims scans them: which required ones are present, and the raw
// values of the fields of the caller's struct, decoded once the token has
// passed every check.
type privateSink struct {
	required []string // ValidatorOptions.Required, private names
	seen     uint64   // bit i: required[i] is present
	plan     *structPlan
	aud      *[1]string // storage for a single "aud" value, or nil
	pool     stringPool // the claims set's strings, shared with the plan's fields
	raw      [16]planValue
	n        int
	overflow bool // more than len(raw) fields: decode with a second scan
}

// planValue is the value of a member of the struct's plan: field is its
// index in plan.fields, and the value is pool.src[start:end] (a claims
// set is at most MaxTokenSize bytes, by default far below 1<<31; a member
// ending beyond it is decoded by the second scan, see privateSink.member).
type planValue struct {
	field      int32
	start, end int32
	plain      bool // a string of plain bytes (stringPool.plain)
}

func (s *privateSink) member(name, value []byte, plain bool) {
	if len(s.required) > 0 && !jsonx.IsNull(value) {
		if i := slices.Index(s.required, string(name)); i >= 0 {
			s.seen |= 1 << i
		}
	}
	if s.plan == nil {
		return
	}
	for i := range s.plan.fields {
		if s.plan.fields[i].name == string(name) {
			if s.n == len(s.raw) {
				s.overflow = true
				return
			}
			start := cap(s.pool.src) - cap(value)
			if start+len(value) > math.MaxInt32 {
				// Beyond what planValue holds (a caller may raise
				// MaxTokenSize past 2 GiB): the second scan decodes it.
				s.overflow = true
				return
			}
			s.raw[s.n] = planValue{int32(i), int32(start), int32(start + len(value)), plain}
			s.n++
			return
		}
	}
}
