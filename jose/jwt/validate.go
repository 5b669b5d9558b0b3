package jwt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/jsonx"
	"github.com/josebench/josebench/jose/jwe"
	"github.com/josebench/josebench/jose/jws"
)

// ValidatorOptions configure a [Validator]. A key source (Verifier,
// Decrypter or both) is required, and so is a decision on the audience:
// Audiences, or AnyAudience. Every other field has a safe default.
type ValidatorOptions struct {
	// Verifier verifies signed JWTs, and the inner JWS of nested ones.
	// Its allow-list and keys are the JWS's (RFC 7515 §5.2); its key
	// source may change over time (a KeyFunc over a remote JWK Set, for
	// example), the Validator only calls it.
	Verifier *jws.Verifier
	// Decrypter decrypts encrypted JWTs. With a Verifier as well, the
	// Validator accepts only nested JWTs: the JWE must say "cty": "JWT" in
	// its protected header, and its plaintext must be a JWS the Verifier
	// verifies (RFC 7519 §5.2, §7.2 step 8). With a Decrypter alone, the
	// claims are the plaintext: as authentic as the key management only
	// (anyone with a public key can make an RSA-OAEP or ECDH-ES token).
	Decrypter *jwe.Decrypter

	// Type is the expected "typ" of the JWT (RFC 8725 §3.11), such as
	// "at+jwt" (RFC 9068): the token's protected header must carry it,
	// compared as RFC 7515 §4.1.9 says (case-insensitively, "application/"
	// implied when the value has no '/'). When empty, "typ" may be absent
	// or "JWT", and every other type is refused, so that a token made for
	// another purpose (an explicitly typed one) is not taken for a plain
	// JWT. Only the protected header counts. For a nested JWT, the inner
	// JWS's "typ" is checked; a "typ" on the JWE, if any, must pass the
	// same test.
	Type string

	// Issuers, when not empty, lists the accepted "iss" values (RFC 7519
	// §4.1.1): "iss" is then required and must equal one of them.
	Issuers []string
	// Audiences lists the values that identify this recipient (RFC 7519
	// §4.1.3): "aud" is then required and one of its values must be one
	// of them. Either Audiences or AnyAudience must be set (RFC 8725
	// §3.9): a Validator does not accept tokens for any audience by
	// omission.
	Audiences []string
	// AnyAudience accepts every "aud", present or not. Set it only when
	// tokens are known not to be shared between services.
	AnyAudience bool
	// Subject, when not empty, is the required "sub" (RFC 7519 §4.1.2).
	Subject string
	// Required lists claims, registered or private, that must be present.
	// "exp" is always required, unless ExpiryOptional. A claim with no
	// value is absent: "" for "iss", "sub" and "jti", [] for "aud", null
	// for a private claim.
	Required []string
	// ExpiryOptional accepts tokens without "exp" (RFC 7519 §4.1.4); an
	// "exp" that is present is still checked.
	ExpiryOptional bool

	// Leeway is the clock skew tolerated on "exp", "nbf", "iat" and
	// MaxAge (RFC 7519 §4.1.4); 0 by default: a token is expired at the
	// second of its "exp". "nbf" and "iat" are compared at the precision
	// they are written: one in whole seconds (no fraction) is refused
	// only when it is after the current time plus Leeway rounded up to
	// the second, so that a fresh token from an issuer whose clock leads
	// by less than a second is accepted with a Leeway of 0; one with a
	// fraction is compared to the nanosecond. "exp" is always compared
	// exactly.
	Leeway time.Duration
	// MaxAge, when positive, requires "iat" and refuses a token issued
	// more than MaxAge (plus Leeway) ago.
	MaxAge time.Duration
	// Now returns the current time; time.Now by default. Tests and
	// replays inject their clock here.
	Now func() time.Time

	// MaxClaims bounds the members of the claims set and of every object
	// in it, and the values of "aud" (256 by default); MaxDepth bounds its
	// nesting (jose.DefaultMaxJSONDepth, 16, by default). A claims set
	// beyond them is refused with an error wrapping [jose.ErrLimitExceeded].
	// The size of the claims is bounded by the token's,
	// [jose.Limits].MaxTokenSize of the Verifier or Decrypter.
	MaxClaims, MaxDepth int
}

