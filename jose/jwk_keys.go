package jose

import (
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/subtle"
	"math/big"
	"slices"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose/jwa"
)

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

// validations counts the full RSA private-key validations (crypto/rsa's
// precomputation and Validate) made by one call of the internal parse
// functions that take it; nil, which every exported function passes,
// counts nothing. The tests of untrusted keys pass one to see that a key
// the cheap checks refuse never reaches a full validation.
type validations struct{ rsa int }

// fullRSA records one full RSA private-key validation.
func (v *validations) fullRSA() {
	if v != nil {
		v.rsa++
	}
}

// rsaFromParams builds an RSA key (RFC 7518 §6.3), counting a full
// validation in v.
func rsaFromParams(kp *keyParams, v *validations) (any, error) {
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
	key.Precomputed.Dp = new(big.Int).SetBytes(kp.dp)
	key.Precomputed.Dq = new(big.Int).SetBytes(kp.dq)
	key.Precomputed.Qinv = new(big.Int).SetBytes(kp.qi)
	if err := checkRSAPrivateShape(key); err != nil {
		return nil, err
	}
	// One full validation, with the CRT values given: crypto/rsa checks
	// them (no modular exponentiation), and Validate then finds the key
	// precomputed and consistent.
	v.fullRSA()
	key.Precompute()
	if err := key.Validate(); err != nil {
		return nil, jwkErrorf(ErrInvalidKey, "RSA private key: %v", err)
	}
	return key, nil
}

