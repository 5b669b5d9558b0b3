package jose

import (
	"bytes"
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/x509"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"slices"
	"strings"

	"github.com/josebench/josebench/jose/internal/jsonx"
)

// JWK is a JSON Web Key (RFC 7517 §4).
//
// Key holds the Go key: []byte for "oct"; *rsa.PublicKey or *rsa.PrivateKey
// for "RSA"; *ecdsa.PublicKey or *ecdsa.PrivateKey for "EC"; ed25519.PublicKey
// or ed25519.PrivateKey for "OKP" Ed25519; *ecdh.PublicKey or *ecdh.PrivateKey
// (X25519) for "OKP" X25519. Key is nil for an entry of a JWK Set whose kty or
// crv this module does not support: such an entry is kept and marshalled
// back, but never selected.
//
// A JWK read by [ParseKey], [ParseSet] or [JWK.UnmarshalJSON] has been
// checked: every member has its registered JSON type, every binary member is
// canonical base64url of the right length, EC points are on their curve, OKP
// and EC private keys match their public keys, RSA private keys pass
// [rsa.PrivateKey.Validate], the public key of the leaf certificate of x5c
// equals the key, and x5t and x5t#S256, when x5c is present too, are the
// leaf's SHA-1 and SHA-256 thumbprints. The certificate chain itself is not
// verified: x5c is carried, never trusted.
//
// Members this module does not know are kept, in order, as raw JSON and
// written back by [JWK.MarshalJSON].
type JWK struct {
	Key       any     // the Go key, see above
	KeyID     string  // "kid" (RFC 7517 §4.5)
	Use       string  // "use" (RFC 7517 §4.2): "sig" or "enc"
	KeyOps    []KeyOp // "key_ops" (RFC 7517 §4.3); nil when absent
	Algorithm string  // "alg" (RFC 7517 §4.4)
	// Certificates is "x5c" (RFC 7517 §4.7): the leaf's public key equals Key.
	Certificates []*x509.Certificate
	// CertificateThumbprintSHA1 is "x5t" (RFC 7517 §4.8), decoded.
	CertificateThumbprintSHA1 []byte
	// CertificateThumbprintSHA256 is "x5t#S256" (RFC 7517 §4.9), decoded.
	CertificateThumbprintSHA256 []byte

	ext ext // unknown members and the raw form of unusable entries
}

// KeyOp is a "key_ops" value (RFC 7517 §4.3).
type KeyOp string

// Key operations (RFC 7517 §4.3).
const (
	OpSign       KeyOp = "sign"
	OpVerify     KeyOp = "verify"
	OpEncrypt    KeyOp = "encrypt"
	OpDecrypt    KeyOp = "decrypt"
	OpWrapKey    KeyOp = "wrapKey"
	OpUnwrapKey  KeyOp = "unwrapKey"
	OpDeriveKey  KeyOp = "deriveKey"
	OpDeriveBits KeyOp = "deriveBits"
)

// Key use values (RFC 7517 §4.2).
const (
	UseSignature  = "sig"
	UseEncryption = "enc"
)

// Key types (RFC 7518 §6.1, RFC 8037 §2).
const (
	KeyTypeOct = "oct"
	KeyTypeRSA = "RSA"
	KeyTypeEC  = "EC"
	KeyTypeOKP = "OKP"
)

// Curves (RFC 7518 §6.2.1.1, RFC 8037 §2).
const (
	CurveP256    = "P-256"
	CurveP384    = "P-384"
	CurveP521    = "P-521"
	CurveEd25519 = "Ed25519"
	CurveX25519  = "X25519"
)

// Bounds on what one JWK may hold, checked while parsing.
const (
	// MaxRSAModulusBits is the largest RSA modulus accepted, in bits.
	MaxRSAModulusBits = 16384
	// MaxCertificates is the largest number of certificates in "x5c".
	MaxCertificates = 32
	// MaxKeyOps is the largest number of values in "key_ops" (RFC 7517
	// §4.3 registers eight, and forbids duplicates).
	MaxKeyOps = 32
)

// jwkMember is one member of a JSON object: its name and raw value.
type jwkMember struct {
	name  string
	value []byte
}

// ext holds what a JWK carries besides its typed fields.
type ext struct {
	extra []jwkMember // unknown members, in order of appearance
	// For an unusable entry of a JWK Set (unsupported kty or crv, or a
	// malformed key): the entry as read, its kty and crv, and why.
	raw      []byte
	kty, crv string
	err      error
}

// jwkErrorf returns an error wrapping sentinel whose text starts with
// "jose: jwk: ".
func jwkErrorf(sentinel error, format string, args ...any) error {
	return &jwkError{sentinel: sentinel, msg: "jose: jwk: " + fmt.Sprintf(format, args...)}
}

// keyErrorf returns an error wrapping sentinel whose text starts with
// "jose: ".
func keyErrorf(sentinel error, format string, args ...any) error {
	return &jwkError{sentinel: sentinel, msg: "jose: " + fmt.Sprintf(format, args...)}
}

// jwkError is an error about a JWK that wraps one sentinel error.
type jwkError struct {
	sentinel error
	msg      string
}

func (e *jwkError) Error() string { return e.msg }
func (e *jwkError) Unwrap() error { return e.sentinel }

