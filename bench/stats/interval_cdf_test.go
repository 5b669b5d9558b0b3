package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMedianIntervalMatchesCDF checks the running sum against binomialCDF
// summed afresh for every candidate rank, for every n up to 200.
func TestMedianIntervalMatchesCDF(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 2; n <= 200; n++ {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = r.Float64()
		}
		for _, conf := range []float64{0.9, 0.95, 0.99} {
			_, got := MedianInterval(xs, conf)
			s := slices.Sorted(slices.Values(xs))
			k, cover := 1, 1-2*binomialCDF(n, 0)
			for j := 2; j <= n/2; j++ {
				c := 1 - 2*binomialCDF(n, j-1)
				if c < conf {
					break
				}
				k, cover = j, c
			}
			want := Interval{Lo: s[k-1], Hi: s[n-k], Confidence: cover}
			if got != want {
				t.Fatalf("n=%d conf=%g: got %+v, want %+v", n, conf, got, want)
			}
		}
	}
}

// binomialCDF, the reference, returns P(B <= k) for B binomial with n trials and
// probability 1/2.
func binomialCDF(n, k int) float64 {
	var p float64
	lnHalf := float64(n) * math.Log(0.5)
	for i := 0; i <= k; i++ {
		p += math.Exp(lnChoose(n, i) + lnHalf)
	}
	return min(p, 1)
}
