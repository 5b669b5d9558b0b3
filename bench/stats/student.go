package stats

import "math"

// StudentQuantile returns the p quantile of Student's t distribution with
// df degrees of freedom (df >= 1, 0 < p < 1): the factor of a standard
// error estimated from df + 1 samples that a two-sided interval of
// confidence 1 - 2(1 - p) needs in place of the normal one. It returns
// NaN for df < 1 or p outside (0, 1).
func StudentQuantile(p float64, df int) float64 {
	if df < 1 || !(p > 0 && p < 1) {
		return math.NaN()
	}
	if p == 0.5 {
		return 0
	}
	if p < 0.5 {
		return -StudentQuantile(1-p, df)
	}
	// Bisection on the distribution function, which is monotonic: 200
	// halvings of [0, hi] are far below float64 resolution.
	lo, hi := 0.0, 1.0
	for studentCDF(hi, df) < p {
		hi *= 2
		if hi > 1e300 {
			return math.Inf(1)
		}
	}
	for range 200 {
		mid := (lo + hi) / 2
		if studentCDF(mid, df) < p {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo <= 1e-12*hi {
			break
		}
	}
	return (lo + hi) / 2
}

// studentCDF returns P(T <= t) for t >= 0 and T Student's t with df
// degrees of freedom: 1 - I_x(df/2, 1/2) / 2 with x = df / (df + t²).
func studentCDF(t float64, df int) float64 {
	v := float64(df)
	return 1 - regIncBeta(v/2, 0.5, v/(v+t*t))/2
}

// regIncBeta returns the regularized incomplete beta function I_x(a, b)
// for a, b > 0 and 0 <= x <= 1, by its continued fraction (Lentz's
// method), on the side of x where it converges quickly.
func regIncBeta(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log1p(-x))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, 1-x)/b
}

func betaCF(a, b, x float64) float64 {
	const tiny = 1e-300
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		num := fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm))
		d = 1 + num*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + num/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		h *= d * c
		num = -(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1))
		d = 1 + num*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + num/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-15 {
			break
		}
	}
	return h
}
