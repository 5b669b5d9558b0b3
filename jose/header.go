package jose

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose/internal/jsonx"
)

// Header is a JOSE Header (RFC 7515 §4, RFC 7516 §4): the registered members
// that JWS and JWE read, typed, and every other member kept as raw JSON.
//
// Binary members (apu, apv, iv, tag, p2s, ek) hold decoded bytes; they are
// base64url-encoded again by [Header.AppendJSON].
type Header struct {
	Algorithm   string   // "alg" (RFC 7515 §4.1.1, RFC 7516 §4.1.1)
	Encryption  string   // "enc" (RFC 7516 §4.1.2)
	Compression string   // "zip" (RFC 7516 §4.1.3)
	KeyID       string   // "kid" (RFC 7515 §4.1.4)
	Type        string   // "typ" (RFC 7515 §4.1.9)
	ContentType string   // "cty" (RFC 7515 §4.1.10)
	Critical    []string // "crit" (RFC 7515 §4.1.11)
	// B64 is the "b64" member of RFC 7797 §3; nil when absent (which means
	// true).
	B64 *bool

	// JWK, JKU, X5U and X5C are carried, never trusted: no verifier or
	// decrypter in this module takes its key from them or fetches anything.
	JWK *JWK     // "jwk" (RFC 7515 §4.1.3)
	JKU string   // "jku" (RFC 7515 §4.1.2)
	X5U string   // "x5u" (RFC 7515 §4.1.5)
	X5C []string // "x5c" (RFC 7515 §4.1.6), standard base64 DER certificates
	X5T string   // "x5t" (RFC 7515 §4.1.7), as encoded
	// X5TS256 is "x5t#S256" (RFC 7515 §4.1.8), as encoded.
	X5TS256 string

	EPK *JWK   // "epk" (RFC 7518 §4.6.1.1)
	APU []byte // "apu" (RFC 7518 §4.6.1.2), decoded
	APV []byte // "apv" (RFC 7518 §4.6.1.3), decoded
	IV  []byte // "iv" (RFC 7518 §4.7.1.1), decoded
	Tag []byte // "tag" (RFC 7518 §4.7.1.2), decoded
	P2S []byte // "p2s" (RFC 7518 §4.8.1.1), decoded
	P2C int    // "p2c" (RFC 7518 §4.8.1.2); 0 when absent
	// EK is "ek", the HPKE encapsulated secret of the HPKE Key Encryption
	// algorithms (draft-ietf-jose-hpke-encrypt-20 §4.1, a draft), decoded.
	EK []byte

	// Extra holds every member not listed above, by name, as raw JSON.
	Extra map[string]json.RawMessage

	// unprotected names the members that came from unprotected headers,
	// in a header made by MergeJOSEHeader ([Header.Unprotected]).
	unprotected []string
}

// Unprotected reports whether the member name of h came from an
// unprotected header: h is the JOSE Header of a JSON serialization made by
// [MergeJOSEHeader] (as jws.Verifier and jwe.Decrypter make it, and hand
// it to their key functions), and the member was not in its protected
// header, so the signature or the AAD does not cover it and anyone who
// holds the token may have changed it (RFC 7515 §7.2.1, RFC 7516 §7.2.1).
// It is false for a member h does not have, and for every member of any
// other header (a compact token's, which is protected as a whole, one
// parsed or built by the caller).
func (h *Header) Unprotected(name string) bool {
	return h != nil && h.Has(name) && slices.Contains(h.unprotected, name)
}

// Has reports whether the member name is present in h: a registered member
// or a member of Extra. A nil Header has no members.
//
// A registered string member is present when it is not empty, a binary
// member (apu, apv, iv, tag, p2s, ek) when it is not nil (so "apu":"" is kept
// as a non-nil empty slice), crit and x5c when they are not empty, b64, jwk
// and epk when not nil, p2c when not zero. As an empty value could not be
// told from an absent member, [ParseHeader] refuses empty registered
// strings, an empty crit or x5c and a p2c that is not positive: none of
// them is meaningful (RFC 7515 §4.1, RFC 7518 §4.8.1.2); nor is an empty
// ek.
func (h *Header) Has(name string) bool {
	if h == nil {
		return false
	}
	if i := headerIndex(name); i >= 0 && headerMembers[i].has(h) {
		return true
	}
	_, ok := h.Extra[name]
	return ok
}

