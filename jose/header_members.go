package jose

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/jwa"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/josebench/josebench/jose/internal/jsonx"
)

// headerMember describes one registered member: how to tell it is present,
// copy it, remove it, decode it and write its value.
type headerMember struct {
	name   string
	has    func(h *Header) bool
	copy   func(dst, src *Header) // deep copy, except *JWK pointers
	del    func(h *Header)
	decode func(h *Header, raw []byte, count *validations) error // count counts full RSA validations (jwk, epk)
	value  func(dst []byte, h *Header) ([]byte, error)
}

// headerMembers are the registered members in the order AppendJSON writes
// them ("b64" before "crit", as in the examples of RFC 7797 §4).
var headerMembers = [...]headerMember{
	headerString("alg", func(h *Header) *string { return &h.Algorithm }, true, nil),
	headerString("enc", func(h *Header) *string { return &h.Encryption }, true, nil),
	headerString("zip", func(h *Header) *string { return &h.Compression }, true, nil),
	headerString("kid", func(h *Header) *string { return &h.KeyID }, false, nil),
	headerString("typ", func(h *Header) *string { return &h.Type }, true, nil),
	headerString("cty", func(h *Header) *string { return &h.ContentType }, true, nil),
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
		decode: func(h *Header, raw []byte, count *validations) error {
			v, err := jsonx.Bool(raw)
			if err != nil {
				return err
			}
			h.B64 = &v
			return nil
		},
		value: func(dst []byte, h *Header) ([]byte, error) { return strconv.AppendBool(dst, *h.B64), nil },
	},
	{
		name: "crit",
		has:  func(h *Header) bool { return len(h.Critical) > 0 },
		copy: func(dst, src *Header) { dst.Critical = slices.Clone(src.Critical) },
		del:  func(h *Header) { h.Critical = nil },
		decode: func(h *Header, raw []byte, count *validations) error {
			crit, err := decodeCritical(raw)
			h.Critical = crit
			return err
		},
		value: func(dst []byte, h *Header) ([]byte, error) { return appendStringArray(dst, h.Critical), nil },
	},
	headerString("jku", func(h *Header) *string { return &h.JKU }, false, nil),
	headerKey("jwk", func(h *Header) **JWK { return &h.JWK }),
	headerString("x5u", func(h *Header) *string { return &h.X5U }, false, nil),
	{
		name: "x5c",
		has:  func(h *Header) bool { return len(h.X5C) > 0 },
		copy: func(dst, src *Header) { dst.X5C = slices.Clone(src.X5C) },
		del:  func(h *Header) { h.X5C = nil },
		decode: func(h *Header, raw []byte, count *validations) error {
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
		decode: func(h *Header, raw []byte, count *validations) error {
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
	headerEK,
}

// headerIndex returns the index in headerMembers of the registered member
// name, or -1 (a switch, which compiles to a search without allocating;
// TestHeaderIndex checks it against the table).
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
	case "b64":
		return 6
	case "crit":
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
	case "ek":
		return 21
	}
	return -1
}

// IsRegisteredHeader reports whether name is a Header Parameter Name that
// [Header] holds in a typed field: those of RFC 7515 §4.1, RFC 7516 §4.1,
// RFC 7518 §4.6.1, §4.7.1 and §4.8.1, "b64" of RFC 7797 §3 and "ek" of
// draft-ietf-jose-hpke-encrypt-20 §4.1. Every other name goes to
// [Header.Extra].
func IsRegisteredHeader(name string) bool { return headerIndex(name) >= 0 }

