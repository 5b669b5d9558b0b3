package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// ShiftInterval's estimate and bounds are order statistics of the
// differences, the same as sorting all of them.
func TestShiftIntervalOrderStatistics(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, nm := range [][2]int{{10, 10}, {12, 17}, {50, 50}, {31, 10}} {
		x, y := make([]float64, nm[0]), make([]float64, nm[1])
		for i := range x {
			x[i] = rng.NormFloat64() + 0.3
		}
		for i := range y {
			y[i] = rng.NormFloat64()
		}
		y[0] = x[0] // a tie
		var d []float64
		for _, a := range x {
			for _, b := range y {
				d = append(d, a-b)
			}
		}
		slices.Sort(d)
		n, m := len(x), len(y)
		c := int(math.Floor(float64(n*m)/2 - 1.959963984540054*math.Sqrt(float64(n*m*(n+m+1))/12)))
		med := d[(n*m-1)/2]
		if n*m%2 == 0 {
			med = (d[n*m/2-1] + d[n*m/2]) / 2
		}
		s, iv, ok := ShiftInterval(x, y, 0.95)
		if !ok {
			t.Fatalf("%v: not ok", nm)
		}
		if math.Abs(s-med) > 1e-12 || math.Abs(iv.Lo-d[c-1]) > 1e-12 || math.Abs(iv.Hi-d[n*m-c]) > 1e-12 {
			t.Errorf("%v: %v [%v, %v], want %v [%v, %v]", nm, s, iv.Lo, iv.Hi, med, d[c-1], d[n*m-c])
		}
	}
}

// The interval covers the true shift about as often as it claims, for
// normal and for heavy-tailed (preempted) samples.
func TestShiftIntervalCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const trials = 2000
	miss := 0
	for range trials {
		x, y := make([]float64, 50), make([]float64, 50)
		for i := range x {
			x[i] = 0.5 + 0.05*rng.NormFloat64()
			y[i] = 0.05 * rng.NormFloat64()
			if rng.IntN(10) == 0 {
				x[i] += 0.3
			}
			if rng.IntN(10) == 0 {
				y[i] += 0.3
			}
		}
		if _, iv, _ := ShiftInterval(x, y, 0.95); !iv.Contains(0.5) {
			miss++
		}
	}
	if rate := float64(miss) / trials; rate < 0.03 || rate > 0.07 {
		t.Errorf("the 95%% interval missed the shift in %.1f%%", rate*100)
	}
}

// Too few samples, or a value not finite, are refused rather than given
// an interval that claims 95%.
func TestShiftIntervalRefuses(t *testing.T) {
	ten := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	if _, _, ok := ShiftInterval(ten[:9], ten, 0.95); ok {
		t.Error("9 samples: ok")
	}
	bad := slices.Clone(ten)
	bad[3] = math.Inf(1)
	if _, _, ok := ShiftInterval(ten, bad, 0.95); ok {
		t.Error("Inf: ok")
	}
	bad[3] = math.NaN()
	if _, _, ok := ShiftInterval(bad, ten, 0.95); ok {
		t.Error("NaN: ok")
	}
	if s, iv, ok := ShiftInterval(ten, ten, 0.95); !ok || s != 0 || !iv.Contains(0) {
		t.Errorf("identical samples: %v %v %v", s, iv, ok)
	}
}