// Names returns the names of the members present in h, in the order
// [Header.AppendJSON] writes them.
func (h *Header) Names() []string {
	if h == nil {
		return nil
	}
	var names []string
	for i := range headerMembers {
		if headerMembers[i].has(h) {
			names = append(names, headerMembers[i].name)
		}
	}
	for _, name := range h.extraNames() {
		if !IsRegisteredHeader(name) || !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names
}

// Get returns the value of the member name as JSON, as [Header.AppendJSON]
// would write it, and whether it is present. For a member of Extra it is
// the stored value itself, not a copy.
func (h *Header) Get(name string) (json.RawMessage, bool) {
	if h == nil {
		return nil, false
	}
	if i := headerIndex(name); i >= 0 && headerMembers[i].has(h) {
		v, err := headerMembers[i].value(nil, h)
		if err != nil {
			return nil, false
		}
		return v, true
	}
	v, ok := h.Extra[name]
	return v, ok
}

// Set sets the member name to value, marshalled with encoding/json, with
// the rules of [ParseHeader]: a registered member must have its registered
// type (Set("kid", "k1") sets KeyID; binary members take their base64url
// string form, as in JSON) and replaces the typed field, and a member of
// that name in Extra ([HeaderUse]); any other name
// goes to Extra. Errors wrap [ErrMalformed] and leave h unchanged.
func (h *Header) Set(name string, value any) error {
	raw, err := json.Marshal(value)
	if err != nil {
		return fmt.Errorf("jose: header member %s: %w: %w", untrusted.Quote(name), err, ErrMalformed)
	}
	if err := jsonx.Valid(raw, jsonx.Limits{}); err != nil {
		return headerMemberError(name, err)
	}
	var tmp Header
	if i := headerIndex(name); i >= 0 {
		m := &headerMembers[i]
		if err := m.decode(&tmp, raw, nil); err != nil {
			return headerMemberError(name, err)
		}
		m.copy(h, &tmp)
		delete(h.Extra, name) // kept there, unread, by a header of the other kind (HeaderUse)
		return nil
	}
	if h.Extra == nil {
		h.Extra = make(map[string]json.RawMessage)
	}
	h.Extra[name] = raw
	return nil
}

// Del removes the member name from h, registered or in Extra.
func (h *Header) Del(name string) {
	if i := headerIndex(name); i >= 0 {
		headerMembers[i].del(h)
	}
	delete(h.Extra, name)
}

// Clone returns a deep copy of h, except that jwk and epk point to the same
// [JWK] values. Clone of nil is nil.
func (h *Header) Clone() *Header {
	if h == nil {
		return nil
	}
	c := new(Header)
	for i := range headerMembers {
		headerMembers[i].copy(c, h)
	}
	c.unprotected = slices.Clone(h.unprotected)
	if h.Extra != nil {
		c.Extra = make(map[string]json.RawMessage, len(h.Extra))
		for name, v := range h.Extra {
			c.Extra[name] = bytes.Clone(v)
		}
	}
	return c
}

// ValuesOnly reports whether h holds only string and integer members (no
// crit, b64, jwk, x5c, epk, apu, apv, iv, tag, p2s, ek nor Extra member:
// RFC 7515 §4.1, RFC 7516 §4.1, RFC 7518 §4.6-4.8), so that a struct copy
// (*h) shares no memory with h. Caches of parsed headers hand out such
// copies.
func (h *Header) ValuesOnly() bool {
	return h.Critical == nil && h.B64 == nil && h.JWK == nil && h.X5C == nil &&
		h.EPK == nil && h.APU == nil && h.APV == nil && h.IV == nil && h.Tag == nil &&
		h.P2S == nil && h.EK == nil && h.Extra == nil && h.unprotected == nil
}

// MergeJOSEHeader returns the JOSE Header of a JWS or JWE JSON
// serialization: the union of the members of the protected header
// protected (or nil) and of the unprotected headers unprotected (shared,
// then per signature or per recipient; RFC 7515 §7.2.1, RFC 7516 §7.2.1),
// recording which members came from the unprotected ones:
// [Header.Unprotected] reports it. A member name present in more than one
// header is refused with an error wrapping [ErrMalformed] that names it.
// Nil headers are skipped. The result is a deep copy, as [Header.Clone]
// makes. jws and jwe make the JOSE Header of a JSON serialization so.
func MergeJOSEHeader(protected *Header, unprotected ...*Header) (*Header, error) {
	out := new(Header)
	if err := out.merge(protected, false); err != nil {
		return nil, err
	}
	for _, u := range unprotected {
		if err := out.merge(u, true); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// merge adds a deep copy of the members of h (nil: none) to out, refusing
// a name out already has; with unprotected, their names are recorded.
func (out *Header) merge(h *Header, unprotected bool) error {
	if h == nil {
		return nil
	}
	for i := range headerMembers {
		m := &headerMembers[i]
		if !m.has(h) {
			continue
		}
		if out.Has(m.name) {
			return fmt.Errorf("jose: header member %s in more than one header: %w", untrusted.Quote(m.name), ErrMalformed)
		}
		m.copy(out, h)
		if unprotected {
			out.unprotected = append(out.unprotected, m.name)
		}
	}
	for name, v := range h.Extra {
		if out.Has(name) {
			return fmt.Errorf("jose: header member %s in more than one header: %w", untrusted.Quote(name), ErrMalformed)
		}
		if out.Extra == nil {
			out.Extra = make(map[string]json.RawMessage, len(h.Extra))
		}
		out.Extra[name] = bytes.Clone(v)
		if unprotected {
			out.unprotected = append(out.unprotected, name)
		}
	}
	return nil
}
