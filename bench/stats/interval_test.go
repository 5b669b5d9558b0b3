package stats

import (
	"math"
	"testing"
)

// descending returns n, n-1, ..., 1: out of order, so that a function
// that sorts its input in place, rather than a copy, shows.
func descending(n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(n - i)
	}
	return xs
}

func TestMedianInterval(t *testing.T) {
	for _, tt := range []struct {
		n      int
		lo, hi float64 // order statistics (1-based) of 1..n
		conf   float64
	}{
		// P(B <= k-1) for B ~ Binomial(n, 1/2), by hand:
		{1, 1, 1, 0},
		{2, 1, 2, 0.5},
		{5, 1, 5, 1 - 2.0/32},                   // fewer than 6: the whole range, 93.75%
		{6, 1, 6, 1 - 2.0/64},                   // 96.9%
		{10, 2, 9, 1 - 2*11.0/1024},             // k=2: 97.9%; k=3 would be 89.1%
		{20, 6, 15, 1 - 2*21700.0/1048576},      // k=6: P(B<=5) = 21700/2^20: 95.9%
		{30, 10, 21, 1 - 2*0.02138697262853384}, // k=10: P(B<=9) = sum of C(30,i), i<=9, over 2^30
	} {
		xs := descending(tt.n)
		m, iv := MedianInterval(xs, DefaultConfidence)
		if iv.Lo != tt.lo || iv.Hi != tt.hi || math.Abs(iv.Confidence-tt.conf) > 1e-9 || m != float64(tt.n+1)/2 {
			t.Errorf("n=%d: median %v interval %+v, want [%v, %v] at %v", tt.n, m, iv, tt.lo, tt.hi, tt.conf)
		}
		if xs[0] != float64(tt.n) {
			t.Errorf("n=%d: input modified", tt.n)
		}
	}
	if m, iv := MedianInterval(nil, 0.95); m != 0 || iv != (Interval{}) {
		t.Errorf("empty: %v %+v", m, iv)
	}
	if !(Interval{Lo: 1, Hi: 2}).Contains(1) || (Interval{Lo: 1, Hi: 2}).Contains(2.5) {
		t.Error("Contains")
	}
}

func TestRatios(t *testing.T) {
	got := Ratios([]float64{2, 3, 4, 5}, []float64{1, 0, 2})
	if len(got) != 2 || got[0] != 2 || got[1] != 2 {
		t.Errorf("Ratios = %v", got)
	}
	// Neither side may be 0, negative, infinite or NaN.
	got = Ratios([]float64{0, -1, math.Inf(1), math.NaN(), 6, 3}, []float64{1, 1, 1, 1, math.NaN(), 1})
	if len(got) != 1 || got[0] != 3 {
		t.Errorf("Ratios with non-positive and non-finite values = %v", got)
	}
}