// Validator loads JWTs (RFC 7519 §7.2): it authenticates the token with
// its jws.Verifier and/or jwe.Decrypter, checks the explicit type and the
// nesting in the protected headers, then reads and checks the claims. It
// is built once by [NewValidator] and is safe for concurrent use.
type Validator struct {
	ver         *jws.Verifier
	dec         *jwe.Decrypter
	typ         string
	issuers     []string
	audiences   []string
	subject     string
	required    []string // registered claims that must be present
	private     []string // private claims that must be present (at most 64)
	needExp     bool
	leeway      time.Duration
	maxAge      time.Duration
	now         func() time.Time
	lim         jsonx.Limits
	allPrivates uint64 // the bits of private, all set
}

// Token is a validated JWT.
type Token struct {
	// Claims are the registered claims, validated.
	Claims Claims
	// Header is the protected header of the JWT: of its JWS (the inner
	// one of a nested JWT) or, for an encrypted JWT, of its JWE. A JWT is
	// a compact token, so every member of it is integrity-protected.
	Header *jose.Header
	// Outer is the JWE Protected Header of a nested JWT, nil otherwise.
	Outer *jose.Header
	// Payload is the JWT Claims Set, the JSON object the claims were read
	// from.
	Payload []byte

	msg jws.Message
	aud [1]string // Claims.Audience's storage when it has one value
	// audLent: aud is also the audience of a dst that Validate decoded
	// into, which is the caller's to keep: ValidateInto then never
	// writes aud again.
	audLent bool
}

// NewValidator returns a Validator for opts, or an error if the options
// are incomplete or inconsistent (see [ValidatorOptions]).
func NewValidator(opts ValidatorOptions) (*Validator, error) {
	if opts.Verifier == nil && opts.Decrypter == nil {
		return nil, errors.New("jwt: ValidatorOptions needs a Verifier, a Decrypter or both")
	}
	switch {
	case len(opts.Audiences) == 0 && !opts.AnyAudience:
		return nil, errors.New("jwt: ValidatorOptions.Audiences is empty: list the audiences that identify this service, or set AnyAudience (RFC 8725 §3.9)")
	case len(opts.Audiences) > 0 && opts.AnyAudience:
		return nil, errors.New("jwt: ValidatorOptions sets both Audiences and AnyAudience")
	case opts.Leeway < 0 || opts.MaxAge < 0:
		return nil, errors.New("jwt: ValidatorOptions.Leeway and MaxAge cannot be negative")
	case slices.Contains(opts.Issuers, "") || slices.Contains(opts.Audiences, ""):
		return nil, errors.New("jwt: ValidatorOptions.Issuers and Audiences cannot hold an empty string")
	}
	v := &Validator{
		ver:       opts.Verifier,
		dec:       opts.Decrypter,
		typ:       opts.Type,
		issuers:   slices.Clone(opts.Issuers),
		audiences: slices.Clone(opts.Audiences),
		subject:   opts.Subject,
		needExp:   !opts.ExpiryOptional,
		leeway:    opts.Leeway,
		maxAge:    opts.MaxAge,
		now:       opts.Now,
		lim:       jsonx.Limits{MaxDepth: opts.MaxDepth, MaxMembers: opts.MaxClaims},
	}
	if v.now == nil {
		v.now = time.Now
	}
	if v.lim.MaxDepth <= 0 {
		v.lim.MaxDepth = jose.DefaultMaxJSONDepth
	}
	if v.lim.MaxMembers <= 0 {
		v.lim.MaxMembers = jsonx.DefaultMaxMembers
	}
	for _, name := range opts.Required {
		switch name {
		case "":
			return nil, errors.New("jwt: ValidatorOptions.Required holds an empty name")
		case "exp":
			v.needExp = true
		case "iss", "sub", "aud", "nbf", "iat", "jti":
			if !slices.Contains(v.required, name) {
				v.required = append(v.required, name)
			}
		default:
			if !slices.Contains(v.private, name) {
				v.private = append(v.private, name)
			}
		}
	}
	if len(v.private) > 64 {
		return nil, errors.New("jwt: ValidatorOptions.Required lists more than 64 private claims")
	}
	v.allPrivates = 1<<len(v.private) - 1
	if len(v.private) == 64 {
		v.allPrivates = ^uint64(0)
	}
	return v, nil
}

