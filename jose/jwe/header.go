package jwe

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/josebench/josebench/jose/internal/jsonx"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// keyOp is the JWK key operation (RFC 7517 §4.3) that a key must permit to
// be used with alg: for "dir" the key encrypts or decrypts content itself
// (encrypt/decrypt); for the ECDH-ES family it derives a key
// (deriveKey); every other algorithm wraps or unwraps the CEK
// (wrapKey/unwrapKey).
func keyOp(alg jwa.KeyAlgorithm, decrypt bool) jose.KeyOp {
	switch {
	case alg == jwa.Direct:
		if decrypt {
			return jose.OpDecrypt
		}
		return jose.OpEncrypt
	case alg.IsECDH():
		return jose.OpDeriveKey
	case decrypt:
		return jose.OpUnwrapKey
	default:
		return jose.OpWrapKey
	}
}

// extraMember is one caller-supplied protected header member, marshalled
// once when the Encrypter is made.
type extraMember struct {
	name  string
	value json.RawMessage
}

// protectedParts is everything a protected header may hold, in the order
// written: alg, enc, zip, kid, typ, cty, epk, apu, apv, iv, tag, p2s, p2c,
// then the extra members sorted by name.
type protectedParts struct {
	alg      jwa.KeyAlgorithm // empty: omitted (general JSON)
	enc      jwa.ContentEncryption
	zip      bool
	kid      string
	typ, cty string
	extra    []extraMember
}

// appendProtected appends the JSON protected header to dst. p holds the
// per-message key management parameters that belong in it (nil: none).
func (pp *protectedParts) appendProtected(dst []byte, p *jwa.KeyParams) []byte {
	dst = append(dst, '{')
	first := true
	member := func(name string) {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, '"')
		dst = append(dst, name...)
		dst = append(dst, '"', ':')
	}
	if pp.alg != "" {
		member("alg")
		dst = appendJSONString(dst, string(pp.alg))
	}
	member("enc")
	dst = appendJSONString(dst, string(pp.enc))
	if pp.zip {
		member("zip")
		dst = append(dst, `"DEF"`...)
	}
	if pp.kid != "" {
		member("kid")
		dst = appendJSONString(dst, pp.kid)
	}
	if pp.typ != "" {
		member("typ")
		dst = appendJSONString(dst, pp.typ)
	}
	if pp.cty != "" {
		member("cty")
		dst = appendJSONString(dst, pp.cty)
	}
	if p != nil {
		if p.EPK != nil {
			member("epk")
			dst = appendEPK(dst, p.EPK)
		}
		if p.APU != nil {
			member("apu")
			dst = appendB64String(dst, p.APU)
		}
		if p.APV != nil {
			member("apv")
			dst = appendB64String(dst, p.APV)
		}
		if p.IV != nil {
			member("iv")
			dst = appendB64String(dst, p.IV)
		}
		if p.Tag != nil {
			member("tag")
			dst = appendB64String(dst, p.Tag)
		}
		if p.P2S != nil {
			member("p2s")
			dst = appendB64String(dst, p.P2S)
		}
		if p.P2C != 0 {
			member("p2c")
			dst = strconv.AppendInt(dst, int64(p.P2C), 10)
		}
	}
	for _, m := range pp.extra {
		// Caller-chosen names are escaped: a '"' in one must not inject
		// members.
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = appendJSONString(dst, m.name)
		dst = append(dst, ':')
		dst = append(dst, m.value...)
	}
	return append(dst, '}')
}

// check parses the protected header back, as a Decrypter with the default
// limits will, and applies the "crit" rules (RFC 7516 §4.1.13) to it, so
// that no Extra member makes a header every Decrypter refuses.
func (pp *protectedParts) check() error {
	h, err := jose.ParseHeader(pp.appendProtected(nil, nil), jose.Limits{})
	if err != nil {
		return fmt.Errorf("jwe: protected header: %w", err)
	}
	if err := jose.CheckCritical(h, h.Critical); err != nil {
		return fmt.Errorf("jwe: protected header: %w", err)
	}
	return nil
}

// appendB64String appends src base64url-encoded as a JSON string.
func appendB64String(dst, src []byte) []byte {
	dst = append(dst, '"')
	dst = jose.AppendBase64URL(dst, src)
	return append(dst, '"')
}

// appendJSONString appends s as a JSON string (RFC 8259 §7).
func appendJSONString(dst []byte, s string) []byte { return jsonx.AppendString(dst, s) }

// appendEPK appends the JWK of an ephemeral public key (RFC 7518 §4.6.1.1):
// "EC" for the NIST curves (RFC 7518 §6.2.1), "OKP" for X25519
// (RFC 8037 §2).
func appendEPK(dst []byte, pub *ecdh.PublicKey) []byte {
	var crv string
	switch pub.Curve() {
	case ecdh.P256():
		crv = "P-256"
	case ecdh.P384():
		crv = "P-384"
	case ecdh.P521():
		crv = "P-521"
	case ecdh.X25519():
		dst = append(dst, `{"kty":"OKP","crv":"X25519","x":`...)
		dst = appendB64String(dst, pub.Bytes())
		return append(dst, '}')
	default:
		panic("jwe: unsupported ephemeral key curve") // jwa makes only the curves above
	}
	b := pub.Bytes() // 0x04 || X || Y (SEC 1 §2.3.3)
	n := (len(b) - 1) / 2
	dst = append(dst, `{"kty":"EC","crv":"`...)
	dst = append(dst, crv...)
	dst = append(dst, `","x":`...)
	dst = appendB64String(dst, b[1:1+n])
	dst = append(dst, `,"y":`...)
	dst = appendB64String(dst, b[1+n:])
	return append(dst, '}')
}

// epkToJWK converts an ephemeral public key to a JWK for a header that is
// marshalled by [jose.Header.AppendJSON]: an *ecdsa.PublicKey ("EC") for the
// NIST curves, the *ecdh.PublicKey itself ("OKP") for X25519.
func epkToJWK(pub *ecdh.PublicKey) (*jose.JWK, error) {
	var key any
	switch pub.Curve() {
	case ecdh.P256(), ecdh.P384(), ecdh.P521():
		var c elliptic.Curve
		switch pub.Curve() {
		case ecdh.P256():
			c = elliptic.P256()
		case ecdh.P384():
			c = elliptic.P384()
		default:
			c = elliptic.P521()
		}
		k, err := ecdsa.ParseUncompressedPublicKey(c, pub.Bytes())
		if err != nil {
			return nil, fmt.Errorf("jwe: ephemeral key: %w", err)
		}
		key = k
	default:
		key = pub
	}
	return jose.NewJWK(key)
}

// epkFromJWK converts the "epk" header member to the key jwa expects: an
// "EC" key's *ecdsa.PublicKey through its ECDH form, or an "OKP" X25519
// *ecdh.PublicKey. Anything else (private keys, RSA, Ed25519) is refused.
func epkFromJWK(j *jose.JWK) (*ecdh.PublicKey, error) {
	if j == nil {
		return nil, fmt.Errorf("jwe: missing epk header parameter: %w", jose.ErrMalformed)
	}
	switch k := j.Key.(type) {
	case *ecdsa.PublicKey:
		pub, err := k.ECDH()
		if err != nil {
			return nil, fmt.Errorf("jwe: epk: unsupported curve: %w", jose.ErrMalformed)
		}
		return pub, nil
	case *ecdh.PublicKey:
		if k.Curve() == ecdh.X25519() {
			return k, nil
		}
	}
	return nil, fmt.Errorf("jwe: epk is not an EC or X25519 public key: %w", jose.ErrMalformed)
}
