package jws

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/b64enc"
)

// errDotInPayload reports an unencoded payload that the compact
// serialization cannot carry (RFC 7797 §5.2).
var errDotInPayload = errors.New("jws: unencoded payload contains '.' and cannot be in a compact JWS")

// Compact returns the JWS Compact Serialization of payload (RFC 7515 §7.1):
// BASE64URL(protected) '.' BASE64URL(payload) '.' BASE64URL(signature), or,
// with SignerOptions.Unencoded, the payload as is (RFC 7797 §5.2; it must
// not contain '.').
func (s *Signer) Compact(payload []byte) ([]byte, error) {
	return s.appendCompact(nil, payload, false)
}

// AppendCompact appends the JWS Compact Serialization of payload (RFC 7515
// §7.1), as [Signer.Compact] makes it, to dst and returns the extended
// buffer. A caller that reuses dst (dst[:0] of the previous token) signs
// without allocating once dst is large enough. payload must not overlap
// dst's spare capacity. On error dst is returned unchanged.
func (s *Signer) AppendCompact(dst, payload []byte) ([]byte, error) {
	out, err := s.appendCompact(dst, payload, false)
	if err != nil {
		return dst, err
	}
	return out, nil
}

// CompactDetached returns the compact serialization of payload with the
// payload left out, "header..signature" (RFC 7515 Appendix F); the
// recipient gets the payload by other means and calls
// [Verifier.VerifyDetached].
func (s *Signer) CompactDetached(payload []byte) ([]byte, error) {
	return s.appendCompact(nil, payload, true)
}

// appendCompact appends the compact serialization of payload to dst, with
// the payload left out if detached.
func (s *Signer) appendCompact(dst, payload []byte, detached bool) ([]byte, error) {
	if s.unencoded && !detached && bytes.IndexByte(payload, '.') >= 0 {
		return nil, errDotInPayload
	}
	plen := len(payload)
	if !s.unencoded {
		plen = b64enc.EncodedLen(len(payload))
	}
	n := len(s.protB64) + 1 + plen // the signing input
	out := len(s.protB64) + 2 + b64enc.EncodedLen(s.sigSize)
	if !detached {
		out += plen
	}
	// One buffer of the output's size (or the signing input's and the raw
	// signature's, if larger): the raw signature goes right after the
	// signing input and is copied (to the stack unless it is longer than
	// any RSA-4096 one) before its encoding overwrites it.
	base := len(dst)
	buf := slices.Grow(dst, max(n+s.sigSize, out))
	buf = s.appendSigningInput(buf, payload)
	sig, err := s.signer.Sign(buf[base+n:base+n], buf[base:base+n])
	if err != nil {
		return nil, fmt.Errorf("jws: signing: %w", err)
	}
	var tmp [maxStackSig]byte
	if len(sig) <= len(tmp) {
		sig = tmp[:copy(tmp[:], sig)]
	} else {
		sig = bytes.Clone(sig)
	}
	if detached {
		buf = append(buf[:base+len(s.protB64)], '.')
	}
	buf = append(buf, '.')
	return b64enc.Append(buf, sig), nil
}

// maxStackSig is the largest signature Compact copies to the stack: ES512's
// 132 bytes and RSA-4096's 512.
const maxStackSig = 512

// VerifyCompact verifies a JWS Compact Serialization (RFC 7515 §5.2, §7.1)
// and returns its payload and header. A token whose header says "b64":
// false carries its payload as is (RFC 7797 §5.2).
func (v *Verifier) VerifyCompact(token []byte) (*Message, error) {
	return v.VerifyCompactContext(context.Background(), token)
}

// VerifyCompactContext is [Verifier.VerifyCompact] with ctx bounding the
// wait on the key source: ctx is checked before VerifyOptions.KeyFunc or
// KeyFuncContext is called and passed to KeyFuncContext, and once it is
// done the call returns an error wrapping ctx.Err() (a KeyFunc, which
// takes no context, cannot be interrupted once called). With Key or Keys
// nothing waits and ctx is not consulted; the call then costs what
// VerifyCompact costs, with no allocation more. The methods without a
// context are these with context.Background().
func (v *Verifier) VerifyCompactContext(ctx context.Context, token []byte) (*Message, error) {
	m := new(Message)
	if err := v.verifyCompact(ctx, m, token, nil, false); err != nil {
		return nil, err
	}
	m.Payload = clip(m.Payload)
	return m, nil
}

// VerifyCompactInto verifies a JWS Compact Serialization (RFC 7515 §5.2,
// §7.1) as [Verifier.VerifyCompact] does, with the same checks, and stores
// the result in m, overwriting its previous contents. m.Payload reuses the
// capacity of m.Payload when it is large enough, and m.Header points to
// storage inside m: a caller that reuses one Message verifies without
// allocating once its buffer is warm (and the protected header is one the
// Verifier has seen). The previous m.Payload and *m.Header are then
// overwritten, so they must not be retained across calls; modifying
// *m.Header affects nothing else. token must not overlap m.Payload's
// buffer. m.Protected is m.Header (a compact JWS is protected as a whole).
// On error m.Payload has length 0 and m.Header, m.Protected and m.Chain
// are nil.
func (v *Verifier) VerifyCompactInto(m *Message, token []byte) error {
	return v.verifyCompact(context.Background(), m, token, nil, false)
}

// VerifyCompactIntoContext is [Verifier.VerifyCompactInto] with ctx
// bounding the wait on the key source, as [Verifier.VerifyCompactContext]
// says; with Key or Keys it allocates no more than VerifyCompactInto.
func (v *Verifier) VerifyCompactIntoContext(ctx context.Context, m *Message, token []byte) error {
	return v.verifyCompact(ctx, m, token, nil, false)
}