// Validate loads token, a JWT in the JWS or JWE Compact Serialization
// (RFC 7519 §7.2), and returns it once it has authenticated and passed
// every check of the Validator, in this order: the signature or
// decryption (its error is the jws or jwe one, and nothing else is read
// before it succeeds), "cty" and "typ" from the protected headers, then
// the claims: a strict JSON object (no duplicate names, within MaxClaims
// and MaxDepth), "exp", "nbf", "iat", MaxAge, "iss", "aud", "sub" and the
// Required claims. A refusal after authentication is a [*ClaimError]
// wrapping one of the sentinels (ErrExpired, ...) and [ErrInvalidClaims].
//
// When dst is not nil, the claims set is also decoded into it after every
// check passed, from the same bytes: a *Claims gets the registered claims;
// anything else (a struct embedding Claims, a map) is decoded with
// encoding/json, and an embedded Claims is then set to the validated
// registered claims. A struct of plain fields (strings, booleans, numbers,
// string slices, and an embedded Claims) is decoded without encoding/json,
// matching member names exactly; other types go through encoding/json,
// which also matches them case-insensitively, so a claims set that has two
// member names differing only in case ("iss" and "ISS", at any depth) is
// then refused as malformed rather than decoded: the struct would receive
// a value other than the one checked. A token refused for any other
// reason leaves dst untouched; when decoding into dst itself fails (a
// private claim that does not fit its field), the fields decoded before the
// failing one may be set, as with encoding/json.
//
// Cost: the jws or jwe verification of token (bounded by their
// [jose.Limits]), then one scan of the claims set, at most MaxTokenSize
// bytes (a second one for a struct with more than 16 private fields), and
// in memory the decoded claims plus one copy of them as the claims'
// strings. A signed JWT of up to 448 bytes whose protected header the
// Verifier has cached (see [jws.Verifier]), or of up to 336 bytes, is
// decoded into the Token's own allocation, so that Token.Payload keeps the
// Token's memory alive; a longer one gets a buffer of its own as well, and
// so may one of 337 to 448 bytes whose header is not cached. A dst
// decoded with encoding/json adds that decoding and the
// check of its member names: one scan per level of nesting (at most
// MaxDepth), and a map of the names of each object.
func (v *Validator) Validate(token []byte, dst any) (*Token, error) {
	return v.ValidateContext(context.Background(), token, dst)
}

// ValidateContext is [Validator.Validate] with ctx bounding the wait on
// the key sources: ctx is passed to the Verifier and the Decrypter
// ([jws.Verifier.VerifyCompactIntoContext],
// [jwe.Decrypter.DecryptCompactContext]; both, for a nested JWT), so a
// KeyFuncContext (a remote JWK Set being fetched) gets it and, once ctx is
// done, the call returns an error wrapping ctx.Err(). With local keys
// nothing waits and ctx is not consulted; the call costs what Validate
// costs, with no allocation more. Validate is ValidateContext with
// context.Background().
func (v *Validator) ValidateContext(ctx context.Context, token []byte, dst any) (*Token, error) {
	t := v.newToken(len(token))
	if err := v.validate(ctx, t, token, dst, false); err != nil {
		return nil, err
	}
	// A single audience is in t's storage (t.aud), and so is that of the
	// Claims of dst (*Claims, or a struct embedding Claims; any dst but a
	// map is taken to have them): a later ValidateInto into t must leave
	// it alone.
	switch dst.(type) {
	case nil, *map[string]any, *map[string]json.RawMessage:
	default:
		t.audLent = len(t.Claims.Audience) == 1 && &t.Claims.Audience[0] == &t.aud[0]
	}
	return t, nil
}

// tokenWithBuffer is a Token with room for the buffer its JWS
// verification decodes into: the payload and the signature, which decode
// to at most three quarters of the token's length (b64enc.DecodedLen of
// each segment) when the Verifier has the header cached. A header it
// parses (not cached: seen once, or not made of strings only) is decoded
// into the buffer too, and the payload then gets the length of its
// segment (it may be unencoded, RFC 7797), so that a token of more than
// 336 bytes may need a buffer of its own (TestValidateBufferedTokenSize).
// Validate then makes the Token and
// its claims set with one allocation (of 1024 bytes, a size class of the
// Go allocator; a buffer of the token's length made it 1152 bytes, and
// BenchmarkRatio/HS256/struct about 0.03 slower: copying the claims'
// strings into the Token as well, 1408 bytes, was as slow).
type tokenWithBuffer struct {
	Token
	buf [maxBufferedToken * 3 / 4]byte
}

