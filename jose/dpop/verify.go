package dpop

import (
	"bytes"
	"context"
	"crypto/rsa"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/internal/jsonx"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
	"github.com/josebench/josebench/jose/jwt"
)

// Defaults of VerifierOptions.
const (
	// DefaultMaxAge is how old a proof's "iat" may be: 60 seconds, a
	// "relatively brief period" (RFC 9449 §11.1) that covers a request's
	// round trip and retries, and bounds the replay store's window.
	DefaultMaxAge = 60 * time.Second
	// DefaultLeeway is the clock skew tolerated between client and
	// server, on both sides of the window: 5 seconds. Clients whose clock
	// is further off need server nonces (RFC 9449 §8) or NTP.
	DefaultLeeway = 5 * time.Second
	// DefaultMaxProofSize bounds the DPoP header's value: 8 KiB, room for
	// an RSA-4096 "jwk" and signature (2.1 KB) beside an "htu" and a
	// "nonce" of 2 KB each. It is checked before any of the proof is read.
	// It is too small for most ML-DSA proofs (RFC 9964), whose key and
	// signature are large: see VerifierOptions.MaxProofSize.
	DefaultMaxProofSize = 8 << 10
	// DefaultMaxRSABits bounds the RSA keys of a proof's "jwk": 4096 bits.
	// The proof chooses its key, and an RSA verification costs the
	// square of the modulus size: 16384 bits, which jose accepts
	// elsewhere, would cost 16 times a 4096-bit key's. The public
	// exponent, which jose accepts up to 2^31-1, costs as well: refusing
	// a proof signed with a 4096-bit key of e = 2^31-1 costs 2.4 times one
	// of e = 65537 and 10 times an ES256 proof (measured, CPU time per
	// refusal on a loaded 2-core machine: 0.90 ms, 0.37 ms and 0.088 ms;
	// BenchmarkRefuse). When RS256 or PS256 are in the allow-list, the
	// worst refusal is thus about 10 ES256 refusals; with only EC and
	// EdDSA algorithms, about one.
	DefaultMaxRSABits = 4096
)

// VerifierOptions configure a Verifier. Algorithms is required; every
// other field has a documented default.
type VerifierOptions struct {
	// Algorithms is the allow-list of the proofs' "alg" (RFC 9449 §4.3
	// check 5), asymmetric signature algorithms only: NewVerifier refuses
	// "none", MACs and algorithms jwa does not implement. A resource
	// server lists them in its challenge's "algs" (§7.1), an
	// authorization server in "dpop_signing_alg_values_supported" (§5.1).
	Algorithms []jwa.SignatureAlgorithm
	// MaxAge is how far in the past a proof's "iat" may be (RFC 9449 §4.3
	// check 11, §11.1); DefaultMaxAge when 0.
	MaxAge time.Duration
	// Leeway is the clock skew tolerated: "iat" may be up to Leeway in the
	// future, or MaxAge plus Leeway in the past; DefaultLeeway when 0,
	// none when negative.
	Leeway time.Duration
	// Nonces, when set, requires a server-provided nonce in every proof
	// (RFC 9449 §8, §9).
	Nonces NonceSource
	// Replay remembers accepted proofs; a new MemoryStore of
	// DefaultReplayCapacity when nil.
	Replay ReplayStore
	// MaxProofSize bounds the proof's bytes, checked before parsing;
	// DefaultMaxProofSize when 0. It is also the token size limit of the
	// JWS parse, every other jose.Limits at its default.
	//
	// ML-DSA proofs (RFC 9964) carry a large public key in their header
	// and a large signature, both base64url-encoded: with "htu"
	// "https://api.example/r", an "ath" and no nonce, an ML-DSA-44 proof
	// is 5.9 KB, an ML-DSA-65 one 8,187 bytes (5 bytes under the default:
	// any longer "htu", or a nonce, and it no longer fits) and an
	// ML-DSA-87 one 11.1 KB, which never fits (TestMLDSAProofSize). A
	// Verifier whose Algorithms hold ML-DSA-65 or ML-DSA-87 sets
	// MaxProofSize to 16 << 10, room for an ML-DSA-87 proof with an
	// "htu" and a nonce of 1.9 KB each; the default is not raised for them,
	// so that servers of other algorithms keep the smaller bound. The
	// bearer Middleware reads the DPoP header as net/http does, within
	// http.Server.MaxHeaderBytes (1 MiB by default).
	MaxProofSize int
	// MaxRSABits bounds the size of an RSA "jwk", checked before its
	// signature is verified; DefaultMaxRSABits when 0.
	MaxRSABits int
	// Now returns the current time; time.Now when nil.
	Now func() time.Time
}

