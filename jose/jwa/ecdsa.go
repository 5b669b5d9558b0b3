package jwa

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"fmt"
)

// ecdsaSigner implements ES256, ES384 and ES512 (RFC 7518 §3.4) with a local
// key or a crypto.Signer. Signatures are in the JWS form: R and S as
// fixed-length big-endian octet strings, concatenated.
type ecdsaSigner struct {
	alg    SignatureAlgorithm
	hash   crypto.Hash
	size   int               // length of R and of S in bytes
	priv   *ecdsa.PrivateKey // a validated copy of the caller's key, or nil
	signer crypto.Signer     // used when priv is nil
	check  Verifier          // checks signer's signatures (deviceCheck)
}

// ecdsaVerifier checks ES256, ES384 and ES512 signatures.
type ecdsaVerifier struct {
	alg  SignatureAlgorithm
	hash crypto.Hash
	size int
	pub  *ecdsa.PublicKey
}

var (
	_ Signer   = (*ecdsaSigner)(nil)
	_ Verifier = (*ecdsaVerifier)(nil)
)

// ecdsaParams returns the curve of alg and the length of R and S in bytes
// (RFC 7518 §3.4: 32, 48 and 66).
func ecdsaParams(alg SignatureAlgorithm) (elliptic.Curve, int) {
	switch alg {
	case ES256:
		return elliptic.P256(), 32
	case ES384:
		return elliptic.P384(), 48
	case ES512:
		return elliptic.P521(), 66
	}
	panic("jwa: internal error: ecdsaParams with " + string(alg))
}

// ecdsaCurveName names c for error messages.
func ecdsaCurveName(c elliptic.Curve) string {
	if c == nil {
		return "no curve"
	}
	if p := c.Params(); p != nil && p.Name != "" {
		return p.Name
	}
	return fmt.Sprintf("a curve of type %T", c)
}

// ecdsaCheckPublic refuses a public key that is not a valid point of the
// curve of alg, and returns an independent copy of a valid one.
// given is the key as the caller gave it (pub itself, its private key, or
// a crypto.Signer), which a refusal describes.
func ecdsaCheckPublic(alg SignatureAlgorithm, pub *ecdsa.PublicKey, given any) (*ecdsa.PublicKey, error) {
	curve, _ := ecdsaParams(alg)
	if pub.Curve != curve {
		return nil, keyError(string(alg), alg.KeyNeeds(), given)
	}
	if pub.X == nil || pub.Y == nil {
		return nil, fmt.Errorf("jwa: %s with an ECDSA public key without a point: %w", alg, ErrInvalidKey)
	}
	b, err := pub.Bytes()
	if err != nil {
		return nil, fmt.Errorf("jwa: %s with an invalid ECDSA public key: %v: %w", alg, err, ErrInvalidKey)
	}
	c, err := ecdsa.ParseUncompressedPublicKey(curve, b)
	if err != nil {
		return nil, fmt.Errorf("jwa: %s with an invalid ECDSA public key: %v: %w", alg, err, ErrInvalidKey)
	}
	return c, nil
}

// newECDSASigner returns the signer for ES256, ES384 or ES512.
func newECDSASigner(alg SignatureAlgorithm, key any) (*ecdsaSigner, error) {
	curve, size := ecdsaParams(alg)
	s := &ecdsaSigner{alg: alg, hash: alg.Hash(), size: size}
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		if _, err := ecdsaCheckPublic(alg, &k.PublicKey, k); err != nil {
			return nil, err
		}
		// Re-parsing checks the scalar against the public point and gives
		// an independent copy, whose address keys crypto/ecdsa's cache of
		// the expanded key.
		if k.D == nil {
			return nil, fmt.Errorf("jwa: %s with an ECDSA private key without a scalar: %w", alg, ErrInvalidKey)
		}
		b, err := k.Bytes()
		if err == nil {
			s.priv, err = ecdsa.ParseRawPrivateKey(curve, b)
		}
		if err == nil && !s.priv.PublicKey.Equal(&k.PublicKey) {
			err = fmt.Errorf("public key does not match the private scalar")
		}
		if err != nil {
			return nil, fmt.Errorf("jwa: %s with an invalid ECDSA private key: %v: %w", alg, err, ErrInvalidKey)
		}
	case ed25519.PrivateKey:
		// Not its Public method: it panics on a key of the wrong length.
		return nil, sigKeyTypeError(alg, key)
	case crypto.Signer:
		pub, ok := publicOf(k).(*ecdsa.PublicKey)
		if !ok {
			return nil, sigKeyTypeError(alg, key)
		}
		if _, err := ecdsaCheckPublic(alg, pub, key); err != nil {
			return nil, err
		}
		check, err := deviceCheck(alg, pub)
		if err != nil {
			return nil, err
		}
		s.signer, s.check = k, check
	default:
		return nil, sigKeyTypeError(alg, key)
	}
	return s, nil
}

