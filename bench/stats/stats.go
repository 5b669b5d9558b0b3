// Package stats computes the statistics that josebench reports for one
// benchmark variant: the phpbench set (best, mean, mode, worst, stdev,
// rstdev) plus the median, and the Mann-Whitney U test used to decide
// whether two runs differ by more than noise.
//
// Samples are times per revolution, one per iteration, in any unit; every
// function here is unit-agnostic.
package stats

import (
	"math"
	"slices"
)

// KDEPoints is the number of evenly spaced points, between the smallest and
// the largest sample, at which [Mode] evaluates the kernel density estimate
// (phpbench's default).
const KDEPoints = 512

// Summary is the description of one set of samples.
type Summary struct {
	N      int     `json:"n"`      // number of samples
	Best   float64 `json:"best"`   // smallest sample
	Worst  float64 `json:"worst"`  // largest sample
	Mean   float64 `json:"mean"`   // arithmetic mean
	Median float64 `json:"median"` // middle sample, or the mean of the two middle ones
	Mode   float64 `json:"mode"`   // peak of the Gaussian kernel density estimate, see [Mode]
	Stdev  float64 `json:"stdev"`  // population standard deviation
	RStdev float64 `json:"rstdev"` // Stdev as a percentage of Mean
}

// Summarize returns the summary of xs. It returns the zero Summary when xs
// is empty.
func Summarize(xs []float64) Summary {
	if len(xs) == 0 {
		return Summary{}
	}
	s := Summary{
		N:      len(xs),
		Best:   slices.Min(xs),
		Worst:  slices.Max(xs),
		Mean:   Mean(xs),
		Median: Median(xs),
		Mode:   Mode(xs),
		Stdev:  Stdev(xs),
	}
	if s.Mean != 0 {
		s.RStdev = s.Stdev / s.Mean * 100
	}
	return s
}

// Mean returns the arithmetic mean of xs, or 0 if xs is empty.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// Variance returns the population variance of xs (divided by n, as
// phpbench's stdev), or 0 if xs is empty.
func Variance(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	m := Mean(xs)
	var ss float64
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return ss / float64(len(xs))
}

// Stdev returns the population standard deviation of xs.
func Stdev(xs []float64) float64 { return math.Sqrt(Variance(xs)) }

// sampleVariance returns the variance of xs divided by n-1.
func sampleVariance(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	return Variance(xs) * float64(len(xs)) / float64(len(xs)-1)
}

// Median returns the median of xs, or 0 if xs is empty. xs is not modified.
func Median(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// ScottBandwidth returns the bandwidth of a Gaussian kernel for xs by
// Scott's rule, as scipy's gaussian_kde (which phpbench ports) computes it:
// the sample standard deviation (divided by n-1) times n^(-1/5).
func ScottBandwidth(xs []float64) float64 {
	n := float64(len(xs))
	return math.Sqrt(sampleVariance(xs)) * math.Pow(n, -1.0/5)
}

// Density returns the Gaussian kernel density estimate of xs with bandwidth
// bw, evaluated at x.
func Density(xs []float64, bw, x float64) float64 {
	var sum float64
	for _, xi := range xs {
		z := (x - xi) / bw
		sum += math.Exp(-z * z / 2)
	}
	return sum / (float64(len(xs)) * bw * math.Sqrt(2*math.Pi))
}

// Mode returns the most probable value of xs as phpbench computes it: the
// Gaussian kernel density estimate of xs (Scott's bandwidth) is evaluated at
// [KDEPoints] evenly spaced points from min(xs) to max(xs) inclusive, and the
// point of highest density is returned; when several points share the
// highest density, their mean. With one sample, or when all samples are
// equal, the mode is that sample; with none it is 0.
func Mode(xs []float64) float64 {
	switch len(xs) {
	case 0:
		return 0
	case 1:
		return xs[0]
	}
	lo, hi := slices.Min(xs), slices.Max(xs)
	if lo == hi {
		return lo
	}
	bw := ScottBandwidth(xs)
	step := (hi - lo) / (KDEPoints - 1)
	best := math.Inf(-1)
	var sum float64
	var count int
	for i := range KDEPoints {
		x := lo + float64(i)*step
		if i == KDEPoints-1 {
			x = hi
		}
		d := Density(xs, bw, x)
		switch {
		case d > best:
			best, sum, count = d, x, 1
		case d == best:
			sum += x
			count++
		}
	}
	return sum / float64(count)
}

// Deviation returns the difference of x from ref in percent of ref
// (positive when x is larger), or 0 when ref is 0.
func Deviation(ref, x float64) float64 {
	if ref == 0 {
		return 0
	}
	return (x - ref) / ref * 100
}

// ZScore returns how many population standard deviations x lies from the
// mean of xs, or 0 when the standard deviation is 0.
func ZScore(xs []float64, x float64) float64 {
	sd := Stdev(xs)
	if sd == 0 {
		return 0
	}
	return (x - Mean(xs)) / sd
}
