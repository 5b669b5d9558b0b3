package jws

import (
	"bytes"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/internal/jsonx"
)

// jsonJWS is a parsed JWS JSON Serialization (RFC 7515 §7.2), before any
// header is decoded.
type jsonJWS struct {
	payload    []byte // the "payload" string, unescaped (still base64url unless b64 is false)
	hasPayload bool
	sigs       []jsonSig
}

// jsonSig is one signature object (RFC 7515 §7.2.1).
type jsonSig struct {
	protected []byte // the "protected" string (base64url), empty when absent
	header    []byte // the raw "header" object, nil when absent
	signature []byte // the "signature" string (base64url)
	hasSig    bool
}

// parseJSON parses data as a general or flattened JWS JSON Serialization
// with the strict reader: duplicate member names are refused at every
// level, unknown members are ignored (RFC 7515 §7.2.1), and no more than
// lim.MaxSignatures signatures are read.
func parseJSON(data []byte, lim jose.Limits) (*jsonJWS, error) {
	if len(data) > lim.MaxTokenSize {
		return nil, fmt.Errorf("jws: token of %d bytes exceeds %d: %w", len(data), lim.MaxTokenSize, jose.ErrLimitExceeded)
	}
	jl := jsonx.Limits{MaxDepth: lim.MaxJSONDepth + 3, MaxMembers: lim.MaxHeaderMembers}
	var (
		j        jsonJWS
		flat     jsonSig
		isFlat   bool
		general  bool
		countErr error
	)
	err := jsonx.ScanObject(data, jl, func(name, value []byte) error {
		var err error
		switch string(name) {
		case "payload":
			j.payload, err = jsonx.StringBytes(value)
			j.hasPayload = true
		case "signatures":
			general = true
			err = jsonx.ScanArray(value, jl, func(elem []byte) error {
				if len(j.sigs) == lim.MaxSignatures {
					countErr = fmt.Errorf("jws: more than %d signatures: %w", lim.MaxSignatures, jose.ErrLimitExceeded)
					return countErr
				}
				var s jsonSig
				if err := jsonx.ScanObject(elem, jl, s.member); err != nil {
					return err
				}
				j.sigs = append(j.sigs, s)
				return nil
			})
		default:
			isFlat = isFlat || string(name) == "protected" || string(name) == "header" || string(name) == "signature"
			err = flat.member(name, value)
		}
		if err != nil && err != countErr {
			return fmt.Errorf("member %s: %w", untrusted.Quote(name), err)
		}
		return err
	})
	if err != nil {
		if countErr != nil && errors.Is(err, countErr) {
			return nil, countErr
		}
		sentinel := jose.ErrMalformed
		if le := (*jsonx.LimitError)(nil); errors.As(err, &le) {
			sentinel = jose.ErrLimitExceeded
		}
		return nil, fmt.Errorf("jws: JSON serialization: %w: %w", err, sentinel)
	}
	switch {
	case general && isFlat:
		return nil, fmt.Errorf("jws: JSON serialization mixes the general and flattened forms: %w", jose.ErrMalformed)
	case isFlat:
		j.sigs = []jsonSig{flat}
	case !general:
		return nil, fmt.Errorf("jws: JSON serialization has no signature: %w", jose.ErrMalformed)
	case len(j.sigs) == 0:
		return nil, fmt.Errorf("jws: JSON serialization has an empty signatures array: %w", jose.ErrMalformed)
	}
	for i := range j.sigs {
		s := &j.sigs[i]
		if !s.hasSig {
			return nil, fmt.Errorf("jws: signature %d has no \"signature\" member: %w", i, jose.ErrMalformed)
		}
		if len(s.protected) == 0 && s.header == nil {
			return nil, fmt.Errorf("jws: signature %d has no header: %w", i, jose.ErrMalformed)
		}
	}
	return &j, nil
}

// errEmptyProtected refuses "protected":"" (RFC 7515 §7.2.1: the member
// is absent when the JWS Protected Header is; the JWE parser refuses it
// too, RFC 7516 §7.2.1).
var errEmptyProtected = errors.New(`"protected" is empty: without a protected header the member must be absent (RFC 7515 §7.2.1)`)

