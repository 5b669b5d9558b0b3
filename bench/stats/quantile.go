package stats

import (
	"math"
	"slices"
)

// QuantileInterval returns the p-quantile of xs (0 < p < 1), the sorted
// samples interpolated linearly between order statistics (Hyndman and
// Fan's definition 7, as R's and NumPy's default), with a
// distribution-free confidence interval for it: the order statistics
// x(l) and x(u), l the largest rank with P(B < l) <= (1-confidence)/2 and
// u the smallest with P(B >= u) <= (1-confidence)/2, B binomial with
// len(xs) trials and probability p: the distribution-free interval of
// order statistics for a quantile, which for p = 1/2 is the sign-test
// interval of [MedianInterval]. Where the samples are too few for a
// tail, the bound is the extreme sample and Confidence says what the
// interval covers. ok is false, and the other results zero, for no
// samples, a value not finite or p outside (0, 1).
func QuantileInterval(xs []float64, p, confidence float64) (q float64, iv Interval, ok bool) {
	n := len(xs)
	if n == 0 || !(p > 0 && p < 1) || !(confidence > 0 && confidence < 1) {
		return 0, Interval{}, false
	}
	s := slices.Clone(xs)
	for _, v := range s {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, Interval{}, false
		}
	}
	slices.Sort(s)
	h := p * float64(n-1)
	i := int(h)
	q = s[i]
	if i+1 < n {
		q += (h - float64(i)) * (s[i+1] - s[i])
	}
	// [x(l), x(u)] misses the quantile when fewer than l samples lie
	// below it, P(B < l) = P(B <= l-1), or u or more do, P(B >= u) =
	// 1 - P(B <= u-1). Walk P(B <= k) up from k = 0, each P(B = k+1) from
	// P(B = k) in logs (no term underflows before it matters), until the
	// upper tail is within bounds: about n·p + a few standard deviations
	// steps for a low quantile, not n.
	tail := (1 - confidence) / 2
	odds := math.Log(p) - math.Log1p(-p)
	lpmf := float64(n) * math.Log1p(-p) // log P(B = 0)
	cdf := math.Exp(lpmf)               // P(B <= k)
	l, below := 1, cdf                  // rank l (from 1) is s[l-1]
	u, above := n, 0.0
	for k := 0; ; k++ {
		if cdf <= tail {
			l, below = k+1, cdf
		}
		if cdf >= 1-tail || k == n-1 {
			u, above = k+1, max(1-cdf, 0)
			break
		}
		lpmf += math.Log(float64(n-k)) - math.Log(float64(k+1)) + odds
		cdf = min(cdf+math.Exp(lpmf), 1)
	}
	return q, Interval{Lo: s[l-1], Hi: s[u-1], Confidence: 1 - below - above}, true
}