// maxBufferedToken is the longest JWS that Validate decodes into the
// Token's own allocation.
const maxBufferedToken = 448

// newToken returns a new Token for Validate to fill from a token of n
// bytes: a tokenWithBuffer's when n fits its buffer and the token is a
// JWS (the plaintext of a JWE is the jwe package's own buffer).
func (v *Validator) newToken(n int) *Token {
	if v.dec == nil && n <= maxBufferedToken {
		tb := new(tokenWithBuffer)
		tb.msg.Payload = tb.buf[:0]
		return &tb.Token
	}
	return new(Token)
}

// ValidateInto validates token as [Validator.Validate] does, with the same
// checks, and stores the result in t, overwriting its previous contents.
// It reuses t's buffer for the claims set (and t's storage for the header
// and a single audience): a hot path that keeps one Token per goroutine
// and reads t.Claims (dst nil) validates a signed JWT with one allocation,
// the claims' strings. The previous t.Payload, *t.Header and
// t.Claims.Audience are then overwritten, so they must not be retained
// across calls (the claims' strings may be). A dst is the caller's own: its
// Claims get an audience of their own (one more allocation for a single
// value), which later calls leave alone; so do the Claims of a dst that
// [Validator.Validate] decoded into when it returned t (t then gives every
// later single audience an allocation of its own).
// token must not overlap t.Payload. On error t holds no claims, t.Header
// and t.Outer are nil and t.Payload is empty.
func (v *Validator) ValidateInto(t *Token, token []byte, dst any) error {
	return v.ValidateIntoContext(context.Background(), t, token, dst)
}

// ValidateIntoContext is [Validator.ValidateInto] with ctx bounding the
// wait on the key sources, as [Validator.ValidateContext] says; with local
// keys it allocates no more than ValidateInto.
func (v *Validator) ValidateIntoContext(ctx context.Context, t *Token, token []byte, dst any) error {
	t.Claims, t.Header, t.Outer, t.Payload = Claims{}, nil, nil, nil
	err := v.validate(ctx, t, token, dst, true)
	if err != nil {
		// Field by field: a lent aud (see Token.audLent) is a dst's,
		// which another goroutine may be reading, so it is not written
		// at all (zeroing it and putting it back was a data race).
		t.Claims, t.Header, t.Outer, t.Payload = Claims{}, nil, nil, nil
		t.msg = jws.Message{Payload: t.msg.Payload[:0]}
		if !t.audLent {
			t.aud = [1]string{}
		}
		return err
	}
	return nil
}

// ownAudience gives c, the Claims of a dst of ValidateInto just set to
// t.Claims, a single audience of its own when that is in t's storage,
// which the next call overwrites (dst is the caller's). It goes by the
// Claims written, not by dst's Registered method, which may return
// others (TestValidateIntoDstWhoseRegisteredIsElsewhere).
func ownAudience(c *Claims, t *Token) {
	if len(c.Audience) == 1 && &c.Audience[0] == &t.aud[0] {
		c.Audience = Audience{t.aud[0]}
	}
}

