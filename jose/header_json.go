package jose

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose/internal/jsonx"
)

func appendStringArray(dst []byte, a []string) []byte {
	dst = append(dst, '[')
	for i, s := range a {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendString(dst, s)
	}
	return append(dst, ']')
}

// headerJSONLimits are the jsonx limits of lim.
func headerJSONLimits(lim Limits) jsonx.Limits {
	return jsonx.Limits{MaxDepth: lim.MaxJSONDepth, MaxMembers: lim.MaxHeaderMembers}
}

// wrapJSONError turns an error of package jsonx into one wrapping
// ErrLimitExceeded or ErrMalformed; errors already wrapping a jose sentinel
// are returned as they are.
func wrapJSONError(what string, err error) error {
	var le *jsonx.LimitError
	switch {
	case errors.As(err, &le):
		return fmt.Errorf("jose: %s: %w: %w", what, err, ErrLimitExceeded)
	case isJoseError(err):
		return err
	}
	return fmt.Errorf("jose: %s: %w: %w", what, err, ErrMalformed)
}

func isJoseError(err error) bool {
	return errors.Is(err, ErrMalformed) || errors.Is(err, ErrLimitExceeded) ||
		errors.Is(err, ErrInvalidKey) || errors.Is(err, ErrUnsupportedAlgorithm) ||
		errors.Is(err, ErrAlgorithmNotAllowed)
}

// headerMemberError is the error for a registered member name whose value
// is refused.
func headerMemberError(name string, err error) error {
	if isJoseError(err) {
		// This package's own error (of the key or base64url reader)
		// already reads "jose: ...": the package is named once.
		prefix := "jose: header member " + untrusted.Quote(name) + ": "
		if msg, ok := strings.CutPrefix(err.Error(), "jose: "); ok {
			return &memberError{msg: prefix + msg, err: err}
		}
		return fmt.Errorf("%s%w", prefix, err)
	}
	var le *jsonx.LimitError
	if errors.As(err, &le) {
		return fmt.Errorf("jose: header member %s: %w: %w", untrusted.Quote(name), err, ErrLimitExceeded)
	}
	return fmt.Errorf("jose: header member %s: %w: %w", untrusted.Quote(name), err, ErrMalformed)
}

// memberError is an error under the context of a header member, with
// its own text: that of err without a repeated package name.
type memberError struct {
	msg string
	err error
}

func (e *memberError) Error() string { return e.msg }
func (e *memberError) Unwrap() error { return e.err }

// ParseHeader parses data, the JSON text of a JOSE Header (RFC 7515 §4,
// RFC 7516 §4), decoded from base64url by the caller.
//
// data must be a JSON object (RFC 7515 §5.2 step 4) that jsonx accepts
// (strict RFC 8259: valid UTF-8, no lone surrogates, no trailing data) with
// no duplicate member names (RFC 7515 §5.2, RFC 7516 §5.2), at any depth.
// lim.MaxHeaderSize is checked before anything else, then
// lim.MaxHeaderMembers (members of the header and of every nested object)
// and lim.MaxJSONDepth while scanning; zero fields mean the defaults
// ([Limits.WithDefaults]).
//
// Registered members must have their registered type:
//   - alg, enc, zip, kid, typ, cty, jku, x5u: non-empty strings;
//   - x5t, x5t#S256: base64url strings of a 20- or 32-byte digest;
//   - crit: a non-empty array of distinct non-empty strings;
//   - b64: a boolean (RFC 7797 §3);
//   - x5c: a non-empty array of standard base64 strings;
//   - jwk, epk: public JWKs. A member that carries secret material (d, p,
//     q, dp, dq, qi, oth, k, r, t) or "kty":"oct" is refused on its name
//     alone, before any key is built; the rest is parsed and checked with
//     [ParseKey];
//   - apu, apv, iv, tag, p2s: strict base64url strings ([Base64URLDecode]);
//   - p2c: an integer from 1 to 2^31-1 (RFC 7518 §4.8.1.2 requires a
//     positive count; the PBES2 layer applies [Limits.PBES2MinCount] and
//     [Limits.PBES2MaxCount]).
//
// Every other member is kept in Extra as raw JSON. Whether alg, enc and zip
// name supported algorithms, and whether crit is honoured, is for jws and
// jwe to decide. ParseHeader reads the members of both; a verifier or
// decrypter reads its header with [JWSHeader] or [JWEHeader], which leave
// the other's members unread ([HeaderUse]).
//
// The returned Header does not alias data: strings are copied (or are
// constants for well-known values), binary members are decoded into new
// slices and Extra values are copied.
//
// Errors wrap [ErrLimitExceeded] for limits and [ErrMalformed] otherwise
// (jwk and epk errors from [ParseKey] keep their own sentinel), and name
// the offending member.
func ParseHeader(data []byte, lim Limits) (*Header, error) {
	h := new(Header)
	if err := AnyHeader.ParseInto(h, data, lim); err != nil {
		return nil, err
	}
	return h, nil
}

