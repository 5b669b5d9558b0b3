package jose

import (
	"bytes"
	"crypto"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"net/url"
	"slices"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/internal/jsonx"
)

// ParseKey parses and checks one JWK (RFC 7517 §4). It refuses duplicate
// members, members of the wrong JSON type, non-canonical base64url, members
// of the wrong length, keys that are not valid (an EC point off its curve, a
// private key that does not match its public key, an inconsistent RSA key,
// an RSA modulus with the ROCA fingerprint of CVE-2017-15361),
// and keys whose kty or crv this module does not support (errors wrapping
// [ErrUnsupportedAlgorithm]). Other errors wrap [ErrMalformed],
// [ErrInvalidKey] or [ErrLimitExceeded], and name the offending member.
//
// Sizes are checked before any arithmetic. An RSA private key is first
// checked with plain multiplications and divisions (bit lengths of p and q
// against n, p·q = n, d, dp, dq and qi in range and consistent), and only
// then validated, once, by crypto/rsa with its CRT values; as in
// crypto/x509, the primes are not tested for primality. SECURITY.md gives
// the cost of the worst keys.
//
// ParseKey applies the default [Limits]: a key of more than
// [DefaultMaxKeySize] bytes is refused with an error wrapping
// [ErrLimitExceeded] before any of it is read. See [ParseKeyWithLimits].
func ParseKey(data []byte) (*JWK, error) {
	return ParseKeyWithLimits(data, Limits{})
}

// ParseKeyWithLimits parses one JWK as [ParseKey] does, with the limits
// lim: lim.MaxKeySize bytes of JSON (RFC 7517 §4), checked before
// anything else, lim.MaxJSONDepth and lim.MaxHeaderMembers (the members of
// the key and of every object nested in it).
func ParseKeyWithLimits(data []byte, lim Limits) (*JWK, error) {
	k := new(JWK)
	if err := k.parse(data, lim.WithDefaults(), nil); err != nil {
		return nil, err
	}
	return k, nil
}

// UnmarshalJSON parses data as [ParseKey] does and, on success, replaces k.
func (k *JWK) UnmarshalJSON(data []byte) error {
	var nk JWK
	if err := nk.parse(data, Limits{}.WithDefaults(), nil); err != nil {
		return err
	}
	*k = nk
	return nil
}

// parse fills k from data, a JSON object of at most lim.MaxKeySize bytes,
// counting a full RSA validation in v.
func (k *JWK) parse(data []byte, lim Limits, v *validations) error {
	if len(data) > lim.MaxKeySize {
		return jwkErrorf(ErrLimitExceeded, "key of %d bytes exceeds %d", len(data), lim.MaxKeySize)
	}
	members, err := jwkParseObject(data, lim)
	if err != nil {
		return err
	}
	return k.fromMembers(members, v)
}

// keyParams are the binary key members, decoded; nil when absent.
type keyParams struct {
	k, n, e, d, p, q, dp, dq, qi, x, y []byte
	pub, priv                          []byte // AKP (RFC 9964 §4)
	oth                                bool
}