// validate fills t, a new Token or one ValidateIntoContext has reset
// (no claims, no headers, no payload: a new Token needs no clearing,
// which would cost write barriers while the GC runs). With own
// (ValidateInto), the Claims it sets in dst get an audience of their own
// (ownAudience).
func (v *Validator) validate(ctx context.Context, t *Token, token []byte, dst any, own bool) error {
	var payload []byte
	switch {
	case v.dec != nil && v.ver != nil:
		m, err := v.dec.DecryptCompactContext(ctx, token)
		if err != nil {
			return err
		}
		if err := v.checkOuter(m); err != nil {
			return err
		}
		if err := v.ver.VerifyCompactIntoContext(ctx, &t.msg, m.Plaintext); err != nil {
			return err
		}
		t.Outer, t.Header, payload = m.Protected, t.msg.Protected, t.msg.Payload
	case v.ver != nil:
		if err := v.ver.VerifyCompactIntoContext(ctx, &t.msg, token); err != nil {
			return err
		}
		t.Header, payload = t.msg.Protected, t.msg.Payload
	default:
		m, err := v.dec.DecryptCompactContext(ctx, token)
		if err != nil {
			return err
		}
		t.Header, payload = m.Protected, m.Plaintext
	}
	if b := t.Header.B64; b != nil && !*b {
		return &ClaimError{Claim: "b64", Err: ErrMalformedClaims,
			Detail: "an unencoded payload (RFC 7797) is not a JWT, whose claims are base64url-encoded (RFC 7519 §7.2)"}
	}
	if isJWT(t.Header.ContentType) {
		return &ClaimError{Claim: "cty", Err: ErrInvalidContentType,
			Detail: "a nested JWT, which this Validator does not accept (it needs both a Decrypter and a Verifier, and a JWE outside)"}
	}
	if err := v.checkType(t.Header, v.typ != ""); err != nil {
		return err
	}
	sink := privateSink{required: v.private, aud: &t.aud}
	if t.audLent {
		sink.aud = nil // the audience of a dst of Validate (see Token.audLent)
	}
	var rv reflect.Value // dst's struct, when it has a plan
	switch dst.(type) {
	case nil, *Claims, *map[string]any, *map[string]json.RawMessage:
	default:
		if rv = reflect.ValueOf(dst); rv.Kind() == reflect.Pointer && !rv.IsNil() {
			rv = rv.Elem()
			sink.plan = planOf(rv.Type())
		}
	}
	if err := parseClaims(payload, v.lim, &t.Claims, &sink); err != nil {
		return err
	}
	if err := v.checkClaims(&t.Claims, sink.seen); err != nil {
		return err
	}
	t.Payload = payload
	if sink.plan != nil {
		if err := sink.decode(payload, v.lim, rv, &t.Claims); err != nil {
			return decodeError(dst, err)
		}
		if own && sink.plan.claims >= 0 {
			ownAudience(sink.plan.claimsAt(unsafe.Pointer(rv.UnsafeAddr())), t)
		}
	} else if dst != nil {
		if err := decodeInto(dst, t, v.lim, own); err != nil {
			return err
		}
	}
	return nil
}

// checkOuter checks the JWE of a nested JWT: "cty": "JWT" in its
// protected header (RFC 7519 §5.2), whatever its unprotected headers say,
// and a "typ", if any, that passes the typing rule.
func (v *Validator) checkOuter(m *jwe.Message) error {
	if !isJWT(m.Protected.ContentType) {
		return &ClaimError{Claim: "cty", Err: ErrInvalidContentType,
			Detail: fmt.Sprintf("protected header has %s, a nested JWT needs %q (RFC 7519 §5.2)", untrusted.Quote(m.Protected.ContentType), TypeJWT)}
	}
	return v.checkType(m.Protected, false)
}

// decodeInto decodes the claims of t into dst (see Validate), when dst is
// not a struct with a plan; with own, as validate says.
func decodeInto(dst any, t *Token, lim jsonx.Limits, own bool) error {
	switch d := dst.(type) {
	case *Claims:
		*d = t.Claims
		if own {
			ownAudience(d, t)
		}
		return nil
	case *map[string]any, *map[string]json.RawMessage:
		// Map keys are exact, and nothing inside folds names.
	default:
		if err := checkFoldedNames(t.Payload, lim); err != nil {
			return &ClaimError{Err: ErrMalformedClaims, Detail: fmt.Sprintf("decoding into %T", dst), Cause: err}
		}
	}
	// The text is valid and within the limits: parseClaims scanned it.
	if err := json.Unmarshal(t.Payload, dst); err != nil {
		return decodeError(dst, err)
	}
	if r, ok := dst.(registered); ok {
		// Registered() of an embedded *Claims that encoding/json left
		// nil (the token has no registered claim), or reached through
		// such a pointer, would dereference nil: find it by reflection.
		c, found := allocClaims(reflect.ValueOf(dst))
		if !found {
			c = r.Registered()
		}
		if c == nil {
			return &ClaimError{Err: ErrMalformedClaims, Detail: fmt.Sprintf("%T: cannot set its embedded *Claims", dst)}
		}
		*c = t.Claims
		if own {
			ownAudience(c, t)
		}
	}
	return nil
}

