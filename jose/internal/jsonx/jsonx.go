// Package jsonx is the strict JSON reader and writer of the jose packages.
//
// It reads JSON texts as RFC 8259 defines them, and refuses everything the
// RFC leaves to implementations or that an attacker could use to make two
// parsers disagree:
//
//   - Object member names must be unique (RFC 8259 §4 says SHOULD; RFC 7515
//     §5.2 and RFC 7516 §5.2 require JOSE Headers to be refused otherwise).
//     Names are compared after unescaping, so "a" and "\u0061" are the same
//     name. Every object is checked, at any depth.
//   - Strings must be valid UTF-8 (RFC 8259 §8.1) with no unescaped control
//     character (§7), and escapes must be among those of §7. An escaped
//     surrogate must be part of a valid pair: a lone surrogate such as
//     "\ud800" is refused, as I-JSON (RFC 7493 §2.1) requires.
//   - Numbers follow the grammar of RFC 8259 §6 exactly (no leading zeros,
//     no "+", no bare "."); [Int64] and [Int] further accept only integers
//     (no fraction or exponent) within range.
//   - A text is one value with optional whitespace around it (RFC 8259 §2);
//     a byte order mark or any trailing data is refused.
//
// Nesting depth and the number of members of every object are bounded by
// [Limits], checked while scanning, so a deeply nested value or an object of
// 100,000 members is refused early with bounded memory. Scanning allocates
// nothing, except for objects of more than 16 members (whose names go into a
// map, so duplicate detection stays linear) and for member names containing
// escapes.
//
// Errors are [*SyntaxError], [*DuplicateError], [*LimitError], [*TypeError]
// and [*RangeError]; callers (jose, jws, jwe) wrap them in their own
// sentinel errors. Their texts carry no package prefix: this package is
// internal, and its errors reach a user only under the context a caller
// gives them (`jose: header member "kid": must be a string, not a number`).
package jsonx

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/josebench/josebench/internal/untrusted"
)

// Default limits, used for zero or negative [Limits] fields.
const (
	DefaultMaxDepth   = 32  // nesting depth of containers
	DefaultMaxMembers = 256 // members of one object
)

// smallObject is the number of members of an object whose names are
// checked for duplicates by linear search; larger objects use a map.
const smallObject = 16

// Limits bounds the work spent on one JSON text. A zero or negative field
// means its default.
type Limits struct {
	// MaxDepth is the deepest nesting of objects and arrays: the top-level
	// object or array is at depth 1 (DefaultMaxDepth).
	MaxDepth int
	// MaxMembers is the largest number of members of any one object, at any
	// depth (DefaultMaxMembers). Arrays are not counted: scanning them
	// allocates nothing, and their size is bounded by the input's.
	MaxMembers int
}

func (l Limits) withDefaults() Limits {
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxMembers <= 0 {
		l.MaxMembers = DefaultMaxMembers
	}
	return l
}

// Member is one member of a JSON object (RFC 8259 §4).
type Member struct {
	Name  string // the name, unescaped
	Value []byte // the raw JSON value, a subslice of the parsed data
}

// SyntaxError reports a text that is not JSON as RFC 8259 defines it, or
// that this package refuses (see the package documentation).
type SyntaxError struct {
	Offset int    // byte offset of the error in the scanned data
	Msg    string // what is wrong
}

// Error implements the error interface.
func (e *SyntaxError) Error() string {
	return "invalid JSON: " + e.Msg + " at offset " + strconv.Itoa(e.Offset)
}

// DuplicateError reports an object with two members of the same name
// (RFC 8259 §4, RFC 7515 §5.2).
type DuplicateError struct {
	Name   string // the name, unescaped
	Offset int    // byte offset of the second occurrence
}

// Error implements the error interface.
func (e *DuplicateError) Error() string {
	return "duplicate member name " + untrusted.Quote(e.Name) + " at offset " + strconv.Itoa(e.Offset)
}

// LimitError reports a text beyond a [Limits] bound.
type LimitError struct {
	Limit  string // "depth" or "members"
	Max    int    // the bound in force
	Offset int    // byte offset where it was exceeded
}

// Error implements the error interface.
func (e *LimitError) Error() string {
	if e.Limit == "depth" {
		return "nesting deeper than " + strconv.Itoa(e.Max) + " at offset " + strconv.Itoa(e.Offset)
	}
	return "object with more than " + strconv.Itoa(e.Max) + " members at offset " + strconv.Itoa(e.Offset)
}

