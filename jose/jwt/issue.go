package jwt

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/jsonx"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
	"github.com/josebench/josebench/jose/jws"
)

// TypeJWT is the "typ" of a JWT (RFC 7519 §5.1) that [NewSigner] and
// [NewEncrypter] write unless told otherwise, and the "cty" of the JWE of
// a nested JWT (RFC 7519 §5.2).
const TypeJWT = "JWT"

// Signer issues signed JWTs: the claims as the payload of a JWS Compact
// Serialization (RFC 7519 §7.1). It wraps a [jws.Signer], whose
// algorithm, key and protected header are fixed once; it is safe for
// concurrent use.
type Signer struct {
	s *jws.Signer
}

// NewSigner returns a Signer for alg with key, as [jws.NewSigner] accepts
// them. opts may be nil; its Type ("typ", RFC 7519 §5.1) defaults to
// "JWT" and may name an explicit type instead (RFC 8725 §3.11), such as
// "at+jwt" for OAuth access tokens (RFC 9068 §2.1). ContentType must be
// empty (a nested JWT is made with [NewNestedEncrypter]), and Unencoded is
// refused: a JWT's claims are always base64url-encoded.
func NewSigner(alg jwa.SignatureAlgorithm, key any, opts *jws.SignerOptions) (*Signer, error) {
	var o jws.SignerOptions
	if opts != nil {
		o = *opts
	}
	if o.Type == "" {
		o.Type = TypeJWT
	}
	if o.ContentType != "" {
		return nil, errors.New("jwt: SignerOptions.ContentType must be empty: a signed JWT carries claims (use NewNestedEncrypter to nest)")
	}
	if o.Unencoded {
		return nil, errors.New("jwt: SignerOptions.Unencoded cannot be used: JWT claims are base64url-encoded (RFC 7519 §7.1)")
	}
	s, err := jws.NewSigner(alg, key, &o)
	if err != nil {
		return nil, err // jws's words, under no bare "jwt:" (errors.go)
	}
	return &Signer{s: s}, nil
}

// Algorithm returns the signature algorithm, the "alg" of every token.
func (s *Signer) Algorithm() jwa.SignatureAlgorithm { return s.s.Algorithm() }

// Sign returns a signed JWT whose JWT Claims Set is claims (RFC 7519 §7.1):
//
//   - a *Claims or Claims is written by [Claims.AppendJSON], without
//     reflection;
//   - a json.RawMessage or []byte is taken as an encoded claims set;
//   - anything else (a struct embedding Claims, a map) is marshalled with
//     encoding/json.
//
// Whatever its origin, the claims set must be a JSON object that
// [Validator] accepts: no duplicate names, within the default limits,
// registered claims of their registered types, and dates a Validator
// reads: every NumericDate, registered ("exp", "nbf", "iat") or private,
// in Claims, in a struct or in a map, from the epoch to [MaxNumericDate],
// and none made from the zero time.Time (which would be written as
// -62135596800; an absent date is the zero NumericDate). Sign refuses
// anything else, with an error wrapping [ErrMalformedClaims] (naming the
// claim, for a member of the set), rather than issue a token no Validator
// loads.
func (s *Signer) Sign(claims any) ([]byte, error) {
	return s.AppendSign(nil, claims)
}

// AppendSign appends the signed JWT of claims, as [Signer.Sign] makes it,
// to dst and returns the extended buffer. A caller reusing dst signs a
// *Claims, or a pointer to a plain struct embedding Claims, without
// allocating once dst is large enough (for claims of up to 512 bytes
// encoded). On error dst is returned unchanged.
func (s *Signer) AppendSign(dst []byte, claims any) ([]byte, error) {
	var stack [512]byte
	payload, err := encodeClaims(stack[:0], claims)
	if err != nil {
		return dst, err
	}
	out, err := s.s.AppendCompact(dst, payload)
	if err != nil {
		return dst, err
	}
	return out, nil
}

