package stats

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// binomTail returns P(B < l) + P(B >= u) for B binomial with n trials and
// probability p, exactly in big.Rat arithmetic for a rational p = num/den:
// the probability that [x(l), x(u)] misses the p-quantile.
func binomTail(n, l, u int, num, den int64) float64 {
	sum := new(big.Int)
	for k := 0; k <= n; k++ {
		if k >= l && k < u {
			continue
		}
		// C(n, k) num^k (den-num)^(n-k), over den^n below.
		c := new(big.Int).Binomial(int64(n), int64(k))
		c.Mul(c, new(big.Int).Exp(big.NewInt(num), big.NewInt(int64(k)), nil))
		c.Mul(c, new(big.Int).Exp(big.NewInt(den-num), big.NewInt(int64(n-k)), nil))
		sum.Add(sum, c)
	}
	f, _ := new(big.Rat).SetFrac(sum, new(big.Int).Exp(big.NewInt(den), big.NewInt(int64(n)), nil)).Float64()
	return f
}

func TestQuantileInterval(t *testing.T) {
	for _, tt := range []struct {
		n        int
		num, den int64   // p = num/den
		q        float64 // the quantile of 1..n: 1 + p(n-1)
		lo, hi   int     // order statistics (1-based) of 1..n
	}{
		// The ranks, by the rule of the doc (each tail at most 2.5%),
		// checked against the exact tails below:
		{200, 1, 50, 4.98, 1, 9},     // P(B=0) = 0.98^200 = 1.8%: the minimum is the lower bound
		{1000, 1, 50, 20.98, 12, 30}, // a pooled reference: both bounds inside
		{200, 1, 2, 100.5, 86, 115},  // the median: the sign-test interval of MedianInterval
		{50, 1, 50, 1.98, 1, 4},      // too few: P(B=0) = 36%, the minimum stands in and covers less
		{6, 1, 2, 3.5, 1, 6},
	} {
		xs := descending(tt.n)
		p := float64(tt.num) / float64(tt.den)
		q, iv, ok := QuantileInterval(xs, p, 0.95)
		want := 1 - binomTail(tt.n, tt.lo, tt.hi, tt.num, tt.den)
		if !ok || math.Abs(q-tt.q) > 1e-9 || iv.Lo != float64(tt.lo) || iv.Hi != float64(tt.hi) || math.Abs(iv.Confidence-want) > 1e-9 {
			t.Errorf("n=%d p=%v: %v %+v %v, want %v [%d, %d] at %v", tt.n, p, q, iv, ok, tt.q, tt.lo, tt.hi, want)
		}
		if xs[0] != float64(tt.n) {
			t.Errorf("n=%d: input modified", tt.n)
		}
		// Each rank is the furthest in: one more would put a tail
		// beyond 2.5% (the minimum and maximum excepted).
		if tt.lo > 1 && binomTail(tt.n, tt.lo+1, tt.n+1, tt.num, tt.den) <= 0.025 {
			t.Errorf("n=%d p=%v: lower rank %d could be %d", tt.n, p, tt.lo, tt.lo+1)
		}
		if tt.hi < tt.n && binomTail(tt.n, 0, tt.hi-1, tt.num, tt.den) <= 0.025 {
			t.Errorf("n=%d p=%v: upper rank %d could be %d", tt.n, p, tt.hi, tt.hi-1)
		}
	}
	for _, tt := range []struct {
		xs   []float64
		p, c float64
	}{
		{nil, 0.5, 0.95},
		{[]float64{1, 2}, 0, 0.95},
		{[]float64{1, 2}, 1, 0.95},
		{[]float64{1, 2}, math.NaN(), 0.95},
		{[]float64{1, 2}, 0.5, 1},
		{[]float64{1, math.NaN()}, 0.5, 0.95},
		{[]float64{1, math.Inf(1)}, 0.5, 0.95},
	} {
		if q, iv, ok := QuantileInterval(tt.xs, tt.p, tt.c); ok || q != 0 || iv != (Interval{}) {
			t.Errorf("%v p=%v c=%v: %v %+v %v, want refused", tt.xs, tt.p, tt.c, q, iv, ok)
		}
	}
	if q, iv, ok := QuantileInterval([]float64{7}, 0.02, 0.95); !ok || q != 7 || iv.Lo != 7 || iv.Hi != 7 || iv.Confidence > 0.03 {
		t.Errorf("one sample: %v %+v %v", q, iv, ok)
	}
}

// Over samples of a known distribution, the interval covers the true
// quantile as often as its Confidence says (at least 95%), and not much
// more: for the 2nd percentile of 200 exponential samples, about 96%.
func TestQuantileIntervalCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const p, n, trials = 0.02, 200, 4000
	truth := -math.Log1p(-p) // the p-quantile of Exp(1)
	covered, claimed := 0, 0.0
	xs := make([]float64, n)
	for range trials {
		for i := range xs {
			xs[i] = rng.ExpFloat64()
		}
		_, iv, ok := QuantileInterval(xs, p, 0.95)
		if !ok {
			t.Fatal("refused")
		}
		claimed = iv.Confidence
		if iv.Contains(truth) {
			covered++
		}
	}
	rate := float64(covered) / trials
	t.Logf("covered %d of %d (%.1f%%), claimed %.1f%%", covered, trials, rate*100, claimed*100)
	if rate < claimed-0.01 || rate > claimed+0.01 || claimed < 0.95 {
		t.Errorf("covered %.1f%%, claimed %.1f%%", rate*100, claimed*100)
	}
}

