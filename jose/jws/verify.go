package jws

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"slices"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/internal/hdrcache"
	"github.com/josebench/josebench/jose/internal/headers"
	"github.com/josebench/josebench/jose/internal/keysource"
	"github.com/josebench/josebench/jose/jwa"
)

// VerifyOptions configure a [Verifier]. Algorithms and exactly one of Key,
// Keys, KeyFunc and KeyFuncContext are required.
type VerifyOptions struct {
	// Algorithms is the allow-list of "alg" values (RFC 7515 §10.7); a
	// token with any other alg is refused before any cryptography. "none"
	// cannot be listed: no Verifier accepts an unsecured JWS.
	Algorithms []jwa.SignatureAlgorithm

	// Key is the one verification key: []byte (HMAC), *rsa.PublicKey,
	// *ecdsa.PublicKey, ed25519.PublicKey, the matching private keys, or a
	// *jose.JWK holding one of them (whose "alg", "use" and "key_ops" then
	// restrict the algorithms it verifies). A Key that can verify none of
	// Algorithms is refused by NewVerifier with ErrInvalidKey.
	Key any
	// Keys is a JWK Set, from which the keys a token may be verified with
	// are chosen by the one policy of jws and jwe, [jose.Select]: keys that
	// cannot serve the token's alg (type, curve, alg, use, key_ops) are
	// dropped first; a token with a "kid" is verified with the one
	// remaining key of that kid (two are ambiguous: ErrKeyNotFound); a
	// token without a kid is tried with the first [MaxKeyCandidates]
	// remaining keys, in set order. A set mixing secret or private keys
	// with public keys is refused by NewVerifier with ErrInvalidKey. The
	// set must not be modified while the Verifier is in use.
	Keys *jose.Set
	// KeyFunc returns the key (a Go key, a *jose.JWK, a *jose.Set, or a
	// [*CertifiedKey], a key with the certificate chain that vouches for
	// it) for a header that has passed every check above; its error is
	// returned wrapped. It is called once per signature, at most
	// Limits.MaxKeyLookups times per token, whatever it returns. The
	// header is the JOSE Header; of a JSON serialization, its
	// [jose.Header.Unprotected] tells the members the signature does not
	// cover. A *jose.JWK is prepared once and remembered (like the keys
	// of a set, it must not be modified afterwards); a Go key is prepared
	// on every call, which costs little for RSA, ECDSA and Ed25519 keys but
	// repeats the HMAC key setup. From a *jose.Set the keys are selected
	// exactly as from Keys ([jose.Select]; a mixed set is refused for
	// every token, and a set found unmixed remembers it and is not
	// walked again, [jose.Set]), and its JWKs are
	// prepared once and remembered: a KeyFunc that returns the same set for
	// every token, such as the KeyFunc of a remote set of package jwks,
	// costs what Keys costs. A set must not be modified once returned.
	KeyFunc func(h *jose.Header) (any, error)
	// KeyFuncContext is KeyFunc for a key source that may wait (a remote
	// JWK Set being fetched, a KMS): it gets the context of the call that
	// verifies the token (context.Background() for the methods without
	// one, [Verifier.VerifyCompactContext] and the other Context methods
	// pass theirs), and must return once that context is done; its error
	// is then made to wrap ctx.Err(). Its results are used exactly as
	// KeyFunc's. The context is checked before either function is called:
	// once it is done, neither is, and the error wraps ctx.Err().
	KeyFuncContext func(ctx context.Context, h *jose.Header) (any, error)

	// Critical lists the header extensions the caller understands and
	// checks itself (RFC 7515 §4.1.11); "b64" (RFC 7797) is always
	// understood.
	Critical []string
	// Limits bound the work one token can cause; zero fields take the
	// jose defaults.
	Limits jose.Limits
}

// Verifier verifies JWS tokens against an allow-list of algorithms and a
// key source (RFC 7515 §5.2). It prepares each (key, alg) verifier once
// (the verifiers of JWKs are kept up to 1,024, and when that many are
// kept, the next to enter starts afresh: keys no longer in use are
// dropped, keys still in use are prepared once more), remembers verified compact protected headers by the cache rule jws and
// jwe share (a header made only of string members is kept the second time
// a token carrying it verifies, up to 64; tokens of one issuer then skip
// decoding and parsing it; the Header of each Message is still the
// caller's own copy), and is safe for concurrent use.
type Verifier struct {
	algs    []jwa.SignatureAlgorithm
	crit    []string
	lim     jose.Limits
	single  []prepared // VerifyOptions.Key: one per allowed alg
	set     *jose.Set
	cache   verifierCache    // prepared verifiers of JWKs (Keys, KeyFunc)
	headers hdrcache.Cache   // verified compact protected headers (the rule of hdrcache)
	keyFunc keysource.Source // KeyFunc or KeyFuncContext
	one     [1]prepared      // storage of single for one algorithm
	algOne  [1]jwa.SignatureAlgorithm
}

