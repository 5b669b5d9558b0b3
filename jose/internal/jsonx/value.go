package jsonx

import (
	"math"
	"math/bits"
	"unicode/utf8"

	"github.com/josebench/josebench/internal/untrusted"
)

// The decoders below take one raw JSON value, without surrounding
// whitespace, as [ScanObject] and [ScanArray] yield it. They validate it
// completely themselves, so they are safe on any input.

// StringBytes decodes the JSON string raw (RFC 8259 §7). When raw contains
// no escape, the result is a subslice of raw and nothing is allocated.
func StringBytes(raw []byte) ([]byte, error) {
	if len(raw) == 0 || raw[0] != '"' {
		return nil, &TypeError{Want: "string", Got: KindOf(raw)}
	}
	s := scanner{data: raw}
	escaped, err := s.str()
	if err != nil {
		return nil, err
	}
	if s.pos != len(raw) {
		return nil, s.syntax(s.pos, "trailing data after the string")
	}
	content := raw[1 : len(raw)-1]
	if !escaped {
		return content, nil
	}
	return appendUnescaped(make([]byte, 0, len(content)), content), nil
}

// String decodes the JSON string raw (RFC 8259 §7).
func String(raw []byte) (string, error) {
	b, err := StringBytes(raw)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// StringArray decodes raw, a JSON array whose elements are all strings
// (RFC 8259 §5). An empty array gives a non-nil empty slice.
func StringArray(raw []byte) ([]string, error) {
	if len(raw) == 0 || raw[0] != '[' {
		return nil, &TypeError{Want: "array of strings", Got: KindOf(raw)}
	}
	// First pass: validate (depth 1: nested containers are
	// refused below) and count, so the result is allocated once.
	n := 0
	err := ScanArray(raw, Limits{MaxDepth: 1}, func(elem []byte) error {
		if elem[0] != '"' {
			return &TypeError{Want: "array of strings", Got: KindArray}
		}
		n++
		return nil
	})
	if err != nil {
		if _, ok := err.(*LimitError); ok {
			return nil, &TypeError{Want: "array of strings", Got: KindArray}
		}
		return nil, err
	}
	out := make([]string, 0, n)
	_ = ScanArray(raw, Limits{MaxDepth: 1}, func(elem []byte) error {
		s, err := String(elem)
		out = append(out, s)
		return err // nil: validated above
	})
	return out, nil
}

// Int64 decodes raw, a JSON number that is an integer: no fraction and no
// exponent ("1.0" and "1e3" are refused with a [*TypeError]), within the
// range of int64 (else a [*RangeError]). "-0" is 0.
func Int64(raw []byte) (int64, error) {
	if KindOf(raw) != KindNumber {
		return 0, &TypeError{Want: "integer", Got: KindOf(raw)}
	}
	s := scanner{data: raw}
	if err := s.number(); err != nil {
		return 0, err
	}
	if s.pos != len(raw) {
		return 0, s.syntax(s.pos, "trailing data after the number")
	}
	digits := raw
	neg := raw[0] == '-'
	if neg {
		digits = raw[1:]
	}
	var u uint64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, &TypeError{Want: "integer", Got: KindNumber}
		}
		if u > (math.MaxUint64-9)/10 {
			return 0, rangeError(raw, "int64")
		}
		u = u*10 + uint64(c-'0')
	}
	if neg {
		if u > 1<<63 {
			return 0, rangeError(raw, "int64")
		}
		return -int64(u), nil // -(1<<63) wraps to itself, as wanted
	}
	if u > math.MaxInt64 {
		return 0, rangeError(raw, "int64")
	}
	return int64(u), nil
}

// Int decodes raw as [Int64] does, within the range of int.
func Int(raw []byte) (int, error) {
	v, err := Int64(raw)
	if err != nil {
		if re, ok := err.(*RangeError); ok {
			re.Type = "int"
		}
		return 0, err
	}
	if int64(int(v)) != v {
		return 0, rangeError(raw, "int")
	}
	return int(v), nil
}

