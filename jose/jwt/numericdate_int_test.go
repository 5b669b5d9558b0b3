package jwt

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/internal/jsonx"
)

// TestDateArithmetic checks the integer date arithmetic of checkClaims
// (add, before, atPrecisionOf) against the time.Time arithmetic it
// replaced, on dates and durations around whole seconds.
func TestDateArithmetic(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	nanos := []int64{0, 1, 999_999_999, 500_000_000}
	durs := []time.Duration{0, 1, time.Second - 1, time.Second, time.Second + 1, time.Minute, 90 * time.Minute, 1000 * time.Hour}
	for range 20000 {
		a := time.Unix(r.Int64N(MaxNumericDate+1), nanos[r.IntN(len(nanos))]).UTC()
		if r.IntN(2) == 0 {
			a = time.Unix(a.Unix(), r.Int64N(1e9)).UTC()
		}
		b := a.Add(time.Duration(r.Int64N(5e9) - 25e8))
		x := durs[r.IntN(len(durs))]
		da, db := NumericDateOf(a), NumericDateOf(b)
		// Compared as NumericDates, not through Time (which would
		// normalize nanoseconds past a second): the sum is the date of
		// the time.Time sum, nanoseconds within the second.
		if got, want := da.add(x), NumericDateOf(a.Add(x)); got != want {
			t.Fatalf("%v + %v = %v (%d s %d ns), want %v", a, x, got, got.sec, got.nsec, want)
		}
		if got, want := da.before(db), a.Before(b); got != want {
			t.Fatalf("%v before %v: %v, want %v", a, b, got, want)
		}
		// The rule atPrecisionOf had on time.Time.
		want := b
		if a.Nanosecond() == 0 {
			if tr := b.Truncate(time.Second); !tr.Equal(b) {
				want = tr.Add(time.Second)
			}
		}
		if got := db.atPrecisionOf(da); got != NumericDateOf(want) {
			t.Fatalf("%v at the precision of %v: %v, want %v", b, a, got, want)
		}
	}
}

// TestEightDigits checks eightDigits and appendSeconds against strconv:
// the reciprocals of eightDigits at every value up to their bounds, and
// appendSeconds around every power of ten and at random.
func TestEightDigits(t *testing.T) {
	for x := uint64(0); x < 10000; x++ {
		if x*10486>>20 != x/100 {
			t.Fatalf("%d*10486>>20 = %d, not %d", x, x*10486>>20, x/100)
		}
		if x < 100 && x*103>>10 != x/10 {
			t.Fatalf("%d*103>>10 = %d, not %d", x, x*103>>10, x/10)
		}
	}
	check := func(sec int64) {
		t.Helper()
		if got, want := string(appendSeconds([]byte("x"), sec)), "x"+strconv.FormatInt(sec, 10); got != want {
			t.Fatalf("appendSeconds(%d) = %s, want %s", sec, got, want)
		}
	}
	for p := int64(1); p <= 1e18; p *= 10 {
		for _, d := range []int64{-1, 0, 1} {
			check(p + d)
			check(-p + d)
		}
	}
	check(math.MaxInt64)
	check(math.MinInt64)
	check(MaxNumericDate)
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		check(r.Int64N(1e17))
	}
}

// TestParseEightDigits checks parseEightDigits and nonDigit8 on every
// digit at every position, and the round trip with eightDigits.
func TestParseEightDigits(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		n := uint32(r.IntN(1e8))
		w := eightDigits(n)
		if nonDigit8(w) != 0 {
			t.Fatalf("nonDigit8(%08d) = %x", n, nonDigit8(w))
		}
		if got := parseEightDigits(w); got != n {
			t.Fatalf("parseEightDigits(%08d) = %d", n, got)
		}
	}
	for pos := range 8 {
		for c := range 256 {
			w := eightDigits(12345678)&^(0xff<<(8*pos)) | uint64(c)<<(8*pos)
			got := nonDigit8(w) != 0
			if want := c < '0' || c > '9'; got != want {
				t.Fatalf("byte %#x at %d: nonDigit8 says %v", c, pos, got)
			}
			if !got {
				want := []byte("12345678")
				want[pos] = byte(c)
				if n, _ := strconv.Atoi(string(want)); parseEightDigits(w) != uint32(n) {
					t.Fatalf("parseEightDigits(%s) = %d", want, parseEightDigits(w))
				}
			}
		}
	}
}

// TestParseNumericDateIntegers checks the fast path of parseNumericDate
// (nine to twelve digits) against strconv, with a non-digit put at each
// position: an integer reads as its value up to MaxNumericDate and out of
// range past it; anything else goes to the general path, which reads it
// as strconv.ParseFloat does or refuses it.
func TestParseNumericDateIntegers(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		n := 9 + r.IntN(4)
		b := []byte(strconv.FormatInt(r.Int64N(9*pow10(n-1))+pow10(n-1), 10))
		want, _ := strconv.ParseInt(string(b), 10, 64)
		d, err := parseNumericDate(b)
		switch {
		case want > MaxNumericDate:
			if err != errDateRange {
				t.Fatalf("%s: %v, %v, want out of range", b, d, err)
			}
		case err != nil || d != dateAt(want, 0):
			t.Fatalf("%s: %v, %v, want %d", b, d, err, want)
		}
		// A '.' or 'e' inside makes a number the general path reads.
		i := 1 + r.IntN(len(b)-2)
		c := ".e"[r.IntN(2)]
		m := append(append(append([]byte{}, b[:i]...), c), b[i+1:]...)
		f, ferr := strconv.ParseFloat(string(m), 64)
		d, err = parseNumericDate(m)
		if ferr != nil || f > MaxNumericDate {
			if err == nil {
				t.Fatalf("%s: %v accepted, strconv: %v, %v", m, d, f, ferr)
			}
			continue
		}
		if err != nil || d.sec != int64(f) {
			t.Fatalf("%s: %v, %v, strconv reads %v", m, d, err, f)
		}
	}
}

func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}

// TestNumericDateTenDigits checks parseNumericDate's ten-digit path
// against the general one (parseOtherDate) on ten-byte numbers: every
// integer form at the bounds of the path, and each byte of a ten-digit
// date replaced, at every position, by every other byte that keeps the
// text a JSON number, or by none (anything else is not JSON, which the
// scanner refuses before).
func TestNumericDateTenDigits(t *testing.T) {
	inputs := []string{"1000000000", "1796126340", "9999999999", "1999999999", "2000000000", "1000000001", "-999999999", "1.23456789", "1.2345e+67", "0.00000001"}
	base := []byte("1796126340")
	for pos := range base {
		for c := 0; c < 256; c++ {
			in := bytes.Clone(base)
			in[pos] = byte(c)
			if jsonx.Valid(in, jsonx.Limits{}) == nil && jsonx.KindOf(in) == jsonx.KindNumber {
				inputs = append(inputs, string(in))
			}
		}
	}
	n := 0
	for _, in := range inputs {
		if len(in) != 10 {
			t.Fatalf("%q: not ten bytes", in)
		}
		got, gotErr := parseNumericDate([]byte(in))
		want, wantErr := parseOtherDate([]byte(in))
		if got != want || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%s: %+v, %v; the general path reads %+v, %v", in, got, gotErr, want, wantErr)
		}
		n++
	}
	if n < 100 {
		t.Fatalf("only %d inputs", n)
	}
}
