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
// len(xs) trials and probability p (the interval of Hahn and Meeker,
// Statistical Intervals, §5.2). Where the samples are too few for a
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
	// pmf(k) = P(B = k), summed from both ends: the lower tail
	// P(B < l) and the upper P(B >= u).
	lp, lq := math.Log(p), math.Log1p(-p)
	pmf := func(k int) float64 {
		return math.Exp(lnChoose(n, k) + float64(k)*lp + float64(n-k)*lq)
	}
	tail := (1 - confidence) / 2
	// [x(l), x(u)] misses the quantile when fewer than l samples lie
	// below it (P(B < l)) or u or more do (P(B >= u)).
	l, below := 1, pmf(0)
	for l < n && below+pmf(l) <= tail {
		below += pmf(l)
		l++
	}
	u, above := n, pmf(n)
	for u > l && above+pmf(u-1) <= tail {
		above += pmf(u - 1)
		u--
	}
	return q, Interval{Lo: s[l-1], Hi: s[u-1], Confidence: 1 - below - above}, true
}
