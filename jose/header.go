package jose

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/josebench/josebench/jose/internal/jsonx"
)

// Header is a JOSE Header (RFC 7515 §4, RFC 7516 §4): the registered members
// that JWS and JWE read, typed, and every other member kept as raw JSON.
//
// Binary members (apu, apv, iv, tag, p2s) hold decoded bytes; they are
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

	// Extra holds every member not listed above, by name, as raw JSON.
	Extra map[string]json.RawMessage
}

// headerMember describes one registered member: how to tell it is present,
// copy it, remove it, decode it and write its value.
type headerMember struct {
	name   string
	has    func(h *Header) bool
	copy   func(dst, src *Header) // deep copy, except *JWK pointers
	del    func(h *Header)
	decode func(h *Header, raw []byte) error
	value  func(dst []byte, h *Header) ([]byte, error)
}

// headerMembers are the registered members in the order AppendJSON writes
// them.
var headerMembers = [...]headerMember{
	headerString("alg", func(h *Header) *string { return &h.Algorithm }, true, nil),
	headerString("enc", func(h *Header) *string { return &h.Encryption }, true, nil),
	headerString("zip", func(h *Header) *string { return &h.Compression }, true, nil),
	headerString("kid", func(h *Header) *string { return &h.KeyID }, false, nil),
	headerString("typ", func(h *Header) *string { return &h.Type }, true, nil),
	headerString("cty", func(h *Header) *string { return &h.ContentType }, true, nil),
	{
		name: "crit",
		has:  func(h *Header) bool { return len(h.Critical) > 0 },
		copy: func(dst, src *Header) { dst.Critical = slices.Clone(src.Critical) },
		del:  func(h *Header) { h.Critical = nil },
		decode: func(h *Header, raw []byte) error {
			crit, err := decodeCritical(raw)
			h.Critical = crit
			return err
		},
		value: func(dst []byte, h *Header) ([]byte, error) { return appendStringArray(dst, h.Critical), nil },
	},
	{
		name: "b64",
		has:  func(h *Header) bool { return h.B64 != nil },
		copy: func(dst, src *Header) {
			if src.B64 != nil {
				v := *src.B64
				dst.B64 = &v
			}
		},
		del: func(h *Header) { h.B64 = nil },
		decode: func(h *Header, raw []byte) error {
			v, err := jsonx.Bool(raw)
			if err != nil {
				return err
			}
			h.B64 = &v
			return nil
		},
		value: func(dst []byte, h *Header) ([]byte, error) { return strconv.AppendBool(dst, *h.B64), nil },
	},
	headerString("jku", func(h *Header) *string { return &h.JKU }, false, nil),
	headerKey("jwk", func(h *Header) **JWK { return &h.JWK }),
	headerString("x5u", func(h *Header) *string { return &h.X5U }, false, nil),
	{
		name: "x5c",
		has:  func(h *Header) bool { return len(h.X5C) > 0 },
		copy: func(dst, src *Header) { dst.X5C = slices.Clone(src.X5C) },
		del:  func(h *Header) { h.X5C = nil },
		decode: func(h *Header, raw []byte) error {
			x5c, err := decodeX5C(raw)
			h.X5C = x5c
			return err
		},
		value: func(dst []byte, h *Header) ([]byte, error) { return appendStringArray(dst, h.X5C), nil },
	},
	headerString("x5t", func(h *Header) *string { return &h.X5T }, false, thumbprintCheck(20)),
	headerString("x5t#S256", func(h *Header) *string { return &h.X5TS256 }, false, thumbprintCheck(32)),
	headerKey("epk", func(h *Header) **JWK { return &h.EPK }),
	headerBytes("apu", func(h *Header) *[]byte { return &h.APU }),
	headerBytes("apv", func(h *Header) *[]byte { return &h.APV }),
	headerBytes("iv", func(h *Header) *[]byte { return &h.IV }),
	headerBytes("tag", func(h *Header) *[]byte { return &h.Tag }),
	headerBytes("p2s", func(h *Header) *[]byte { return &h.P2S }),
	{
		name: "p2c",
		has:  func(h *Header) bool { return h.P2C != 0 },
		copy: func(dst, src *Header) { dst.P2C = src.P2C },
		del:  func(h *Header) { h.P2C = 0 },
		decode: func(h *Header, raw []byte) error {
			v, err := jsonx.Int64(raw)
			if err != nil {
				return err
			}
			if v <= 0 || v > math.MaxInt32 {
				return errors.New("not a positive 32-bit integer")
			}
			h.P2C = int(v)
			return nil
		},
		value: func(dst []byte, h *Header) ([]byte, error) {
			if h.P2C <= 0 || h.P2C > math.MaxInt32 {
				return dst, errors.New("not a positive 32-bit integer")
			}
			return strconv.AppendInt(dst, int64(h.P2C), 10), nil
		},
	},
}