// checkRSAPrivateShape refuses, with plain big.Int arithmetic and no
// modular exponentiation, a two-prime RSA private key whose parts do not
// fit together (RFC 8017 §3.2): primes whose bit lengths do not add up to
// the modulus's, p·q ≠ n, d not in (2^(nlen/2), n), p and q too close
// (|p−q| ≤ 2^(nlen/2−100), the bound crypto/rsa applies), and, when the
// CRT values are set, dp, dq or qi out of range or inconsistent with d, e,
// p and q. Its cost is a few multiplications and divisions of the size of
// n, so that an attacker's inconsistent key (junk q, dp, dq, qi beside a
// 16384-bit n) is refused before crypto/rsa's precomputation and
// validation, which cost far more.
//
// The arithmetic is math/big's, which is not constant-time: besides the
// sizes, its timing (divisions above all) depends a little on the values
// of p, q and d. It runs once per parse of a key, so an observer would
// need many timed parses of the same secret key to learn anything; the
// full validation that follows, and every later use of the key, run in
// crypto/rsa's constant-time arithmetic.
func checkRSAPrivateShape(key *rsa.PrivateKey) error {
	n, e, d := key.N, big.NewInt(int64(key.E)), key.D
	p, q := key.Primes[0], key.Primes[1]
	nb := n.BitLen()
	one := big.NewInt(1)
	if p.Cmp(one) <= 0 || q.Cmp(one) <= 0 {
		return jwkErrorf(ErrInvalidKey, "members \"p\" and \"q\": not primes of the modulus")
	}
	// A product of an a-bit and a b-bit integer has a+b-1 or a+b bits.
	if sum := p.BitLen() + q.BitLen(); sum != nb && sum != nb+1 {
		return jwkErrorf(ErrInvalidKey, "members \"p\" and \"q\": %d and %d bits, not the factors of a %d-bit modulus", p.BitLen(), q.BitLen(), nb)
	}
	if new(big.Int).Mul(p, q).Cmp(n) != 0 {
		return jwkErrorf(ErrInvalidKey, "members \"p\" and \"q\": p·q is not n")
	}
	if diff := new(big.Int).Sub(p, q); diff.Abs(diff).BitLen() <= nb/2-100 {
		return jwkErrorf(ErrInvalidKey, "members \"p\" and \"q\": p and q too close")
	}
	if d.BitLen() <= nb/2 || d.Cmp(n) >= 0 {
		return jwkErrorf(ErrInvalidKey, "member \"d\": private exponent out of range")
	}
	pc := &key.Precomputed
	if pc.Dp == nil && pc.Dq == nil && pc.Qinv == nil {
		return nil
	}
	if pc.Dp == nil || pc.Dq == nil || pc.Qinv == nil {
		return jwkErrorf(ErrInvalidKey, "RSA private key: incomplete CRT values")
	}
	p1 := new(big.Int).Sub(p, one)
	q1 := new(big.Int).Sub(q, one)
	t := new(big.Int)
	for _, c := range []struct {
		name   string
		v, mod *big.Int
	}{{"dp", pc.Dp, p1}, {"dq", pc.Dq, q1}, {"qi", pc.Qinv, p}} {
		if c.v.Sign() <= 0 || c.v.Cmp(c.mod) >= 0 {
			return jwkErrorf(ErrInvalidKey, "member %q: out of range", c.name)
		}
	}
	for _, c := range []struct {
		name      string
		a, b, mod *big.Int
	}{{"dp", pc.Dp, e, p1}, {"dq", pc.Dq, e, q1}, {"qi", pc.Qinv, q, p}} {
		// dp·e ≡ 1 (mod p−1), dq·e ≡ 1 (mod q−1), qi·q ≡ 1 (mod p).
		if t.Mod(t.Mul(c.a, c.b), c.mod).Cmp(one) != 0 {
			return jwkErrorf(ErrInvalidKey, "member %q: does not match the private key", c.name)
		}
	}
	for _, c := range []struct {
		name   string
		v, mod *big.Int
	}{{"dp", pc.Dp, p1}, {"dq", pc.Dq, q1}} {
		// dp = d mod (p−1), dq = d mod (q−1).
		if t.Mod(d, c.mod).Cmp(c.v) != 0 {
			return jwkErrorf(ErrInvalidKey, "member %q: does not match \"d\"", c.name)
		}
	}
	return nil
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

// ecFromParams builds an EC key (RFC 7518 §6.2, RFC 8812 §3.1).
func ecFromParams(crv string, kp *keyParams) (any, error) {
	if crv == "" {
		return nil, jwkErrorf(ErrMalformed, "missing member \"crv\"")
	}
	curve, size := ecCurve(crv)
	if crv == CurveSecp256k1 {
		size = 32
	}
	if curve == nil && crv != CurveSecp256k1 {
		return nil, jwkErrorf(ErrUnsupportedAlgorithm, "member \"crv\": unsupported curve %s", untrusted.Quote(crv))
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
	if crv == CurveSecp256k1 {
		return secp256k1FromParams(point, kp.d)
	}
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

// secp256k1FromParams builds a secp256k1 key (RFC 8812 §3.1) from its
// uncompressed point and, for a private key, its scalar d, both of the
// right sizes already.
func secp256k1FromParams(point, d []byte) (any, error) {
	pub, err := jwa.NewSecp256k1PublicKey(point)
	if err != nil {
		return nil, jwkErrorf(ErrInvalidKey, "members \"x\" and \"y\": not a point on secp256k1")
	}
	if d == nil {
		return pub, nil
	}
	priv, err := jwa.NewSecp256k1PrivateKey(d)
	if err != nil {
		return nil, jwkErrorf(ErrInvalidKey, "member \"d\": not a valid secp256k1 private key")
	}
	if !priv.PublicKey().Equal(pub) {
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
		return nil, jwkErrorf(ErrUnsupportedAlgorithm, "member \"crv\": unsupported curve %s", untrusted.Quote(crv))
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
	case *jwa.Secp256k1PrivateKey:
		return key.PublicKey()
	case *jwa.Secp256k1PublicKey:
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
	return akpPublicKey(key)
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
	case *jwa.Secp256k1PublicKey:
		if key != nil {
			return KeyTypeEC
		}
	case *jwa.Secp256k1PrivateKey:
		if key != nil {
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
	return akpKeyType(key)
}

// NewJWK returns a JWK holding key, checked as [ParseKey] checks a parsed
// key. key is one of: []byte (oct; copied), *rsa.PublicKey, *rsa.PrivateKey
// (two primes), *ecdsa.PublicKey, *ecdsa.PrivateKey (P-256, P-384, P-521),
// *[jwa.Secp256k1PublicKey], *[jwa.Secp256k1PrivateKey] (secp256k1, checked by
// their constructors), ed25519.PublicKey, ed25519.PrivateKey, *ecdh.PublicKey or
// *ecdh.PrivateKey. An X25519 ecdh key becomes an "OKP" JWK; an ecdh key on
// a NIST curve becomes an "EC" JWK holding the equivalent ecdsa key. With
// Go 1.27 and later, key may also be an *mldsa.PublicKey or
// *mldsa.PrivateKey, which becomes an "AKP" JWK whose alg (required by
// RFC 9964 §4) is set to the key's parameter set. Otherwise the returned
// JWK has no kid, use, key_ops or alg: set them as needed.
func NewJWK(key any) (*JWK, error) {
	return newJWK(key, nil)
}

// newJWK is [NewJWK], counting a full RSA validation in v.
func newJWK(key any, v *validations) (*JWK, error) {
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
		if key.D == nil || key.Primes[0] == nil || key.Primes[1] == nil {
			return nil, jwkErrorf(ErrInvalidKey, "RSA private key without d, p or q")
		}
		if err := checkRSAPrivateShape(key); err != nil {
			return nil, err
		}
		v.fullRSA()
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
	case *jwa.Secp256k1PublicKey:
		if key == nil {
			break
		}
		if key.Bytes()[0] != 4 {
			return nil, jwkErrorf(ErrInvalidKey, "secp256k1 public key not made by jwa.NewSecp256k1PublicKey")
		}
		return &JWK{Key: key}, nil
	case *jwa.Secp256k1PrivateKey:
		if key == nil {
			break
		}
		if key.PublicKey().Bytes()[0] != 4 {
			return nil, jwkErrorf(ErrInvalidKey, "secp256k1 private key not made by jwa.NewSecp256k1PrivateKey or GenerateSecp256k1Key")
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
	if k, ok, err := akpNewJWK(key); ok {
		return k, err
	}
	return nil, jwkErrorf(ErrUnsupportedAlgorithm, "a JWK cannot hold %s", jwa.DescribeKey(key))
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