// decodeError is the ClaimError of a claims set that could not be decoded
// into dst, naming the claim when the decoder did.
func decodeError(dst any, err error) error {
	// encoding/json and the caller's json.Unmarshalers may repeat the
	// token's text (a number, a map key, a time) in their errors.
	ce := &ClaimError{Err: ErrMalformedClaims, Detail: fmt.Sprintf("decoding into %T", dst), Cause: untrusted.Error(err)}
	var fe *fieldError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &fe):
		ce.Claim, ce.Cause = fe.claim, untrusted.Error(fe.err)
	case errors.As(err, &te) && te.Field != "":
		ce.Claim, _, _ = strings.Cut(te.Field, ".")
	}
	return ce
}

// allocClaims returns the embedded Claims of the struct v points to,
// allocating the nil pointers on the way as encoding/json would. found is
// false if the struct embeds no Claims; c is nil if one of those pointers
// cannot be set (an unexported embedded field).
func allocClaims(v reflect.Value) (c *Claims, found bool) {
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil, false
	}
	v = v.Elem()
	var path []int
	for _, f := range reflect.VisibleFields(v.Type()) {
		if f.Anonymous && (f.Type == claimsType || f.Type == reflect.PointerTo(claimsType)) && (path == nil || len(f.Index) < len(path)) {
			path = f.Index
		}
	}
	if path == nil {
		return nil, false
	}
	deref := func(v reflect.Value) (reflect.Value, bool) {
		if v.Kind() != reflect.Pointer {
			return v, true
		}
		if v.IsNil() {
			if !v.CanSet() {
				return v, false
			}
			v.Set(reflect.New(v.Type().Elem()))
		}
		return v.Elem(), true
	}
	for _, i := range path {
		var ok bool
		if v, ok = deref(v); !ok {
			return nil, true
		}
		v = v.Field(i)
	}
	v, ok := deref(v)
	if !ok || !v.CanAddr() {
		return nil, true
	}
	// Through its address: an embedded Claims under an unexported name (an
	// alias), which encoding/json fills, is one reflect does not hand out
	// (Interface panics), though it is part of the caller's variable.
	return (*Claims)(unsafe.Pointer(v.UnsafeAddr())), true
}

// checkType applies the explicit typing rule of ValidatorOptions.Type to
// the protected header h; with required, "typ" must be present.
func (v *Validator) checkType(h *jose.Header, required bool) error {
	got := h.Type
	if got == "" {
		if required {
			return &ClaimError{Claim: "typ", Err: ErrInvalidType, Detail: fmt.Sprintf("absent from the protected header, %q expected", v.typ)}
		}
		return nil
	}
	want := v.typ
	if want == "" {
		want = TypeJWT
	}
	if got != want && !SameType(got, want) { // "JWT" itself, most often
		return &ClaimError{Claim: "typ", Err: ErrInvalidType, Detail: fmt.Sprintf("%s, %q expected", untrusted.Quote(got), want)}
	}
	return nil
}

// SameType reports whether two "typ" or "cty" values name the same media
// type, as RFC 7515 §4.1.9 compares them: case-insensitively, with
// "application/" implied before a value that has no '/' ("JWT",
// "jwt" and "application/jwt" are the same; "text/jwt" is not).
func SameType(a, b string) bool {
	const app = "application/"
	full := func(s string) (prefix bool, rest string) {
		if !strings.Contains(s, "/") {
			return true, s
		}
		if len(s) > len(app) && strings.EqualFold(s[:len(app)], app) {
			return true, s[len(app):]
		}
		return false, s
	}
	pa, ra := full(a)
	pb, rb := full(b)
	return pa == pb && strings.EqualFold(ra, rb)
}

// isJWT reports whether a "cty" value is JWT (RFC 7519 §5.2).
func isJWT(cty string) bool { return cty != "" && SameType(cty, TypeJWT) }