// TypeError reports a valid JSON value of the wrong type for a decoder.
type TypeError struct {
	Want string // what the decoder accepts, e.g. "string", "integer"
	Got  Kind   // what the value is
}

// Error implements the error interface.
func (e *TypeError) Error() string {
	switch e.Got {
	case KindInvalid:
		return "must be " + withArticle(e.Want) + "; the text is not JSON"
	case KindNull:
		return "must be " + withArticle(e.Want) + ", not null"
	case KindNumber:
		if e.Want == "integer" { // 1.5, 1e3: a number, but not an integer
			return "must be an integer, without fraction or exponent"
		}
	case KindArray:
		if elem, ok := strings.CutPrefix(e.Want, "array of "); ok { // ["a", 1]
			return "must be an array of " + elem + "; one of its elements is not"
		}
	}
	return "must be " + withArticle(e.Want) + ", not " + withArticle(e.Got.String())
}

// withArticle prefixes the name of a kind of value with "a" or "an".
func withArticle(name string) string {
	if name != "" && (name[0] == 'a' || name[0] == 'e' || name[0] == 'i' || name[0] == 'o' || name[0] == 'u') {
		return "an " + name
	}
	return "a " + name
}

// RangeError reports an integer outside the range of the decoder's type.
type RangeError struct {
	Number string // the number as written, quoted and cut by untrusted.Quote
	Type   string // "int64" or "int"
}

// Error implements the error interface.
func (e *RangeError) Error() string {
	return "number " + e.Number + " out of range of " + e.Type
}

// Kind is the type of a JSON value (RFC 8259 §3).
type Kind uint8

// The kinds of JSON values.
const (
	KindInvalid Kind = iota
	KindNull
	KindBool
	KindNumber
	KindString
	KindArray
	KindObject
)

var kindNames = [...]string{"invalid JSON", "null", "boolean", "number", "string", "array", "object"}

// String returns the kind's name, as used in error messages.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid JSON"
}

// KindOf returns the kind of the raw JSON value raw from its first byte; it
// does not validate the rest. It returns KindInvalid for an empty value or one
// that cannot begin a JSON value.
func KindOf(raw []byte) Kind {
	if len(raw) == 0 {
		return KindInvalid
	}
	switch c := raw[0]; {
	case c == 'n':
		return KindNull
	case c == 't' || c == 'f':
		return KindBool
	case c == '-' || '0' <= c && c <= '9':
		return KindNumber
	case c == '"':
		return KindString
	case c == '[':
		return KindArray
	case c == '{':
		return KindObject
	}
	return KindInvalid
}

// scanner validates one JSON text; pos is the offset of the next byte.
type scanner struct {
	data []byte
	pos  int
	lim  Limits
}

func (s *scanner) syntax(off int, msg string) error {
	return &SyntaxError{Offset: off, Msg: msg}
}

func (s *scanner) unexpected() error {
	if s.pos >= len(s.data) {
		return s.syntax(s.pos, "unexpected end of input")
	}
	return s.syntax(s.pos, "invalid character "+quoteByte(s.data[s.pos]))
}

func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return "0x" + strconv.FormatUint(uint64(c), 16)
}

func (s *scanner) skipWS() { s.pos = skipWS(s.data, s.pos) }

// end checks that only whitespace is left.
func (s *scanner) end() error {
	s.skipWS()
	if s.pos != len(s.data) {
		return s.syntax(s.pos, "trailing data after the top-level value")
	}
	return nil
}

// value scans one value starting at s.pos; depth is that of the enclosing
// container (0 at top level).
func (s *scanner) value(depth int) error {
	if s.pos >= len(s.data) {
		return s.unexpected()
	}
	switch c := s.data[s.pos]; c {
	case '{':
		return s.object(depth+1, nil)
	case '[':
		return s.array(depth+1, nil)
	case '"':
		_, err := s.str()
		return err
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.literal("null")
	default:
		if c == '-' || '0' <= c && c <= '9' {
			return s.number()
		}
		return s.syntax(s.pos, "invalid character "+quoteByte(c)+" looking for the beginning of a value")
	}
}

