package dpop

import (
	"crypto"
	"crypto/rand"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/internal/jsonx"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// Type is the "typ" of a DPoP proof (RFC 9449 §4.2).
const Type = "dpop+jwt"

// Prover makes DPoP proofs (RFC 9449 §4.2) with one asymmetric key and one
// algorithm, fixed when it is made: every proof carries the header
// {"alg", "typ": "dpop+jwt", "jwk": the public key}, encoded once. It is
// safe for concurrent use.
type Prover struct {
	signer *jws.Signer
	public *jose.JWK
	jkt    string
}

// NewProver returns a Prover signing with key under alg, an asymmetric
// signature algorithm (ES256, ES384, ES512, EdDSA, Ed25519, PS256, PS384,
// PS512, RS256, RS384, RS512, ...): HMAC and "none" are refused, as
// RFC 9449 §4.2 requires. key is a private key (*ecdsa.PrivateKey,
// ed25519.PrivateKey, *rsa.PrivateKey, any crypto.Signer) or a *jose.JWK
// holding one, which must permit alg for signing; keys too weak for alg are
// refused as jws.NewSigner refuses them. A JWK's "kid" is not written.
func NewProver(alg jwa.SignatureAlgorithm, key any) (*Prover, error) {
	if err := checkAsymmetric(alg); err != nil {
		return nil, err
	}
	if k, ok := key.(*jose.JWK); ok {
		if k == nil || k.Key == nil {
			return nil, errors.New("dpop: the JWK holds no usable key")
		}
		if err := k.Permits(string(alg), jose.OpSign); err != nil {
			return nil, err // jose's words, under no bare "dpop:"
		}
		key = k.Key
	}
	s, ok := key.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("dpop: the key is %s; a proof is signed with a private key", jwa.DescribeKey(key))
	}
	pub, err := jose.NewJWK(s.Public())
	if err != nil {
		return nil, fmt.Errorf("dpop: public key: %w", err)
	}
	signer, err := jws.NewSigner(alg, key, &jws.SignerOptions{Type: Type, Extra: map[string]any{"jwk": pub}})
	if err != nil {
		return nil, err // jws's words, under no bare "dpop:"
	}
	jkt, err := Thumbprint(pub)
	if err != nil {
		return nil, err
	}
	return &Prover{signer: signer, public: pub, jkt: jkt}, nil
}

// checkAsymmetric refuses "none", MACs and algorithms jwa does not
// implement: a DPoP proof is signed with a private key (RFC 9449 §4.2,
// §4.3 check 5).
func checkAsymmetric(alg jwa.SignatureAlgorithm) error {
	switch kty := alg.KeyType(); {
	case !alg.Known() || kty == "":
		return fmt.Errorf("dpop: algorithm %s is not supported: %w", untrusted.Quote(alg), ErrAlgorithm)
	case kty == jose.KeyTypeOct:
		return fmt.Errorf("dpop: %s is a MAC, not an asymmetric signature: %w", alg, ErrAlgorithm)
	}
	return nil
}

// Thumbprint returns the JWK SHA-256 Thumbprint of key (RFC 7638 §3), in
// base64url: the "jkt" that binds an access token to it (RFC 9449 §6.1).
// key is a proof key, an asymmetric signature key, private or public (the
// thumbprint is the public key's): a symmetric ("oct") key, which RFC
// 7638 would hash as well, or a key-agreement key (X25519) is refused
// with an error wrapping [jose.ErrInvalidKey], since no proof is signed
// with it (RFC 9449 §4.2).
func Thumbprint(key *jose.JWK) (string, error) {
	if err := key.Err(); err != nil {
		return "", fmt.Errorf("dpop: thumbprint: %w", err)
	}
	if key.IsSymmetric() {
		return "", fmt.Errorf("dpop: thumbprint: a symmetric (oct) key is not a DPoP key: proofs are signed with an asymmetric key (RFC 9449 §4.2): %w", jose.ErrInvalidKey)
	}
	if !signatureKey(key.Key) {
		return "", fmt.Errorf("dpop: thumbprint: a key of type %s is not a signature key, so not a DPoP key (RFC 9449 §4.2): %w", keyDescription(key), jose.ErrInvalidKey)
	}
	return thumbprint(key)
}

// signatureKey reports whether an asymmetric signature algorithm of jwa
// fits key.
func signatureKey(key any) bool {
	for _, a := range jwa.SignatureAlgorithms() {
		if a.KeyType() != jose.KeyTypeOct && a.FitsKey(key) {
			return true
		}
	}
	return false
}