// A HeaderUse is the kind of token a JOSE Header is read for, which decides
// the registered members it reads. A JWS understands the members of
// RFC 7515 and RFC 7797 (b64); a JWE those of RFC 7516 and RFC 7518
// §4.6-4.8 (enc, zip, epk, apu, apv, iv, tag, p2s, p2c) and ek
// (draft-ietf-jose-hpke-encrypt-20 §4.1); both alg, kid, typ, cty, crit,
// jku, jwk, x5u, x5c, x5t and x5t#S256. A header read for one kind leaves
// the members only the other defines unread: they are members it does not
// understand, which RFC 7515 §4 and RFC 7516 §4 say to ignore, so they are
// kept in Extra as raw JSON, whatever their type ("zip": 1 in a JWS header
// is not an error; jws.Verifier still refuses a header holding "enc",
// which marks a JWE, RFC 7516 §9). Every member the kind reads has the
// rules of [ParseHeader].
type HeaderUse uint8

const (
	// AnyHeader reads every registered member of JWS and JWE, as
	// [ParseHeader] does: for a header whose kind is not known.
	AnyHeader HeaderUse = iota
	// JWSHeader reads a JWS header (jws.Verifier reads its headers so).
	JWSHeader
	// JWEHeader reads a JWE header (jwe.Decrypter reads its headers so).
	JWEHeader
)

// Reads reports whether a header of kind u reads the registered member
// name (gives it its typed field and checks its type); false for a name
// that is not registered ([IsRegisteredHeader]), which goes to Extra.
func (u HeaderUse) Reads(name string) bool {
	i := headerIndex(name)
	return i >= 0 && u.reads(i)
}

// reads is Reads for the member of index i of headerMembers.
func (u HeaderUse) reads(i int) bool {
	switch headerMembers[i].name {
	case "enc", "zip", "epk", "apu", "apv", "iv", "tag", "p2s", "p2c", "ek":
		return u != JWSHeader
	case "b64":
		return u != JWEHeader
	}
	return true
}

// Parse is [ParseHeader] for a header of kind u.
func (u HeaderUse) Parse(data []byte, lim Limits) (*Header, error) {
	h := new(Header)
	if err := u.ParseInto(h, data, lim); err != nil {
		return nil, err
	}
	return h, nil
}

// ParseInto is [HeaderUse.Parse] into *h, which it overwrites (on error *h
// holds partial results): a verifier or decrypter parses into the Header
// storage of the message it returns, without allocating a Header.
func (u HeaderUse) ParseInto(h *Header, data []byte, lim Limits) error {
	return u.parseInto(h, data, lim, nil)
}

// parseInto is [HeaderUse.ParseInto], counting the full RSA validations of
// a "jwk" or "epk" in v.
func (u HeaderUse) parseInto(h *Header, data []byte, lim Limits, v *validations) error {
	lim = lim.WithDefaults()
	if len(data) > lim.MaxHeaderSize {
		return fmt.Errorf("jose: header of %d bytes, more than %d: %w", len(data), lim.MaxHeaderSize, ErrLimitExceeded)
	}
	*h = Header{}
	set := func(name, raw []byte) error { return h.setRaw(u, name, raw, v) }
	if err := jsonx.ScanObject(data, headerJSONLimits(lim), set); err != nil {
		return wrapJSONError("header", err)
	}
	return nil
}