func (s *scanner) literal(lit string) error {
	if !bytes.HasPrefix(s.data[s.pos:], []byte(lit)) {
		return s.syntax(s.pos, "invalid literal")
	}
	s.pos += len(lit)
	return nil
}

// number scans a number as RFC 8259 §6 defines it.
func (s *scanner) number() error {
	d, i := s.data, s.pos
	if d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && '1' <= d[i] && d[i] <= '9':
		i = skipDigits(d, i+1)
	default:
		return s.syntax(i, "invalid number")
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return s.syntax(i, "invalid number: no digit after the decimal point")
		}
		i = skipDigits(d, i+1)
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return s.syntax(i, "invalid number: no digit in the exponent")
		}
		i = skipDigits(d, i+1)
	}
	s.pos = i
	return nil
}

// skipDigits returns the offset of the first byte at or after d[i] that
// is not an ASCII digit, or len(d); eight bytes at a time.
func skipDigits(d []byte, i int) int {
	t := d[i:]
	for ; len(t) >= 8; t = t[8:] {
		if m := nonDigit8(binary.LittleEndian.Uint64(t)); m != 0 {
			return len(d) - len(t) + bits.TrailingZeros64(m)>>3
		}
	}
	for len(t) > 0 && '0' <= t[0] && t[0] <= '9' {
		t = t[1:]
	}
	return len(d) - len(t)
}

// The word-at-a-time tests below look at the eight bytes of a
// little-endian word at once. nonDigit8 adds at most 0x7f to a byte's low
// seven bits, so no carry ever crosses into the next byte: its result is
// exact for every byte, whatever its neighbours. special8 subtracts, and
// a borrow out of a byte may mark the bytes above it; but a byte lends
// only when it is itself marked, so the first marked byte is exact (the
// bytes below it are unmarked exactly when they should be), and a word is
// unmarked exactly when it holds no byte to mark. That is all the
// scanners use (word_test.go checks both properties for every byte value
// at every position).
const (
	lsb = 0x0101010101010101 // the low bit of each byte
	msb = 0x8080808080808080 // the high bit of each byte
	low = 0x7f7f7f7f7f7f7f7f // the seven low bits of each byte
)

// nonDigit8 returns x with 0x80 in each byte that is not an ASCII digit
// and 0 in the others.
func nonDigit8(x uint64) uint64 {
	l := x & low
	ge0 := l + lsb*(0x80-'0')     // high bit set: l >= '0'
	gt9 := l + lsb*(0x80-('9'+1)) // high bit set: l > '9'
	return (x | ^ge0 | gt9) & msb
}

// plain marks the bytes that stand for themselves in a string: printable
// ASCII except '"' and '\\'.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// special8 returns x with 0x80 in the first byte that is not plain (see
// plain: a control character, '"', '\\' or a non-ASCII byte), 0 in the
// bytes before it, and anything in the bytes after it; 0 when every byte
// is plain. The first such byte is at bits.TrailingZeros64/8.
//
// For a byte b without a borrow from below: b^0x02 is below 0x21 exactly
// when b is below 0x20 or is '"' (0x22 becomes 0x20, and the control
// characters stay among themselves), so (b^0x02)-0x21 has its high bit set
// for those bytes and for b >= 0xa0; (b^'\\')-1 when b == '\\' or b >= 0x80;
// with b's own high bit, b is marked exactly when it is not plain. Only
// a byte below 0x20, '"' or '\\' lends to the next.
func special8(x uint64) uint64 {
	return (x | ((x ^ lsb*0x02) - lsb*0x21) | ((x ^ lsb*'\\') - lsb)) & msb
}