// splitCompact splits a compact JWS into its three segments with one pass
// over token: exactly two dots, or ok is false.
func splitCompact(token []byte) (h, p, s []byte, ok bool) {
	i := bytes.IndexByte(token, '.')
	if i < 0 {
		return nil, nil, nil, false
	}
	j := bytes.IndexByte(token[i+1:], '.')
	if j < 0 {
		return nil, nil, nil, false
	}
	j += i + 1
	if bytes.IndexByte(token[j+1:], '.') >= 0 {
		return nil, nil, nil, false
	}
	return token[:i], token[i+1 : j], token[j+1:], true
}

// verifyCompact verifies a compact JWS, with the payload detached if
// isDetached, into m, under ctx (see VerifyCompactContext); on error m is
// left empty.
func (v *Verifier) verifyCompact(ctx context.Context, m *Message, token, detached []byte, isDetached bool) error {
	err := v.verifyCompactInto(ctx, m, token, detached, isDetached)
	if err != nil {
		m.Payload, m.Header, m.Protected, m.Chain, m.hdr = m.Payload[:0], nil, nil, nil, jose.Header{}
	}
	return err
}

// verifyCompactInto is verifyCompact before the clean-up on error. With
// isDetached, m.Payload is set to detached, so m must be a fresh Message.
func (v *Verifier) verifyCompactInto(ctx context.Context, m *Message, token, detached []byte, isDetached bool) error {
	m.Header, m.Protected, m.Chain = nil, nil, nil
	if len(token) > v.lim.MaxTokenSize {
		return fmt.Errorf("jws: token of %d bytes exceeds %d: %w", len(token), v.lim.MaxTokenSize, jose.ErrLimitExceeded)
	}
	hseg, pseg, sseg, ok := splitCompact(token)
	if !ok {
		return fmt.Errorf("jws: compact serialization needs exactly three segments: %w", jose.ErrMalformed)
	}
	if len(hseg) == 0 {
		return fmt.Errorf("jws: empty protected header: %w", jose.ErrMalformed)
	}
	if isDetached && len(pseg) != 0 {
		return fmt.Errorf("jws: token carries a payload but a detached one was given: %w", jose.ErrMalformed)
	}
	// One buffer, m.Payload's if it is large enough, for the decoded
	// payload (at most len(pseg) bytes, whether encoded or not; a cached
	// header never has "b64": false, so then the payload is exactly its
	// decoded length), then the signature, then the header. The payload
	// comes first so that the buffer is m.Payload's on the next call.
	if err := v.checkProtectedSize(len(hseg)); err != nil {
		return err
	}
	hdrLen := b64enc.DecodedLen(len(hseg))
	payLen := len(pseg)
	cached := false
	if ch := v.headers.Get(hseg); ch != nil {
		// The caller gets a copy in m's storage: nothing it does to
		// *m.Header reaches the cache.
		m.hdr = *ch
		cached, hdrLen = true, 0
		payLen = b64enc.DecodedLen(len(pseg))
	}
	if isDetached {
		payLen = 0
	}
	sigLen := b64enc.DecodedLen(len(sseg))
	buf := m.Payload[:0]
	if need := payLen + sigLen + hdrLen; cap(buf) < need {
		buf = make([]byte, 0, need)
	}
	var parsed *jose.Header // the header parsed here, to cache once verified
	if !cached {
		// jose.ParseHeader copies what it keeps, so the decoded JSON may
		// be overwritten afterwards.
		// Parsed into m's storage: no Header is allocated, and the
		// cache copies it (hdrcache) once the token has verified.
		if _, err := v.decodeProtectedInto(&m.hdr, hseg, buf[payLen+sigLen:payLen+sigLen]); err != nil {
			return err
		}
		if err := v.checkHeaders(&m.hdr, nil); err != nil {
			return err
		}
		parsed = &m.hdr
	}
	h := &m.hdr
	unencoded := h.B64 != nil && !*h.B64
	// The signature and payload are decoded before the key source is
	// asked: a key function may be costly (an x5c chain, a KMS, a fetch),
	// and a token that is not base64url must cost none of it.
	sig, err := b64enc.AppendDecode(buf[payLen:payLen], sseg, jose.ErrMalformed)
	if err != nil {
		return fmt.Errorf("jws: signature: %w", err)
	}
	var payload, input []byte
	switch {
	case !isDetached && !unencoded:
		payload, err = b64enc.AppendDecode(buf[:0:payLen], pseg, jose.ErrMalformed)
		if err != nil {
			return fmt.Errorf("jws: payload: %w", err)
		}
		input = token[:len(hseg)+1+len(pseg)]
	case !isDetached:
		payload = append(buf[:0:payLen], pseg...)
		input = token[:len(hseg)+1+len(pseg)]
	default:
		payload = detached
		input = make([]byte, 0, len(hseg)+1+b64enc.EncodedLen(len(detached)))
		input = append(append(input, hseg...), '.')
		if unencoded {
			input = append(input, detached...)
		} else {
			input = b64enc.Append(input, detached)
		}
	}
	lookups := 0
	cands, err := v.candidates(ctx, &lookups, h)
	if err != nil {
		return err
	}
	budget := v.lim.MaxKeyAttempts
	if err := verifyWith(&cands, input, sig, &budget); err != nil {
		return err
	}
	if parsed != nil {
		v.headers.Authenticated(hseg, parsed)
	}
	if !isDetached {
		payload = buf[:len(payload)] // keep the whole buffer for the next call
	}
	m.Payload, m.Header, m.Protected, m.Chain = payload, h, h, cands.chain
	return nil
}
