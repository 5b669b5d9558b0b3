package jwt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"strconv"
	"time"

	"github.com/josebench/josebench/jose/internal/jsonx"
)

// MaxNumericDate is the largest NumericDate accepted, in seconds since the
// epoch: 9999-12-31T23:59:59Z. Larger values (and the infinities a JSON
// number such as 1e400 would overflow to) are refused as out of range.
const MaxNumericDate = 253402300799

// maxExponentDateSize is the longest NumericDate with an exponent
// (1.30081938e9) that is read, in bytes; a longer one is refused (see
// [NumericDate]).
const maxExponentDateSize = 32

// NumericDate is a JSON numeric date value (RFC 7519 §2): seconds since
// 1970-01-01T00:00:00Z UTC, ignoring leap seconds, possibly fractional.
// The zero NumericDate means "absent"; a claim of 0 is the epoch itself,
// which IsZero does not report.
//
// Decoding accepts a JSON number, integer or not (1300819380,
// 1300819380.5, 1.30081938e9), from 0 to [MaxNumericDate]; it refuses
// negative numbers, larger ones, strings, null and every other JSON type.
// Integers and fractions are read exactly, fractions to the nanosecond
// (further digits are truncated), whatever their length. A number with an
// exponent is read as a float64 (correctly rounded, as other parsers read
// it) only where strconv reads it exactly: one of more than 32 bytes, or
// whose exponent has more than five digits (strconv stops counting past 99999, so that
// 0.(700,000 zeros)19e700010, which is 1.9e9, would read as 0), is
// refused.
type NumericDate struct {
	// The instant as seconds since the epoch and nanoseconds within the
	// second (0 to 999,999,999), as time.Time's Unix and Nanosecond
	// return them: integers, so that reading and checking a date needs no
	// time.Time arithmetic.
	sec  int64
	nsec int32
	set  bool
}

// dateAt returns the NumericDate of sec seconds and nsec nanoseconds
// since the epoch.
func dateAt(sec, nsec int64) NumericDate {
	return NumericDate{sec: sec, nsec: int32(nsec), set: true}
}

// zeroTimeUnix is time.Time{}.Unix(): a date made from the zero
// time.Time (see NumericDate.check).
const zeroTimeUnix = -62135596800

// NewNumericDate returns the NumericDate of t truncated to whole seconds,
// the form every JWT implementation reads. Use [NumericDateOf] to keep a
// fraction.
func NewNumericDate(t time.Time) NumericDate {
	return dateAt(t.Unix(), 0)
}

// NumericDateOf returns the NumericDate of t, keeping its fraction of a
// second (written with up to nine decimals).
func NumericDateOf(t time.Time) NumericDate {
	return dateAt(t.Unix(), int64(t.Nanosecond()))
}

// Time returns the date as a time.Time in UTC; the zero time.Time when d
// is zero.
func (d NumericDate) Time() time.Time {
	if !d.set {
		return time.Time{}
	}
	return time.Unix(d.sec, int64(d.nsec)).UTC()
}

// IsZero reports whether d is absent (the zero NumericDate). It lets
// encoding/json's omitzero leave an absent date out.
func (d NumericDate) IsZero() bool { return !d.set }

// Unix returns the date in whole seconds since the epoch (the fraction
// truncated); 0 when d is zero.
func (d NumericDate) Unix() int64 {
	if !d.set {
		return 0
	}
	return d.sec
}

// String returns the date in RFC 3339 form, or "absent".
func (d NumericDate) String() string {
	if !d.set {
		return "absent"
	}
	return d.Time().Format(time.RFC3339Nano)
}

// AppendJSON appends the date as a JSON number: integer seconds, followed
// by up to nine decimals when it has a fraction. A zero d appends 0. It
// writes any date, even one no Validator reads back; [NumericDate.MarshalJSON],
// [Signer.Sign] and [Encrypter.Encrypt] refuse those.
func (d NumericDate) AppendJSON(dst []byte) []byte {
	dst = appendSeconds(dst, d.Unix())
	ns := d.nsec
	if !d.set || ns == 0 {
		return dst
	}
	var frac [10]byte
	frac[0] = '.'
	for i := 9; i >= 1; i-- {
		frac[i] = byte('0' + ns%10)
		ns /= 10
	}
	n := 10
	for frac[n-1] == '0' {
		n--
	}
	return append(dst, frac[:n]...)
}