// verifyOp is the key operation every signature algorithm asks of a
// verification key (RFC 7517 §4.3).
func verifyOp(jwa.SignatureAlgorithm) jose.KeyOp { return jose.OpVerify }

// onlyB64 is the crit list of a Verifier whose caller understands no
// extension: "b64" (RFC 7797) only. It is shared, never modified.
var onlyB64 = []string{"b64"}

// Message is a verified JWS: its payload, its JOSE Header (the union of
// the protected and unprotected headers, RFC 7515 §4) and the JWS Protected
// Header alone (RFC 7515 §7.2.1), the only part the signature covers.
type Message struct {
	Payload []byte
	Header  *jose.Header
	// Protected is the JWS Protected Header of the signature that
	// verified: the members of Header that are not in Protected are
	// unprotected and attacker-controlled, so decisions such as "typ" or
	// "cty" (RFC 8725 §3.11) must read Protected. It is never nil on a
	// verified Message (an empty Header when the signature has no
	// protected header). A compact token has no unprotected header, so
	// there Protected is the same *jose.Header as Header.
	Protected *jose.Header
	// Chain is the certificate chain that vouched for the key the
	// signature verified with, leaf first and a trusted root last, when
	// the key source returned a [*CertifiedKey] (the key function of
	// [NewX5CKeyFunc] returns the chain crypto/x509 verified); nil
	// otherwise. Identify the signer by Chain (its leaf's subject, say),
	// not by the header's "x5c": the chain verified may hold other
	// intermediates than "x5c" does (from X5COptions.Verify), and an "x5c"
	// read from an unprotected header (X5COptions.AllowUnprotected) is not
	// covered by the signature.
	Chain []*x509.Certificate

	hdr jose.Header // storage of Header for the compact calls
}

// SignatureResult is the outcome of one signature of a JWS JSON
// Serialization ([Verifier.VerifyEach]): its index in "signatures", its JOSE
// Header (nil if it could not be read; present, but not to be trusted, when
// the signature was refused), its JWS Protected Header (as in [Message]:
// members of Header that are not in Protected are unprotected and
// attacker-controlled), the certificate chain of its key (as
// [Message].Chain, set only when it verified) and Err, nil if it verified.
type SignatureResult struct {
	Index     int
	Header    *jose.Header
	Protected *jose.Header
	Chain     []*x509.Certificate
	Err       error
}

// CertifiedKey is a verification key with the certificate chain that
// vouches for it, leaf first and a trusted root last: what the key
// function of [NewX5CKeyFunc] returns. A key source (KeyFunc,
// KeyFuncContext) may return one: the signature is then verified with Key,
// exactly as if Key had been returned alone (a Go key or a *jose.JWK, not
// a set), and Chain is reported on the [Message] ([Message].Chain,
// [SignatureResult].Chain). The Verifier checks that the first certificate
// of a non-empty Chain holds Key's public key (else the signature is
// refused with ErrInvalidKey), so that Chain never names another signer;
// that the chain is trusted is for the key source to check. An empty Chain
// is reported as nil.
type CertifiedKey struct {
	Key   any
	Chain []*x509.Certificate
}

// ErrMultipleSignatures is returned by [Verifier.VerifyJSON] for a general
// JWS JSON Serialization with more than one signature: which one must
// verify is the application's decision (RFC 7515 §7.2.1), so it calls
// [Verifier.VerifyEach]. It wraps [jose.ErrMalformed].
var ErrMultipleSignatures = fmt.Errorf("jws: more than one signature, use VerifyEach: %w", jose.ErrMalformed)