// Verifier checks DPoP proofs as RFC 9449 §4.3 says, and remembers those
// it accepts so that each is accepted once (§11.1). It is built once by
// NewVerifier and is safe for concurrent use.
//
// Cost: a refused proof costs at most one signature verification plus the
// parsing of at most MaxProofSize bytes (the strict JWS and JWT parse of
// packages jws and jwt, under the default jose.Limits, and before the
// signature a reading of the claims that stops at a nested value or a
// 17th member), and every check that needs no signature runs before it
// (see Check): the size is checked first, then a scan of the header for a
// jwk with certificates (refused before jose would parse them), then the
// header (alg in the allow-list, typ, a public jwk that fits alg, an RSA
// key within MaxRSABits), the key's thumbprint against the token's
// cnf.jkt (CheckBound), and the claims of the payload (htm, htu, iat,
// ath, nonce), all before the signature. What is read before the
// signature only refuses: the claims are parsed strictly and checked
// again once it verifies, and the replay store is written only for a
// proof that passed every check, so forged proofs never fill it.
type Verifier struct {
	algs      []jwa.SignatureAlgorithm
	validator *jwt.Validator
	maxAge    time.Duration
	leeway    time.Duration
	nonces    NonceSource
	replay    ReplayStore
	maxSize   int
	maxRSA    int
	now       func() time.Time
}

// NewVerifier returns a Verifier for opts, or an error if the allow-list
// is empty or holds an algorithm that is not an asymmetric signature jwa
// implements, or a duration or bound is negative.
func NewVerifier(opts VerifierOptions) (*Verifier, error) {
	if len(opts.Algorithms) == 0 {
		return nil, errors.New("dpop: VerifierOptions.Algorithms is empty")
	}
	for _, a := range opts.Algorithms {
		if err := checkAsymmetric(a); err != nil {
			return nil, err
		}
	}
	if opts.MaxAge < 0 || opts.MaxProofSize < 0 || opts.MaxRSABits < 0 {
		return nil, errors.New("dpop: VerifierOptions.MaxAge, MaxProofSize and MaxRSABits cannot be negative")
	}
	v := &Verifier{
		algs:    slices.Clone(opts.Algorithms),
		maxAge:  cmpOr(opts.MaxAge, DefaultMaxAge),
		leeway:  cmpOr(opts.Leeway, DefaultLeeway),
		nonces:  opts.Nonces,
		replay:  opts.Replay,
		maxSize: cmpOr(opts.MaxProofSize, DefaultMaxProofSize),
		maxRSA:  cmpOr(opts.MaxRSABits, DefaultMaxRSABits),
		now:     opts.Now,
	}
	if v.leeway < 0 {
		v.leeway = 0
	}
	if v.replay == nil {
		v.replay = NewMemoryStore(0)
	}
	if v.now == nil {
		v.now = time.Now
	}
	jv, err := jws.NewVerifier(jws.VerifyOptions{
		Algorithms:     v.algs,
		KeyFuncContext: v.headerKey,
		Limits:         jose.Limits{MaxTokenSize: v.maxSize},
	})
	if err != nil {
		return nil, err // jws's or jwt's words, under no bare "dpop:"
	}
	v.validator, err = jwt.NewValidator(jwt.ValidatorOptions{
		Verifier:       jv,
		Type:           Type,
		AnyAudience:    true, // a proof has no audience: htm and htu say where it goes
		ExpiryOptional: true,
		Required:       []string{"jti", "htm", "htu", "iat"},
		Leeway:         v.leeway,
		Now:            v.now,
	})
	if err != nil {
		return nil, err // jws's or jwt's words, under no bare "dpop:"
	}
	return v, nil
}

