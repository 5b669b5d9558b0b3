package main

import (
	"bytes"
	"encoding/json"
	"io"
	"runtime"
	"unicode"
	"unicode/utf8"
)

// What the command prints of a token (its headers, claims and payload, a
// kid) is what the token holds: text that a terminal would not show as
// it is, or would let rewrite what it shows, is escaped. Hidden are the
// C0 and C1 control characters and DEL (category Cc), the format
// characters (category Cf: the bidirectional controls U+061C, U+200E,
// U+200F, U+202A to U+202E and U+2066 to U+2069, and the invisible U+200B
// to U+200D, U+2060, U+FEFF, ...) and the line and paragraph separators
// U+2028 and U+2029 (categories Zl, Zp), and the other characters that
// Unicode says to show as nothing (Default_Ignorable_Code_Point): the
// variation selectors (U+FE00 to U+FE0F, U+E0100 to U+E01EF, U+180B to
// U+180D, U+180F), the combining grapheme joiner U+034F, the Hangul
// fillers U+115F, U+1160, U+3164 and U+FFA0, and the code points kept for
// such characters (U+2065, U+FFF0 to U+FFF8, U+E0000 to U+E0FFF). A
// right-to-left override in a "sub" would otherwise show "abc" as "cba",
// an escape sequence in a kid could clear the line it is on, and a kid
// "hs-1" followed by a variation selector would read as "hs-1". (An emoji
// with its presentation selector, U+2764 U+FE0F, is shown as
// "\u2764\ufe0f" in JSON and "❤\ufe0f" in a message.)

// hidden reports whether r is a character the command escapes: see above.
func hidden(r rune) bool {
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp,
		unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

// escapeJSON returns the JSON text data with each hidden character of its
// strings written as a \uXXXX escape (a surrogate pair beyond U+FFFF,
// RFC 8259 §7), and each byte that is not UTF-8 as \ufffd, the character
// a decoder reads it as: the result is JSON that decodes to the same
// values. data must be valid JSON (json.Valid); outside its strings, it
// holds only ASCII, which is kept, except a carriage return (whitespace
// between values, which would move the cursor back over what is shown):
// it is dropped before a line feed and becomes one elsewhere.
func escapeJSON(data []byte) []byte {
	i := bytes.IndexFunc(data, func(r rune) bool { return r >= utf8.RuneSelf || r == 0x7f || r == '\r' })
	if i < 0 {
		return data // ASCII without DEL or CR: a control character is escaped in valid JSON strings
	}
	out := append(make([]byte, 0, len(data)+16), data[:i]...)
	for i < len(data) {
		c := data[i]
		if c == '\r' { // only outside strings in valid JSON
			if i+1 >= len(data) || data[i+1] != '\n' {
				out = append(out, '\n')
			}
			i++
			continue
		}
		if c < utf8.RuneSelf && c != 0x7f {
			out = append(out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, `\ufffd`...)
		case hidden(r):
			out = appendUEscape(out, r)
		default:
			out = append(out, data[i:i+size]...)
		}
		i += size
	}
	return out
}

// appendUEscape appends r as JSON's \uXXXX, or the surrogate pair of a
// character beyond the Basic Multilingual Plane (RFC 8259 §7).
func appendUEscape(b []byte, r rune) []byte {
	if r <= 0xffff {
		return appendHex(b, `\u`, uint32(r), 4)
	}
	r -= 0x10000
	return appendHex(appendHex(b, `\u`, uint32(0xd800+r>>10), 4), `\u`, uint32(0xdc00+r&0x3ff), 4)
}

// escapeText returns the text p as "jose verify" and "jose decrypt" show
// a payload that is not JSON on a terminal: line breaks and tabs kept (a
// carriage return too, before a line feed), every other hidden character
// and every byte that is not UTF-8 escaped as Go quotes them: \x1b for an
// ASCII control character or DEL, \u202e (\U000e0001 beyond U+FFFF) for
// another, \xff for a byte that is not UTF-8. A backslash is kept: the
// result is for reading, not for decoding.
func escapeText(p []byte) []byte {
	return appendEscaped(make([]byte, 0, len(p)), p, true)
}

// appendEscaped appends p to b, escaped as escapeText says; without
// breaks, line breaks, carriage returns and tabs are escaped too (\n, \r,
// \t).
func appendEscaped(b, p []byte, breaks bool) []byte {
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = appendHex(b, `\x`, uint32(p[i]), 2)
		case breaks && (r == '\n' || r == '\t' || r == '\r' && i+1 < len(p) && p[i+1] == '\n'):
			b = append(b, p[i])
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case !hidden(r):
			b = append(b, p[i:i+size]...)
		case r < utf8.RuneSelf:
			b = appendHex(b, `\x`, uint32(r), 2)
		case r <= 0xffff:
			b = appendHex(b, `\u`, uint32(r), 4)
		default:
			b = appendHex(b, `\U`, uint32(r), 8)
		}
		i += size
	}
	return b
}