// appendSeconds appends sec in decimal, as strconv.AppendInt does; a
// present-day date (nine to sixteen digits) as its leading digits and
// eight more converted at once (eightDigits).
func appendSeconds(dst []byte, sec int64) []byte {
	if sec < 1e8 || sec >= 1e16 {
		return strconv.AppendInt(dst, sec, 10)
	}
	hi, lo := uint64(sec)/1e8, uint32(uint64(sec)%1e8)
	switch {
	case hi < 10:
		dst = append(dst, byte('0'+hi))
	case hi < 100:
		dst = append(dst, byte('0'+hi/10), byte('0'+hi%10))
	default:
		dst = strconv.AppendUint(dst, hi, 10)
	}
	return binary.LittleEndian.AppendUint64(dst, eightDigits(lo))
}

// eightDigits returns the eight decimal digits of n < 1e8, leading zeros
// included, as ASCII bytes in a little-endian word (the first digit in
// the low byte). The digits are split in lanes of the word: two lanes of
// four digits, then four of two, then eight of one, dividing every lane
// at once by multiplying with a reciprocal (x*10486>>20 is x/100 for
// x < 10000, x*103>>10 is x/10 for x < 100: TestEightDigits checks
// every value at each step's bound).
func eightDigits(n uint32) uint64 {
	v := uint64(n/10000) | uint64(n%10000)<<32
	q := (v * 10486 >> 20) & 0x0000007f_0000007f
	v = q | (v-q*100)<<16
	q = (v * 103 >> 10) & 0x000f_000f_000f_000f
	v = q | (v-q*10)<<8
	return v | 0x30303030_30303030
}

// MarshalJSON implements json.Marshaler with [NumericDate.AppendJSON]. It
// refuses a date that [NumericDate.UnmarshalJSON] would refuse (before
// the epoch, or past [MaxNumericDate]) and one made from the zero
// time.Time, which would be written as -62135596800: an absent date is
// the zero NumericDate.
func (d NumericDate) MarshalJSON() ([]byte, error) {
	if err := d.check(); err != nil {
		return nil, &dateError{d, err}
	}
	return d.AppendJSON(nil), nil
}

// check returns why d cannot be issued, or nil: a present date must be
// one that parseNumericDate reads, and not the zero time.Time.
func (d NumericDate) check() error {
	switch sec := d.sec; {
	case !d.set:
		return nil
	case sec == zeroTimeUnix && d.nsec == 0:
		return errDateZeroTime
	case sec < 0 || sec > MaxNumericDate || sec == MaxNumericDate && d.nsec != 0:
		return errDateRange
	}
	return nil
}

// claimError is the ClaimError of the date d of the claim name that
// cannot be issued for err (see check): it shows d unless it is the zero
// time.Time.
func (d NumericDate) claimError(name string, err error) *ClaimError {
	ce := &ClaimError{Claim: name, Err: ErrMalformedClaims, Cause: err}
	if err != errDateZeroTime {
		ce.Detail = d.String()
	}
	return ce
}

// dateError is the error of MarshalJSON for a date it refuses.
type dateError struct {
	d   NumericDate
	err error
}

func (e *dateError) Error() string {
	if e.err == errDateZeroTime {
		return "jwt: NumericDate " + e.err.Error()
	}
	return "jwt: NumericDate " + e.d.String() + ": " + e.err.Error()
}

func (e *dateError) Unwrap() error { return e.err }

// UnmarshalJSON implements json.Unmarshaler, with the rules of the type's
// documentation.
func (d *NumericDate) UnmarshalJSON(data []byte) error {
	if err := jsonx.Valid(data, jsonx.Limits{}); err != nil {
		return err
	}
	// parseNumericDate reads a value without the white space a JSON
	// text may have around it (RFC 8259 §2).
	nd, err := parseNumericDate(bytes.Trim(data, " \t\r\n"))
	if err != nil {
		return err
	}
	*d = nd
	return nil
}