// setRaw sets the member name to the raw JSON value raw, validated by
// jsonx, with the rules of ParseHeader for a header of kind u. It is
// called once per name.
func (h *Header) setRaw(u HeaderUse, name, raw []byte, v *validations) error {
	i := headerIndex(name)
	if i < 0 || !u.reads(i) {
		if h.Extra == nil {
			h.Extra = make(map[string]json.RawMessage, 2)
		}
		h.Extra[string(name)] = bytes.Clone(raw)
		return nil
	}
	m := &headerMembers[i]
	if err := m.decode(h, raw, v); err != nil {
		return headerMemberError(m.name, err)
	}
	return nil
}

// AppendJSON appends the JSON text of h to dst (RFC 7515 §4, RFC 7516 §4):
// one object without whitespace, the registered members that are present
// in the order alg, enc, zip, kid, typ, cty, b64, crit, jku, jwk, x5u, x5c,
// x5t, x5t#S256, epk, apu, apv, iv, tag, p2s, p2c, then the members of
// Extra sorted by name. Binary members are written in base64url, jwk and
// epk with [JWK.MarshalJSON]; Extra values are written as they are, after
// checking that each is strict JSON. The output is deterministic, and it
// reads back to an equal Header with the reader that made h: [ParseHeader]
// for a header it parsed or one built with typed fields, the same
// [HeaderUse] for a header read for a JWS or a JWE (whose Extra may keep
// the other kind's members: ParseHeader would read those, and refuse
// "zip": 1).
//
// It refuses (with an error wrapping [ErrMalformed]) an Extra member with a
// registered name, unless it is one a JWS or a JWE header does not read
// ([HeaderUse]) and h does not hold it typed as well (a header read for
// one kind keeps the other's members there; written, it reads back with
// the same kind), a name that is not UTF-8 or a value that is not JSON,
// a jwk or epk holding a private or symmetric key (it would publish the
// secret), and a p2c that is not a positive 32-bit integer. On error dst is returned
// unchanged.
func (h *Header) AppendJSON(dst []byte) ([]byte, error) {
	start := len(dst)
	dst = append(dst, '{')
	for i := range headerMembers {
		m := &headerMembers[i]
		if !m.has(h) {
			continue
		}
		if len(dst) > start+1 {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = append(dst, m.name...)
		dst = append(dst, '"', ':')
		var err error
		if dst, err = m.value(dst, h); err != nil {
			return dst[:start], headerMemberError(m.name, err)
		}
	}
	if len(h.Extra) > 0 {
		for _, name := range h.extraNames() {
			if i := headerIndex(name); i >= 0 && ((JWSHeader.reads(i) && JWEHeader.reads(i)) || headerMembers[i].has(h)) {
				return dst[:start], fmt.Errorf("jose: header: registered member %s in Extra: %w", untrusted.Quote(name), ErrMalformed)
			}
			if !utf8.ValidString(name) {
				return dst[:start], fmt.Errorf("jose: header: member name %s is not UTF-8: %w", untrusted.Quote(name), ErrMalformed)
			}
			v := h.Extra[name]
			if err := jsonx.Valid(v, jsonx.Limits{}); err != nil {
				return dst[:start], headerMemberError(name, err)
			}
			if len(dst) > start+1 {
				dst = append(dst, ',')
			}
			dst = jsonx.AppendString(dst, name)
			dst = append(dst, ':')
			dst = append(dst, v...)
		}
	}
	return append(dst, '}'), nil
}

// MarshalJSON returns the JSON text of h, as [Header.AppendJSON] writes
// it.
func (h *Header) MarshalJSON() ([]byte, error) {
	return h.AppendJSON(nil)
}

// UnmarshalJSON parses data as [ParseHeader] does with the default
// [Limits] and, on success, replaces h. The JSON of a header read for one
// kind ([HeaderUse]) that keeps the other kind's members is read back with
// that HeaderUse, not with UnmarshalJSON.
func (h *Header) UnmarshalJSON(data []byte) error {
	nh, err := ParseHeader(data, Limits{})
	if err != nil {
		return err
	}
	*h = *nh
	return nil
}

func (h *Header) extraNames() []string {
	names := make([]string, 0, len(h.Extra))
	for name := range h.Extra {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