// appendHex appends prefix and v in n lowercase hexadecimal digits.
func appendHex(b []byte, prefix string, v uint32, n int) []byte {
	const hex = "0123456789abcdef"
	b = append(b, prefix...)
	for shift := 4 * (n - 1); shift >= 0; shift -= 4 {
		b = append(b, hex[v>>shift&15])
	}
	return b
}

// safeLine returns the message msg with each hidden character (a line
// break too: a message is one line) and each byte that is not UTF-8
// escaped as escapeText escapes them. The command quotes what a token
// or a file gave (untrusted.Quote) where it names it; this is the last
// guard, applied to every line of a message it writes, so that no text
// from a token reaches the terminal as it is.
func safeLine(msg string) string {
	for _, r := range msg {
		if r == utf8.RuneError || hidden(r) {
			return string(appendEscaped(make([]byte, 0, len(msg)+8), []byte(msg), false))
		}
	}
	return msg
}

// writePayload writes a verified payload or a decrypted plaintext p: as
// it is to a pipe or a file, or when raw; to a terminal, escaped so that
// what is shown is what p holds: JSON with escapeJSON (the same JSON,
// decoding to the same values), other text with escapeText.
func writePayload(s *streams, p []byte, raw bool) error {
	if !raw && s.isTerminal(s.stdout) {
		if utf8.Valid(p) && json.Valid(p) {
			p = escapeJSON(p)
		} else {
			p = escapeText(p)
		}
	}
	_, err := s.stdout.Write(p)
	return err
}

// rawUsage is the text of the --raw flag of verify and decrypt, what
// they write.
func rawUsage(what string) string {
	return "write " + what + "'s bytes as they are, to a terminal too (to a pipe or a file they always are)"
}

// isTerminal reports whether v, the standard input or output of the run,
// is a terminal, as s.terminal says; false when s.terminal is nil.
func (s *streams) isTerminal(v any) bool {
	return s.terminal != nil && s.terminal(v)
}

// stdinNotice tells, on standard error, that the command reads what (the
// token, the key, ...) from standard input when that is a terminal, where
// it would otherwise wait without a word. fromArg says that the command's
// argument, not given, is what is read: the notice then says how to give
// it. A secret typed on a terminal is shown, and its final line break is
// part of it: the notice says so.
func stdinNotice(s *streams, what string, fromArg bool) {
	if !s.isTerminal(s.stdin) {
		return
	}
	end := endOfInput()
	msg := "jose: reading " + what + " from standard input (end with " + end + ")"
	switch {
	case what == whatSecret:
		msg += "; the terminal shows what you type, and a line break before " + end + " is part of the secret"
	case fromArg && what == whatToken:
		msg += "; give it, or its file, as an argument to skip this"
	case fromArg:
		msg += "; give its file as an argument to skip this"
	}
	io.WriteString(s.stderr, msg+"\n")
}

// endOfInput is the keys that end standard input on a terminal of this
// system.
func endOfInput() string {
	if runtime.GOOS == "windows" {
		return "Ctrl-Z and Enter"
	}
	return "Ctrl-D"
}

// What the command reads, as stdinNotice names it.
const (
	whatToken       = "the token"
	whatKey         = "the key"
	whatSet         = "the JWK Set"
	whatKeyOrSet    = "the key or JWK Set"
	whatSecret      = "the secret"
	whatPayload     = "the payload"
	whatPlaintext   = "the plaintext"
	whatAccessToken = "the access token"
)