// Algorithm returns ES256, ES384 or ES512.
func (s *ecdsaSigner) Algorithm() SignatureAlgorithm { return s.alg }

// Sign appends the ECDSA signature of signingInput, R||S with each half
// left-padded to the curve size (RFC 7518 §3.4), to dst.
func (s *ecdsaSigner) Sign(dst, signingInput []byte) ([]byte, error) {
	scratch := sigScratchPool.Get().(*sigScratch)
	defer sigScratchPool.Put(scratch)
	digest := sigDigest(s.hash, signingInput, &scratch.digest)
	var der []byte
	var err error
	if s.priv != nil {
		der, err = ecdsa.SignASN1(rand.Reader, s.priv, digest)
	} else {
		// A crypto.Signer is foreign code that might keep the digest: give
		// it its own copy, not the pooled buffer.
		der, err = s.signer.Sign(rand.Reader, bytes.Clone(digest), s.hash)
	}
	switch {
	case err != nil && s.priv == nil:
		return dst, signerError(s.alg, err)
	case err != nil:
		return dst, fmt.Errorf("jwa: %s signing failed: %w", s.alg, err)
	}
	if s.check != nil {
		// A device's signature is checked before it reaches dst, whose
		// spare capacity may hold signingInput (Sign(buf[:0], buf)).
		var rs [2 * 66]byte // R||S of P-521, the largest
		if !ecdsaDERToRS(der, rs[:2*s.size]) {
			return dst, signerAnswerError(s.alg, "a malformed signature")
		}
		if err := deviceVerify(s.alg, s.check, signingInput, rs[:2*s.size]); err != nil {
			return dst, err
		}
		return append(dst, rs[:2*s.size]...), nil
	}
	whole, tail := sigGrow(dst, 2*s.size)
	if !ecdsaDERToRS(der, tail) {
		return dst, signerAnswerError(s.alg, "a malformed signature")
	}
	return whole, nil
}

// newECDSAVerifier returns the verifier for ES256, ES384 or ES512.
func newECDSAVerifier(alg SignatureAlgorithm, key any) (*ecdsaVerifier, error) {
	k, ok := key.(*ecdsa.PublicKey)
	if !ok {
		return nil, sigKeyTypeError(alg, key)
	}
	pub, err := ecdsaCheckPublic(alg, k, k)
	if err != nil {
		return nil, err
	}
	_, size := ecdsaParams(alg)
	return &ecdsaVerifier{alg: alg, hash: alg.Hash(), size: size, pub: pub}, nil
}

// Algorithm returns ES256, ES384 or ES512.
func (v *ecdsaVerifier) Algorithm() SignatureAlgorithm { return v.alg }

// Verify checks an ECDSA signature of signingInput in the JWS form
// (RFC 7518 §3.4). A signature of any other length than 64, 96 or 132
// bytes (for ES256, ES384, ES512), DER included, is refused.
func (v *ecdsaVerifier) Verify(signingInput, signature []byte) error {
	if len(signature) != 2*v.size {
		return ErrVerification
	}
	scratch := sigScratchPool.Get().(*sigScratch)
	defer sigScratchPool.Put(scratch)
	digest := sigDigest(v.hash, signingInput, &scratch.digest)
	der := ecdsaRSToDER(signature, &scratch.der)
	if !ecdsa.VerifyASN1(v.pub, digest, der) {
		return ErrVerification
	}
	return nil
}

