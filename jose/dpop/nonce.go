package dpop

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"time"

	"github.com/josebench/josebench/jose"
)

// NonceSource supplies the nonces a server requires in proofs (RFC 9449
// §8, §9). With one set (VerifierOptions.Nonces), a proof without a
// "nonce", or with one Valid refuses, is refused with [CodeUseNonce] and
// [Error].Nonce set to Nonce's value, for the DPoP-Nonce response header
// (§8.1). Implementations must be safe for concurrent use; an error of
// either method refuses the proof, and is returned as is (not as an *Error).
//
// A Verifier asks both methods before the proof's signature is verified
// (Verifier.Check: the cheap checks first), so that anyone may make it ask
// them, about any nonce: Valid must only tell, and change nothing (a
// source that consumed a nonce on Valid would have it consumed by a
// forged proof), and both should cost little, as RotatingNonces' do.
type NonceSource interface {
	// Nonce returns the nonce clients should use now.
	Nonce(ctx context.Context) (string, error)
	// Valid reports whether a proof's nonce is acceptable now.
	Valid(ctx context.Context, nonce string) (bool, error)
}

// DefaultNoncePeriod is the period of a [RotatingNonces] made with period 0:
// a new nonce every 5 minutes, the previous one still accepted.
const DefaultNoncePeriod = 5 * time.Minute

// RotatingNonces is a stateless NonceSource: the nonce of each period is
// the period's number and an HMAC-SHA-256 of it under a secret, so
// servers sharing the secret agree without sharing state. The nonce of the
// current period and of the previous one are valid; a nonce is 32
// base64url characters, within the syntax of §8.1.
type RotatingNonces struct {
	key    []byte
	period time.Duration
	now    func() time.Time
}

var _ NonceSource = (*RotatingNonces)(nil)

// NewRotatingNonces returns a RotatingNonces with secret (at least 32
// bytes; nil for a random one, of this process only), a new nonce every
// period (DefaultNoncePeriod when 0) and the clock now (time.Now when nil).
func NewRotatingNonces(secret []byte, period time.Duration, now func() time.Time) (*RotatingNonces, error) {
	switch {
	case secret == nil:
		secret = make([]byte, 32)
		rand.Read(secret)
	case len(secret) < 32:
		return nil, errors.New("dpop: nonce secret shorter than 32 bytes")
	}
	if period == 0 {
		period = DefaultNoncePeriod
	}
	if period < time.Second {
		return nil, errors.New("dpop: nonce period shorter than a second")
	}
	if now == nil {
		now = time.Now
	}
	return &RotatingNonces{key: append([]byte(nil), secret...), period: period, now: now}, nil
}

func (r *RotatingNonces) slot() uint64 {
	return uint64(r.now().UnixNano()) / uint64(r.period)
}

func (r *RotatingNonces) make(slot uint64) []byte {
	var b [8 + 16]byte
	binary.BigEndian.PutUint64(b[:8], slot)
	m := hmac.New(sha256.New, r.key)
	m.Write(b[:8])
	copy(b[8:], m.Sum(nil))
	return b[:]
}

// Nonce implements NonceSource: the nonce of the current period.
func (r *RotatingNonces) Nonce(context.Context) (string, error) {
	return jose.Base64URLEncode(r.make(r.slot())), nil
}

// Valid implements NonceSource: nonce is the current period's or the
// previous one's, compared in constant time.
func (r *RotatingNonces) Valid(_ context.Context, nonce string) (bool, error) {
	if len(nonce) != 32 {
		return false, nil
	}
	b, err := jose.Base64URLDecode(nonce)
	if err != nil || len(b) != 24 {
		return false, nil
	}
	s, cur := binary.BigEndian.Uint64(b[:8]), r.slot()
	if s != cur && s+1 != cur {
		return false, nil
	}
	return hmac.Equal(b, r.make(s)), nil
}