func cmpOr[T int | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

// Algorithms returns the allow-list, for the "algs" of a challenge
// (RFC 9449 §7.1). The caller must not modify it.
func (v *Verifier) Algorithms() []jwa.SignatureAlgorithm { return v.algs }

// Nonce returns the nonce proofs must carry now, for a DPoP-Nonce header
// (RFC 9449 §8.1, §9), or "" when the Verifier requires none.
func (v *Verifier) Nonce(ctx context.Context) (string, error) {
	if v.nonces == nil {
		return "", nil
	}
	return v.nonces.Nonce(ctx)
}

// Proof is a DPoP proof that passed every check of a Verifier.
type Proof struct {
	// Thumbprint is the JWK SHA-256 Thumbprint of Key (RFC 7638), in
	// base64url: the "jkt" an access token must be bound to (RFC 9449
	// §6.1); see CheckBinding.
	Thumbprint string
	// Key is the public key of the header's "jwk".
	Key *jose.JWK
	// Algorithm is the header's "alg".
	Algorithm jwa.SignatureAlgorithm
	// ID, Method, URI, IssuedAt, AccessTokenHash and Nonce are the claims
	// "jti", "htm", "htu" (as sent), "iat", "ath" and "nonce" (RFC 9449
	// §4.2); the last two are empty when absent.
	ID, Method, URI string
	IssuedAt        time.Time
	AccessTokenHash string
	Nonce           string
	// Claims is the proof's JWT Claims Set, for claims of other
	// specifications.
	Claims []byte
}

// proofClaims are the claims of RFC 9449 §4.2, decoded by jwt without
// reflection (plain string fields).
type proofClaims struct {
	jwt.Claims
	HTM   string `json:"htm"`
	HTU   string `json:"htu"`
	ATH   string `json:"ath"`
	Nonce string `json:"nonce"`
}

// checkedProof holds a proof's claims, as jwt decodes them, and the Proof
// made of them: one allocation for both. It is also the context of the
// proof's JWT validation, through which headerKey finds the request's
// expectations (see precheck), with no context.WithValue to allocate.
type checkedProof struct {
	context.Context
	proof  Proof
	claims proofClaims

	v           *Verifier
	raw         string // the proof, the very bytes jws verifies
	method, uri string // the request's method and normalized target URI
	accessToken string
	jkt         string // the token's cnf.jkt (CheckBound), or "" (Check)
	now         time.Time
	// nonce is the "nonce" the nonce source found current before the
	// signature, when nonceChecked.
	nonce        string
	nonceChecked bool
	pre          preClaims // the claims read before the signature
	// serverErr is an error of the nonce source before the signature,
	// the server's, returned as is rather than under jws's words.
	serverErr error
}

// checkedProofKey is the context key under which a checkedProof is its own
// value.
type checkedProofKey struct{}

// Value returns pc for checkedProofKey, what its parent holds otherwise.
func (pc *checkedProof) Value(key any) any {
	if key == (checkedProofKey{}) {
		return pc
	}
	return pc.Context.Value(key)
}

// Check checks the DPoP proof of an HTTP request (RFC 9449 §4.3): proofs
// are the values of its DPoP header fields (http.Header.Values("DPoP")),
// method its method and uri its target URI, absolute (scheme, host and
// path as the client addressed them: behind a proxy, the public ones);
// accessToken is the access token the request presents with the DPoP
// scheme, or "" (a token request). On success it returns the proof; the
// access token's binding is then checked with CheckBinding, or, so that a
// proof of another key costs no signature verification, by CheckBound
// instead of Check.
//
// The cheap checks run first, the signature then, each refused with an
// *Error wrapping its own sentinel: exactly one proof (ErrNoProof,
// ErrMultipleProofs); its size (ErrProofTooLarge); a "jwk" without
// certificate members (ErrKey), scanned before jws parses the header; the
// JWS and its header: well-formed (ErrMalformedProof), "alg"
// (ErrAlgorithm), "typ" (ErrType), "jwk" present (ErrMissingClaim) and
// acceptable (ErrKey); the claims, read from the payload of the very
// bytes whose signature is then verified: present (ErrMissingClaim), "iat"
// in the window (ErrIssuedAt), "htm" (ErrMethod), "htu" (ErrURI), "ath"
// (ErrMissingClaim, ErrAccessTokenHash), "nonce" (ErrNonce, Code
// CodeUseNonce); then the signature (ErrSignature); then the strict JWT
// parse of the verified claims (ErrMalformedProof, and every check above
// again, on what the signature covers: claims read before it only ever
// refuse a proof); last the replay store (ErrReplay), which thus only
// records the "jti" of proofs whose signature verified and that passed
// every other check. Claims that are not read before the signature (a
// payload that is not a flat JSON object of at most 16 members, claims
// the strict parse refuses or a null one) are left to the strict parse,
// after it: that reading costs an attacker's payload no more than an
// honest one's. The nonce source may thus be asked about the nonce of a
// proof whose signature is not verified yet (see NonceSource). An
// error that is not an *Error (a done ctx, a failing replay store or
// nonce source) is the server's, not the client's, except one wrapping
// ErrRequestURI: uri is not an absolute http or https URI (checked after
// the proof's size, before it is read).
func (v *Verifier) Check(ctx context.Context, proofs []string, method, uri, accessToken string) (*Proof, error) {
	return v.check(ctx, proofs, method, uri, accessToken, "")
}

// CheckBound is Check for an access token bound to a key (RFC 9449 §6.1,
// §7.1): jkt is its "cnf" "jkt" (TokenBinding, or a token introspection
// response's), and accessToken the token, which must not be empty (an
// error that is not an *Error otherwise, the caller's). It
// refuses a proof whose key's thumbprint is not jkt, or a jkt that is
// empty (an unbound token), as CheckBinding does (an *Error of Code
// CodeInvalidToken wrapping ErrBinding), and compares them right after
// the header checks, before the claims and the signature: a token used
// with a key other than its own costs a header parse and a thumbprint,
// no signature verification (the "jkt" was read from a token already
// validated, so that this check is the cheap one of §4.3 check 12 and
// §6.1). A server validates the access token first, then calls CheckBound,
// as the jose/bearer Middleware does.
func (v *Verifier) CheckBound(ctx context.Context, proofs []string, method, uri, accessToken, jkt string) (*Proof, error) {
	if jkt == "" {
		return nil, CheckBinding("", nil)
	}
	if accessToken == "" {
		// The caller's error, not the client's: a proof checked without
		// "ath" would be accepted for any token bound to its key.
		return nil, errors.New("dpop: CheckBound of an empty access token")
	}
	return v.check(ctx, proofs, method, uri, accessToken, jkt)
}

// check is Check with jkt "", CheckBound otherwise.
func (v *Verifier) check(ctx context.Context, proofs []string, method, uri, accessToken, jkt string) (*Proof, error) {
	switch {
	case len(proofs) == 0:
		return nil, proofError(ErrNoProof, "", nil)
	case len(proofs) > 1:
		return nil, proofError(ErrMultipleProofs, strconv.Itoa(len(proofs))+" DPoP headers", nil)
	}
	proof := proofs[0]
	if len(proof) > v.maxSize {
		return nil, proofError(ErrProofTooLarge, strconv.Itoa(len(proof))+" bytes, limit "+strconv.Itoa(v.maxSize), nil)
	}
	want, err := normalizeURI(uri)
	if err != nil {
		return nil, fmt.Errorf("dpop: %w: %w", err, ErrRequestURI)
	}
	if err := checkJWKMembers(proof); err != nil {
		return nil, err
	}
	now := v.now()
	pc := &checkedProof{Context: ctx, v: v, raw: proof, method: method, uri: want,
		accessToken: accessToken, jkt: jkt, now: now}
	c := &pc.claims
	// The context is pc, for headerKey: the header, the binding and the
	// claims are checked there, before the signature.
	tok, err := v.validator.ValidateContext(pc, []byte(proof), c)
	if err != nil {
		if pc.serverErr != nil {
			return nil, pc.serverErr
		}
		return nil, v.refusal(ctx, err)
	}
	p := &pc.proof
	*p = Proof{
		Thumbprint:      p.Thumbprint, // headerKey's, of the key that verified
		Key:             tok.Header.JWK,
		Algorithm:       jwa.SignatureAlgorithm(tok.Header.Algorithm),
		ID:              c.ID,
		Method:          c.HTM,
		URI:             c.HTU,
		IssuedAt:        c.IssuedAt.Time(),
		AccessTokenHash: c.ATH,
		Nonce:           c.Nonce,
		Claims:          tok.Payload,
	}
	// The checks again, on the claims the signature covers: only they
	// accept the proof.
	if err := checkClaims(ctx, pc, false, c.HTM, c.HTU, c.ATH, c.Nonce, c.IssuedAt); err != nil {
		return nil, err
	}
	if p.Thumbprint == "" { // precheck did not run: the tests' Verifier with another's validator
		if p.Thumbprint, err = thumbprint(p.Key); err != nil { // headerKey checked it fits alg
			return nil, err
		}
	}
	if jkt != "" {
		if err := CheckBinding(jkt, p); err != nil {
			return nil, err
		}
	}
	key := replayKey(p.Thumbprint, c.ID)
	seen, err := v.replay.Remember(ctx, key, now, p.IssuedAt.Add(v.maxAge+v.leeway))
	if err != nil {
		return nil, fmt.Errorf("dpop: replay store: %w", err)
	}
	if seen {
		return nil, proofError(ErrReplay, "\"jti\" "+untrusted.Quote(c.ID), nil)
	}
	return p, nil
}

// checkClaims runs the claim checks of RFC 9449 §4.3 (checks 9 to 11,
// "ath" and "nonce") on htm, htu, ath, nonce and iat, for the request pc
// holds: before the signature on the claims precheck read (pre), after it
// on the verified ones. Before the signature an "htu" that is the
// request's URI as is passes unnormalized (what passes there is checked
// again), and a nonce the source found current then is not asked again
// after it.
func checkClaims[T string | []byte](ctx context.Context, pc *checkedProof, pre bool, htm, htu, ath, nonce T, iat jwt.NumericDate) error {
	v := pc.v
	if len(htm) == 0 || len(htu) == 0 {
		name := "htm"
		if len(htm) != 0 {
			name = "htu"
		}
		return proofError(ErrMissingClaim, strconv.Quote(name)+" is empty", nil)
	}
	now := pc.now
	if oldest := now.Add(-v.maxAge - v.leeway); iat.Time().Before(oldest) {
		return proofError(ErrIssuedAt, "\"iat\" "+iat.String()+", now "+now.UTC().Format(time.RFC3339)+", max age "+v.maxAge.String()+" and leeway "+v.leeway.String(), nil)
	}
	if string(htm) != pc.method {
		return proofError(ErrMethod, "\"htm\" "+untrusted.Quote(htm)+", request "+untrusted.Quote(pc.method), nil)
	}
	if !pre || string(htu) != pc.uri {
		got, err := normalizeURI(string(htu))
		if err != nil {
			return proofError(ErrURI, "\"htu\": "+err.Error(), nil)
		}
		if got != pc.uri {
			return proofError(ErrURI, "\"htu\" "+untrusted.Quote(got)+", request "+untrusted.Quote(pc.uri), nil)
		}
	}
	if pc.accessToken != "" {
		if len(ath) == 0 {
			return proofError(ErrMissingClaim, "\"ath\" is absent and the request presents an access token", nil)
		}
		if !athMatches(pc.accessToken, ath) {
			return proofError(ErrAccessTokenHash, "", nil)
		}
	}
	if v.nonces != nil && !(pc.nonceChecked && string(nonce) == pc.nonce) {
		n := string(nonce)
		if err := v.checkNonce(ctx, n); err != nil {
			return err
		}
		pc.nonce, pc.nonceChecked = n, true
	}
	return nil
}

// preLimits bound the claims precheck reads: a flat object (claims of
// strings and numbers, as every claim of RFC 9449 §4.2 is) of at most 16
// members, more than a proof holds. A payload beyond them is left to the
// strict parse after the signature, so that an attacker's payload costs
// before the signature no more than an honest proof's, rather than what
// jsonx takes to validate the costliest JSON (objects of more than 16
// members, each one's names in a map, 132 KB and about one ES256
// verification of CPU time for a proof within DefaultMaxProofSize):
// forged proofs need not verify to cost that.
var preLimits = jsonx.Limits{MaxDepth: 1, MaxMembers: 16}

// preClaims are the claims precheck reads, subslices of the payload (or
// their unescaped copies), and which of the required ones it found.
type preClaims struct {
	htm, htu, ath, nonce, iat []byte
	has                       uint8 // jti, htm, htu, iat: bits 0 to 3
}

// member records a member of the claims, for jsonx.ScanObject.
func (c *preClaims) member(name, value []byte) error {
	var dst *[]byte
	switch string(name) {
	case "jti":
		c.has |= 1
		return nil
	case "htm":
		dst, c.has = &c.htm, c.has|2
	case "htu":
		dst, c.has = &c.htu, c.has|4
	case "iat":
		c.iat, c.has = value, c.has|8
		return nil
	case "ath":
		dst = &c.ath
	case "nonce":
		dst = &c.nonce
	default:
		return nil
	}
	s, err := jsonx.StringBytes(value)
	*dst = s
	return err
}

// precheck runs, before the signature, the checks of pc's proof that need
// no signature: the binding to pc.jkt (unless "") and the claims,
// read from the payload segment of pc.raw, the bytes jws is verifying
// (jws has split them and parsed their header h already). What it reads
// may only refuse the proof: every claim is checked again once verified.
// A payload it cannot read (not base64url, not a JSON object within
// preLimits: flat, of at most 16 members; a claim of the wrong type or
// null) is left to the strict JWT parse after the signature.
func (pc *checkedProof) precheck(h *jose.Header) error {
	v := pc.v
	jkt, err := thumbprint(h.JWK)
	if err != nil {
		return err
	}
	pc.proof.Thumbprint = jkt
	if pc.jkt != "" && !equal(pc.jkt, jkt) {
		return CheckBinding(pc.jkt, &pc.proof)
	}
	if h.B64 != nil && !*h.B64 {
		return nil // jwt refuses it
	}
	_, rest, _ := strings.Cut(pc.raw, ".")
	seg, _, ok := strings.Cut(rest, ".")
	if !ok {
		return nil
	}
	payload, err := b64enc.AppendDecode(nil, seg, jose.ErrMalformed)
	if err != nil {
		return nil
	}
	c := &pc.pre
	if jsonx.ScanObject(payload, preLimits, c.member) != nil {
		return nil
	}
	if c.has != 15 {
		for i, name := range [...]string{"jti", "htm", "htu", "iat"} {
			if c.has&(1<<i) == 0 {
				return proofError(ErrMissingClaim, strconv.Quote(name)+" is absent", nil)
			}
		}
	}
	var d jwt.NumericDate
	if d.UnmarshalJSON(c.iat) != nil || d.IsZero() {
		return nil
	}
	// jwt refuses an "iat" in the future after the signature, comparing
	// at the precision of the claim: this refuses it a second later, so
	// as never to refuse what jwt accepts.
	if late := pc.now.Add(v.leeway + time.Second); d.Time().After(late) {
		return proofError(ErrIssuedAt, "\"iat\" "+d.String()+" is in the future, now "+pc.now.UTC().Format(time.RFC3339)+" and leeway "+v.leeway.String(), nil)
	}
	return checkClaims(pc, pc, true, c.htm, c.htu, c.ath, c.nonce, d)
}

// checkNonce refuses a proof without a nonce the source accepts, with
// the source's current nonce for the client to use.
func (v *Verifier) checkNonce(ctx context.Context, nonce string) error {
	detail := "the server requires a nonce"
	if nonce != "" {
		ok, err := v.nonces.Valid(ctx, nonce)
		if err != nil {
			return fmt.Errorf("dpop: nonce source: %w", err)
		}
		if ok {
			return nil
		}
		detail = "\"nonce\" " + untrusted.Quote(nonce) + " is not current"
	}
	n, err := v.nonces.Nonce(ctx)
	if err != nil {
		return fmt.Errorf("dpop: nonce source: %w", err)
	}
	return &Error{Code: CodeUseNonce, Err: ErrNonce, Detail: detail, Nonce: n}
}

// replayKey is the ReplayStore key of a proof: SHA-256 of its key's
// thumbprint and its jti, the thumbprint being of fixed length. The
// input is written on the stack (to the heap only for a jti of more than
// 84 bytes).
func replayKey(jkt, jti string) [32]byte {
	var buf [128]byte
	return sha256.Sum256(append(append(append(buf[:0], jkt...), 0), jti...))
}

// certificateMembers are the JWK members that refer to X.509
// certificates (RFC 7517 §4.6 to §4.9).
var certificateMembers = []string{"x5c", "x5u", "x5t", "x5t#S256"}

// checkJWKMembers refuses a proof whose header's "jwk" has a certificate
// member ("x5c", "x5u", "x5t", "x5t#S256"), before jws parses the header:
// a proof's key is its public key alone (RFC 9449 §4.2), and jose, reading
// a JWK, parses every certificate of an "x5c" (up to 32, each key
// included), which would cost up to twice an ES256 verification before the
// signature is checked. It decodes the protected header and scans it and
// its "jwk" as JSON, nothing more; a header it cannot read is left to jws
// to refuse.
func checkJWKMembers(proof string) error {
	seg := proof
	if i := strings.IndexByte(proof, '.'); i >= 0 {
		seg = proof[:i]
	}
	var buf [512]byte
	header, err := b64enc.AppendDecode(buf[:0], seg, jose.ErrMalformed)
	if err != nil {
		return nil
	}
	// Every such member name holds "x5", unless spelled with an escape.
	if !bytes.Contains(header, []byte("x5")) && bytes.IndexByte(header, '\\') < 0 {
		return nil
	}
	var found string
	// A copy, so that buf stays on the stack for the common header.
	jsonx.ScanObject(bytes.Clone(header), jsonx.Limits{}, func(name, value []byte) error {
		if string(name) != "jwk" || jsonx.KindOf(value) != jsonx.KindObject {
			return nil
		}
		return jsonx.ScanObject(value, jsonx.Limits{}, func(name, _ []byte) error {
			if slices.Contains(certificateMembers, string(name)) {
				found = string(name)
				return errStop
			}
			return nil
		})
	})
	if found != "" {
		return proofError(ErrKey, "\"jwk\" has member "+strconv.Quote(found)+": a proof's key is its public key alone, without certificates", nil)
	}
	return nil
}

// errStop ends a scan early.
var errStop = errors.New("stop")

// headerKey is the Verifier's key function: it runs the header checks of
// RFC 9449 §4.3 before the signature (the alg is already in the
// allow-list, the header well-formed, its jwk public: jws and jose check
// them), then, under the context of this Verifier's check (a
// *checkedProof), its binding and claim checks (precheck), and returns
// the header's key as a Go key, so that jws prepares it for this proof
// only and caches nothing an attacker chose. A context of another
// Verifier's check runs the header checks alone: only the tests do that
// (a Verifier given another's validator, to check what the checks after
// the signature refuse on their own).
func (v *Verifier) headerKey(ctx context.Context, h *jose.Header) (any, error) {
	if !jwt.SameType(h.Type, Type) {
		d := "\"typ\" is absent"
		if h.Type != "" {
			d = "\"typ\" " + untrusted.Quote(h.Type)
		}
		return nil, proofError(ErrType, d, nil)
	}
	k := h.JWK
	if k == nil {
		return nil, proofError(ErrMissingClaim, "the header has no \"jwk\"", nil)
	}
	if err := k.Permits(h.Algorithm, jose.OpVerify); err != nil {
		return nil, proofError(ErrKey, "\"jwk\"", err)
	}
	if pub, ok := k.Key.(*rsa.PublicKey); ok && pub.N.BitLen() > v.maxRSA {
		return nil, proofError(ErrKey, "\"jwk\" is a "+strconv.Itoa(pub.N.BitLen())+"-bit RSA key, limit "+strconv.Itoa(v.maxRSA), nil)
	}
	if !jwa.SignatureAlgorithm(h.Algorithm).FitsKey(k.Key) {
		return nil, proofError(ErrKey, fmt.Sprintf("\"jwk\" of kty %s cannot verify %s", k.KeyType(), h.Algorithm), nil)
	}
	if pc, ok := ctx.Value(checkedProofKey{}).(*checkedProof); ok && pc.v == v {
		if err := pc.precheck(h); err != nil {
			if _, ok := err.(*Error); !ok {
				pc.serverErr = err
			}
			return nil, err
		}
	}
	return k.Key, nil
}

// refusal maps an error of the JWT validation to the *Error of its check.
func (v *Verifier) refusal(ctx context.Context, err error) error {
	var e *Error
	switch {
	case errors.As(err, &e):
		return e
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return err
	case errors.Is(err, jose.ErrSecretInHeader):
		return proofError(ErrKey, "\"jwk\" holds secret key material", err)
	case errors.Is(err, jose.ErrVerificationFailed):
		return proofError(ErrSignature, "", nil)
	case errors.Is(err, jose.ErrAlgorithmNotAllowed), errors.Is(err, jose.ErrUnsupportedAlgorithm):
		return proofError(ErrAlgorithm, "", err)
	case errors.Is(err, jose.ErrInvalidKey):
		return proofError(ErrKey, "", err)
	case errors.Is(err, jwt.ErrInvalidType):
		return proofError(ErrType, "", err)
	case errors.Is(err, jwt.ErrMissingClaim):
		return proofError(ErrMissingClaim, "", err)
	case errors.Is(err, jwt.ErrIssuedInTheFuture), errors.Is(err, jwt.ErrExpired), errors.Is(err, jwt.ErrNotYetValid):
		return proofError(ErrIssuedAt, "", err)
	default:
		return proofError(ErrMalformedProof, "", err)
	}
}