// NewVerifier returns a Verifier for opts. It fails if the allow-list is
// empty or holds "none" or an algorithm jwa does not implement, if not
// exactly one of Key, Keys, KeyFunc and KeyFuncContext is set, and, with
// ErrInvalidKey, if
// Key can verify none of the listed algorithms ([keysource.CheckFits]: its
// type or curve fits none, or, for a *jose.JWK, its "alg", "use" and
// "key_ops" permit none of those it fits) or Keys mixes secret and public
// keys. A Key that can verify some of the algorithms is accepted; a token
// of another is refused with ErrAlgorithmNotAllowed.
func NewVerifier(opts VerifyOptions) (*Verifier, error) {
	if len(opts.Algorithms) == 0 {
		return nil, errors.New("jws: VerifyOptions.Algorithms is empty: the accepted algorithms must be listed")
	}
	supported := jwa.SignatureAlgorithms()
	for _, a := range opts.Algorithms {
		if isNone(string(a)) {
			return nil, fmt.Errorf("jws: alg %q cannot be allowed: unsecured JWS are never accepted: %w", a, jose.ErrAlgorithmNotAllowed)
		}
		if !slices.Contains(supported, a) {
			return nil, fmt.Errorf("jws: alg %s %s: %w", untrusted.Quote(a), a.UnsupportedReason(), jose.ErrUnsupportedAlgorithm)
		}
	}
	v := new(Verifier)
	if err := keysource.Check(opts.Algorithms, opts.Key, opts.Keys, opts.KeyFunc, opts.KeyFuncContext, verifyOp); err != nil {
		return nil, fmt.Errorf("jws: VerifyOptions: %w", err)
	}
	for _, c := range opts.Critical {
		if c != "b64" && jose.IsRegisteredHeader(c) { // the names headers.CheckCritical refuses in crit
			return nil, fmt.Errorf("jws: registered header %q cannot be a critical extension", c)
		}
	}
	crit := onlyB64
	if len(opts.Critical) > 0 {
		crit = append(slices.Clone(opts.Critical), "b64")
	}
	v.algs = opts.Algorithms
	v.crit = crit
	v.lim = opts.Limits.WithDefaults()
	v.set = opts.Keys
	v.keyFunc = keysource.New("jws", opts.KeyFunc, opts.KeyFuncContext, v.lim)
	v.cache.c.Max = maxCached
	// The allow-list is copied (into v for one algorithm): the caller may
	// reuse its slice.
	if len(v.algs) == 1 {
		v.algOne[0] = v.algs[0]
		v.algs = v.algOne[:]
	} else {
		v.algs = slices.Clone(v.algs)
	}
	if opts.Key != nil {
		v.single = v.one[:0:1]
		if len(v.algs) > 1 {
			v.single = make([]prepared, 0, len(v.algs))
		}
		v.single = v.single[:len(v.algs)]
		for i, a := range v.algs {
			vv, err := prepare(a, opts.Key)
			v.single[i] = prepared{alg: a, v: vv, err: err}
		}
	}
	return v, nil
}

// VerifyDetached verifies a JWS whose payload is detached (RFC 7515
// Appendix F): a compact "header..signature" or a JSON serialization without
// "payload", against payload, the payload itself (not its base64url
// encoding); Message.Payload is that slice. A token that carries a payload
// of its own is refused.
func (v *Verifier) VerifyDetached(token, payload []byte) (*Message, error) {
	return v.VerifyDetachedContext(context.Background(), token, payload)
}

// VerifyDetachedContext is [Verifier.VerifyDetached] with ctx bounding the
// wait on the key source, as [Verifier.VerifyCompactContext] says.
func (v *Verifier) VerifyDetachedContext(ctx context.Context, token, payload []byte) (*Message, error) {
	if len(payload) > v.lim.MaxTokenSize {
		return nil, fmt.Errorf("jws: detached payload of %d bytes exceeds %d: %w", len(payload), v.lim.MaxTokenSize, jose.ErrLimitExceeded)
	}
	if isJSON(token) {
		res, pl, err := v.verifyJSON(ctx, token, payload, true, true)
		if err != nil {
			return nil, err
		}
		return &Message{Payload: pl, Header: res[0].Header, Protected: res[0].Protected, Chain: res[0].Chain}, nil
	}
	m := new(Message)
	if err := v.verifyCompact(ctx, m, token, payload, true); err != nil {
		return nil, err
	}
	return m, nil
}

// isJSON reports whether data looks like a JSON serialization rather than
// a compact one (which cannot start with '{' or white space).
func isJSON(data []byte) bool {
	for _, c := range data {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '{':
			return true
		}
		return false
	}
	return false
}

// checkProtectedSize refuses an encoded protected header of n characters
// that decodes to more than Limits.MaxHeaderSize bytes, before decoding.
func (v *Verifier) checkProtectedSize(n int) error {
	if d := b64enc.DecodedLen(n); d > v.lim.MaxHeaderSize {
		return fmt.Errorf("jws: protected header of %d bytes exceeds %d: %w", d, v.lim.MaxHeaderSize, jose.ErrLimitExceeded)
	}
	return nil
}

