package stats

import (
	"math"
	"slices"
)

// minShiftSamples is the fewest samples on each side for which
// [ShiftInterval] takes the normal approximation of the Mann-Whitney
// statistic's distribution.
const minShiftSamples = 10

// ShiftInterval returns the Hodges-Lehmann estimate of the shift of xs
// over ys, the median of the len(xs) × len(ys) differences x - y, with
// its distribution-free confidence interval: the order statistics C and
// nm + 1 - C of those differences, C the Mann-Whitney statistic's lower
// critical value (Hollander and Wolfe, Nonparametric Statistical Methods,
// §4.3), from its normal approximation. It assumes two independent
// samples, a shift of one distribution from the other: not paired
// values. ok is false, and the other results zero, with fewer than 10
// samples on either side, or a value not finite. Its memory is
// O(len(xs) + len(ys)): the differences are counted, never stored.
func ShiftInterval(xs, ys []float64, confidence float64) (shift float64, iv Interval, ok bool) {
	n, m := len(xs), len(ys)
	if n < minShiftSamples || m < minShiftSamples || confidence <= 0 || confidence >= 1 {
		return 0, Interval{}, false
	}
	x, y := slices.Clone(xs), slices.Clone(ys)
	for _, v := range append(slices.Clip(x), y...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, Interval{}, false
		}
	}
	slices.Sort(x)
	slices.Sort(y)
	nm := n * m
	z := math.Sqrt2 * math.Erfinv(confidence)
	c := int(math.Floor(float64(nm)/2 - z*math.Sqrt(float64(nm)*float64(n+m+1)/12)))
	c = max(c, 1)
	lo, hi := kthDifference(x, y, c), kthDifference(x, y, nm+1-c)
	shift = kthDifference(x, y, (nm+1)/2)
	if nm%2 == 0 {
		shift = (shift + kthDifference(x, y, nm/2+1)) / 2
	}
	return shift, Interval{Lo: lo, Hi: hi, Confidence: confidence}, true
}

// kthDifference returns the k-th smallest (from 1) of the differences
// x[i] - y[j] of sorted x and y, by bisection on its value: each step
// counts the differences at most t in O(len(x) + len(y)); the result is
// the smallest difference above the last bound counted short of k, one
// of the differences exactly.
func kthDifference(x, y []float64, k int) float64 {
	lo, hi := x[0]-y[len(y)-1], x[len(x)-1]-y[0] // count(lo) >= 1, count(hi) = nm
	if countAtMost(x, y, lo) >= k {
		return lo
	}
	// Invariant: count(lo) < k <= count(hi).
	for range 2100 { // enough to halve any float64 range down to adjacent values
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if countAtMost(x, y, mid) >= k {
			hi = mid
		} else {
			lo = mid
		}
	}
	// Every difference in (lo, hi] is the k-th: the smallest above lo.
	best, j := hi, 0
	for _, xi := range x {
		for j < len(y) && xi-y[j] > lo {
			j++
		}
		if j > 0 {
			best = min(best, xi-y[j-1])
		}
	}
	return best
}

// countAtMost returns how many x[i] - y[j] are at most t, x and y sorted.
func countAtMost(x, y []float64, t float64) int {
	// As j grows, x[i] - y[j] shrinks; as i grows, the first j with
	// x[i] - y[j] <= t moves on.
	count, j := 0, 0
	for _, xi := range x {
		for j < len(y) && xi-y[j] > t {
			j++
		}
		count += len(y) - j
	}
	return count
}