// checkClaims applies the claim checks to c; seen has the bits of the
// required private claims that are present.
func (v *Validator) checkClaims(c *Claims, seen uint64) error {
	now := v.now()
	// The dates are compared as integers: now and now plus the leeway,
	// in seconds and nanoseconds since the epoch.
	nowDate := NumericDateOf(now)
	late := nowDate.add(v.leeway) // now + leeway
	if !c.Expiry.set {
		if v.needExp {
			return missing("exp")
		}
	} else if exp := c.Expiry; !nowDate.before(exp.add(v.leeway)) {
		return &ClaimError{Claim: "exp", Err: ErrExpired, Detail: v.timeDetail(exp, now)}
	}
	if c.NotBefore.set {
		if nbf := c.NotBefore; late.atPrecisionOf(nbf).before(nbf) {
			return &ClaimError{Claim: "nbf", Err: ErrNotYetValid, Detail: v.timeDetail(nbf, now)}
		}
	}
	if c.IssuedAt.set {
		if iat := c.IssuedAt; late.atPrecisionOf(iat).before(iat) {
			return &ClaimError{Claim: "iat", Err: ErrIssuedInTheFuture, Detail: v.timeDetail(iat, now)}
		}
	}
	if v.maxAge > 0 {
		if !c.IssuedAt.set {
			return missing("iat")
		}
		if iat := c.IssuedAt; iat.add(v.maxAge).add(v.leeway).before(nowDate) {
			return &ClaimError{Claim: "iat", Err: ErrTooOld, Detail: v.timeDetail(iat, now) + ", max age " + v.maxAge.String()}
		}
	}
	if len(v.issuers) > 0 {
		if c.Issuer == "" {
			return missing("iss")
		}
		if !slices.Contains(v.issuers, c.Issuer) {
			return &ClaimError{Claim: "iss", Err: ErrInvalidIssuer, Detail: fmt.Sprintf("%s, expected one of %q", untrusted.Quote(c.Issuer), v.issuers)}
		}
	}
	if len(v.audiences) > 0 {
		if c.Audience == nil {
			return missing("aud")
		}
		if !slices.ContainsFunc(v.audiences, c.Audience.Contains) {
			return &ClaimError{Claim: "aud", Err: ErrInvalidAudience, Detail: fmt.Sprintf("%s, expected one of %q", untrusted.QuoteList(c.Audience), v.audiences)}
		}
	}
	if v.subject != "" {
		if c.Subject == "" {
			return missing("sub")
		}
		if c.Subject != v.subject {
			return &ClaimError{Claim: "sub", Err: ErrInvalidSubject, Detail: fmt.Sprintf("%s, expected %q", untrusted.Quote(c.Subject), v.subject)}
		}
	}
	for _, name := range v.required {
		var ok bool
		switch name {
		case "iss":
			ok = c.Issuer != ""
		case "sub":
			ok = c.Subject != ""
		case "aud":
			ok = len(c.Audience) > 0
		case "nbf":
			ok = c.NotBefore.set
		case "iat":
			ok = c.IssuedAt.set
		case "jti":
			ok = c.ID != ""
		}
		if !ok {
			return missing(name)
		}
	}
	if seen != v.allPrivates {
		for i, name := range v.private {
			if seen&(1<<i) == 0 {
				return missing(name)
			}
		}
	}
	return nil
}

// atPrecisionOf returns now at the precision the date d is written in,
// for the checks that refuse a date in the future ("nbf", "iat"): now
// rounded up to the second when d is a whole number of seconds, now
// itself when d has a fraction. A whole-second date (what almost every
// issuer writes) cannot tell an instant of its second from another, so it
// is refused only when it is at least a second ahead of now plus the
// leeway: an issuer whose clock leads by less than a second, or that
// rounds up, is not refused with a leeway of 0. "exp" is compared
// exactly (the precision works there against the verifier, never for
// the token).
func (now NumericDate) atPrecisionOf(d NumericDate) NumericDate {
	if d.nsec != 0 || now.nsec == 0 {
		return now
	}
	return dateAt(now.sec+1, 0)
}

func missing(name string) error {
	return &ClaimError{Claim: name, Err: ErrMissingClaim, Detail: "absent"}
}

func (v *Validator) timeDetail(d NumericDate, now time.Time) string {
	// The claim as written; now at the claim's precision: for a date of
	// whole seconds (almost every issuer's), now rounded up to the second,
	// as the checks of "nbf" and "iat" compare it (atPrecisionOf), and
	// still after an "exp" it has passed.
	s := d.String() + ", now " + NumericDateOf(now).atPrecisionOf(d).String()
	if v.leeway != 0 {
		s += ", leeway " + v.leeway.String()
	}
	return s
}
