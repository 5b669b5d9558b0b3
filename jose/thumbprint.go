package jose

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/sha256"
	_ "crypto/sha3"   // crypto.SHA3_* for thumbprints
	_ "crypto/sha512" // crypto.SHA384, crypto.SHA512 for thumbprints
	"fmt"
	"slices"

	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/internal/jsonx"
)

// ThumbprintURIPrefix starts every JWK Thumbprint URI (RFC 9278 §3).
const ThumbprintURIPrefix = "urn:ietf:params:oauth:jwk-thumbprint:"

// Thumbprint returns the JWK Thumbprint of k (RFC 7638 §3): the hash h of
// the key's required members, in lexicographic order and without
// whitespace: {"e","kty","n"} for RSA (RFC 7638 §3.2), {"crv","kty","x","y"}
// for EC, {"k","kty"} for oct, {"crv","kty","x"} for OKP (RFC 8037 §2) and
// {"alg","kty","pub"} for AKP (RFC 9964 §4).
// The thumbprint of a private key is that of its public key. Use
// crypto.SHA256 unless another hash is agreed on.
func (k *JWK) Thumbprint(h crypto.Hash) ([]byte, error) {
	if !h.Available() {
		return nil, fmt.Errorf("jose: thumbprint: hash %v is not available", h)
	}
	if h == crypto.SHA256 {
		return k.thumbprintSHA256()
	}
	in, err := k.appendThumbprintInput(nil)
	if err != nil {
		return nil, err
	}
	hh := h.New()
	hh.Write(in)
	return hh.Sum(nil), nil
}

// thumbprintSHA256 is Thumbprint(crypto.SHA256), the thumbprint of every
// DPoP proof's key (RFC 9449 §6.1): for a public EC or Ed25519 key, the
// hashed JSON is written on the stack, and the sum is the one allocation
// beyond those of crypto/ecdsa's PublicKey.Bytes (none for Ed25519).
func (k *JWK) thumbprintSHA256() ([]byte, error) {
	// The longest input written directly, a P-521 key's: 31 bytes
	// before x, x and y of 66 bytes in 88 characters each, and 9 more.
	var buf [216]byte
	in, err := k.appendThumbprintInput(buf[:0])
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(in)
	return sum[:], nil
}

// appendThumbprintInput appends to dst the JSON that [JWK.Thumbprint]
// hashes. Public EC and Ed25519 keys, those of DPoP proofs, have their
// required members written directly (ecPublicPoint checks what
// AppendJSON checks of them); every other key goes through
// thumbprintInputOf, and TestThumbprintInputDirect checks that both give
// the same bytes.
func (k *JWK) appendThumbprintInput(dst []byte) ([]byte, error) {
	if err := k.Err(); err != nil {
		return nil, err
	}
	switch key := k.Key.(type) {
	case *ecdsa.PublicKey:
		crv, p, err := ecPublicPoint(key)
		if err != nil {
			return nil, err
		}
		size := (len(p) - 1) / 2
		dst = jsonx.AppendString(append(dst, `{"crv":`...), crv)
		dst = b64enc.Append(append(dst, `,"kty":"EC","x":"`...), p[1:1+size])
		dst = b64enc.Append(append(dst, `","y":"`...), p[1+size:])
		return append(dst, `"}`...), nil
	case ed25519.PublicKey: // of ed25519.PublicKeySize bytes: k.Err checked it
		dst = b64enc.Append(append(dst, `{"crv":"Ed25519","kty":"OKP","x":"`...), key)
		return append(dst, `"}`...), nil
	}
	return thumbprintInputOf(dst, k.Key)
}

// thumbprintInputOf appends to dst the JSON that [JWK.Thumbprint] hashes
// for key, a key a JWK can hold: its required members, a prefix of what
// AppendJSON writes, read back from it rather than written by a second
// encoding of every key type.
func thumbprintInputOf(dst []byte, key any) ([]byte, error) {
	full, err := (&JWK{Key: key}).AppendJSON(nil)
	if err != nil {
		return nil, err
	}
	members, err := jwkParseObject(full, Limits{}.WithDefaults())
	if err != nil {
		return nil, err
	}
	var names []string
	switch keyTypeOf(key) {
	case KeyTypeRSA:
		names = []string{"e", "kty", "n"}
	case KeyTypeEC:
		names = []string{"crv", "kty", "x", "y"}
	case KeyTypeOct:
		names = []string{"k", "kty"}
	case KeyTypeOKP:
		names = []string{"crv", "kty", "x"}
	case KeyTypeAKP:
		names = []string{"alg", "kty", "pub"}
	}
	out := slices.Grow(dst, len(full))
	out = append(out, '{')
	for i, n := range names {
		if i > 0 {
			out = append(out, ',')
		}
		out = jsonx.AppendString(out, n)
		out = append(out, ':')
		for _, m := range members {
			if m.name == n {
				out = append(out, m.value...)
			}
		}
	}
	return append(out, '}'), nil
}

// ThumbprintURI returns the JWK Thumbprint URI of k (RFC 9278 §3), such as
// "urn:ietf:params:oauth:jwk-thumbprint:sha-256:NzbLsXh8...". h must have a
// name in the IANA Named Information Hash Algorithm Registry: SHA-256,
// SHA-384, SHA-512 or SHA3-224 to SHA3-512.
func (k *JWK) ThumbprintURI(h crypto.Hash) (string, error) {
	var name string
	switch h {
	case crypto.SHA256:
		name = "sha-256"
	case crypto.SHA384:
		name = "sha-384"
	case crypto.SHA512:
		name = "sha-512"
	case crypto.SHA3_224:
		name = "sha3-224"
	case crypto.SHA3_256:
		name = "sha3-256"
	case crypto.SHA3_384:
		name = "sha3-384"
	case crypto.SHA3_512:
		name = "sha3-512"
	default:
		return "", fmt.Errorf("jose: thumbprint URI: hash %v has no registered name", h)
	}
	sum, err := k.Thumbprint(h)
	if err != nil {
		return "", err
	}
	return ThumbprintURIPrefix + name + ":" + Base64URLEncode(sum), nil
}