// fromMembers fills k from the members of a JWK object, counting a full
// RSA validation in v.
func (k *JWK) fromMembers(members []jwkMember, v *validations) error {
	var kty, crv string
	var haveKty bool
	for _, m := range members {
		switch m.name {
		case "kty":
			s, err := jwkString(m)
			if err != nil {
				return err
			}
			kty, haveKty = s, true
		case "crv":
			s, err := jwkString(m)
			if err != nil {
				return err
			}
			crv = s
		}
	}
	if !haveKty {
		return jwkErrorf(ErrMalformed, "missing member \"kty\"")
	}
	// Which members are key parameters depends on kty (RFC 7518 §6).
	var names []string
	switch kty {
	case KeyTypeOct:
		names = []string{"k"}
	case KeyTypeRSA:
		names = []string{"n", "e", "d", "p", "q", "dp", "dq", "qi", "oth"}
	case KeyTypeEC:
		names = []string{"crv", "x", "y", "d"}
	case KeyTypeOKP:
		names = []string{"crv", "x", "d"}
	case KeyTypeAKP:
		names = []string{"pub", "priv"}
	default:
		return jwkErrorf(ErrUnsupportedAlgorithm, "unsupported key type %s", untrusted.Quote(kty))
	}

	var kp keyParams
	var nk JWK
	for _, m := range members {
		switch m.name {
		case "kty":
			continue
		case "kid":
			s, err := jwkString(m)
			if err != nil {
				return err
			}
			nk.KeyID = s
			continue
		case "use":
			s, err := jwkString(m)
			if err != nil {
				return err
			}
			nk.Use = s
			continue
		case "alg":
			s, err := jwkString(m)
			if err != nil {
				return err
			}
			nk.Algorithm = s
			continue
		case "key_ops":
			if err := jwkCheckArrayLen(m, MaxKeyOps); err != nil {
				return err
			}
			ops, err := jwkStringArray(m)
			if err != nil {
				return err
			}
			nk.KeyOps = make([]KeyOp, 0, len(ops))
			seen := make(map[string]bool, len(ops))
			for _, op := range ops {
				// Duplicates are forbidden (RFC 7517 §4.3).
				if seen[op] {
					return jwkErrorf(ErrMalformed, "member \"key_ops\": duplicate value %s", untrusted.Quote(op))
				}
				seen[op] = true
				nk.KeyOps = append(nk.KeyOps, KeyOp(op))
			}
			continue
		case "x5c":
			certs, err := jwkParseX5C(m)
			if err != nil {
				return err
			}
			nk.Certificates = certs
			continue
		case "x5u":
			// Carried, never fetched: checked to be what RFC 7517 §4.6
			// says it is, and then kept as it was written.
			if err := jwkCheckURI(m); err != nil {
				return err
			}
			nk.ext.extra = append(nk.ext.extra, jwkMember{m.name, slices.Clone(m.value)})
			continue
		case "x5t", "x5t#S256":
			b, err := jwkBase64(m)
			if err != nil {
				return err
			}
			want := sha1.Size
			if m.name == "x5t#S256" {
				want = sha256.Size
			}
			if len(b) != want {
				return jwkErrorf(ErrMalformed, "member %q: %d bytes, want %d", m.name, len(b), want)
			}
			if m.name == "x5t" {
				nk.CertificateThumbprintSHA1 = b
			} else {
				nk.CertificateThumbprintSHA256 = b
			}
			continue
		}
		if !slices.Contains(names, m.name) {
			nk.ext.extra = append(nk.ext.extra, jwkMember{m.name, slices.Clone(m.value)})
			continue
		}
		if m.name == "crv" {
			continue
		}
		if m.name == "oth" {
			kp.oth = true
			continue
		}
		b, err := jwkBase64(m)
		if err != nil {
			return err
		}
		if b == nil {
			b = []byte{}
		}
		switch m.name {
		case "k":
			kp.k = b
		case "n":
			kp.n = b
		case "e":
			kp.e = b
		case "d":
			kp.d = b
		case "p":
			kp.p = b
		case "q":
			kp.q = b
		case "dp":
			kp.dp = b
		case "dq":
			kp.dq = b
		case "qi":
			kp.qi = b
		case "x":
			kp.x = b
		case "y":
			kp.y = b
		case "pub":
			kp.pub = b
		case "priv":
			kp.priv = b
		}
	}

	var err error
	switch kty {
	case KeyTypeOct:
		nk.Key, err = octFromParams(&kp)
	case KeyTypeRSA:
		nk.Key, err = rsaFromParams(&kp, v)
	case KeyTypeEC:
		nk.Key, err = ecFromParams(crv, &kp)
	case KeyTypeOKP:
		nk.Key, err = okpFromParams(crv, &kp)
	case KeyTypeAKP:
		nk.Key, err = akpFromParams(nk.Algorithm, &kp)
	}
	if err != nil {
		return err
	}
	if err := nk.checkCertificates(); err != nil {
		return err
	}
	*k = nk
	return nil
}

// jwkString returns the value of m, which must be a JSON string.
func jwkString(m jwkMember) (string, error) {
	if jsonx.KindOf(m.value) != jsonx.KindString {
		return "", jwkErrorf(ErrMalformed, "member %q: %v", m.name, &jsonx.TypeError{Want: "string", Got: jsonx.KindOf(m.value)})
	}
	s, err := jsonx.String(m.value)
	if err != nil {
		return "", jwkErrorf(ErrMalformed, "member %q: %v", m.name, err)
	}
	return s, nil
}

// jwkCheckURI refuses a value of m that is not a string holding an
// absolute URI (RFC 3986 §4.3, as net/url parses it): "x5u" (RFC 7517
// §4.6).
func jwkCheckURI(m jwkMember) error {
	s, err := jwkString(m)
	if err != nil {
		return err
	}
	if u, err := url.Parse(s); err != nil || !u.IsAbs() {
		return jwkErrorf(ErrMalformed, "member %q: not an absolute URI", m.name)
	}
	return nil
}

// jwkStringArray returns the value of m, which must be an array of strings.
func jwkStringArray(m jwkMember) ([]string, error) {
	if jsonx.KindOf(m.value) != jsonx.KindArray {
		return nil, jwkErrorf(ErrMalformed, "member %q: %v", m.name, &jsonx.TypeError{Want: "array of strings", Got: jsonx.KindOf(m.value)})
	}
	ss, err := jsonx.StringArray(m.value)
	if err != nil {
		return nil, jwkErrorf(ErrMalformed, "member %q: %v", m.name, err)
	}
	return ss, nil
}

// jwkCheckArrayLen refuses an array value of m with more than maxElems
// elements, before anything is decoded or allocated.
func jwkCheckArrayLen(m jwkMember, maxElems int) error {
	if jsonx.KindOf(m.value) != jsonx.KindArray {
		return nil // jwkStringArray reports the type
	}
	n := 0
	err := jsonx.ScanArray(m.value, jsonx.Limits{}, func([]byte) error {
		if n++; n > maxElems {
			return jwkErrorf(ErrLimitExceeded, "member %q: more than %d values", m.name, maxElems)
		}
		return nil
	})
	if err != nil {
		if isJoseError(err) {
			return err
		}
		return jwkJSONError(err)
	}
	return nil
}

