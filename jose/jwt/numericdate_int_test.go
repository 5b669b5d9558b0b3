package jwt

import (
	"math/rand/v2"
	"testing"
	"time"
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
		if got, want := da.add(x).Time(), a.Add(x); !got.Equal(want) {
			t.Fatalf("%v + %v = %v, want %v", a, x, got, want)
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
		if got := db.atPrecisionOf(da).Time(); !got.Equal(want) {
			t.Fatalf("%v at the precision of %v: %v, want %v", b, a, got, want)
		}
	}
}