func rangeError(raw []byte, typ string) error {
	return &RangeError{Number: untrusted.Quote(raw), Type: typ}
}

// Bool decodes raw, the literal true or false (RFC 8259 §3).
func Bool(raw []byte) (bool, error) {
	switch string(raw) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	if KindOf(raw) == KindBool {
		return false, &SyntaxError{Offset: 0, Msg: "invalid literal"}
	}
	return false, &TypeError{Want: "boolean", Got: KindOf(raw)}
}

// IsNull reports whether raw is the literal null.
func IsNull(raw []byte) bool { return string(raw) == "null" }

// appendUnescaped appends the unescaped content of a string whose content
// (without quotes) was validated by scanner.str.
func appendUnescaped(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			j := i + 1
			for j < len(s) && s[j] != '\\' {
				j++
			}
			dst = append(dst, s[i:j]...)
			i = j
			continue
		}
		switch s[i+1] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, _ := hex4(s, i+2)
			if 0xd800 <= r && r <= 0xdbff {
				r2, _ := hex4(s, i+8)
				r = 0x10000 + (r-0xd800)<<10 + (r2 - 0xdc00)
				i += 6
			}
			dst = utf8.AppendRune(dst, r)
			i += 6
			continue
		default: // '"', '\\', '/'
			dst = append(dst, s[i+1])
		}
		i += 2
	}
	return dst
}

const hexDigits = "0123456789abcdef"

// AppendString appends s to dst as a JSON string (RFC 8259 §7): '"', '\\'
// and control characters are escaped (as \b, \f, \n, \r, \t or \u00XX),
// everything else is written as is. Invalid UTF-8 in s is replaced by
// U+FFFD, so the output is always valid JSON. Nothing is escaped for HTML.
func AppendString[T string | []byte](dst []byte, s T) []byte {
	// The common case: s is plain bytes only. Check s itself eight
	// bytes at a time, then copy its plain prefix and escape the rest.
	// (Checking the copy instead would read back, at other offsets and
	// widths, what memmove has just stored: loads the store buffer
	// cannot forward, which made the check cost more than the copy.
	// A fused loop, each word checked and then stored with PutUint64,
	// costs more still: its bounds checks and the constants of special8,
	// rematerialized at each word, made BenchmarkStepsApart/encode of
	// the jwt package 1,927 to 2,369 instructions instead of 1,860,
	// 2026-12-04.)
	i := plainPrefix(s)
	dst = append(dst, '"')
	dst = append(dst, s[:i]...)
	if i == len(s) {
		return append(dst, '"')
	}
	return appendEscaped(dst, s[i:])
}

// plainPrefix returns the length of the longest prefix of s made of plain
// bytes (see plain), eight at a time; the last bytes, fewer than eight, as
// the last word of s shifted, the zeros shifted in marked as control
// characters, so that a first mark past the end means none.
func plainPrefix[T string | []byte](s T) int {
	t := s
	for ; len(t) >= 8; t = t[8:] {
		if m := special8(word8(t)); m != 0 {
			return len(s) - len(t) + bits.TrailingZeros64(m)>>3
		}
	}
	if len(t) > 0 && len(s) >= 8 {
		m := special8(word8(s[len(s)-8:]) >> (64 - 8*len(t)))
		return min(len(s)-len(t)+bits.TrailingZeros64(m)>>3, len(s))
	}
	for len(t) > 0 && plain[t[0]] {
		t = t[1:]
	}
	return len(s) - len(t)
}

// word8 returns the first eight bytes of s, little-endian, with one
// bounds check.
func word8[T string | []byte](s T) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// appendEscaped appends s, escaped, and the closing quote (see
// AppendString).
func appendEscaped[T string | []byte](dst []byte, s T) []byte {
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) && special8(load64(s, i)) == 0 {
			i += 8
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		var buf [utf8.UTFMax]byte
		n := copy(buf[:], s[i:])
		r, size := utf8.DecodeRune(buf[:n])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\uFFFD"...)
			i++
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// load64 returns the eight bytes of s at i, little-endian.
func load64[T string | []byte](s T, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}