// member records one member of a signature object; others are ignored.
func (s *jsonSig) member(name, value []byte) error {
	var err error
	switch string(name) {
	case "protected":
		s.protected, err = jsonx.StringBytes(value)
		if err == nil && len(s.protected) == 0 {
			return errEmptyProtected
		}
	case "header":
		if jsonx.KindOf(value) != jsonx.KindObject {
			return fmt.Errorf("\"header\" is not an object: %w", jose.ErrMalformed)
		}
		s.header = value
	case "signature":
		s.signature, err = jsonx.StringBytes(value)
		s.hasSig = true
	}
	return err
}

// VerifyJSON verifies a flattened JWS JSON Serialization, or a general one
// with exactly one signature (RFC 7515 §7.2); a general one with more is
// refused with [ErrMultipleSignatures] before any verification. The
// Message's Header is the union of the protected and unprotected headers;
// its Protected is the protected header alone.
func (v *Verifier) VerifyJSON(data []byte) (*Message, error) {
	return v.VerifyJSONContext(context.Background(), data)
}

// VerifyJSONContext is [Verifier.VerifyJSON] with ctx bounding the wait on
// the key source, as [Verifier.VerifyCompactContext] says.
func (v *Verifier) VerifyJSONContext(ctx context.Context, data []byte) (*Message, error) {
	res, pl, err := v.verifyJSON(ctx, data, nil, false, true)
	if err != nil {
		return nil, err
	}
	return &Message{Payload: pl, Header: res[0].Header, Protected: res[0].Protected, Chain: res[0].Chain}, nil
}

// VerifyEach verifies every signature of a general (or flattened) JWS JSON
// Serialization independently and reports each outcome, in order; the
// application decides which signatures must have verified (RFC 7515 §7.2.1).
//
// The payload is returned only when at least one signature verified. The
// error is non-nil when the token as a whole is refused (malformed, over a
// limit, signatures disagreeing on b64) or when no signature verified; in
// the second case it wraps the first signature's error, and the results
// are returned too.
func (v *Verifier) VerifyEach(data []byte) ([]SignatureResult, []byte, error) {
	return v.VerifyEachContext(context.Background(), data)
}

// VerifyEachContext is [Verifier.VerifyEach] with ctx bounding the wait on
// the key source, as [Verifier.VerifyCompactContext] says: once ctx is
// done, the signatures not yet verified fail with an error wrapping
// ctx.Err(), and the key source is not called again; if none verified, the
// error returned wraps ctx.Err() as well as the first signature's error.
func (v *Verifier) VerifyEachContext(ctx context.Context, data []byte) ([]SignatureResult, []byte, error) {
	return v.verifyJSON(ctx, data, nil, false, false)
}