// plainRun returns the offset of the first byte at or after d[i] that is
// not plain (see plain), looking at whole words only: where fewer than
// eight bytes are left, it returns the offset of the first unchecked byte.
// Either way, every byte from d[i] to the offset is plain, so that a quote
// there ends a string of plain bytes: the common case of JOSE names,
// which scanner.name reads so, leaving every other case to str.
func plainRun(d []byte, i int) int {
	for ; i+8 <= len(d); i += 8 {
		if m := special8(binary.LittleEndian.Uint64(d[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	return i
}

// plainString returns the offset just past the closing quote of the string
// whose content starts at d[j], if that content is plain bytes only (see
// plain), or 0 if it is not or the string is not terminated. It reads a
// word at a time; the last bytes, fewer than eight, are the last word of d
// shifted, with zeros (marked) after them. It is a function of its own so
// that its loop keeps its values in registers.
func plainString(d []byte, j int) int {
	t := d[j:]
	for ; len(t) >= 8; t = t[8:] {
		w := binary.LittleEndian.Uint64(t)
		if m := special8(w); m != 0 {
			if k := bits.TrailingZeros64(m); byte(w>>(k&56)) == '"' {
				return len(d) - len(t) + k>>3 + 1
			}
			return 0
		}
	}
	if len(t) > 0 && len(d) >= 8 {
		w := binary.LittleEndian.Uint64(d[len(d)-8:]) >> (64 - 8*len(t))
		if k := bits.TrailingZeros64(special8(w)); byte(w>>(k&56)) == '"' {
			return len(d) - len(t) + k>>3 + 1
		}
	}
	return 0
}

// str scans a string (RFC 8259 §7) starting at the opening quote at s.pos
// and reports whether it contains escapes.
func (s *scanner) str() (escaped bool, err error) {
	d := s.data
	i := s.pos + 1
	for i < len(d) {
		// Runs of plain bytes, eight at a time: a word with a byte that
		// is not plain gives its offset exactly. The last bytes of d,
		// fewer than eight, are the last word of d shifted.
		switch {
		case i+8 <= len(d):
			m := special8(binary.LittleEndian.Uint64(d[i:]))
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) >> 3
		case len(d) >= 8:
			// The bytes shifted in are zeros, marked as control
			// characters: a first mark past the end means none.
			m := special8(binary.LittleEndian.Uint64(d[len(d)-8:]) >> (8 * (i + 8 - len(d))))
			if i += bits.TrailingZeros64(m) >> 3; i >= len(d) {
				i = len(d)
				continue
			}
		default:
			for i < len(d) && plain[d[i]] {
				i++
			}
			if i >= len(d) {
				continue
			}
		}
		c := d[i]
		switch {
		case c == '"':
			s.pos = i + 1
			return escaped, nil
		case c == '\\':
			escaped = true
			n, err := s.escape(i)
			if err != nil {
				return false, err
			}
			i += n
		case c < 0x20:
			return false, s.syntax(i, "control character "+quoteByte(c)+" in string")
		default:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 {
				return false, s.syntax(i, "invalid UTF-8 in string")
			}
			i += size
		}
	}
	return false, s.syntax(len(d), "unexpected end of input in string")
}

// escape validates the escape sequence at d[i] == '\\' and returns its
// length.
func (s *scanner) escape(i int) (int, error) {
	d := s.data
	if i+1 >= len(d) {
		return 0, s.syntax(len(d), "unexpected end of input in string")
	}
	switch d[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, nil
	case 'u':
		r, ok := hex4(d, i+2)
		if !ok {
			return 0, s.syntax(i, "invalid \\u escape")
		}
		switch {
		case 0xdc00 <= r && r <= 0xdfff:
			return 0, s.syntax(i, "lone surrogate escape")
		case 0xd800 <= r && r <= 0xdbff:
			if i+7 >= len(d) || d[i+6] != '\\' || d[i+7] != 'u' {
				return 0, s.syntax(i, "lone surrogate escape")
			}
			r2, ok := hex4(d, i+8)
			if !ok || r2 < 0xdc00 || r2 > 0xdfff {
				return 0, s.syntax(i, "lone surrogate escape")
			}
			return 12, nil
		}
		return 6, nil
	}
	return 0, s.syntax(i, "invalid escape "+quoteByte(d[i+1]))
}

// hex4 decodes the four hexadecimal digits at d[i:].
func hex4(d []byte, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var r rune
	for _, c := range d[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// object scans an object at s.pos, at the given depth, calling fn (if not
// nil) for each member. It works on a local offset i, stored to s.pos
// around the calls that read it. Compact JSON, what JOSE implementations
// write, takes the fast paths: each structural byte is tested where it is
// expected, white space skipped only where it is not; names of fewer than
// eight plain bytes and plain string values are read a word at a time
// here; anything else goes to str, number and value.
func (s *scanner) object(depth int, cb *memberFuncs) error {
	if depth > s.lim.MaxDepth {
		return &LimitError{Limit: "depth", Max: s.lim.MaxDepth, Offset: s.pos}
	}
	d := s.data
	i := s.pos + 1 // after '{'
	if i >= len(d) || d[i] != '"' {
		if i = skipWS(d, i); i < len(d) && d[i] == '}' {
			s.pos = i + 1
			return nil
		}
	}
	var set memberSet
	var seen uint64
	fast := min(smallObject, s.lim.MaxMembers)
	for n := 1; ; n++ {
		if i >= len(d) || d[i] != '"' {
			if i = skipWS(d, i); i >= len(d) || d[i] != '"' {
				s.pos = i
				if i < len(d) {
					return s.syntax(i, "invalid character "+quoteByte(d[i])+" looking for a member name")
				}
				return s.unexpected()
			}
		}
		start := i
		var name []byte
		var key uint64
		// The first word of the name; near the end of d, the last word
		// shifted, with zeros (marked) after the last byte.
		var w uint64
		t := d[i+1:]
		if len(t) >= 8 {
			w = binary.LittleEndian.Uint64(t)
		} else if len(t) > 0 && len(d) >= 8 {
			w = binary.LittleEndian.Uint64(d[len(d)-8:]) >> (64 - 8*len(t))
		}
		if m := special8(w); m != 0 && byte(w>>(bits.TrailingZeros64(m)&56)) == '"' {
			// A name of fewer than eight plain bytes: they are
			// its key.
			k := bits.TrailingZeros64(m) >> 3
			key = w & (1<<(bits.TrailingZeros64(m)&56) - 1)
			name = t[:k]
			i += k + 2
		} else {
			var err error
			if name, i, err = s.name(i); err != nil {
				return err
			}
			key = nameKey(name)
		}
		// seen has a bit for the key of each name so far: only a name
		// whose bit is set may be a duplicate. Beyond fast members
		// (smallObject, or fewer under a lower limit), add checks the
		// limit.
		bit := uint64(1) << nameBit(key)
		if seen&bit != 0 || n > fast {
			if n > s.lim.MaxMembers {
				return &LimitError{Limit: "members", Max: s.lim.MaxMembers, Offset: start}
			}
			if err := set.add(name, n, start); err != nil {
				return err
			}
		} else {
			set.small[n-1] = name
		}
		seen |= bit
		if i+1 < len(d) && d[i] == ':' && d[i+1] > ' ' {
			i++ // compact JSON: the value right after the colon
		} else {
			if i = skipWS(d, i); i >= len(d) || d[i] != ':' {
				s.pos = i
				if i < len(d) {
					return s.syntax(i, "invalid character "+quoteByte(d[i])+" after a member name")
				}
				return s.unexpected()
			}
			if i = skipWS(d, i+1); i >= len(d) {
				s.pos = i
				return s.unexpected()
			}
		}
		vstart := i
		plainValue := false
		switch c := d[i]; {
		case c == '"':
			// A string of plain bytes (plainString); str reads any
			// other.
			j := plainString(d, i+1)
			if j != 0 {
				i, plainValue = j, true
			} else {
				s.pos = i
				if _, err := s.str(); err != nil {
					return err
				}
				i = s.pos
			}
		case '1' <= c && c <= '9':
			// An integer without fraction or exponent (a NumericDate)
			// is read here; any other number by number.
			j := skipDigits(d, i+1)
			if j < len(d) && (d[j] == '.' || d[j] == 'e' || d[j] == 'E') {
				s.pos = i
				if err := s.number(); err != nil {
					return err
				}
				j = s.pos
			}
			i = j
		default:
			s.pos = i
			if err := s.value(depth); err != nil {
				return err
			}
			i = s.pos
		}
		if cb != nil {
			var err error
			if cb.fn != nil {
				err = cb.fn(name, d[vstart:i])
			} else {
				err = cb.plain(name, d[vstart:i], plainValue)
			}
			if err != nil {
				return err
			}
		}
		if i < len(d) && d[i] == ',' {
			i++
			continue
		}
		if i = skipWS(d, i); i >= len(d) {
			s.pos = i
			return s.unexpected()
		}
		switch d[i] {
		case ',':
			i++
		case '}':
			s.pos = i + 1
			return nil
		default:
			return s.syntax(i, "invalid character "+quoteByte(d[i])+" after an object member")
		}
	}
}

// memberFuncs is the callback of the object scanner, for the top-level
// object of ScanObject (fn) or ScanObjectPlain (plain); nested objects and
// Valid have none.
type memberFuncs struct {
	fn    func(name, value []byte) error
	plain func(name, value []byte, plain bool) error
}

// skipWS returns the offset of the first byte at or after d[i] that is not
// white space (RFC 8259 §2), or len(d).
func skipWS(d []byte, i int) int {
	if i < len(d) && d[i] > ' ' {
		return i // the common case of compact JSON: no white space
	}
	for i < len(d) && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r') {
		i++
	}
	return i
}

// name scans the member name at d[i] == '"' that the object scanner's
// fast path did not take, and returns it, unescaped, with the offset after
// its closing quote.
func (s *scanner) name(i int) (name []byte, end int, err error) {
	d := s.data
	escaped := false
	if end = plainRun(d, i+1); end < len(d) && d[end] == '"' {
		end++
	} else {
		s.pos = i
		if escaped, err = s.str(); err != nil {
			return nil, 0, err
		}
		end = s.pos
	}
	name = d[i+1 : end-1]
	if escaped {
		name = appendUnescaped(nil, name)
	}
	return name, end, nil
}

// memberSet holds the names of an object's members for the duplicate
// check: up to smallObject of them in small, then in a map.
type memberSet struct {
	small [smallObject][]byte
	names map[string]struct{}
}

// add adds name, that of member n (from 1) at offset start, whose bit in
// the object's set of names seen is set or which is beyond smallObject:
// it is compared with the others.
func (m *memberSet) add(name []byte, n, start int) error {
	if n <= smallObject {
		for _, prev := range m.small[:n-1] {
			if string(prev) == string(name) {
				return &DuplicateError{Name: string(name), Offset: start}
			}
		}
		m.small[n-1] = name
		return nil
	}
	if m.names == nil {
		m.names = make(map[string]struct{}, 2*smallObject)
		for _, prev := range m.small {
			m.names[string(prev)] = struct{}{}
		}
	}
	if _, dup := m.names[string(name)]; dup {
		return &DuplicateError{Name: string(name), Offset: start}
	}
	m.names[string(name)] = struct{}{}
	return nil
}

// nameKey returns the key of a name for the duplicate check (nameBit): a
// name of fewer than eight bytes, little-endian with zeros after its last
// byte (so that the key of such a name without a 0 byte is the name, as
// the object scanner's fast path reads it from the name's first word); a
// longer name's first eight bytes, little-endian, xor its length.
func nameKey(name []byte) uint64 {
	if len(name) >= 8 {
		return binary.LittleEndian.Uint64(name) ^ uint64(len(name))
	}
	var b [8]byte
	copy(b[:], name)
	return binary.LittleEndian.Uint64(b[:])
}

// nameBit returns the bit of a name's key in an object's set of names seen:
// the top six bits of a product, by a multiplier (found by search) that
// gives distinct bits to the registered names of each of the JOSE Header
// (RFC 7515 §4.1, RFC 7516 §4.1, RFC 7518 §4.6.1, §4.7.1, §4.8.1, RFC 7797),
// the JWT Claims Set with common OpenID and OAuth claims (RFC 7519 §4.1,
// RFC 8693 §4.2-4.3, OpenID Connect Core §2, §5.1, RFC 7800) and the JWK
// (RFC 7517 §4, RFC 7518 §6), so that their objects are checked for
// duplicates without comparing names (TestNameBitsRegistered).
func nameBit(key uint64) uint {
	return uint(key * 0x67ef2b1c4d11d5f7 >> 58)
}

// array scans an array at s.pos, at the given depth, calling fn (if not
// nil) for each element.
func (s *scanner) array(depth int, fn func(elem []byte) error) error {
	if depth > s.lim.MaxDepth {
		return &LimitError{Limit: "depth", Max: s.lim.MaxDepth, Offset: s.pos}
	}
	d := s.data
	s.pos++ // '['
	s.skipWS()
	if s.pos < len(d) && d[s.pos] == ']' {
		s.pos++
		return nil
	}
	for {
		start := s.pos
		if err := s.value(depth); err != nil {
			return err
		}
		if fn != nil {
			if err := fn(d[start:s.pos]); err != nil {
				return err
			}
		}
		s.skipWS()
		if s.pos >= len(d) {
			return s.unexpected()
		}
		switch d[s.pos] {
		case ',':
			s.pos++
			s.skipWS()
		case ']':
			s.pos++
			return nil
		default:
			return s.syntax(s.pos, "invalid character "+quoteByte(d[s.pos])+" after an array element")
		}
	}
}

// Valid reports whether data is one JSON text (RFC 8259 §2) acceptable to
// this package within lim: nil if it is, the first error found otherwise.
func Valid(data []byte, lim Limits) error {
	s := scanner{data: data, lim: lim.withDefaults()}
	s.skipWS()
	if err := s.value(0); err != nil {
		return err
	}
	return s.end()
}

// ScanObject validates data, a JSON text whose top-level value must be an
// object (RFC 8259 §4), and calls fn for each of its members in order.
//
// name is the member name, unescaped; it is only valid during the call
// (it may be a subslice of data or a scratch buffer). value is the raw JSON
// value, a subslice of data without surrounding whitespace, already
// validated (nested values included).
//
// Each member is checked (duplicates, limits, syntax) before fn sees it,
// but members after it are not yet: when ScanObject returns an error, fn
// may have been called for earlier members, whose results the caller must
// then discard. An error from fn stops the scan and is returned as is.
func ScanObject(data []byte, lim Limits, fn func(name, value []byte) error) error {
	var cb *memberFuncs
	if fn != nil {
		cb = &memberFuncs{fn: fn}
	}
	return scanObject(data, lim, cb)
}

// scanObject is ScanObject and ScanObjectPlain: it scans the object data
// is, handing each member to cb (nil: validate only).
func scanObject(data []byte, lim Limits, cb *memberFuncs) error {
	s := scanner{data: data, lim: lim.withDefaults()}
	s.skipWS()
	if s.pos >= len(data) || data[s.pos] != '{' {
		if s.pos >= len(data) {
			return s.unexpected()
		}
		return &TypeError{Want: "object", Got: KindOf(data[s.pos:])}
	}
	if err := s.object(1, cb); err != nil {
		return err
	}
	return s.end()
}

// Recording the members into a caller's fixed array and dispatching them
// after the scan, instead of calling fn, made the claims scan of the jwt
// package dearer (BenchmarkStepsApart/scan, 4,170 to 4,663 instructions,
// 2026-12-04): the zeroing of the array and the loop cost more than the
// indirect calls they replace. Handing fn the name's key, which the
// scanner has, saved only 17 instructions there and was not taken;
// slicing a short name from d with a capacity of its own cost 51 more.

// ScanObjectPlain is [ScanObject] whose fn is also told whether each value
// is a string of plain bytes only: printable ASCII other than '"' and
// '\\', so that its content, value[1:len(value)-1], is the string as is,
// without escapes to decode. plain true is exact; plain false is not the
// converse: a string value with plain false may still be plain bytes only
// (every value of a text of fewer than eight bytes, which the
// word-at-a-time reading leaves to the byte scan) or have no escape
// (non-ASCII content, for example).
func ScanObjectPlain(data []byte, lim Limits, fn func(name, value []byte, plain bool) error) error {
	var cb *memberFuncs
	if fn != nil {
		cb = &memberFuncs{plain: fn}
	}
	return scanObject(data, lim, cb)
}

// ParseObject validates data as [ScanObject] does and returns the members of
// its top-level object in order. Values are subslices of data.
func ParseObject(data []byte, lim Limits) ([]Member, error) {
	var members []Member
	err := ScanObject(data, lim, func(name, value []byte) error {
		members = append(members, Member{Name: string(name), Value: value})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return members, nil
}

// ScanArray validates data, a JSON text whose top-level value must be an
// array (RFC 8259 §5), and calls fn for each element in order with the raw
// element, a subslice of data. As with [ScanObject], fn may have been called
// for earlier elements when an error is returned.
func ScanArray(data []byte, lim Limits, fn func(elem []byte) error) error {
	s := scanner{data: data, lim: lim.withDefaults()}
	s.skipWS()
	if s.pos >= len(data) || data[s.pos] != '[' {
		if s.pos >= len(data) {
			return s.unexpected()
		}
		return &TypeError{Want: "array", Got: KindOf(data[s.pos:])}
	}
	if err := s.array(1, fn); err != nil {
		return err
	}
	return s.end()
}