// ecdsaMaxDER is the longest DER ECDSA-Sig-Value for P-521: a SEQUENCE
// header of 3 bytes and two INTEGERs of 2 + 67 bytes.
const ecdsaMaxDER = 3 + 2*(2+67)

// ecdsaRSToDER encodes the JWS signature rs (R||S, two halves of equal
// length up to 66 bytes) as a DER ECDSA-Sig-Value (RFC 3279 §2.2.3) in buf.
func ecdsaRSToDER(rs []byte, buf *[ecdsaMaxDER]byte) []byte {
	half := len(rs) / 2
	r, s := ecdsaTrimInt(rs[:half]), ecdsaTrimInt(rs[half:])
	lr, ls := len(r), len(s)
	if r[0]&0x80 != 0 {
		lr++
	}
	if s[0]&0x80 != 0 {
		ls++
	}
	body := 2 + lr + 2 + ls
	out := buf[:0]
	if body < 0x80 {
		out = append(out, 0x30, byte(body))
	} else {
		out = append(out, 0x30, 0x81, byte(body))
	}
	out = ecdsaAppendInt(out, r, lr)
	return ecdsaAppendInt(out, s, ls)
}

// ecdsaTrimInt drops the leading zero bytes of the big-endian integer b,
// keeping at least one byte.
func ecdsaTrimInt(b []byte) []byte {
	for len(b) > 1 && b[0] == 0 {
		b = b[1:]
	}
	return b
}

// ecdsaAppendInt appends a DER INTEGER of content length n holding the
// non-negative minimal big-endian b (n is len(b), or len(b)+1 when the top
// bit of b is set and a zero byte must precede it).
func ecdsaAppendInt(out, b []byte, n int) []byte {
	out = append(out, 0x02, byte(n))
	if n > len(b) {
		out = append(out, 0)
	}
	return append(out, b...)
}

// ecdsaDERToRS decodes the DER ECDSA-Sig-Value der into rs, R and S each
// left-padded to len(rs)/2 bytes. It accepts only DER (minimal lengths and
// integers, nothing trailing) with 0 < R, S < 2^(8·len(rs)/2), and reports
// whether der was such a value.
func ecdsaDERToRS(der, rs []byte) bool {
	if len(der) < 2 || der[0] != 0x30 {
		return false
	}
	var body []byte
	switch n := int(der[1]); {
	case n < 0x80:
		body = der[2:]
		if len(body) != n {
			return false
		}
	case n == 0x81 && len(der) >= 3 && der[2] >= 0x80:
		body = der[3:]
		if len(body) != int(der[2]) {
			return false
		}
	default:
		return false
	}
	half := len(rs) / 2
	body, ok := ecdsaReadInt(body, rs[:half])
	if !ok {
		return false
	}
	body, ok = ecdsaReadInt(body, rs[half:])
	return ok && len(body) == 0
}

// ecdsaReadInt reads a positive DER INTEGER from the front of b into out,
// left-padded, and returns the rest of b.
func ecdsaReadInt(b, out []byte) ([]byte, bool) {
	if len(b) < 2 || b[0] != 0x02 || b[1] >= 0x80 {
		return nil, false
	}
	n := int(b[1])
	if n == 0 || len(b) < 2+n {
		return nil, false
	}
	v, rest := b[2:2+n], b[2+n:]
	if v[0]&0x80 != 0 {
		return nil, false // negative
	}
	if v[0] == 0 {
		if len(v) == 1 || v[1]&0x80 == 0 {
			return nil, false // zero, or not minimal
		}
		v = v[1:]
	}
	if len(v) > len(out) {
		return nil, false
	}
	pad := len(out) - len(v)
	clear(out[:pad])
	copy(out[pad:], v)
	return rest, true
}