var (
	errDateType     = errors.New("not a JSON number")
	errDateRange    = errors.New("out of range (0 to 9999-12-31T23:59:59Z)")
	errDateZeroTime = errors.New("made from the zero time.Time, which would be written as -62135596800: an absent date is the zero NumericDate")
	errDateInexact  = errors.New("a number with an exponent of more than 32 bytes, or an exponent of more than five digits, is not read exactly")
)

// parseNumericDate decodes a raw JSON value, already validated, as a
// NumericDate (RFC 7519 §2).
func parseNumericDate(raw []byte) (NumericDate, error) {
	// Ten digits (every date from 2001-09-09 to 2286-11-20, below
	// MaxNumericDate): the first two, then the last eight at once.
	if len(raw) == 10 {
		last := binary.LittleEndian.Uint64(raw[2:])
		if d0, d1 := raw[0]-'1', raw[1]-'0'; d0 <= 8 && d1 <= 9 && nonDigit8(last) == 0 {
			return dateAt(int64(d0+1)*1e9+int64(d1)*1e8+int64(parseEightDigits(last)), 0), nil
		}
	}
	return parseOtherDate(raw)
}

// parseOtherDate is parseNumericDate of a date its ten-digit path did not
// read.
func parseOtherDate(raw []byte) (NumericDate, error) {
	if jsonx.KindOf(raw) != jsonx.KindNumber {
		return NumericDate{}, errDateType
	}
	// The common case, nine to twelve digits (every date from 1973 to
	// MaxNumericDate): the last eight at once.
	if n := len(raw); n >= 9 && n <= 12 {
		last := binary.LittleEndian.Uint64(raw[n-8:])
		if nonDigit8(last) == 0 && raw[0] != '0' {
			sec := int64(0)
			for _, c := range raw[:n-8] {
				if c < '0' || c > '9' {
					sec = -1
					break
				}
				sec = sec*10 + int64(c-'0')
			}
			if sec >= 0 {
				if sec = sec*1e8 + int64(parseEightDigits(last)); sec > MaxNumericDate {
					return NumericDate{}, errDateRange
				}
				return dateAt(sec, 0), nil
			}
		}
	}
	// Other integers of up to 12 digits: exact, without floating point.
	if len(raw) <= 12 {
		sec := int64(0)
		for _, c := range raw {
			if c < '0' || c > '9' {
				sec = -1
				break
			}
			sec = sec*10 + int64(c-'0')
		}
		if sec >= 0 && (raw[0] != '0' || len(raw) == 1) {
			if sec > MaxNumericDate {
				return NumericDate{}, errDateRange
			}
			return dateAt(sec, 0), nil
		}
	}
	if sec, err := jsonx.Int64(raw); err == nil {
		if sec < 0 || sec > MaxNumericDate {
			return NumericDate{}, errDateRange
		}
		return dateAt(sec, 0), nil
	}
	if raw[0] == '-' {
		if isZeroNumber(raw) { // -0.0 is the epoch
			return dateAt(0, 0), nil
		}
		return NumericDate{}, errDateRange
	}
	// A fraction without an exponent: integer and fraction digits read
	// exactly, to the nanosecond.
	i, ok := fractionDot(raw)
	if !ok && i < 0 {
		return NumericDate{}, errDateRange // an integer past int64
	}
	if ok {
		if i > 12 { // more than 12 integer digits is past MaxNumericDate
			return NumericDate{}, errDateRange
		}
		sec, err := strconv.ParseInt(string(raw[:i]), 10, 64)
		if err != nil || sec > MaxNumericDate {
			return NumericDate{}, errDateRange
		}
		ns := 0
		digits := raw[i+1:]
		for k := 0; k < 9; k++ {
			ns *= 10
			if k < len(digits) {
				ns += int(digits[k] - '0')
			}
		}
		if sec == MaxNumericDate && ns != 0 {
			return NumericDate{}, errDateRange
		}
		return dateAt(sec, int64(ns)), nil
	}
	// An exponent: through float64, which is exact for integers up to
	// 2^53 and to the microsecond for present-day dates, when strconv
	// reads the literal exactly.
	if len(raw) > maxExponentDateSize || !exponentExact(raw) {
		return NumericDate{}, errDateInexact
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return NumericDate{}, errDateType
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 || f > MaxNumericDate {
		return NumericDate{}, errDateRange
	}
	sec := math.Floor(f)
	ns := math.Round((f - sec) * 1e9)
	if ns >= 1e9 {
		sec, ns = sec+1, 0
	}
	if sec > MaxNumericDate {
		return NumericDate{}, errDateRange
	}
	return dateAt(int64(sec), int64(ns)), nil
}

// nonDigit8 returns x with 0x80 in each byte that is not an ASCII digit
// and 0 in the others. Each byte's seven low bits get at most 0x7f added,
// so no carry crosses into the next byte.
func nonDigit8(x uint64) uint64 {
	const (
		lsb = 0x0101010101010101
		msb = 0x8080808080808080
	)
	l := x &^ msb
	ge0 := l + lsb*(0x80-'0')     // high bit set: l >= '0'
	gt9 := l + lsb*(0x80-('9'+1)) // high bit set: l > '9'
	return (x | ^ge0 | gt9) & msb
}

// parseEightDigits returns the number written by eight ASCII digits in a
// little-endian word (the first digit in the low byte), the inverse of
// eightDigits: adjacent lanes are combined in pairs, two digits, then
// four, then eight, every sum fitting its lane.
func parseEightDigits(x uint64) uint32 {
	x -= 0x30303030_30303030
	x = (x*10 + x>>8) & 0x00ff_00ff_00ff_00ff
	x = (x*100 + x>>16) & 0x0000ffff_0000ffff
	x = (x*10000 + x>>32) & 0xffffffff
	return uint32(x)
}

// fractionDot returns the index of the '.' of a number that has a fraction
// but no exponent; -1 and false for an integer, 0 and false for a number
// with an exponent.
func fractionDot(raw []byte) (int, bool) {
	dot := -1
	for i, c := range raw {
		switch c {
		case '.':
			dot = i
		case 'e', 'E':
			return 0, false
		}
	}
	return dot, dot > 0
}

// exponentExact reports whether the exponent of a valid JSON number with
// an exponent has at most five digits, leading zeros aside: strconv adds a
// digit to the exponent only while it is below 10000, so 99999 is the
// largest it reads exactly.
func exponentExact(raw []byte) bool {
	i := 0
	for i < len(raw) && raw[i] != 'e' && raw[i] != 'E' {
		i++
	}
	i++ // the 'e'
	if i < len(raw) && (raw[i] == '+' || raw[i] == '-') {
		i++
	}
	for i < len(raw) && raw[i] == '0' {
		i++
	}
	return len(raw)-i <= 5
}

// isZeroNumber reports whether a valid JSON number is zero ("-0", "-0.0",
// "-0e5", ...).
func isZeroNumber(raw []byte) bool {
	for _, c := range raw {
		switch {
		case c == 'e' || c == 'E':
			return true
		case c >= '1' && c <= '9':
			return false
		}
	}
	return true
}

// add returns d moved by x, as time.Time.Add moves an instant.
func (d NumericDate) add(x time.Duration) NumericDate {
	sec := d.sec + int64(x/time.Second)
	nsec := int64(d.nsec) + int64(x%time.Second)
	switch {
	case nsec >= 1e9:
		sec, nsec = sec+1, nsec-1e9
	case nsec < 0:
		sec, nsec = sec-1, nsec+1e9
	}
	return dateAt(sec, nsec)
}

// before reports whether the instant d is before e.
func (d NumericDate) before(e NumericDate) bool {
	return d.sec < e.sec || d.sec == e.sec && d.nsec < e.nsec
}
