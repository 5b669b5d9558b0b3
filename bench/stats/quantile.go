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
	s, q, l, u, below, above, ok := quantileRanks(xs, p, confidence)
	if !ok {
		return 0, Interval{}, false
	}
	return q, Interval{Lo: s[l-1], Hi: s[u-1], Confidence: 1 - below - above}, true
}

// QuantileIntervalInner is [QuantileInterval] with its bounds moved off
// the smallest and the largest sample where they can be without meeting
// (3 samples or more, and the other bound further in): where
// QuantileInterval's bound is x(1), it is x(2), and where it is x(n),
// x(n-1); otherwise (for the 2nd percentile, below 13 samples, whose
// upper bound is x(2)) it stays. Confidence is what the order statistics
// taken cover, P(l <= B < u) as for QuantileInterval: mostly less than
// confidence once a bound moved, not always (for the 2nd percentile at
// 95%, 95.0 to 95.1% from 258 to 276 samples). One
// outlying sample (a timer glitch, a round far faster than the others)
// moves the p-quantile by at most one rank, but QuantileInterval's bound
// at the extreme, the 2nd percentile's lower one below 277 samples, all
// the way to it; this interval, for a standard error of the quantile,
// only by one rank.
func QuantileIntervalInner(xs []float64, p, confidence float64) (q float64, iv Interval, ok bool) {
	s, q, l, u, below, above, ok := quantileRanks(xs, p, confidence)
	if !ok {
		return 0, Interval{}, false
	}
	// Each bound moves only where it stays apart from the other, which
	// takes 3 samples or more.
	n := len(s)
	fn := float64(n)
	if l == 1 && u > 2 {
		// P(B < 2) = P(B = 0) + P(B = 1)
		l, below = 2, math.Exp(fn*math.Log1p(-p))+math.Exp(math.Log(fn)+math.Log(p)+(fn-1)*math.Log1p(-p))
	}
	if u == n && l < n-1 {
		// P(B >= n-1) = P(B = n) + P(B = n-1)
		u, above = n-1, math.Exp(fn*math.Log(p))+math.Exp(math.Log(fn)+(fn-1)*math.Log(p)+math.Log1p(-p))
	}
	return q, Interval{Lo: s[l-1], Hi: s[u-1], Confidence: max(1-below-above, 0)}, true
}

// quantileRanks returns xs sorted, its p-quantile, and the ranks l and u
// (from 1) of [QuantileInterval] with the probabilities below = P(B < l)
// and above = P(B >= u) that they miss it.
func quantileRanks(xs []float64, p, confidence float64) (s []float64, q float64, l, u int, below, above float64, ok bool) {
	n := len(xs)
	if n == 0 || !(p > 0 && p < 1) || !(confidence > 0 && confidence < 1) {
		return nil, 0, 0, 0, 0, 0, false
	}
	s = slices.Clone(xs)
	for _, v := range s {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, 0, 0, 0, 0, 0, false
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
	l, below = 1, cdf                   // rank l (from 1) is s[l-1]
	u, above = n, 0.0
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
	return s, q, l, u, below, above, true
}