// headerIndex returns the index in headerMembers of the registered member
// name, or -1.
func headerIndex[T string | []byte](name T) int {
	switch string(name) {
	case "alg":
		return 0
	case "enc":
		return 1
	case "zip":
		return 2
	case "kid":
		return 3
	case "typ":
		return 4
	case "cty":
		return 5
	case "crit":
		return 6
	case "b64":
		return 7
	case "jku":
		return 8
	case "jwk":
		return 9
	case "x5u":
		return 10
	case "x5c":
		return 11
	case "x5t":
		return 12
	case "x5t#S256":
		return 13
	case "epk":
		return 14
	case "apu":
		return 15
	case "apv":
		return 16
	case "iv":
		return 17
	case "tag":
		return 18
	case "p2s":
		return 19
	case "p2c":
		return 20
	}
	return -1
}

// IsRegisteredHeader reports whether name is a Header Parameter Name that
// [Header] holds in a typed field: those of RFC 7515 §4.1, RFC 7516 §4.1,
// RFC 7518 §4.6.1, §4.7.1 and §4.8.1, and "b64" of RFC 7797 §3. Every other
// name goes to [Header.Extra].
func IsRegisteredHeader(name string) bool { return headerIndex(name) >= 0 }

func headerString(name string, field func(*Header) *string, intern bool, check func(string) error) headerMember {
	return headerMember{
		name: name,
		has:  func(h *Header) bool { return *field(h) != "" },
		copy: func(dst, src *Header) { *field(dst) = *field(src) },
		del:  func(h *Header) { *field(h) = "" },
		decode: func(h *Header, raw []byte) error {
			b, err := jsonx.StringBytes(raw)
			if err != nil {
				return err
			}
			if len(b) == 0 {
				return errors.New("empty string")
			}
			var s string
			if intern {
				s = internHeaderValue(b)
			} else {
				s = string(b)
			}
			if check != nil {
				if err := check(s); err != nil {
					return err
				}
			}
			*field(h) = s
			return nil
		},
		value: func(dst []byte, h *Header) ([]byte, error) { return jsonx.AppendString(dst, *field(h)), nil },
	}
}

// thumbprintCheck returns a check that a certificate thumbprint (RFC 7515
// §4.1.7, §4.1.8) is strict base64url of size bytes.
func thumbprintCheck(size int) func(string) error {
	return func(s string) error {
		if len(s) != b64.EncodedLen(size) {
			return fmt.Errorf("not the base64url encoding of a %d-byte digest", size)
		}
		_, err := Base64URLDecode(s)
		return err
	}
}

func headerBytes(name string, field func(*Header) *[]byte) headerMember {
	return headerMember{
		name: name,
		has:  func(h *Header) bool { return *field(h) != nil },
		copy: func(dst, src *Header) { *field(dst) = bytes.Clone(*field(src)) },
		del:  func(h *Header) { *field(h) = nil },
		decode: func(h *Header, raw []byte) error {
			s, err := jsonx.StringBytes(raw)
			if err != nil {
				return err
			}
			b, err := Base64URLDecode(s)
			if err != nil {
				return err
			}
			if b == nil {
				b = []byte{}
			}
			*field(h) = b
			return nil
		},
		value: func(dst []byte, h *Header) ([]byte, error) {
			dst = append(dst, '"')
			dst = AppendBase64URL(dst, *field(h))
			return append(dst, '"'), nil
		},
	}
}