// A pooled reference of many rounds costs O(n log n) (the sort), not
// O(n²), and its interval stays around the quantile: for 100,000 samples
// of 1..n, about 2,000 ± 2.8 standard deviations of the rank.
func TestQuantileIntervalLarge(t *testing.T) {
	const n = 100000
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(i + 1)
	}
	q, iv, ok := QuantileInterval(xs, 0.02, 0.95)
	sd := math.Sqrt(n * 0.02 * 0.98)
	if !ok || q != 2000.98 || iv.Lo < 2000-2.8*sd || iv.Lo > 2000-1.9*sd || iv.Hi > 2001+2.8*sd || iv.Hi < 2001+1.9*sd || iv.Confidence < 0.95 || iv.Confidence > 0.953 {
		t.Errorf("n=%d: %v %+v %v (rank sd %.1f)", n, q, iv, ok, sd)
	}
}

// QuantileIntervalInner keeps its bounds off the extreme samples, with
// the coverage of the ranks it takes: for the 2nd percentile of 200
// samples, [x(2), x(9)] where QuantileInterval has [x(1), x(9)]; where
// QuantileInterval's bounds are inside already, the same interval. One
// sample far below the others moves it by one rank, not to that sample.
func TestQuantileIntervalInner(t *testing.T) {
	for _, tt := range []struct {
		n        int
		num, den int64
		lo, hi   int
	}{
		{200, 1, 50, 2, 9},      // the minimum moved in
		{276, 1, 50, 2, 11},     // still the minimum in QuantileInterval
		{277, 1, 50, 2, 12},     // QuantileInterval's own x(2)
		{1000, 1, 50, 12, 30},   // unchanged
		{200, 49, 50, 192, 199}, // the 98th percentile: the maximum moved in
		{200, 1, 2, 86, 115},    // the median: unchanged
		{3, 1, 2, 2, 3},         // the lower moved in; the upper cannot cross it
		{10, 1, 50, 1, 2},       // the lower cannot move onto the upper: [x(2), x(2)] has no width
		{260, 1, 50, 2, 11},     // the lower moved in, covering more than 95% still
	} {
		xs := descending(tt.n)
		p := float64(tt.num) / float64(tt.den)
		q, iv, ok := QuantileIntervalInner(xs, p, 0.95)
		q0, iv0, _ := QuantileInterval(xs, p, 0.95)
		want := 1 - binomTail(tt.n, tt.lo, tt.hi, tt.num, tt.den)
		if !ok || q != q0 || iv.Lo != float64(tt.lo) || iv.Hi != float64(tt.hi) || math.Abs(iv.Confidence-want) > 1e-9 {
			t.Errorf("n=%d p=%v: %v %+v %v, want %v [%d, %d] at %v", tt.n, p, q, iv, ok, q0, tt.lo, tt.hi, want)
		}
		if iv0.Lo != 1 && iv0.Hi != float64(tt.n) && iv != iv0 {
			t.Errorf("n=%d p=%v: %+v, QuantileInterval %+v", tt.n, p, iv, iv0)
		}
	}
	// QuantileInterval's lower bound of the 2nd percentile is the minimum
	// below 277 samples.
	for n, lo := range map[int]float64{276: 1, 277: 2} {
		if _, iv, _ := QuantileInterval(descending(n), 0.02, 0.95); iv.Lo != lo {
			t.Errorf("n=%d: QuantileInterval %+v, want lower bound x(%v)", n, iv, lo)
		}
	}
	// One sample far below: QuantileInterval's bound goes to it, this
	// one's to the next.
	xs := descending(200)
	xs[len(xs)-1] = -1e6
	_, iv0, _ := QuantileInterval(xs, 0.02, 0.95)
	_, iv, _ := QuantileIntervalInner(xs, 0.02, 0.95)
	if iv0.Lo != -1e6 || iv.Lo != 2 || iv.Hi != 9 {
		t.Errorf("one outlier: QuantileInterval %+v, QuantileIntervalInner %+v", iv0, iv)
	}
	for _, xs := range [][]float64{nil, {1, math.NaN(), 2}} {
		if q, iv, ok := QuantileIntervalInner(xs, 0.02, 0.95); ok || q != 0 || iv != (Interval{}) {
			t.Errorf("%v: %v %+v %v, want refused", xs, q, iv, ok)
		}
	}
	if q, iv, ok := QuantileIntervalInner([]float64{5, 7}, 0.02, 0.95); !ok || q != 5.04 || iv.Lo != 5 || iv.Hi != 7 {
		t.Errorf("two samples: %v %+v %v", q, iv, ok)
	}
}