// parseProtected decodes an encoded protected header, appending the JSON
// to buf, and parses it; an empty one is nil. The size limit is checked on
// the encoded length, before decoding. The header keeps no reference to
// the bytes appended to buf (jose.ParseHeader copies what it keeps).
func (v *Verifier) parseProtected(seg, buf []byte) (*jose.Header, []byte, error) {
	if len(seg) == 0 {
		return nil, buf, nil
	}
	if err := v.checkProtectedSize(len(seg)); err != nil {
		return nil, nil, err
	}
	return v.decodeProtected(seg, buf)
}

// decodeProtected is parseProtected for a non-empty seg whose size the
// caller has checked with checkProtectedSize.
func (v *Verifier) decodeProtected(seg, buf []byte) (*jose.Header, []byte, error) {
	h := new(jose.Header)
	buf, err := v.decodeProtectedInto(h, seg, buf)
	if err != nil {
		return nil, nil, err
	}
	return h, buf, nil
}

// decodeProtectedInto is decodeProtected into *h.
func (v *Verifier) decodeProtectedInto(h *jose.Header, seg, buf []byte) ([]byte, error) {
	n := len(buf)
	buf, err := b64enc.AppendDecode(buf, seg, jose.ErrMalformed)
	if err != nil {
		return nil, fmt.Errorf("jws: protected header: %w", err)
	}
	if err := jose.JWSHeader.ParseInto(h, buf[n:], v.lim); err != nil {
		return nil, fmt.Errorf("jws: protected header: %w", err)
	}
	return buf, nil
}

// checkHeaders applies the checks of RFC 7515 §5.2 steps 4-5 and RFC 7797
// §3, §6 to the protected header p and unprotected header u (either may be
// nil, not both): no "enc", which marks a JWE (RFC 7516 §9); alg present,
// not "none" and allowed; crit only in p, not empty, without registered
// names or repeats, only understood names, each present; b64 only in p and
// then listed in crit.
func (v *Verifier) checkHeaders(p, u *jose.Header) error {
	if p.Has("enc") || u.Has("enc") {
		return errEnc
	}
	alg := ""
	if p != nil {
		alg = p.Algorithm
	}
	if u != nil && u.Algorithm != "" {
		alg = u.Algorithm
	}
	if alg == "" {
		return fmt.Errorf("jws: header has no alg: %w", jose.ErrMalformed)
	}
	if isNone(alg) {
		return fmt.Errorf("jws: unsecured JWS (alg %s) is never accepted: %w", untrusted.Quote(alg), jose.ErrAlgorithmNotAllowed)
	}
	if !slices.Contains(v.algs, jwa.SignatureAlgorithm(alg)) {
		return fmt.Errorf("jws: alg %s is not allowed: %w", untrusted.Quote(alg), jose.ErrAlgorithmNotAllowed)
	}
	if u != nil && u.Has("b64") {
		return fmt.Errorf("jws: b64 in an unprotected header (RFC 7797 §3): %w", jose.ErrMalformed)
	}
	if err := headers.CheckCritical(p, v.crit, u); err != nil {
		return fmt.Errorf("jws: protected header: %w", err)
	}
	if p == nil {
		return nil
	}
	if p.B64 != nil && !slices.Contains(p.Critical, "b64") {
		return fmt.Errorf("jws: b64 is not listed in crit (RFC 7797 §6): %w", jose.ErrMalformed)
	}
	return nil
}

// errEnc refuses a JWS whose protected or unprotected header holds "enc":
// that member is how a JOSE Header is known to be a JWE's (RFC 7516 §9), so
// such a token is read as a JWE by other implementations (JWS/JWE
// confusion). The other JWE-only members (zip, epk, ...) are ignored, as
// RFC 7515 §4 says of members a JWS does not understand.
var errEnc = fmt.Errorf("jws: header has \"enc\", which marks a JWE, not a JWS (RFC 7516 §9): %w", jose.ErrMalformed)

// errKeyAttempts refuses a verification past jose.Limits.MaxKeyAttempts.
var errKeyAttempts = fmt.Errorf("jws: the token needs more verifications than Limits.MaxKeyAttempts: %w", jose.ErrLimitExceeded)

// verifyWith tries each candidate verifier in turn, each attempt taken
// from *budget, the verifications the token may still cost
// (jose.Limits.MaxKeyAttempts); none is made once it is spent.
func verifyWith(cands *candidates, input, sig []byte, budget *int) error {
	for _, c := range cands.v[:cands.n] {
		if *budget <= 0 {
			return errKeyAttempts
		}
		*budget--
		if c.Verify(input, sig) == nil {
			return nil
		}
	}
	return fmt.Errorf("jws: %w", jose.ErrVerificationFailed)
}
