// Package headers holds the JOSE Header rules jws and jwe share beyond
// parsing: the "crit" rules of reading (RFC 7515 §4.1.11, RFC 7516
// §4.1.13) and the one protected-header writer of jws.Signer and
// jwe.Encrypter: they fill a [jose.Header] with the members they own, add
// the caller's extensions with [SetExtensions] and encode it once with
// [EncodeProtected]; per-message members (jwe's epk, iv, tag, p2s, p2c)
// are set on a copy and written with [jose.Header.AppendJSON].
package headers

import (
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/b64enc"
)

// CheckCritical applies the "crit" rules of RFC 7515 §4.1.11 (for JWE,
// RFC 7516 §4.1.13) to a JOSE Header made of the protected header p and the
// unprotected headers u (nil entries are skipped):
//
//   - "crit" appears only in p;
//   - when present it is a non-empty list of distinct names;
//   - it names no header parameter defined by RFC 7515, RFC 7516 or
//     RFC 7518 ("b64" of RFC 7797 is an extension and may be listed);
//   - every name is in understood, the extensions the caller implements;
//   - every name is present in the JOSE Header.
//
// Errors wrap [jose.ErrUnsupportedCritical] for a name not understood and
// [jose.ErrMalformed] otherwise.
func CheckCritical(p *jose.Header, understood []string, u ...*jose.Header) error {
	for _, h := range u {
		if h != nil && h.Critical != nil {
			return fmt.Errorf(`jose: "crit" in an unprotected header (RFC 7515 §4.1.11): %w`, jose.ErrMalformed)
		}
	}
	if p == nil || p.Critical == nil {
		return nil
	}
	if len(p.Critical) == 0 {
		return fmt.Errorf(`jose: "crit" is empty (RFC 7515 §4.1.11): %w`, jose.ErrMalformed)
	}
	for i, name := range p.Critical {
		if name != "b64" && jose.IsRegisteredHeader(name) {
			return fmt.Errorf(`jose: "crit" lists the registered header %s (RFC 7515 §4.1.11): %w`, untrusted.Quote(name), jose.ErrMalformed)
		}
		if slices.Contains(p.Critical[:i], name) {
			return fmt.Errorf(`jose: "crit" lists %s twice: %w`, untrusted.Quote(name), jose.ErrMalformed)
		}
		if !slices.Contains(understood, name) {
			return fmt.Errorf("jose: critical header %s is not understood: %w", untrusted.Quote(name), jose.ErrUnsupportedCritical)
		}
		if !p.Has(name) && !slices.ContainsFunc(u, func(h *jose.Header) bool { return h != nil && h.Has(name) }) {
			return fmt.Errorf(`jose: "crit" lists %s, absent from the header: %w`, untrusted.Quote(name), jose.ErrMalformed)
		}
	}
	return nil
}

// SetExtensions adds the caller's members to h, a header that a signer or
// encrypter is about to write: each member of extra is set with
// [jose.Header.Set] (a registered name must have its registered type; any other
// goes to Extra), and the names in critical, which must be members of
// extra, are appended to h.Critical (RFC 7515 §4.1.11, RFC 7516 §4.1.13).
//
// It refuses, with an error wrapping [jose.ErrMalformed]: "crit" in extra (use
// critical), a name in owned (the members the writer sets itself) or
// already in h; and in critical a registered name (as [CheckCritical]
// refuses them, "b64" included: the writer lists it itself), a name absent
// from extra, or one listed twice.
func SetExtensions(h *jose.Header, extra map[string]any, critical []string, owned ...string) error {
	names := make([]string, 0, len(extra))
	for name := range extra {
		names = append(names, name)
	}
	slices.Sort(names) // deterministic errors
	for _, name := range names {
		if name == "crit" || slices.Contains(owned, name) || h.Has(name) {
			return fmt.Errorf("jose: header member %s is set by the writer, not through the extra members: %w", untrusted.Quote(name), jose.ErrMalformed)
		}
		if err := h.Set(name, extra[name]); err != nil {
			return err
		}
	}
	for _, c := range critical {
		switch {
		case jose.IsRegisteredHeader(c):
			return fmt.Errorf("jose: registered header %s cannot be listed in crit: %w", untrusted.Quote(c), jose.ErrMalformed)
		case !slices.Contains(names, c):
			return fmt.Errorf("jose: critical member %s is not an extra member: %w", untrusted.Quote(c), jose.ErrMalformed)
		case slices.Contains(h.Critical, c):
			return fmt.Errorf("jose: critical member %s listed twice: %w", untrusted.Quote(c), jose.ErrMalformed)
		}
		h.Critical = append(h.Critical, c)
	}
	return nil
}

// EncodeProtected returns BASE64URL(UTF8(JSON)) of h, the Encoded Protected
// Header (RFC 7515 §7.1, RFC 7516 §7.1) with the JSON text that
// [jose.Header.AppendJSON] writes, and the header as a verifier or decrypter
// reads it back, after checking that every one with the default [jose.Limits]
// will: [jose.ParseHeader] accepts the text and its crit passes [CheckCritical]
// with its own names understood. The header read back is h itself when h
// holds only plain strings (and b64, crit), which read back unchanged; the
// caller must then not modify h. Signers and encrypters call it once, when
// they are made.
func EncodeProtected(h *jose.Header) ([]byte, *jose.Header, error) {
	// One buffer holds the JSON text and then, when it fits, its encoding
	// (a typical header is well under 100 bytes of JSON): the text cannot
	// stay on the stack, AppendJSON's writers are reached through function
	// values.
	buf := make([]byte, 0, 256)
	data, err := h.AppendJSON(buf)
	if err != nil {
		return nil, nil, err
	}
	back := h
	if !plainStrings(h) || len(data) > jose.DefaultMaxHeaderSize {
		if back, err = jose.ParseHeader(data, jose.Limits{}); err != nil {
			return nil, nil, err
		}
	}
	if err := CheckCritical(back, back.Critical); err != nil {
		return nil, nil, err
	}
	enc := data[len(data):len(data)]
	if n := b64enc.EncodedLen(len(data)); cap(enc) < n {
		enc = make([]byte, 0, n)
	}
	enc = b64enc.Append(enc, data)
	return enc[:len(enc):len(enc)], back, nil
}

// plainStrings reports whether h holds only plain string members (alg, enc,
// zip, kid, typ, cty, jku, x5u, each valid UTF-8), b64 and crit: a header
// that ParseHeader reads back from AppendJSON's text unchanged, whatever
// the values, when the text is within the size limit. TestEncodeProtected
// compares the two.
func plainStrings(h *jose.Header) bool {
	if h.Extra != nil || h.JWK != nil || h.EPK != nil || h.X5C != nil || h.X5T != "" || h.X5TS256 != "" ||
		h.APU != nil || h.APV != nil || h.IV != nil || h.Tag != nil || h.P2S != nil || h.P2C != 0 || h.EK != nil ||
		len(h.Critical) > jose.DefaultMaxHeaderMembers {
		return false
	}
	for _, s := range [...]string{h.Algorithm, h.Encryption, h.Compression, h.KeyID, h.Type, h.ContentType, h.JKU, h.X5U} {
		if !utf8.ValidString(s) {
			return false
		}
	}
	for _, c := range h.Critical {
		if c == "" || !utf8.ValidString(c) {
			return false
		}
	}
	return true
}