func headerKey(name string, field func(*Header) **JWK) headerMember {
	return headerMember{
		name: name,
		has:  func(h *Header) bool { return *field(h) != nil },
		copy: func(dst, src *Header) { *field(dst) = *field(src) },
		del:  func(h *Header) { *field(h) = nil },
		decode: func(h *Header, raw []byte) error {
			if jsonx.KindOf(raw) != jsonx.KindObject {
				return &jsonx.TypeError{Want: "object", Got: jsonx.KindOf(raw)}
			}
			// ParseKey may keep subslices of its input (unknown members):
			// give it a copy so that the Header never aliases the data.
			k, err := ParseKey(bytes.Clone(raw))
			if err != nil {
				return err
			}
			if k.IsPrivate() {
				return errSecretInHeader
			}
			*field(h) = k
			return nil
		},
		value: func(dst []byte, h *Header) ([]byte, error) {
			k := *field(h)
			if k.IsPrivate() {
				return dst, errSecretInHeader
			}
			n := len(dst)
			dst, err := k.AppendJSON(dst)
			if err != nil {
				return dst[:n], err
			}
			if err := jsonx.Valid(dst[n:], jsonx.Limits{}); err != nil {
				return dst[:n], err
			}
			return dst, nil
		},
	}
}

// errSecretInHeader refuses a private or symmetric key as "jwk" or "epk":
// both carry public keys only (RFC 7515 §4.1.3, RFC 7518 §4.6.1.1), and
// writing one would publish the secret.
var errSecretInHeader = errors.New("secret key material in a header (only public keys belong there)")

// internHeaderValue returns b as a string, without allocating for the
// values registered by RFC 7518 and RFC 7519 that tokens carry most.
func internHeaderValue(b []byte) string {
	switch string(b) {
	case "HS256":
		return "HS256"
	case "HS384":
		return "HS384"
	case "HS512":
		return "HS512"
	case "RS256":
		return "RS256"
	case "RS384":
		return "RS384"
	case "RS512":
		return "RS512"
	case "ES256":
		return "ES256"
	case "ES384":
		return "ES384"
	case "ES512":
		return "ES512"
	case "PS256":
		return "PS256"
	case "PS384":
		return "PS384"
	case "PS512":
		return "PS512"
	case "EdDSA":
		return "EdDSA"
	case "Ed25519":
		return "Ed25519"
	case "none":
		return "none"
	case "RSA1_5":
		return "RSA1_5"
	case "RSA-OAEP":
		return "RSA-OAEP"
	case "RSA-OAEP-256":
		return "RSA-OAEP-256"
	case "A128KW":
		return "A128KW"
	case "A192KW":
		return "A192KW"
	case "A256KW":
		return "A256KW"
	case "dir":
		return "dir"
	case "ECDH-ES":
		return "ECDH-ES"
	case "ECDH-ES+A128KW":
		return "ECDH-ES+A128KW"
	case "ECDH-ES+A192KW":
		return "ECDH-ES+A192KW"
	case "ECDH-ES+A256KW":
		return "ECDH-ES+A256KW"
	case "A128GCMKW":
		return "A128GCMKW"
	case "A192GCMKW":
		return "A192GCMKW"
	case "A256GCMKW":
		return "A256GCMKW"
	case "PBES2-HS256+A128KW":
		return "PBES2-HS256+A128KW"
	case "PBES2-HS384+A192KW":
		return "PBES2-HS384+A192KW"
	case "PBES2-HS512+A256KW":
		return "PBES2-HS512+A256KW"
	case "A128CBC-HS256":
		return "A128CBC-HS256"
	case "A192CBC-HS384":
		return "A192CBC-HS384"
	case "A256CBC-HS512":
		return "A256CBC-HS512"
	case "A128GCM":
		return "A128GCM"
	case "A192GCM":
		return "A192GCM"
	case "A256GCM":
		return "A256GCM"
	case "DEF":
		return "DEF"
	case "JWT":
		return "JWT"
	case "JOSE":
		return "JOSE"
	case "JOSE+JSON":
		return "JOSE+JSON"
	case "jwt":
		return "jwt"
	case "at+jwt":
		return "at+jwt"
	case "application/json":
		return "application/json"
	}
	return string(b)
}

// decodeCritical decodes "crit" (RFC 7515 §4.1.11): a non-empty array of
// distinct, non-empty names. Whether the names are understood, registered
// or present is for jws and jwe to check.
func decodeCritical(raw []byte) ([]string, error) {
	crit, err := jsonx.StringArray(raw)
	if err != nil {
		return nil, err
	}
	if len(crit) == 0 {
		return nil, errors.New("empty list")
	}
	var seen map[string]bool
	if len(crit) > 8 {
		seen = make(map[string]bool, len(crit))
	}
	for i, name := range crit {
		if name == "" {
			return nil, errors.New("empty name")
		}
		dup := false
		if seen != nil {
			dup = seen[name]
			seen[name] = true
		} else {
			dup = slices.Contains(crit[:i], name)
		}
		if dup {
			return nil, fmt.Errorf("name %q listed twice", name)
		}
	}
	return crit, nil
}