// Encrypter issues encrypted JWTs (RFC 7519 §7.1, as a JWE Compact
// Serialization) or, made by [NewNestedEncrypter], nested ones: signed,
// then encrypted (RFC 7519 §5.2, Appendix A.2). It is safe for concurrent
// use.
type Encrypter struct {
	e      *jwe.Encrypter
	signer *Signer // nested: signs the claims first
}

// NewEncrypter returns an Encrypter of JWTs whose claims are the plaintext
// of a JWE made with alg, enc and key, as [jwe.NewEncrypter] accepts them.
// opts may be nil; its Type defaults to "JWT"; ContentType must be empty
// and Unprotected nil (a JWT is a compact token, which has no unprotected
// header).
//
// An encrypted JWT is only as authentic as its key management: with a
// public-key algorithm (RSA-OAEP, ECDH-ES) anyone holding the public key
// can make one. Use [NewNestedEncrypter] when the recipient must know who
// issued the token.
func NewEncrypter(alg jwa.KeyAlgorithm, enc jwa.ContentEncryption, key any, opts *jwe.EncrypterOptions) (*Encrypter, error) {
	var o jwe.EncrypterOptions
	if opts != nil {
		o = *opts
	}
	if o.Type == "" {
		o.Type = TypeJWT
	}
	if o.ContentType != "" {
		return nil, errors.New("jwt: EncrypterOptions.ContentType must be empty: an encrypted JWT carries claims (use NewNestedEncrypter to nest)")
	}
	return newEncrypter(alg, enc, key, &o, nil)
}

// NewNestedEncrypter returns an Encrypter of nested JWTs: each token is the
// claims signed by s, then encrypted with alg, enc and key, with "cty":
// "JWT" in the JWE Protected Header (RFC 7519 §5.2, Appendix A.2).
// opts may be nil; its ContentType must be empty or "JWT", and its Type
// is written as given (none by default: the inner JWS says "typ").
func NewNestedEncrypter(s *Signer, alg jwa.KeyAlgorithm, enc jwa.ContentEncryption, key any, opts *jwe.EncrypterOptions) (*Encrypter, error) {
	if s == nil {
		return nil, errors.New("jwt: NewNestedEncrypter needs a Signer")
	}
	var o jwe.EncrypterOptions
	if opts != nil {
		o = *opts
	}
	if o.ContentType != "" && !isJWT(o.ContentType) {
		return nil, fmt.Errorf("jwt: a nested JWT's content type is %q, not %q (RFC 7519 §5.2)", TypeJWT, o.ContentType)
	}
	o.ContentType = TypeJWT
	return newEncrypter(alg, enc, key, &o, s)
}

func newEncrypter(alg jwa.KeyAlgorithm, enc jwa.ContentEncryption, key any, o *jwe.EncrypterOptions, s *Signer) (*Encrypter, error) {
	if o.Unprotected != nil {
		return nil, errors.New("jwt: EncrypterOptions.Unprotected must be nil: a JWT is a compact token")
	}
	e, err := jwe.NewEncrypter(alg, enc, key, o)
	if err != nil {
		return nil, err // jwe's words, under no bare "jwt:" (errors.go)
	}
	return &Encrypter{e: e, signer: s}, nil
}

// Encrypt returns the encrypted JWT of claims, which are encoded and
// checked as [Signer.Sign] encodes and checks them (refusing the same
// claims); for a nested Encrypter, the signed JWT of claims, encrypted.
func (e *Encrypter) Encrypt(claims any) ([]byte, error) {
	var stack [1024]byte
	var pt []byte
	var err error
	if e.signer != nil {
		pt, err = e.signer.AppendSign(stack[:0], claims)
	} else {
		pt, err = encodeClaims(stack[:0], claims)
	}
	if err != nil {
		return nil, err
	}
	tok, err := e.e.Compact(pt)
	if err != nil {
		return nil, err
	}
	return tok, nil
}