// ParseKey parses and checks one JWK (RFC 7517 §4). It refuses duplicate
// members, members of the wrong JSON type, non-canonical base64url, members
// of the wrong length, keys that are not valid (an EC point off its curve, a
// private key that does not match its public key, an inconsistent RSA key,
// an RSA modulus with the ROCA fingerprint of CVE-2017-15361),
// and keys whose kty or crv this module does not support (errors wrapping
// [ErrUnsupportedAlgorithm]). Other errors wrap [ErrMalformed],
// [ErrInvalidKey] or [ErrLimitExceeded], and name the offending member.
func ParseKey(data []byte) (*JWK, error) {
	k := new(JWK)
	if err := k.parse(data, Limits{}.WithDefaults()); err != nil {
		return nil, err
	}
	return k, nil
}

// UnmarshalJSON parses data as [ParseKey] does and, on success, replaces k.
func (k *JWK) UnmarshalJSON(data []byte) error {
	var nk JWK
	if err := nk.parse(data, Limits{}.WithDefaults()); err != nil {
		return err
	}
	*k = nk
	return nil
}

// parse fills k from data, a JSON object.
func (k *JWK) parse(data []byte, lim Limits) error {
	members, err := jwkParseObject(data, lim)
	if err != nil {
		return err
	}
	return k.fromMembers(members)
}

// keyParams are the binary key members, decoded; nil when absent.
type keyParams struct {
	k, n, e, d, p, q, dp, dq, qi, x, y []byte
	oth                                bool
}

// fromMembers fills k from the members of a JWK object.
func (k *JWK) fromMembers(members []jwkMember) error {
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
	default:
		return jwkErrorf(ErrUnsupportedAlgorithm, "unsupported key type %q", kty)
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
					return jwkErrorf(ErrMalformed, "member \"key_ops\": duplicate value %q", op)
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
		}
	}

	var err error
	switch kty {
	case KeyTypeOct:
		nk.Key, err = octFromParams(&kp)
	case KeyTypeRSA:
		nk.Key, err = rsaFromParams(&kp)
	case KeyTypeEC:
		nk.Key, err = ecFromParams(crv, &kp)
	case KeyTypeOKP:
		nk.Key, err = okpFromParams(crv, &kp)
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
		return "", jwkErrorf(ErrMalformed, "member %q: %s, want a string", m.name, jsonx.KindOf(m.value))
	}
	s, err := jsonx.String(m.value)
	if err != nil {
		return "", jwkErrorf(ErrMalformed, "member %q: %v", m.name, err)
	}
	return s, nil
}

