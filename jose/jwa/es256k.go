package jwa

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
)

// es256kSize is the length of R and of S in an ES256K signature
// (RFC 8812 §3.2: a 64-byte R||S, as for ES256).
const es256kSize = 32

// es256kSigner implements ES256K (RFC 8812 §3.2) with a local key or a
// crypto.Signer whose public key is a *Secp256k1PublicKey.
type es256kSigner struct {
	priv   *Secp256k1PrivateKey // nil when signer is set
	signer crypto.Signer
	check  Verifier // checks signer's signatures (deviceCheck)
}

// es256kVerifier checks ES256K signatures.
type es256kVerifier struct {
	pub *Secp256k1PublicKey
}

var (
	_ Signer   = (*es256kSigner)(nil)
	_ Verifier = (*es256kVerifier)(nil)
)

func newES256KSigner(key any) (*es256kSigner, error) {
	switch k := key.(type) {
	case *Secp256k1PrivateKey:
		if !k.pub.valid() {
			return nil, errSecp256k1ZeroKey(ES256K)
		}
		return &es256kSigner{priv: k}, nil
	case ed25519.PrivateKey:
		return nil, sigKeyTypeError(ES256K, key) // its Public method panics on a bad length
	case crypto.Signer:
		pub, ok := publicOf(k).(*Secp256k1PublicKey)
		if !ok || pub == nil {
			return nil, sigKeyTypeError(ES256K, key)
		}
		if !pub.valid() {
			return nil, errSecp256k1ZeroKey(ES256K)
		}
		check, err := deviceCheck(ES256K, pub)
		if err != nil {
			return nil, err
		}
		return &es256kSigner{signer: k, check: check}, nil
	}
	return nil, sigKeyTypeError(ES256K, key)
}

// Algorithm returns ES256K.
func (s *es256kSigner) Algorithm() SignatureAlgorithm { return ES256K }

// Sign appends the ES256K signature of signingInput, R||S as two 32-byte
// big-endian integers (RFC 8812 §3.2), to dst. A local key signs with the
// deterministic nonce of RFC 6979, and with the low S of BIP 62 (either S
// verifies); see SECURITY.md for what is and is not constant-time.
func (s *es256kSigner) Sign(dst, signingInput []byte) ([]byte, error) {
	digest := sha256.Sum256(signingInput)
	if s.priv != nil {
		sig := ecdsa.Sign(&s.priv.d, digest[:])
		whole, tail := sigGrow(dst, 2*es256kSize)
		r, ss := sig.R(), sig.S()
		r.PutBytesUnchecked(tail[:es256kSize])
		ss.PutBytesUnchecked(tail[es256kSize:])
		return whole, nil
	}
	// A crypto.Signer is foreign code that might keep the digest: it gets
	// its own copy.
	der, err := s.signer.Sign(rand.Reader, bytes.Clone(digest[:]), crypto.SHA256)
	if err != nil {
		return dst, signerError(ES256K, err)
	}
	// Checked before it reaches dst, whose spare capacity may hold
	// signingInput (Sign(buf[:0], buf)).
	var rs [2 * es256kSize]byte
	if !ecdsaDERToRS(der, rs[:]) {
		return dst, signerAnswerError(ES256K, "a malformed signature")
	}
	if err := deviceVerify(ES256K, s.check, signingInput, rs[:]); err != nil {
		return dst, err
	}
	return append(dst, rs[:]...), nil
}

func newES256KVerifier(key any) (*es256kVerifier, error) {
	k, ok := key.(*Secp256k1PublicKey)
	if !ok {
		return nil, sigKeyTypeError(ES256K, key)
	}
	if !k.valid() {
		return nil, errSecp256k1ZeroKey(ES256K)
	}
	return &es256kVerifier{pub: k}, nil
}

// Algorithm returns ES256K.
func (v *es256kVerifier) Algorithm() SignatureAlgorithm { return ES256K }

// Verify checks an ES256K signature of signingInput (RFC 8812 §3.2): it
// must be exactly 64 bytes, R||S, with R and S each from 1 to n−1; DER is
// refused. A high S (n/2 < S < n) is accepted, as ECDSA accepts it:
// RFC 8812 does not ask for low S.
func (v *es256kVerifier) Verify(signingInput, signature []byte) error {
	if len(signature) != 2*es256kSize {
		return ErrVerification
	}
	var r, s secp256k1.ModNScalar
	if r.SetByteSlice(signature[:es256kSize]) || r.IsZero() ||
		s.SetByteSlice(signature[es256kSize:]) || s.IsZero() {
		return ErrVerification // R or S not in [1, n-1]
	}
	digest := sha256.Sum256(signingInput)
	if !ecdsa.NewSignature(&r, &s).Verify(digest[:], &v.pub.k) {
		return ErrVerification
	}
	return nil
}