// keyDescription names the type of key and, when it has one, its curve.
func keyDescription(key *jose.JWK) string {
	if c := key.Curve(); c != "" {
		return key.KeyType() + " " + c
	}
	return key.KeyType()
}

// thumbprint is Thumbprint of a key already known to be a proof key.
func thumbprint(key *jose.JWK) (string, error) {
	t, err := key.Thumbprint(crypto.SHA256)
	if err != nil {
		return "", fmt.Errorf("dpop: thumbprint: %w", err)
	}
	return jose.Base64URLEncode(t), nil
}

// Algorithm returns the algorithm of the Prover's proofs, their "alg".
func (p *Prover) Algorithm() jwa.SignatureAlgorithm { return p.signer.Algorithm() }

// PublicKey returns the public key every proof carries as "jwk". The
// caller must not modify it.
func (p *Prover) PublicKey() *jose.JWK { return p.public }

// Thumbprint returns the thumbprint of the Prover's key (RFC 7638), the
// "jkt" an authorization server binds its access tokens to (RFC 9449 §6.1)
// and a client sends as "dpop_jkt" (RFC 9449 §10).
func (p *Prover) Thumbprint() string { return p.jkt }

// ProofOptions are the optional parts of one proof.
type ProofOptions struct {
	// AccessToken, when set, is the access token the request presents:
	// the proof carries its hash as "ath" (RFC 9449 §4.2, §7.1).
	AccessToken string
	// Nonce, when set, is the nonce the server gave in a DPoP-Nonce
	// header (RFC 9449 §8, §9), carried as "nonce".
	Nonce string
	// IssuedAt is the proof's "iat"; the current time when zero.
	IssuedAt time.Time
}

// jtiBytes is the size of a proof's random "jti": 128 bits, beyond the 96
// RFC 9449 §4.2 asks for, so that two proofs' jti collide with odds no
// replay store needs to consider.
const jtiBytes = 16

// Proof returns a DPoP proof (RFC 9449 §4.2) for an HTTP request of method
// to uri, for its DPoP header: a JWS whose claims are a random "jti" (128
// bits), "htm" (method), "htu" (uri without its query and fragment), "iat"
// and, as opts says, "ath" and "nonce". uri must be an absolute http or
// https URI that NormalizeURI accepts, method an HTTP method token, and the
// nonce within the syntax of RFC 9449 §8.1. opts may be nil.
func (p *Prover) Proof(method, uri string, opts *ProofOptions) (string, error) {
	if opts == nil {
		opts = &ProofOptions{}
	}
	if !isToken(method) {
		return "", fmt.Errorf("dpop: method %s is not an HTTP method", untrusted.Quote(method))
	}
	if _, err := NormalizeURI(uri); err != nil {
		return "", err
	}
	htu := uri
	if i := strings.IndexAny(htu, "?#"); i >= 0 {
		htu = htu[:i]
	}
	if opts.Nonce != "" && !validNonce(opts.Nonce) {
		return "", fmt.Errorf("dpop: nonce %s is not within the syntax of RFC 9449 §8.1", untrusted.Quote(opts.Nonce))
	}
	var id [jtiBytes]byte
	rand.Read(id[:])
	iat := opts.IssuedAt
	if iat.IsZero() {
		iat = time.Now()
	}
	c := make([]byte, 0, 128+len(htu)+len(opts.Nonce))
	c = append(c, `{"jti":"`...)
	c = b64enc.Append(c, id[:])
	c = append(c, `","htm":`...)
	c = jsonx.AppendString(c, method)
	c = append(c, `,"htu":`...)
	c = jsonx.AppendString(c, htu)
	c = append(c, `,"iat":`...)
	c = strconv.AppendInt(c, iat.Unix(), 10)
	if opts.AccessToken != "" {
		c = append(c, `,"ath":"`...)
		c = append(c, AccessTokenHash(opts.AccessToken)...)
		c = append(c, '"')
	}
	if opts.Nonce != "" {
		c = append(c, `,"nonce":`...)
		c = jsonx.AppendString(c, opts.Nonce)
	}
	c = append(c, '}')
	tok, err := p.signer.Compact(c)
	if err != nil {
		return "", err
	}
	return string(tok), nil
}

// isToken reports whether s is an HTTP token (RFC 9110 §5.6.2), the
// syntax of a method.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// validNonce reports whether s is a nonce of RFC 9449 §8.1:
// 1*NQCHAR, NQCHAR = %x21 / %x23-5B / %x5D-7E.
func validNonce(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x21 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