// verifyJSON verifies a JSON serialization. With single, it must hold one
// signature, whose error is returned. With isDetached, the payload is
// detached (and must be absent from data). ctx bounds the wait on the key
// source.
func (v *Verifier) verifyJSON(ctx context.Context, data, detached []byte, isDetached, single bool) ([]SignatureResult, []byte, error) {
	j, err := parseJSON(data, v.lim)
	if err != nil {
		return nil, nil, err
	}
	if single && len(j.sigs) > 1 {
		return nil, nil, ErrMultipleSignatures
	}
	switch {
	case isDetached && j.hasPayload:
		return nil, nil, fmt.Errorf("jws: token carries a payload but a detached one was given: %w", jose.ErrMalformed)
	case !isDetached && !j.hasPayload:
		return nil, nil, fmt.Errorf("jws: token has no payload (a detached payload needs VerifyDetached): %w", jose.ErrMalformed)
	}

	// Headers first, for every signature: b64 must agree across them
	// (RFC 7797 §3) before the payload can be decoded.
	res := make([]SignatureResult, len(j.sigs))
	unencoded := -1 // unknown
	for i := range j.sigs {
		res[i].Index = i
		p, h, err := v.sigHeader(&j.sigs[i])
		res[i].Header = h
		if h != nil {
			res[i].Protected = p
			if p == nil {
				res[i].Protected = new(jose.Header)
			}
		}
		if err != nil {
			res[i].Err = err
			continue
		}
		u := 0
		if p != nil && p.B64 != nil && !*p.B64 {
			u = 1
		}
		if unencoded >= 0 && u != unencoded {
			return nil, nil, fmt.Errorf("jws: signatures disagree on b64 (RFC 7797 §3): %w", jose.ErrMalformed)
		}
		unencoded = u
	}

	// The payload segment of the signing input, and the payload, unless
	// no signature is left to verify.
	var seg, payload []byte
	switch {
	case unencoded < 0:
	case isDetached && unencoded == 1:
		seg, payload = detached, detached
	case isDetached:
		seg, payload = b64enc.Append(nil, detached), detached
	case unencoded == 1:
		seg, payload = j.payload, bytes.Clone(j.payload) // not an alias of data
	default:
		seg = j.payload
		if payload, err = jose.Base64URLDecode(seg); err != nil {
			return nil, nil, fmt.Errorf("jws: payload: %w", err)
		}
	}

	verified := false
	budget := v.lim.MaxKeyAttempts // verifications over all signatures
	lookups := 0                   // key function calls over all signatures (Limits.MaxKeyLookups)
	for i := range j.sigs {
		if res[i].Err != nil {
			continue
		}
		res[i].Chain, res[i].Err = v.verifySig(ctx, &j.sigs[i], res[i].Header, seg, &budget, &lookups)
		verified = verified || res[i].Err == nil
	}
	if single {
		if res[0].Err != nil {
			return nil, nil, res[0].Err
		}
		return res, clip(payload), nil
	}
	if !verified {
		// A signature the done context stopped makes the error wrap
		// ctx.Err(), whatever the first one's was.
		if cerr := v.ctxEnded(ctx, res); cerr != nil {
			return res, nil, fmt.Errorf("jws: none of %d signatures verified: %w: %w", len(res), res[0].Err, cerr)
		}
		return res, nil, fmt.Errorf("jws: none of %d signatures verified: %w", len(res), res[0].Err)
	}
	return res, clip(payload), nil
}

// ctxEnded returns ctx.Err() if ctx, done, refused the key source to a
// signature of res and the first signature's error does not already wrap
// it; nil otherwise, and always with local keys (ctx is not consulted).
func (v *Verifier) ctxEnded(ctx context.Context, res []SignatureResult) error {
	if !v.keyFunc.Set() {
		return nil
	}
	cerr := ctx.Err()
	if cerr == nil || errors.Is(res[0].Err, cerr) {
		return nil
	}
	for _, r := range res[1:] {
		if errors.Is(r.Err, cerr) {
			return cerr
		}
	}
	return nil
}

func clip(b []byte) []byte { return b[:len(b):len(b)] }

// sigHeader reads and checks the headers of one signature: it returns the
// protected header (nil if absent) and the JOSE Header (the union), which
// are also returned when only the checks failed.
func (v *Verifier) sigHeader(s *jsonSig) (p, h *jose.Header, err error) {
	p, _, err = v.parseProtected(s.protected, nil)
	if err != nil {
		return nil, nil, err
	}
	var u *jose.Header
	if s.header != nil {
		// Parse refuses more than MaxHeaderSize bytes first.
		if u, err = jose.JWSHeader.Parse(s.header, v.lim); err != nil {
			return nil, nil, fmt.Errorf("jws: unprotected header: %w", err)
		}
	}
	if h, err = jose.MergeJOSEHeader(p, u); err != nil {
		return nil, nil, fmt.Errorf("jws: JOSE header: %w", err)
	}
	if err := v.checkHeaders(p, u); err != nil {
		return p, h, err
	}
	return p, h, nil
}