func headerString(name string, field func(*Header) *string, intern bool, check func(string) error) headerMember {
	return headerMember{
		name: name,
		has:  func(h *Header) bool { return *field(h) != "" },
		copy: func(dst, src *Header) { *field(dst) = *field(src) },
		del:  func(h *Header) { *field(h) = "" },
		decode: func(h *Header, raw []byte, count *validations) error {
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
		decode: func(h *Header, raw []byte, count *validations) error {
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
			dst = b64enc.Append(dst, *field(h))
			return append(dst, '"'), nil
		},
	}
}

// headerEK is "ek", the HPKE encapsulated secret of the HPKE Key
// Encryption algorithms (draft-ietf-jose-hpke-encrypt-20 §4.1): a
// non-empty base64url string, refused with [ErrLimitExceeded] before it is
// decoded when it would be longer than [jwa.HPKEMaxEncapsulatedSize] bytes,
// the largest encapsulated secret of the algorithms implemented. Whether
// the algorithm allows it, and its exact size, are for jwe and jwa.
var headerEK = headerMember{
	name: "ek",
	has:  func(h *Header) bool { return h.EK != nil },
	copy: func(dst, src *Header) { dst.EK = bytes.Clone(src.EK) },
	del:  func(h *Header) { h.EK = nil },
	decode: func(h *Header, raw []byte, count *validations) error {
		s, err := jsonx.StringBytes(raw)
		if err != nil {
			return err
		}
		if len(s) == 0 {
			return errors.New("empty string")
		}
		if len(s) > b64.EncodedLen(jwa.HPKEMaxEncapsulatedSize) {
			return fmt.Errorf("more than %d bytes: %w", jwa.HPKEMaxEncapsulatedSize, ErrLimitExceeded)
		}
		b, err := Base64URLDecode(s)
		if err != nil {
			return err
		}
		h.EK = b
		return nil
	},
	value: func(dst []byte, h *Header) ([]byte, error) {
		dst = append(dst, '"')
		dst = b64enc.Append(dst, h.EK)
		return append(dst, '"'), nil
	},
}

func headerKey(name string, field func(*Header) **JWK) headerMember {
	return headerMember{
		name: name,
		has:  func(h *Header) bool { return *field(h) != nil },
		copy: func(dst, src *Header) { *field(dst) = *field(src) },
		del:  func(h *Header) { *field(h) = nil },
		decode: func(h *Header, raw []byte, count *validations) error {
			if jsonx.KindOf(raw) != jsonx.KindObject {
				return &jsonx.TypeError{Want: "object", Got: jsonx.KindOf(raw)}
			}
			// A secret member is refused on its name alone, before any
			// key is built: an attacker's private RSA key would otherwise
			// cost its full validation before being refused.
			if err := checkNoSecretMembers(raw); err != nil {
				return err
			}
			// ParseKey may keep subslices of its input (unknown members):
			// give it a copy so that the Header never aliases the data.
			k := new(JWK)
			err := k.parse(bytes.Clone(raw), Limits{}.WithDefaults(), count)
			if err != nil {
				return err
			}
			if k.IsPrivate() {
				return ErrSecretInHeader
			}
			*field(h) = k
			return nil
		},
		value: func(dst []byte, h *Header) ([]byte, error) {
			k := *field(h)
			if k.IsPrivate() {
				return dst, ErrSecretInHeader
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

// checkNoSecretMembers refuses the JSON object raw, a "jwk" or "epk"
// value, if it has a member that carries secret material (privateMembers)
// or is a symmetric key ("kty":"oct"). It only scans the syntax; raw has
// already been validated by the header's scan.
func checkNoSecretMembers(raw []byte) error {
	return jsonx.ScanObject(raw, jsonx.Limits{}, func(name, value []byte) error {
		if slices.Contains(privateMembers, string(name)) {
			return ErrSecretInHeader
		}
		if string(name) == "kty" && jsonx.KindOf(value) == jsonx.KindString {
			if kty, err := jsonx.StringBytes(value); err == nil && string(kty) == KeyTypeOct {
				return ErrSecretInHeader
			}
		}
		return nil
	})
}

// ErrSecretInHeader refuses a private or symmetric key as "jwk" or "epk":
// both carry public keys only (RFC 7515 §4.1.3, RFC 7518 §4.6.1.1), and
// writing one would publish the secret. ParseHeader's error for such a
// member wraps it as well as ErrMalformed, so that a caller that reads the
// key from "jwk" (a DPoP proof, RFC 9449 §4.3 check 7) can tell it apart.
var ErrSecretInHeader = errors.New("secret key material in a header (only public keys belong there)")

// internHeaderValue returns b as a string, without allocating for the
// values tokens carry most: the algorithm names jwa implements (asked of
// jwa, not listed here), "none", "DEF" and the common typ and cty values.
func internHeaderValue(b []byte) string {
	if v, ok := internedValues[string(b)]; ok { // no allocation for the lookup
		return v
	}
	return string(b)
}

// internedValues maps each value internHeaderValue interns to itself.
var internedValues = func() map[string]string {
	m := make(map[string]string)
	for _, a := range jwa.SignatureAlgorithms() {
		m[string(a)] = string(a)
	}
	for _, a := range jwa.KeyAlgorithms() {
		m[string(a)] = string(a)
	}
	for _, e := range jwa.ContentEncryptions() {
		m[string(e)] = string(e)
	}
	for _, v := range []string{"none", "DEF", "JWT", "JOSE", "JOSE+JSON", "jwt", "at+jwt", "application/json"} {
		m[v] = v
	}
	return m
}()

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
			return nil, fmt.Errorf("name %s listed twice", untrusted.Quote(name))
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