// jwkBase64 returns the value of m, which must be a string of canonical
// unpadded base64url (RFC 7515 §2).
func jwkBase64(m jwkMember) ([]byte, error) {
	s, err := jwkString(m)
	if err != nil {
		return nil, err
	}
	b, err := Base64URLDecode(s)
	if err != nil {
		return nil, jwkErrorf(ErrMalformed, "member %q: base64url: %s", m.name, b64enc.Problem(s))
	}
	return b, nil
}

// jwkParseX5C decodes "x5c": an array of standard base64 DER certificates
// (RFC 7517 §4.7), leaf first.
func jwkParseX5C(m jwkMember) ([]*x509.Certificate, error) {
	if err := jwkCheckArrayLen(m, MaxCertificates); err != nil {
		return nil, err
	}
	ss, err := jwkStringArray(m)
	if err != nil {
		return nil, err
	}
	if len(ss) == 0 {
		return nil, jwkErrorf(ErrMalformed, "member \"x5c\": no certificate")
	}
	certs := make([]*x509.Certificate, len(ss))
	for i, s := range ss {
		der, err := base64.StdEncoding.Strict().DecodeString(s)
		if err != nil {
			return nil, jwkErrorf(ErrMalformed, "member \"x5c\": certificate %d: invalid base64", i)
		}
		c, err := x509.ParseCertificate(der)
		if err != nil {
			return nil, jwkErrorf(ErrMalformed, "member \"x5c\": certificate %d: %v", i, untrusted.Error(err))
		}
		certs[i] = c
	}
	return certs, nil
}

// checkCertificates checks that the leaf certificate's public key is the
// key's and that x5t and x5t#S256 are the leaf's thumbprints.
func (k *JWK) checkCertificates() error {
	if len(k.Certificates) == 0 {
		return nil
	}
	leaf := k.Certificates[0]
	pub := publicKeyOf(k.Key)
	eq, ok := leaf.PublicKey.(interface{ Equal(crypto.PublicKey) bool })
	if pub == nil || !ok || !eq.Equal(pub) {
		return jwkErrorf(ErrInvalidKey, "member \"x5c\": the leaf certificate's public key is not the key")
	}
	if k.CertificateThumbprintSHA1 != nil {
		sum := sha1.Sum(leaf.Raw)
		if !bytes.Equal(sum[:], k.CertificateThumbprintSHA1) {
			return jwkErrorf(ErrInvalidKey, "member \"x5t\": not the SHA-1 thumbprint of the leaf certificate")
		}
	}
	if k.CertificateThumbprintSHA256 != nil {
		sum := sha256.Sum256(leaf.Raw)
		if !bytes.Equal(sum[:], k.CertificateThumbprintSHA256) {
			return jwkErrorf(ErrInvalidKey, "member \"x5t#S256\": not the SHA-256 thumbprint of the leaf certificate")
		}
	}
	return nil
}

// jwkLimits returns the jsonx limits for one key or set.
func jwkLimits(lim Limits) jsonx.Limits {
	return jsonx.Limits{MaxDepth: lim.MaxJSONDepth, MaxMembers: lim.MaxHeaderMembers}
}

// jwkParseObject parses data as one strict JSON object (no duplicate member
// names, nesting and members bounded by lim) and returns its members in
// order. Values are subslices of data.
func jwkParseObject(data []byte, lim Limits) ([]jwkMember, error) {
	var members []jwkMember
	err := jsonx.ScanObject(data, jwkLimits(lim), func(name, value []byte) error {
		members = append(members, jwkMember{string(name), value})
		return nil
	})
	if err != nil {
		return nil, jwkJSONError(err)
	}
	return members, nil
}

// jwkJSONError wraps an error of jsonx in the sentinel it stands for.
func jwkJSONError(err error) error {
	var le *jsonx.LimitError
	if errors.As(err, &le) {
		return jwkErrorf(ErrLimitExceeded, "%v", err)
	}
	var de *jsonx.DuplicateError
	if errors.As(err, &de) {
		return jwkErrorf(ErrMalformed, "duplicate member %s", untrusted.Quote(de.Name))
	}
	return jwkErrorf(ErrMalformed, "%v", err)
}

// jwkSplitArray returns the elements of the JSON array v, refusing more
// than maxElems of them before reading the next.
func jwkSplitArray(name string, v []byte, maxElems int, lim Limits) ([][]byte, error) {
	if jsonx.KindOf(v) != jsonx.KindArray {
		return nil, jwkErrorf(ErrMalformed, "member %q: not an array", name)
	}
	var elems [][]byte
	err := jsonx.ScanArray(v, jwkLimits(lim), func(elem []byte) error {
		if len(elems) >= maxElems {
			return jwkErrorf(ErrLimitExceeded, "member %q: more than %d elements", name, maxElems)
		}
		elems = append(elems, elem)
		return nil
	})
	if err != nil {
		if isJoseError(err) {
			return nil, err
		}
		return nil, jwkJSONError(err)
	}
	return elems, nil
}