// stdBase64 is the padded standard alphabet of x5c (RFC 7515 §4.1.6),
// decoded strictly.
var stdBase64 = base64.StdEncoding.Strict()

// decodeX5C decodes "x5c" (RFC 7515 §4.1.6): a non-empty array of base64
// (not base64url) DER certificates. The strings are checked to be strict
// base64; the certificates are not parsed.
func decodeX5C(raw []byte) ([]string, error) {
	x5c, err := jsonx.StringArray(raw)
	if err != nil {
		return nil, err
	}
	if len(x5c) == 0 {
		return nil, errors.New("empty list")
	}
	for i, c := range x5c {
		if c == "" || strings.ContainsAny(c, "\r\n") {
			return nil, fmt.Errorf("certificate %d is not base64", i)
		}
		if _, err := stdBase64.DecodeString(c); err != nil {
			return nil, fmt.Errorf("certificate %d is not base64", i)
		}
	}
	return x5c, nil
}

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
		return fmt.Errorf("%w: %s: %w", ErrLimitExceeded, what, err)
	case isJoseError(err):
		return err
	}
	return fmt.Errorf("%w: %s: %w", ErrMalformed, what, err)
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
		return fmt.Errorf("jose: header member %q: %w", name, err)
	}
	var le *jsonx.LimitError
	if errors.As(err, &le) {
		return fmt.Errorf("%w: header member %q: %w", ErrLimitExceeded, name, err)
	}
	return fmt.Errorf("%w: header member %q: %w", ErrMalformed, name, err)
}

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
//   - jwk, epk: public JWKs, parsed and checked with [ParseKey] (a
//     private or symmetric key is refused);
//   - apu, apv, iv, tag, p2s: strict base64url strings ([Base64URLDecode]);
//   - p2c: an integer from 1 to 2^31-1 (RFC 7518 §4.8.1.2 requires a
//     positive count; the PBES2 layer applies [Limits.PBES2MinCount] and
//     [Limits.PBES2MaxCount]).
//
// Every other member is kept in Extra as raw JSON. Whether alg, enc and zip
// name supported algorithms, and whether crit is honoured, is for jws and
// jwe to decide.
//
// The returned Header does not alias data: strings are copied (or are
// constants for well-known values), binary members are decoded into new
// slices and Extra values are copied.
//
// Errors wrap [ErrLimitExceeded] for limits and [ErrMalformed] otherwise
// (jwk and epk errors from [ParseKey] keep their own sentinel), and name
// the offending member.
func ParseHeader(data []byte, lim Limits) (*Header, error) {
	lim = lim.WithDefaults()
	if len(data) > lim.MaxHeaderSize {
		return nil, fmt.Errorf("%w: header of %d bytes, more than %d", ErrLimitExceeded, len(data), lim.MaxHeaderSize)
	}
	h := new(Header)
	err := jsonx.ScanObject(data, headerJSONLimits(lim), h.setRaw)
	if err != nil {
		return nil, wrapJSONError("header", err)
	}
	return h, nil
}

// setRaw sets the member name to the raw JSON value raw, validated by
// jsonx, with the rules of ParseHeader. It is called once per name.
func (h *Header) setRaw(name, raw []byte) error {
	i := headerIndex(name)
	if i < 0 {
		if h.Extra == nil {
			h.Extra = make(map[string]json.RawMessage, 2)
		}
		h.Extra[string(name)] = bytes.Clone(raw)
		return nil
	}
	m := &headerMembers[i]
	if err := m.decode(h, raw); err != nil {
		return headerMemberError(m.name, err)
	}
	return nil
}

