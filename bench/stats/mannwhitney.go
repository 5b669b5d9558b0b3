package stats

import (
	"math"
	"slices"
)

// MannWhitney returns the two-sided p-value of the Mann-Whitney U test (also
// called the Wilcoxon rank-sum test) of the hypothesis that xs and ys come
// from the same distribution. The test makes no assumption of normality,
// which is why benchstat uses it to compare benchmark samples, and josebench
// does the same.
//
// Without ties and with at most 50 samples on each side the p-value is exact
// (the distribution of U is counted); otherwise the normal approximation with
// tie and continuity corrections is used. It returns 1 when either side is
// empty, and 1 when every sample is equal.
func MannWhitney(xs, ys []float64) float64 {
	n1, n2 := len(xs), len(ys)
	if n1 == 0 || n2 == 0 {
		return 1
	}
	type obs struct {
		v     float64
		first bool
	}
	all := make([]obs, 0, n1+n2)
	for _, x := range xs {
		all = append(all, obs{x, true})
	}
	for _, y := range ys {
		all = append(all, obs{y, false})
	}
	slices.SortFunc(all, func(a, b obs) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})
	// Ranks, with ties given their average rank.
	var r1 float64
	var tieTerm float64 // sum of t^3 - t over tie groups
	ties := false
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		rank := float64(i+j+1) / 2 // mean of ranks i+1 .. j
		for k := i; k < j; k++ {
			if all[k].first {
				r1 += rank
			}
		}
		if t := float64(j - i); t > 1 {
			ties = true
			tieTerm += t*t*t - t
		}
		i = j
	}
	u1 := r1 - float64(n1*(n1+1))/2
	u2 := float64(n1*n2) - u1
	u := math.Min(u1, u2)

	if !ties && n1 <= 50 && n2 <= 50 {
		// P(U <= u) counted exactly, doubled for two sides.
		p := 2 * uCDF(n1, n2, int(u))
		return math.Min(p, 1)
	}
	n := float64(n1 + n2)
	mu := float64(n1*n2) / 2
	sigma2 := float64(n1*n2) / 12 * ((n + 1) - tieTerm/(n*(n-1)))
	if sigma2 <= 0 {
		return 1
	}
	z := (math.Abs(u-mu) - 0.5) / math.Sqrt(sigma2)
	if z < 0 {
		z = 0
	}
	return math.Min(math.Erfc(z/math.Sqrt2), 1)
}

// uCDF returns P(U <= u) for the Mann-Whitney statistic of samples of sizes
// n1 and n2 without ties, counting the arrangements: the number of ways
// c(n1, n2, u) that U equals u satisfies
// c(i, j, u) = c(i-1, j, u-j) + c(i, j-1, u).
func uCDF(n1, n2, u int) float64 {
	if u < 0 {
		return 0
	}
	maxU := n1 * n2
	// dp[j][k]: arrangements of i firsts and j seconds with U = k.
	prev := make([][]float64, n2+1)
	for j := range prev {
		prev[j] = make([]float64, maxU+1)
		prev[j][0] = 1 // i = 0: U is 0
	}
	for i := 1; i <= n1; i++ {
		cur := make([][]float64, n2+1)
		for j := 0; j <= n2; j++ {
			cur[j] = make([]float64, maxU+1)
			for k := 0; k <= maxU; k++ {
				var c float64
				if k-j >= 0 {
					c += prev[j][k-j]
				}
				if j > 0 {
					c += cur[j-1][k]
				}
				cur[j][k] = c
			}
		}
		prev = cur
	}
	var total, below float64
	for k, c := range prev[n2] {
		total += c
		if k <= u {
			below += c
		}
	}
	return below / total
}
