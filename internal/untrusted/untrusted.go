// Package untrusted formats text that an attacker controls (a member name,
// a kid, an alg, a claim value) for an error message, so that no input can
// make an error, and the log line it becomes, longer than a few hundred
// bytes.
//
// It is the one place the packages of this module (jose and its
// subpackages, cmd/jose) quote such text: an error that names a part of
// its input quotes it with [Quote], and an error of another package that
// may repeat its input is bounded with [Error].
package untrusted

import (
	"strconv"
	"unicode/utf8"
)

// MaxQuoted is the most bytes of the text [Quote] shows.
const MaxQuoted = 64

// Quote returns s quoted and escaped as strconv.Quote (and the %q verb of
// package fmt) does. Text of more than [MaxQuoted] bytes is cut to at most
// that many bytes, at a UTF-8 character boundary, marked "…" inside the
// quotes and followed by its length:
//
//	"kid"
//	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…" (600000 bytes)
//
// The result is at most 4·MaxQuoted+30 bytes (every byte escaped as \xNN).
func Quote[T ~string | ~[]byte](s T) string {
	if len(s) <= MaxQuoted {
		return strconv.Quote(string(s))
	}
	// A valid text is cut into a valid prefix; an invalid one is escaped
	// byte by byte anyway.
	q := strconv.Quote(string(s[:cut(s, MaxQuoted)]))
	return q[:len(q)-1] + `…" (` + strconv.Itoa(len(s)) + " bytes)"
}

// MaxErrorText is the most bytes of another package's error text that
// [Error] keeps.
const MaxErrorText = 256

// Error returns err, or, when the text of err is longer than
// [MaxErrorText] bytes, an error that wraps err (for [errors.Is] and
// [errors.As]) and reads as the first bytes of its text, cut at a UTF-8
// character boundary, followed by "… (N bytes)". It is for the errors of
// other packages that may repeat their input (encoding/json, time,
// crypto/x509, a caller's json.Unmarshaler), where [Quote] cannot be
// applied to the part that came from the input. A nil err is nil.
func Error(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if len(msg) <= MaxErrorText {
		return err
	}
	return &cutError{msg: msg[:cut(msg, MaxErrorText)] + "… (" + strconv.Itoa(len(msg)) + " bytes)", err: err}
}

// cutError is an error whose text was cut by Error.
type cutError struct {
	msg string
	err error
}

func (e *cutError) Error() string { return e.msg }
func (e *cutError) Unwrap() error { return e.err }

// cut returns the length of the longest prefix of s of at most n bytes
// (n < len(s)) that does not end inside a UTF-8 character: it backs off to
// the start of the character that straddles the cut, at most
// utf8.UTFMax-1 bytes.
func cut[T ~string | ~[]byte](s T, n int) int {
	for i := n; i >= n-(utf8.UTFMax-1); i-- {
		if utf8.RuneStart(s[i]) {
			return i
		}
	}
	return n
}