// AppendJSON appends the JSON text of h to dst (RFC 7515 §4, RFC 7516 §4):
// one object without whitespace, the registered members that are present
// in the order alg, enc, zip, kid, typ, cty, crit, b64, jku, jwk, x5u, x5c,
// x5t, x5t#S256, epk, apu, apv, iv, tag, p2s, p2c, then the members of
// Extra sorted by name. Binary members are written in base64url, jwk and
// epk with [JWK.MarshalJSON]; Extra values are written as they are, after
// checking that each is strict JSON. The output is deterministic, and
// [ParseHeader] reads it back to an equal Header.
//
// It refuses (with an error wrapping [ErrMalformed]) an Extra member with a
// registered name (it would be written twice), a name that is not UTF-8 or
// a value that is not JSON,
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
			if IsRegisteredHeader(name) {
				return dst[:start], fmt.Errorf("%w: header: registered member %q in Extra", ErrMalformed, name)
			}
			if !utf8.ValidString(name) {
				return dst[:start], fmt.Errorf("%w: header: member name %q is not UTF-8", ErrMalformed, name)
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
// [Limits] and, on success, replaces h.
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

// Has reports whether the member name is present in h: a registered member
// or a member of Extra. A nil Header has no members.
//
// A registered string member is present when it is not empty, a binary
// member (apu, apv, iv, tag, p2s) when it is not nil (so "apu":"" is kept
// as a non-nil empty slice), crit and x5c when they are not empty, b64, jwk
// and epk when not nil, p2c when not zero. As an empty value could not be
// told from an absent member, [ParseHeader] refuses empty registered
// strings, an empty crit or x5c and a p2c that is not positive: none of
// them is meaningful (RFC 7515 §4.1, RFC 7518 §4.8.1.2).
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
// string form, as in JSON) and replaces the typed field; any other name
// goes to Extra. Errors wrap [ErrMalformed] and leave h unchanged.
func (h *Header) Set(name string, value any) error {
	raw, err := json.Marshal(value)
	if err != nil {
		return fmt.Errorf("%w: header member %q: %w", ErrMalformed, name, err)
	}
	if err := jsonx.Valid(raw, jsonx.Limits{}); err != nil {
		return headerMemberError(name, err)
	}
	var tmp Header
	if i := headerIndex(name); i >= 0 {
		m := &headerMembers[i]
		if err := m.decode(&tmp, raw); err != nil {
			return headerMemberError(name, err)
		}
		m.copy(h, &tmp)
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
	if h.Extra != nil {
		c.Extra = make(map[string]json.RawMessage, len(h.Extra))
		for name, v := range h.Extra {
			c.Extra[name] = bytes.Clone(v)
		}
	}
	return c
}

// ValuesOnly reports whether h holds only string and integer members (no
// crit, b64, jwk, x5c, epk, apu, apv, iv, tag, p2s nor Extra member:
// RFC 7515 §4.1, RFC 7516 §4.1, RFC 7518 §4.6-4.8), so that a struct copy
// (*h) shares no memory with h. Caches of parsed headers hand out such
// copies.
func (h *Header) ValuesOnly() bool {
	return h.Critical == nil && h.B64 == nil && h.JWK == nil && h.X5C == nil &&
		h.EPK == nil && h.APU == nil && h.APV == nil && h.IV == nil && h.Tag == nil &&
		h.P2S == nil && h.Extra == nil
}

// MergeHeaders returns the union of the members of hs, for the JOSE Header
// of a JWS or JWE JSON serialization: protected, shared unprotected and
// per-signature or per-recipient headers (RFC 7515 §7.2.1, RFC 7516
// §7.2.1). A member name present in more than one header is refused with
// an error wrapping [ErrMalformed] that names it. Nil headers are skipped.
// The result is a deep copy, as [Header.Clone] makes.
func MergeHeaders(hs ...*Header) (*Header, error) {
	out := new(Header)
	for _, h := range hs {
		if h == nil {
			continue
		}
		for i := range headerMembers {
			m := &headerMembers[i]
			if !m.has(h) {
				continue
			}
			if out.Has(m.name) {
				return nil, fmt.Errorf("%w: header member %q in more than one header", ErrMalformed, m.name)
			}
			m.copy(out, h)
		}
		for name, v := range h.Extra {
			if out.Has(name) {
				return nil, fmt.Errorf("%w: header member %q in more than one header", ErrMalformed, name)
			}
			if out.Extra == nil {
				out.Extra = make(map[string]json.RawMessage, len(h.Extra))
			}
			out.Extra[name] = bytes.Clone(v)
		}
	}
	return out, nil
}
