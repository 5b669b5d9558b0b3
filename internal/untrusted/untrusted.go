// Package untrusted formats text that an attacker controls (a member name,
// a kid, an alg, a claim value) for an error message, so that no input can
// make an error, and the log line it becomes, longer than a few hundred
// bytes.
//
// It is the one place the packages of this module (jose and its
// subpackages, cmd/jose) quote such text: an error that names a part of
// its input quotes it with [Quote] (a list of such texts, [QuoteList]),
// and an error of another package that may repeat its input is bounded
// and escaped with [Error].
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
// [MaxErrorText] bytes or holds a character that is not printable, an
// error that wraps err (for [errors.Is] and [errors.As]) and reads as its
// text with what is not printable escaped as [Quote] escapes it (a
// control character, a bidirectional override, a byte of invalid UTF-8:
// \x1b, \u202e, \xff), cut after at most MaxErrorText bytes and followed
// by "… (N bytes)" when it is longer. It is for the errors of other
// packages that may repeat their input (encoding/json, time, crypto/x509,
// net/http, a caller's json.Unmarshaler), where Quote cannot be applied to
// the part that came from the input. A nil err is nil.
func Error(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if len(msg) <= MaxErrorText && printable(msg) {
		return err
	}
	text, cut := escape(msg, MaxErrorText)
	if cut {
		text += "… (" + strconv.Itoa(len(msg)) + " bytes)"
	}
	return &cutError{msg: text, err: err}
}

// printable reports whether s is valid UTF-8 of printable characters
// only (strconv.IsPrint).
func printable(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || !strconv.IsPrint(r) {
			return false
		}
	}
	return true
}

// escape returns the longest prefix of s, with what is not printable
// escaped as strconv.Quote escapes it, that fits in max bytes (an escape
// whole or not at all), and whether that is not all of s.
func escape(s string, max int) (string, bool) {
	b := make([]byte, 0, min(len(s), max))
	var esc []byte
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		piece := s[i : i+size]
		switch {
		case r == utf8.RuneError && size == 1:
			piece = `\x` + strconv.FormatUint(uint64(s[i])>>4, 16) + strconv.FormatUint(uint64(s[i])&15, 16)
		case !strconv.IsPrint(r):
			esc = strconv.AppendQuoteRune(esc[:0], r)
			piece = string(esc[1 : len(esc)-1]) // without the single quotes
		}
		if len(b)+len(piece) > max {
			return string(b), true
		}
		b = append(b, piece...)
		i += size
	}
	return string(b), false
}

// cutError is an error whose text was cut by Error.
type cutError struct {
	msg string
	err error
}

func (e *cutError) Error() string { return e.msg }
func (e *cutError) Unwrap() error { return e.err }

// MaxListText is the length past which [QuoteList] shows no further
// value.
const MaxListText = 4*MaxQuoted + 32

// MaxListed is the most values [QuoteList] shows.
const MaxListed = 4

// QuoteList returns vals as the %q verb of package fmt formats a
// []string, each value quoted by [Quote]: ["sign" "verify"]. It shows at
// most [MaxListed] values, and fewer when they are long: after the first,
// a value is shown only while the text stays within [MaxListText] bytes.
// The values left out are counted: ["a" "b" "c" "d" … (64 values)]. The
// result is at most MaxListText bytes and the count, whatever vals holds.
func QuoteList[T ~string](vals []T) string {
	b := make([]byte, 0, 64)
	b = append(b, '[')
	for i, v := range vals {
		q := Quote(v)
		if i == MaxListed || i > 0 && len(b)+1+len(q) > MaxListText {
			b = append(b, " … ("...)
			b = strconv.AppendInt(b, int64(len(vals)), 10)
			b = append(b, " values)"...)
			break
		}
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, q...)
	}
	return string(append(b, ']'))
}

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
