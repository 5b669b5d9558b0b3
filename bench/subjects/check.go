package subjects

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/jose"
)

// The checks every variant passes before it is timed, so that a library
// that accepts anything (a MAC comparison that always says equal, a
// decrypter that skips the tag) is an error, not a number.
const (
	CheckRoundTrip        = "round trip"         // the good token loads and gives back the input
	CheckFlippedSignature = "flipped signature"  // one bit flipped in the JWS signature: ErrVerificationFailed
	CheckFlippedPayload   = "flipped payload"    // one bit flipped in the JWS payload: ErrVerificationFailed
	CheckFlippedTag       = "flipped tag"        // one bit flipped in the JWE authentication tag: ErrDecryptionFailed
	CheckFlippedContent   = "flipped ciphertext" // one bit flipped in the JWE ciphertext: ErrDecryptionFailed
	CheckOtherKey         = "other key"          // the token under another key of the same type: refused
)

// CheckError is a variant that failed one of the checks made before timing.
type CheckError struct {
	Check string // one of the Check constants
	Err   error  // what went wrong
}

// Error names the check and the failure.
func (e *CheckError) Error() string { return "subjects: check " + e.Check + ": " + e.Err.Error() }

// Unwrap returns the failure.
func (e *CheckError) Unwrap() error { return e.Err }

// errAccepted reports a tampered token, or one under the wrong key, that
// loaded.
var errAccepted = errors.New("the token was accepted")

// jwsPair is what a JWS variant is measured and checked through.
type jwsPair struct {
	ser         string     // bench.SerializationCompact or bench.SerializationJSON
	sign        signFunc   // makes a token
	verify      verifyFunc // loads a token
	verifyOther verifyFunc // loads a token for the same algorithm under another key of the same type
}

// jwePair is what a JWE variant is measured and checked through.
type jwePair struct {
	ser          string
	encrypt      encryptFunc
	decrypt      decryptFunc
	decryptOther decryptFunc // decrypts for the same algorithms with another key of the same type
	// noTag: the token has no separate tag (HPKE Integrated Encryption:
	// the HPKE tag ends the ciphertext, which the ciphertext check flips).
	noTag bool
}

// check runs the JWS checks on a fresh token.
func (p *jwsPair) check(payload []byte) error {
	tok, err := p.sign(payload)
	if err != nil {
		return &CheckError{CheckRoundTrip, err}
	}
	got, err := p.verify(tok)
	if err != nil {
		return &CheckError{CheckRoundTrip, err}
	}
	if !bytes.Equal(got, payload) {
		return &CheckError{CheckRoundTrip, errMismatch}
	}
	refused := func(check string, load verifyFunc, tok []byte) error {
		_, err := load(tok)
		return want(check, err, jose.ErrVerificationFailed, "jose.ErrVerificationFailed")
	}
	for _, c := range []struct {
		check, member string
		segment       int
	}{{CheckFlippedSignature, "signature", 2}, {CheckFlippedPayload, "payload", 1}} {
		bad, err := flip(tok, p.ser, c.segment, c.member)
		if err != nil {
			return &CheckError{c.check, err}
		}
		if err := refused(c.check, p.verify, bad); err != nil {
			return err
		}
	}
	return refused(CheckOtherKey, p.verifyOther, tok)
}

// check runs the JWE checks on a fresh token.
func (p *jwePair) check(plaintext, aad []byte) error {
	tok, err := p.encrypt(plaintext)
	if err != nil {
		return &CheckError{CheckRoundTrip, err}
	}
	got, gotAAD, err := p.decrypt(tok)
	if err != nil {
		return &CheckError{CheckRoundTrip, err}
	}
	if !bytes.Equal(got, plaintext) || !bytes.Equal(gotAAD, aad) {
		return &CheckError{CheckRoundTrip, errMismatch}
	}
	refused := func(check string, load decryptFunc, tok []byte) error {
		_, _, err := load(tok)
		return want(check, err, jose.ErrDecryptionFailed, "jose.ErrDecryptionFailed")
	}
	for _, c := range []struct {
		check, member string
		segment       int
	}{{CheckFlippedTag, "tag", 4}, {CheckFlippedContent, "ciphertext", 3}} {
		if c.check == CheckFlippedTag && p.noTag {
			continue
		}
		bad, err := flip(tok, p.ser, c.segment, c.member)
		if err != nil {
			return &CheckError{c.check, err}
		}
		if err := refused(c.check, p.decrypt, bad); err != nil {
			return err
		}
	}
	return refused(CheckOtherKey, p.decryptOther, tok)
}

// want returns nil when err is the sentinel, else the CheckError of check.
func want(check string, err, sentinel error, name string) error {
	switch {
	case err == nil:
		return &CheckError{check, errAccepted}
	case !errors.Is(err, sentinel):
		return &CheckError{check, fmt.Errorf("refused with %q, not %s", err, name)}
	}
	return nil
}

// flip returns a copy of tok with the lowest bit of the last byte of one
// part flipped: segment i of a compact token, or member of a flattened
// JSON one. The part is decoded, changed and encoded again, so that the
// token stays well-formed and only its cryptography can refuse it.
func flip(tok []byte, ser string, segment int, member string) ([]byte, error) {
	flipped := func(enc string) (string, error) {
		raw, err := base64.RawURLEncoding.DecodeString(enc)
		if err != nil || len(raw) == 0 {
			return "", fmt.Errorf("the token's %s is not base64url or is empty", member)
		}
		raw[len(raw)-1] ^= 1
		return base64.RawURLEncoding.EncodeToString(raw), nil
	}
	if ser == bench.SerializationJSON {
		var m map[string]json.RawMessage
		var s string
		if err := json.Unmarshal(tok, &m); err != nil {
			return nil, fmt.Errorf("the token is not a JSON object: %w", err)
		}
		if err := json.Unmarshal(m[member], &s); err != nil {
			return nil, fmt.Errorf("the token has no %q string", member)
		}
		s, err := flipped(s)
		if err != nil {
			return nil, err
		}
		m[member], _ = json.Marshal(s)
		return json.Marshal(m)
	}
	segs := bytes.Split(tok, []byte("."))
	if segment >= len(segs) {
		return nil, fmt.Errorf("the token has %d segments, not %d", len(segs), segment+1)
	}
	s, err := flipped(string(segs[segment]))
	if err != nil {
		return nil, err
	}
	segs[segment] = []byte(s)
	return bytes.Join(segs, []byte(".")), nil
}