// verifySig verifies one signature whose joint header h has been checked,
// with seg the payload segment of the signing input, taking its attempts
// from *budget and counting its key function calls in *lookups, under ctx.
// It returns the certificate chain of the key that verified, if any.
func (v *Verifier) verifySig(ctx context.Context, s *jsonSig, h *jose.Header, seg []byte, budget, lookups *int) ([]*x509.Certificate, error) {
	if *budget <= 0 {
		return nil, errKeyAttempts // before the key source: a KeyFunc may be costly
	}
	sig, err := jose.Base64URLDecode(s.signature) // before the key source, which may be costly
	if err != nil {
		return nil, fmt.Errorf("jws: signature: %w", err)
	}
	cands, err := v.candidates(ctx, lookups, h)
	if err != nil {
		return nil, err
	}
	input := make([]byte, 0, len(s.protected)+1+len(seg))
	input = append(append(append(input, s.protected...), '.'), seg...)
	if err := verifyWith(&cands, input, sig, budget); err != nil {
		return nil, err
	}
	return cands.chain, nil
}

// Flattened returns the flattened JWS JSON Serialization of payload
// (RFC 7515 §7.2.2) with unprotected as its unprotected header ("header"),
// or the Signer's own (SignerOptions.Header) when unprotected is nil. The
// unprotected names must be disjoint from the protected header's, and may
// hold neither "crit" nor "b64". With SignerOptions.Unencoded the payload
// is a JSON string and must be valid UTF-8 (RFC 7797 §5.2).
func (s *Signer) Flattened(payload []byte, unprotected *jose.Header) ([]byte, error) {
	if unprotected == nil {
		unprotected = s.unprotected
	} else if err := s.checkUnprotected(unprotected); err != nil {
		return nil, err
	}
	b := []byte(`{"payload":`)
	b, err := appendPayload(b, payload, s.unencoded)
	if err != nil {
		return nil, err
	}
	b = append(b, ',')
	b, err = s.appendSignature(b, payload, unprotected)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// SignGeneral returns the general JWS JSON Serialization of payload
// (RFC 7515 §7.2.1) with one signature per signer, each with its protected
// header and its unprotected one (SignerOptions.Header, [Signer.WithHeader]).
// The signers must agree on SignerOptions.Unencoded (RFC 7797 §3).
func SignGeneral(payload []byte, signers ...*Signer) ([]byte, error) {
	if len(signers) == 0 {
		return nil, errors.New("jws: SignGeneral needs at least one signer")
	}
	for _, s := range signers[1:] {
		if s.unencoded != signers[0].unencoded {
			return nil, errors.New("jws: signers disagree on the b64 header (RFC 7797 §3)")
		}
	}
	b := []byte(`{"payload":`)
	b, err := appendPayload(b, payload, signers[0].unencoded)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"signatures":[`...)
	for i, s := range signers {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		b, err = s.appendSignature(b, payload, s.unprotected)
		if err != nil {
			return nil, err
		}
		b = append(b, '}')
	}
	return append(b, "]}"...), nil
}

func appendPayload(b, payload []byte, unencoded bool) ([]byte, error) {
	if !unencoded {
		b = append(b, '"')
		b = b64enc.Append(b, payload)
		return append(b, '"'), nil
	}
	if !utf8.Valid(payload) {
		return nil, errors.New("jws: unencoded payload is not valid UTF-8 and cannot be in a JWS JSON serialization")
	}
	return jsonx.AppendString(b, payload), nil
}

// appendSignature appends the members "protected", "header" and
// "signature" of one signature object.
func (s *Signer) appendSignature(b, payload []byte, unprotected *jose.Header) ([]byte, error) {
	if len(s.protB64) > 0 {
		b = append(b, `"protected":"`...)
		b = append(b, s.protB64...)
		b = append(b, `",`...)
	}
	if unprotected != nil {
		b = append(b, `"header":`...)
		var err error
		if b, err = unprotected.AppendJSON(b); err != nil {
			return nil, fmt.Errorf("jws: unprotected header: %w", err)
		}
		b = append(b, ',')
	}
	sig, err := s.sign(payload)
	if err != nil {
		return nil, err
	}
	b = append(b, `"signature":"`...)
	b = b64enc.Append(b, sig)
	return append(b, '"'), nil
}