// jwkStringArray returns the value of m, which must be an array of strings.
func jwkStringArray(m jwkMember) ([]string, error) {
	if jsonx.KindOf(m.value) != jsonx.KindArray {
		return nil, jwkErrorf(ErrMalformed, "member %q: %s, want an array of strings", m.name, jsonx.KindOf(m.value))
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
		if _, ok := err.(*jwkError); ok {
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
		return nil, jwkErrorf(ErrMalformed, "member %q: %s", m.name, strings.TrimPrefix(err.Error(), ErrMalformed.Error()+": "))
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
			return nil, jwkErrorf(ErrMalformed, "member \"x5c\": certificate %d: %v", i, err)
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

// octFromParams builds a symmetric key (RFC 7518 §6.4).
func octFromParams(kp *keyParams) (any, error) {
	if kp.k == nil {
		return nil, jwkErrorf(ErrMalformed, "missing member \"k\"")
	}
	if len(kp.k) == 0 {
		return nil, jwkErrorf(ErrInvalidKey, "member \"k\": empty key")
	}
	return kp.k, nil
}

// rsaFromParams builds an RSA key (RFC 7518 §6.3).
func rsaFromParams(kp *keyParams) (any, error) {
	if kp.oth {
		return nil, jwkErrorf(ErrUnsupportedAlgorithm, "member \"oth\": multi-prime RSA keys are not supported")
	}
	if kp.n == nil {
		return nil, jwkErrorf(ErrMalformed, "missing member \"n\"")
	}
	if kp.e == nil {
		return nil, jwkErrorf(ErrMalformed, "missing member \"e\"")
	}
	// Base64urlUInt uses the minimum number of octets (RFC 7518 §2).
	if len(kp.n) == 0 || kp.n[0] == 0 {
		return nil, jwkErrorf(ErrMalformed, "member \"n\": not a minimal unsigned integer")
	}
	if len(kp.e) == 0 || kp.e[0] == 0 {
		return nil, jwkErrorf(ErrMalformed, "member \"e\": not a minimal unsigned integer")
	}
	if len(kp.n)*8 > MaxRSAModulusBits {
		return nil, jwkErrorf(ErrLimitExceeded, "member \"n\": modulus larger than %d bits", MaxRSAModulusBits)
	}
	if len(kp.e) > 4 {
		return nil, jwkErrorf(ErrInvalidKey, "member \"e\": exponent too large")
	}
	var e uint64
	for _, b := range kp.e {
		e = e<<8 | uint64(b)
	}
	pub := &rsa.PublicKey{N: new(big.Int).SetBytes(kp.n), E: int(e)}
	if err := checkRSAPublic(pub); err != nil {
		return nil, err
	}
	priv := kp.d != nil || kp.p != nil || kp.q != nil || kp.dp != nil || kp.dq != nil || kp.qi != nil
	if !priv {
		return pub, nil
	}
	for _, m := range []struct {
		name string
		v    []byte
	}{{"d", kp.d}, {"p", kp.p}, {"q", kp.q}, {"dp", kp.dp}, {"dq", kp.dq}, {"qi", kp.qi}} {
		// RFC 7518 §6.3.2 lets a producer omit p, q, dp, dq and qi
		// together; this module needs the primes and refuses such keys.
		if m.v == nil {
			return nil, jwkErrorf(ErrUnsupportedAlgorithm, "missing member %q: RSA private keys need d, p, q, dp, dq and qi", m.name)
		}
		if len(m.v) == 0 {
			return nil, jwkErrorf(ErrMalformed, "member %q: empty integer", m.name)
		}
		if len(m.v) > len(kp.n) {
			return nil, jwkErrorf(ErrInvalidKey, "member %q: longer than the modulus", m.name)
		}
	}
	key := &rsa.PrivateKey{
		PublicKey: *pub,
		D:         new(big.Int).SetBytes(kp.d),
		Primes:    []*big.Int{new(big.Int).SetBytes(kp.p), new(big.Int).SetBytes(kp.q)},
	}
	// Precompute first: Validate is faster on a precomputed key.
	key.Precompute()
	if err := key.Validate(); err != nil {
		return nil, jwkErrorf(ErrInvalidKey, "RSA private key: %v", err)
	}
	dp, dq, qi := rsaCRT(key)
	for _, c := range []struct {
		name      string
		got, want *big.Int
	}{{"dp", new(big.Int).SetBytes(kp.dp), dp}, {"dq", new(big.Int).SetBytes(kp.dq), dq}, {"qi", new(big.Int).SetBytes(kp.qi), qi}} {
		if c.got.Cmp(c.want) != 0 {
			return nil, jwkErrorf(ErrInvalidKey, "member %q: does not match the private key", c.name)
		}
	}
	return key, nil
}

// checkRSAPublic refuses RSA public keys no RSA operation can use: a modulus
// that is not odd and positive, or a public exponent that is not odd and at
// least 3 (RFC 8017 §3.1); and moduli with the ROCA fingerprint, which can be
// factored.
func checkRSAPublic(pub *rsa.PublicKey) error {
	if pub.N == nil || pub.N.Sign() <= 0 || pub.N.Bit(0) == 0 {
		return jwkErrorf(ErrInvalidKey, "member \"n\": modulus not odd and positive")
	}
	if pub.N.BitLen() > MaxRSAModulusBits {
		return jwkErrorf(ErrLimitExceeded, "member \"n\": modulus larger than %d bits", MaxRSAModulusBits)
	}
	if pub.E < 3 || pub.E&1 == 0 || pub.E > 1<<31-1 {
		return jwkErrorf(ErrInvalidKey, "member \"e\": public exponent %d is not an odd integer from 3 to 2^31-1", pub.E)
	}
	if rocaVulnerable(pub.N) {
		return jwkErrorf(ErrInvalidKey, "member \"n\": the modulus has the ROCA fingerprint (CVE-2017-15361) and can be factored")
	}
	return nil
}

// rsaCRT returns the CRT values of a two-prime key: d mod (p-1),
// d mod (q-1) and q⁻¹ mod p (RFC 8017 §3.2).
func rsaCRT(key *rsa.PrivateKey) (dp, dq, qi *big.Int) {
	p, q := key.Primes[0], key.Primes[1]
	one := big.NewInt(1)
	dp = new(big.Int).Mod(key.D, new(big.Int).Sub(p, one))
	dq = new(big.Int).Mod(key.D, new(big.Int).Sub(q, one))
	qi = new(big.Int).ModInverse(q, p)
	if qi == nil {
		qi = new(big.Int)
	}
	return dp, dq, qi
}

// ecCurve returns the curve named crv and its coordinate size in bytes.
func ecCurve(crv string) (elliptic.Curve, int) {
	switch crv {
	case CurveP256:
		return elliptic.P256(), 32
	case CurveP384:
		return elliptic.P384(), 48
	case CurveP521:
		return elliptic.P521(), 66
	}
	return nil, 0
}

// ecCurveName returns the JWK name of c, or "".
func ecCurveName(c elliptic.Curve) string {
	switch c {
	case elliptic.P256():
		return CurveP256
	case elliptic.P384():
		return CurveP384
	case elliptic.P521():
		return CurveP521
	}
	return ""
}

// ecFromParams builds an EC key (RFC 7518 §6.2).
func ecFromParams(crv string, kp *keyParams) (any, error) {
	if crv == "" {
		return nil, jwkErrorf(ErrMalformed, "missing member \"crv\"")
	}
	curve, size := ecCurve(crv)
	if curve == nil {
		return nil, jwkErrorf(ErrUnsupportedAlgorithm, "member \"crv\": unsupported curve %q", crv)
	}
	if kp.x == nil {
		return nil, jwkErrorf(ErrMalformed, "missing member \"x\"")
	}
	if kp.y == nil {
		return nil, jwkErrorf(ErrMalformed, "missing member \"y\"")
	}
	// Coordinates are exactly the curve's size (RFC 7518 §6.2.1.2-3).
	for _, c := range []struct {
		name string
		v    []byte
	}{{"x", kp.x}, {"y", kp.y}, {"d", kp.d}} {
		if c.v != nil && len(c.v) != size {
			return nil, jwkErrorf(ErrMalformed, "member %q: %d bytes, want %d for %s", c.name, len(c.v), size, crv)
		}
	}
	point := make([]byte, 0, 1+2*size)
	point = append(append(append(point, 4), kp.x...), kp.y...)
	pub, err := ecdsa.ParseUncompressedPublicKey(curve, point)
	if err != nil {
		return nil, jwkErrorf(ErrInvalidKey, "members \"x\" and \"y\": not a point on %s", crv)
	}
	if kp.d == nil {
		return pub, nil
	}
	priv, err := ecdsa.ParseRawPrivateKey(curve, kp.d)
	if err != nil {
		return nil, jwkErrorf(ErrInvalidKey, "member \"d\": not a valid %s private key", crv)
	}
	if !priv.PublicKey.Equal(pub) {
		return nil, jwkErrorf(ErrInvalidKey, "member \"d\": does not match \"x\" and \"y\"")
	}
	return priv, nil
}

// okpFromParams builds an OKP key (RFC 8037 §2).
func okpFromParams(crv string, kp *keyParams) (any, error) {
	if crv == "" {
		return nil, jwkErrorf(ErrMalformed, "missing member \"crv\"")
	}
	if crv != CurveEd25519 && crv != CurveX25519 {
		return nil, jwkErrorf(ErrUnsupportedAlgorithm, "member \"crv\": unsupported curve %q", crv)
	}
	if kp.x == nil {
		return nil, jwkErrorf(ErrMalformed, "missing member \"x\"")
	}
	if len(kp.x) != 32 {
		return nil, jwkErrorf(ErrMalformed, "member \"x\": %d bytes, want 32 for %s", len(kp.x), crv)
	}
	if kp.d != nil && len(kp.d) != 32 {
		return nil, jwkErrorf(ErrMalformed, "member \"d\": %d bytes, want 32 for %s", len(kp.d), crv)
	}
	if crv == CurveEd25519 {
		pub := ed25519.PublicKey(kp.x)
		if kp.d == nil {
			return pub, nil
		}
		priv := ed25519.NewKeyFromSeed(kp.d)
		if subtle.ConstantTimeCompare(priv[32:], pub) != 1 {
			return nil, jwkErrorf(ErrInvalidKey, "member \"d\": does not match \"x\"")
		}
		return priv, nil
	}
	pub, err := ecdh.X25519().NewPublicKey(kp.x)
	if err != nil {
		return nil, jwkErrorf(ErrInvalidKey, "member \"x\": %v", err)
	}
	if kp.d == nil {
		return pub, nil
	}
	priv, err := ecdh.X25519().NewPrivateKey(kp.d)
	if err != nil {
		return nil, jwkErrorf(ErrInvalidKey, "member \"d\": %v", err)
	}
	if !priv.PublicKey().Equal(pub) {
		return nil, jwkErrorf(ErrInvalidKey, "member \"d\": does not match \"x\"")
	}
	return priv, nil
}

// publicKeyOf returns the public key of a supported Go key, the key itself
// if it is public, and nil for symmetric or unsupported keys.
func publicKeyOf(key any) crypto.PublicKey {
	switch key := key.(type) {
	case *rsa.PrivateKey:
		return &rsa.PublicKey{N: key.N, E: key.E}
	case *rsa.PublicKey:
		return key
	case *ecdsa.PrivateKey:
		return &key.PublicKey
	case *ecdsa.PublicKey:
		return key
	case ed25519.PrivateKey:
		return key.Public()
	case ed25519.PublicKey:
		return key
	case *ecdh.PrivateKey:
		return key.PublicKey()
	case *ecdh.PublicKey:
		return key
	}
	return nil
}

// Supported reports whether k holds a key of a type this module can use. An
// entry of a JWK Set whose kty or crv is not supported, or which failed its
// checks, is kept in the set but is not supported; [JWK.Err] says why. Keys
// from [ParseKey], [ParseSet] and [NewJWK] are checked; a JWK built by hand
// is only checked when it is marshalled or used.
func (k *JWK) Supported() bool {
	return k != nil && k.ext.err == nil && keyTypeOf(k.Key) != ""
}

// Err returns nil for a supported key, and otherwise why k is unusable:
// for an entry of a JWK Set, the error that [ParseKey] would have returned
// for it.
func (k *JWK) Err() error {
	switch {
	case k == nil:
		return jwkErrorf(ErrInvalidKey, "nil key")
	case k.ext.err != nil:
		return k.ext.err
	case k.Key == nil:
		return jwkErrorf(ErrInvalidKey, "no key")
	case keyTypeOf(k.Key) == "":
		return jwkErrorf(ErrUnsupportedAlgorithm, "unsupported Go key type %T", k.Key)
	}
	return nil
}

// keyTypeOf returns the kty of a supported Go key, or "".
func keyTypeOf(key any) string {
	switch key := key.(type) {
	case []byte:
		if len(key) > 0 {
			return KeyTypeOct
		}
	case *rsa.PublicKey:
		if key != nil && key.N != nil {
			return KeyTypeRSA
		}
	case *rsa.PrivateKey:
		if key != nil && key.N != nil && len(key.Primes) == 2 {
			return KeyTypeRSA
		}
	case *ecdsa.PublicKey:
		if key != nil && ecCurveName(key.Curve) != "" {
			return KeyTypeEC
		}
	case *ecdsa.PrivateKey:
		if key != nil && ecCurveName(key.Curve) != "" {
			return KeyTypeEC
		}
	case ed25519.PublicKey:
		if len(key) == ed25519.PublicKeySize {
			return KeyTypeOKP
		}
	case ed25519.PrivateKey:
		if len(key) == ed25519.PrivateKeySize {
			return KeyTypeOKP
		}
	case *ecdh.PublicKey:
		if key != nil && key.Curve() == ecdh.X25519() {
			return KeyTypeOKP
		}
	case *ecdh.PrivateKey:
		if key != nil && key.Curve() == ecdh.X25519() {
			return KeyTypeOKP
		}
	}
	return ""
}

// KeyType returns the key's "kty" (RFC 7517 §4.1): "oct", "RSA", "EC" or
// "OKP", or, for an unusable entry of a JWK Set, the kty it was read with.
func (k *JWK) KeyType() string {
	if k == nil {
		return ""
	}
	if t := keyTypeOf(k.Key); t != "" {
		return t
	}
	return k.ext.kty
}

// Curve returns the key's "crv" (RFC 7518 §6.2.1.1, RFC 8037 §2) for EC and
// OKP keys, and "" for other keys.
func (k *JWK) Curve() string {
	if k == nil {
		return ""
	}
	switch key := k.Key.(type) {
	case *ecdsa.PublicKey:
		return ecCurveName(key.Curve)
	case *ecdsa.PrivateKey:
		return ecCurveName(key.Curve)
	case ed25519.PublicKey, ed25519.PrivateKey:
		return CurveEd25519
	case *ecdh.PublicKey:
		if key.Curve() == ecdh.X25519() {
			return CurveX25519
		}
	case *ecdh.PrivateKey:
		if key.Curve() == ecdh.X25519() {
			return CurveX25519
		}
	}
	if k.Key == nil {
		return k.ext.crv
	}
	return ""
}

// IsPrivate reports whether k holds secret material: a private key, or a
// symmetric ("oct") key.
func (k *JWK) IsPrivate() bool {
	if k == nil {
		return false
	}
	switch k.Key.(type) {
	case []byte, *rsa.PrivateKey, *ecdsa.PrivateKey, ed25519.PrivateKey, *ecdh.PrivateKey:
		return true
	}
	return false
}

// IsSymmetric reports whether k is a symmetric ("oct") key.
func (k *JWK) IsSymmetric() bool {
	if k == nil {
		return false
	}
	_, ok := k.Key.([]byte)
	return ok
}

// privateMembers are the JWK members that carry secrets (RFC 7518 §6.2.2,
// §6.3.2, §6.4, RFC 8037 §2).
var privateMembers = []string{"d", "p", "q", "dp", "dq", "qi", "oth", "k", "r", "t"}

// Public returns the public JWK of k (RFC 7517 §4): the same key without
// any private member, with the same kid, use, alg, certificates and unknown
// members (except unknown members named like private ones). Private key
// operations in key_ops become their public counterparts (sign → verify,
// decrypt → encrypt, unwrapKey → wrapKey; deriveKey and deriveBits, which
// need the private key, are dropped). Public returns nil for a symmetric key
// and for an unsupported entry, which have no public form.
func (k *JWK) Public() *JWK {
	if !k.Supported() || k.IsSymmetric() {
		return nil
	}
	pub := &JWK{
		Key:                         publicKeyOf(k.Key),
		KeyID:                       k.KeyID,
		Use:                         k.Use,
		Algorithm:                   k.Algorithm,
		Certificates:                slices.Clone(k.Certificates),
		CertificateThumbprintSHA1:   slices.Clone(k.CertificateThumbprintSHA1),
		CertificateThumbprintSHA256: slices.Clone(k.CertificateThumbprintSHA256),
	}
	if k.KeyOps != nil {
		pub.KeyOps = []KeyOp{}
		for _, op := range k.KeyOps {
			switch op {
			case OpSign:
				op = OpVerify
			case OpDecrypt:
				op = OpEncrypt
			case OpUnwrapKey:
				op = OpWrapKey
			case OpDeriveKey, OpDeriveBits:
				continue
			}
			if !slices.Contains(pub.KeyOps, op) {
				pub.KeyOps = append(pub.KeyOps, op)
			}
		}
	}
	for _, m := range k.ext.extra {
		if !slices.Contains(privateMembers, m.name) {
			pub.ext.extra = append(pub.ext.extra, m)
		}
	}
	return pub
}

// Permits returns nil if k may be used for operation op with algorithm alg,
// as its own members declare (RFC 7517 §4.2-4.4): its "alg", if present,
// must be alg; its "use", if present, must be "sig" for sign and verify and
// "enc" for the other operations; its "key_ops", if present, must list op.
// Otherwise the error wraps [ErrAlgorithmNotAllowed]. An unusable key is
// refused with its [JWK.Err].
func (k *JWK) Permits(alg string, op KeyOp) error {
	if err := k.Err(); err != nil {
		return err
	}
	if k.Algorithm != "" && k.Algorithm != alg {
		return fmt.Errorf("%w: %s is for alg %q, not %q", ErrAlgorithmNotAllowed, k.describe(), k.Algorithm, alg)
	}
	var use string
	switch op {
	case OpSign, OpVerify:
		use = UseSignature
	case OpEncrypt, OpDecrypt, OpWrapKey, OpUnwrapKey, OpDeriveKey, OpDeriveBits:
		use = UseEncryption
	default:
		return fmt.Errorf("%w: unknown key operation %q", ErrAlgorithmNotAllowed, op)
	}
	if k.Use != "" && k.Use != use {
		return fmt.Errorf("%w: %s has use %q, not usable to %s", ErrAlgorithmNotAllowed, k.describe(), k.Use, op)
	}
	if k.KeyOps != nil && !slices.Contains(k.KeyOps, op) {
		return fmt.Errorf("%w: %s does not list %q in key_ops", ErrAlgorithmNotAllowed, k.describe(), op)
	}
	return nil
}

// describe names k in error messages: by kid if it has one.
func (k *JWK) describe() string {
	if k.KeyID != "" {
		return fmt.Sprintf("key %q", k.KeyID)
	}
	return k.KeyType() + " key"
}

// MarshalJSON returns the JWK as a JSON object (RFC 7517 §4), with its
// private members if it holds a private key; use [JWK.Public] to publish a
// key. An unusable entry of a JWK Set is written back as it was read.
func (k *JWK) MarshalJSON() ([]byte, error) {
	return k.AppendJSON(nil)
}

// AppendJSON appends the JSON form of k, as [JWK.MarshalJSON] returns it,
// to dst.
func (k *JWK) AppendJSON(dst []byte) ([]byte, error) {
	if k == nil {
		return append(dst, "null"...), nil
	}
	if k.Key == nil && k.ext.raw != nil {
		return append(dst, k.ext.raw...), nil
	}
	b := jwkWriter{buf: dst, start: len(dst)}
	b.buf = append(b.buf, '{')
	switch key := k.Key.(type) {
	case []byte:
		if len(key) == 0 {
			return dst, jwkErrorf(ErrInvalidKey, "empty symmetric key")
		}
		b.str("kty", KeyTypeOct)
		b.b64("k", key)
	case *rsa.PublicKey:
		if err := checkRSAPublic(key); err != nil {
			return dst, err
		}
		b.str("kty", KeyTypeRSA)
		b.rsaPublic(key)
	case *rsa.PrivateKey:
		if len(key.Primes) != 2 {
			return dst, jwkErrorf(ErrUnsupportedAlgorithm, "RSA key with %d primes: multi-prime RSA keys are not supported", len(key.Primes))
		}
		if err := checkRSAPublic(&key.PublicKey); err != nil {
			return dst, err
		}
		b.str("kty", KeyTypeRSA)
		b.rsaPublic(&key.PublicKey)
		dp, dq, qi := rsaCRT(key)
		b.b64("d", key.D.Bytes())
		b.b64("p", key.Primes[0].Bytes())
		b.b64("q", key.Primes[1].Bytes())
		b.b64("dp", dp.Bytes())
		b.b64("dq", dq.Bytes())
		b.b64("qi", qi.Bytes())
	case *ecdsa.PublicKey:
		if err := b.ecPublic(key); err != nil {
			return dst, err
		}
	case *ecdsa.PrivateKey:
		if err := b.ecPublic(&key.PublicKey); err != nil {
			return dst, err
		}
		d, err := key.Bytes()
		if err != nil {
			return dst, jwkErrorf(ErrInvalidKey, "EC private key: %v", err)
		}
		b.b64("d", d)
	case ed25519.PublicKey:
		if len(key) != ed25519.PublicKeySize {
			return dst, jwkErrorf(ErrInvalidKey, "Ed25519 public key of %d bytes", len(key))
		}
		b.str("kty", KeyTypeOKP)
		b.str("crv", CurveEd25519)
		b.b64("x", key)
	case ed25519.PrivateKey:
		if len(key) != ed25519.PrivateKeySize {
			return dst, jwkErrorf(ErrInvalidKey, "Ed25519 private key of %d bytes", len(key))
		}
		b.str("kty", KeyTypeOKP)
		b.str("crv", CurveEd25519)
		b.b64("x", key[32:])
		b.b64("d", key.Seed())
	case *ecdh.PublicKey:
		if key.Curve() != ecdh.X25519() {
			return dst, jwkErrorf(ErrUnsupportedAlgorithm, "ecdh key on a NIST curve: use NewJWK to convert it")
		}
		b.str("kty", KeyTypeOKP)
		b.str("crv", CurveX25519)
		b.b64("x", key.Bytes())
	case *ecdh.PrivateKey:
		if key.Curve() != ecdh.X25519() {
			return dst, jwkErrorf(ErrUnsupportedAlgorithm, "ecdh key on a NIST curve: use NewJWK to convert it")
		}
		b.str("kty", KeyTypeOKP)
		b.str("crv", CurveX25519)
		b.b64("x", key.PublicKey().Bytes())
		b.b64("d", key.Bytes())
	case nil:
		return dst, jwkErrorf(ErrInvalidKey, "no key")
	default:
		return dst, jwkErrorf(ErrUnsupportedAlgorithm, "unsupported Go key type %T", key)
	}
	if k.KeyID != "" {
		b.str("kid", k.KeyID)
	}
	if k.Use != "" {
		b.str("use", k.Use)
	}
	if k.KeyOps != nil {
		b.name("key_ops")
		b.buf = append(b.buf, '[')
		for i, op := range k.KeyOps {
			if i > 0 {
				b.buf = append(b.buf, ',')
			}
			b.buf = jsonx.AppendString(b.buf, string(op))
		}
		b.buf = append(b.buf, ']')
	}
	if k.Algorithm != "" {
		b.str("alg", k.Algorithm)
	}
	if len(k.Certificates) > 0 {
		b.name("x5c")
		b.buf = append(b.buf, '[')
		for i, c := range k.Certificates {
			if i > 0 {
				b.buf = append(b.buf, ',')
			}
			b.buf = append(b.buf, '"')
			b.buf = base64.StdEncoding.AppendEncode(b.buf, c.Raw)
			b.buf = append(b.buf, '"')
		}
		b.buf = append(b.buf, ']')
	}
	if k.CertificateThumbprintSHA1 != nil {
		b.b64("x5t", k.CertificateThumbprintSHA1)
	}
	if k.CertificateThumbprintSHA256 != nil {
		b.b64("x5t#S256", k.CertificateThumbprintSHA256)
	}
	for _, m := range k.ext.extra {
		if slices.Contains(b.names, m.name) {
			continue
		}
		b.name(m.name)
		b.buf = append(b.buf, m.value...)
	}
	return append(b.buf, '}'), nil
}

// jwkWriter appends the members of a JSON object.
type jwkWriter struct {
	buf   []byte
	start int
	names []string
}

func (w *jwkWriter) name(n string) {
	if len(w.buf) > w.start+1 {
		w.buf = append(w.buf, ',')
	}
	w.buf = jsonx.AppendString(w.buf, n)
	w.buf = append(w.buf, ':')
	w.names = append(w.names, n)
}

func (w *jwkWriter) str(n, v string) {
	w.name(n)
	w.buf = jsonx.AppendString(w.buf, v)
}

func (w *jwkWriter) b64(n string, v []byte) {
	w.name(n)
	w.buf = append(w.buf, '"')
	w.buf = AppendBase64URL(w.buf, v)
	w.buf = append(w.buf, '"')
}

func (w *jwkWriter) rsaPublic(key *rsa.PublicKey) {
	w.b64("n", key.N.Bytes())
	w.b64("e", big.NewInt(int64(key.E)).Bytes())
}

func (w *jwkWriter) ecPublic(key *ecdsa.PublicKey) error {
	crv := ecCurveName(key.Curve)
	if crv == "" {
		return jwkErrorf(ErrUnsupportedAlgorithm, "unsupported EC curve")
	}
	p, err := key.Bytes()
	if err != nil {
		return jwkErrorf(ErrInvalidKey, "EC public key: %v", err)
	}
	size := (len(p) - 1) / 2
	w.str("kty", KeyTypeEC)
	w.str("crv", crv)
	w.b64("x", p[1:1+size])
	w.b64("y", p[1+size:])
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
		return jwkErrorf(ErrMalformed, "duplicate member %q", de.Name)
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
		if _, ok := err.(*jwkError); ok {
			return nil, err
		}
		return nil, jwkJSONError(err)
	}
	return elems, nil
}

// NewJWK returns a JWK holding key, checked as [ParseKey] checks a parsed
// key. key is one of: []byte (oct; copied), *rsa.PublicKey, *rsa.PrivateKey
// (two primes), *ecdsa.PublicKey, *ecdsa.PrivateKey (P-256, P-384, P-521),
// ed25519.PublicKey, ed25519.PrivateKey, *ecdh.PublicKey or
// *ecdh.PrivateKey. An X25519 ecdh key becomes an "OKP" JWK; an ecdh key on
// a NIST curve becomes an "EC" JWK holding the equivalent ecdsa key. The
// returned JWK has no kid, use, key_ops or alg: set them as needed.
func NewJWK(key any) (*JWK, error) {
	switch key := key.(type) {
	case []byte:
		if len(key) == 0 {
			return nil, jwkErrorf(ErrInvalidKey, "empty symmetric key")
		}
		return &JWK{Key: slices.Clone(key)}, nil
	case *rsa.PublicKey:
		if key == nil {
			break
		}
		if err := checkRSAPublic(key); err != nil {
			return nil, err
		}
		return &JWK{Key: key}, nil
	case *rsa.PrivateKey:
		if key == nil {
			break
		}
		if len(key.Primes) != 2 {
			return nil, jwkErrorf(ErrUnsupportedAlgorithm, "RSA key with %d primes: multi-prime RSA keys are not supported", len(key.Primes))
		}
		if err := checkRSAPublic(&key.PublicKey); err != nil {
			return nil, err
		}
		if err := key.Validate(); err != nil {
			return nil, jwkErrorf(ErrInvalidKey, "RSA private key: %v", err)
		}
		return &JWK{Key: key}, nil
	case *ecdsa.PublicKey:
		if key == nil {
			break
		}
		if ecCurveName(key.Curve) == "" {
			return nil, jwkErrorf(ErrUnsupportedAlgorithm, "unsupported EC curve")
		}
		if _, err := key.Bytes(); err != nil {
			return nil, jwkErrorf(ErrInvalidKey, "EC public key: %v", err)
		}
		return &JWK{Key: key}, nil
	case *ecdsa.PrivateKey:
		if key == nil {
			break
		}
		if ecCurveName(key.Curve) == "" {
			return nil, jwkErrorf(ErrUnsupportedAlgorithm, "unsupported EC curve")
		}
		d, err := key.Bytes()
		if err != nil {
			return nil, jwkErrorf(ErrInvalidKey, "EC private key: %v", err)
		}
		check, err := ecdsa.ParseRawPrivateKey(key.Curve, d)
		if err != nil || !check.PublicKey.Equal(&key.PublicKey) {
			return nil, jwkErrorf(ErrInvalidKey, "EC private key does not match its public key")
		}
		return &JWK{Key: key}, nil
	case ed25519.PublicKey:
		if len(key) != ed25519.PublicKeySize {
			return nil, jwkErrorf(ErrInvalidKey, "Ed25519 public key of %d bytes", len(key))
		}
		return &JWK{Key: key}, nil
	case ed25519.PrivateKey:
		if len(key) != ed25519.PrivateKeySize {
			return nil, jwkErrorf(ErrInvalidKey, "Ed25519 private key of %d bytes", len(key))
		}
		if subtle.ConstantTimeCompare(ed25519.NewKeyFromSeed(key.Seed())[32:], key[32:]) != 1 {
			return nil, jwkErrorf(ErrInvalidKey, "Ed25519 private key does not match its public key")
		}
		return &JWK{Key: key}, nil
	case *ecdh.PublicKey:
		if key == nil {
			break
		}
		if key.Curve() == ecdh.X25519() {
			return &JWK{Key: key}, nil
		}
		curve := ecdhCurve(key.Curve())
		pub, err := ecdsa.ParseUncompressedPublicKey(curve, key.Bytes())
		if err != nil {
			return nil, jwkErrorf(ErrInvalidKey, "EC public key: %v", err)
		}
		return &JWK{Key: pub}, nil
	case *ecdh.PrivateKey:
		if key == nil {
			break
		}
		if key.Curve() == ecdh.X25519() {
			return &JWK{Key: key}, nil
		}
		priv, err := ecdsa.ParseRawPrivateKey(ecdhCurve(key.Curve()), key.Bytes())
		if err != nil {
			return nil, jwkErrorf(ErrInvalidKey, "EC private key: %v", err)
		}
		return &JWK{Key: priv}, nil
	case *JWK:
		return nil, jwkErrorf(ErrInvalidKey, "key is already a *JWK")
	}
	return nil, jwkErrorf(ErrUnsupportedAlgorithm, "unsupported Go key type %T", key)
}

// ecdhCurve returns the elliptic.Curve of a NIST ecdh.Curve.
func ecdhCurve(c ecdh.Curve) elliptic.Curve {
	switch c {
	case ecdh.P256():
		return elliptic.P256()
	case ecdh.P384():
		return elliptic.P384()
	case ecdh.P521():
		return elliptic.P521()
	}
	return nil
}

// rocaPrimes are the small primes of the ROCA fingerprint (Nemec et al.,
// "The Return of Coppersmith's Attack", CCS 2017, CVE-2017-15361).
var rocaPrimes = []uint32{3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151, 157, 163, 167}

// rocaSubgroups[i][r] reports whether r is in the subgroup of the integers
// modulo rocaPrimes[i] generated by 65537.
var rocaSubgroups = func() [][]bool {
	subgroups := make([][]bool, len(rocaPrimes))
	for i, p := range rocaPrimes {
		in := make([]bool, p)
		g := 65537 % p
		for x := uint32(1); !in[x]; x = x * g % p {
			in[x] = true
		}
		subgroups[i] = in
	}
	return subgroups
}()

// rocaGroups splits rocaPrimes into runs whose products fit in 64 bits, so
// that n is reduced once per run rather than once per prime.
var rocaGroups = func() (groups []struct {
	prod       uint64
	start, end int
}) {
	start, prod := 0, uint64(1)
	for i, p := range rocaPrimes {
		if hi, _ := bits.Mul64(prod, uint64(p)); hi != 0 {
			groups = append(groups, struct {
				prod       uint64
				start, end int
			}{prod, start, i})
			start, prod = i, 1
		}
		prod *= uint64(p)
	}
	return append(groups, struct {
		prod       uint64
		start, end int
	}{prod, start, len(rocaPrimes)})
}()

// rocaVulnerable reports whether n has the fingerprint of the moduli made
// by the Infineon RSALib (ROCA, CVE-2017-15361): n mod p lies in the
// subgroup generated by 65537 for each of the small primes p. Such keys can
// be factored; the test has a negligible false positive rate.
func rocaVulnerable(n *big.Int) bool {
	b := n.Bytes()
	for _, g := range rocaGroups {
		// r = n mod g.prod, eight bytes at a time, most significant first.
		var r uint64
		head := len(b) % 8
		if head > 0 {
			var w uint64
			for _, c := range b[:head] {
				w = w<<8 | uint64(c)
			}
			r = w % g.prod
		}
		for i := head; i < len(b); i += 8 {
			r = bits.Rem64(r, binary.BigEndian.Uint64(b[i:]), g.prod)
		}
		for j := g.start; j < g.end; j++ {
			if !rocaSubgroups[j][r%uint64(rocaPrimes[j])] {
				return false
			}
		}
	}
	return true
}