// encodeClaims appends the JWT Claims Set of claims to dst (see
// Signer.Sign).
func encodeClaims(dst []byte, claims any) ([]byte, error) {
	var raw []byte
	switch c := claims.(type) {
	case *Claims:
		if c == nil {
			return nil, errors.New("jwt: nil *Claims")
		}
		if ce := c.check(); ce != nil {
			return nil, unacceptableError{ce}
		}
		return c.AppendJSON(dst), nil
	case Claims:
		if ce := c.check(); ce != nil {
			return nil, unacceptableError{ce}
		}
		return c.AppendJSON(dst), nil
	case json.RawMessage:
		raw = c
	case []byte:
		raw = c
	case nil:
		return nil, errors.New("jwt: no claims")
	default:
		v := reflect.ValueOf(claims)
		if v.Kind() == reflect.Pointer && !v.IsNil() {
			v = v.Elem()
		}
		if p := planOf(v.Type()); p != nil {
			n := len(dst)
			out, err := p.appendStruct(dst, v)
			if err != nil {
				if ce, ok := err.(*ClaimError); ok {
					return nil, unacceptableError{ce}
				}
				return nil, fmt.Errorf("jwt: claims: %w: %w", err, ErrMalformedClaims)
			}
			if p.valid {
				return out, nil
			}
			// Checked below from a copy (parseClaims would make the
			// caller's stack buffer escape).
			raw = slices.Clone(out[n:])
			break
		}
		var err error
		if raw, err = json.Marshal(claims); err != nil {
			if de := (*dateError)(nil); errors.As(err, &de) {
				return nil, unacceptableError{de.d.claimError(dateClaim(v, de.d), de.err)}
			}
			return nil, fmt.Errorf("jwt: claims: %w: %w", err, ErrMalformedClaims)
		}
	}
	var c Claims
	if err := parseClaims(raw, defaultJSONLimits, &c, nil); err != nil {
		var ce *ClaimError
		if errors.As(err, &ce) {
			return nil, unacceptableError{ce}
		}
		return nil, fmt.Errorf("jwt: claims that would not validate: %w", err)
	}
	return append(dst, raw...), nil
}

// dateClaim returns the name of the member of v, a map or a struct that
// encoding/json marshalled, whose value is the date d that MarshalJSON
// refused, to name it in the error; "" if it is not a member of v itself
// (a date in a nested value).
func dateClaim(v reflect.Value, d NumericDate) string {
	is := func(f reflect.Value) bool {
		for f.Kind() == reflect.Interface || f.Kind() == reflect.Pointer {
			if f.IsNil() {
				return false
			}
			f = f.Elem()
		}
		nd, ok := f.Interface().(NumericDate)
		return ok && nd == d
	}
	switch v.Kind() {
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return ""
		}
		for it := v.MapRange(); it.Next(); {
			if is(it.Value()) {
				return it.Key().String()
			}
		}
	case reflect.Struct:
		for _, sf := range reflect.VisibleFields(v.Type()) {
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if !sf.IsExported() || sf.Anonymous || name == "-" {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			if f, err := v.FieldByIndexErr(sf.Index); err == nil && is(f) {
				return name
			}
		}
	}
	return ""
}

// unacceptableError refuses to issue claims that parseClaims refuses: it
// reads "jwt: claims that would not validate: " and the ClaimError
// without its package name, and unwraps to it.
type unacceptableError struct{ ce *ClaimError }

func (e unacceptableError) Error() string {
	return "jwt: claims that would not validate: " + e.ce.text()
}

func (e unacceptableError) Unwrap() error { return e.ce }

// defaultJSONLimits are the limits of a claims set under the default
// ValidatorOptions.
var defaultJSONLimits = jsonx.Limits{MaxDepth: jose.DefaultMaxJSONDepth, MaxMembers: jsonx.DefaultMaxMembers}
