package stats

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// Hand-computed: mean 64.5/5 = 12.9; squared deviations 8.41, 3.61, 1.96,
// 0.81, 50.41 sum to 65.2, so the population variance is 13.04 and the
// stdev sqrt(13.04) = 3.611094; rstdev 3.611094/12.9 = 27.9930%. The mode
// (11.154599) is from an independent implementation of scipy's gaussian_kde
// (sample covariance times Scott's factor n^-1/5 squared: bandwidth
// sqrt(16.3)*5^-0.2 = 2.926172) on the 512-point grid.
func TestSummarize(t *testing.T) {
	tests := []struct {
		xs                                                 []float64
		best, worst, mean, median, mode, stdev, rstdev, bw float64
	}{
		{[]float64{10, 11, 11.5, 12, 20}, 10, 20, 12.9, 11.5, 11.154598825831702, 3.611094, 27.993, 2.9261716700078075},
		{[]float64{1, 1, 1, 4}, 1, 4, 1.75, 1, 1.035225048923679, 1.299038, 74.2307, 1.1367874248827985},
		{[]float64{100, 102, 98, 101, 150, 99}, 98, 150, 108.3333, 100.5, 100.03522504892368, 18.678568, 17.241755, 14.298943241428917},
	}
	for _, tt := range tests {
		s := Summarize(tt.xs)
		if s.N != len(tt.xs) || s.Best != tt.best || s.Worst != tt.worst || s.Median != tt.median {
			t.Errorf("%v: n/best/worst/median = %d %v %v %v", tt.xs, s.N, s.Best, s.Worst, s.Median)
		}
		if !near(s.Mean, tt.mean, 1e-4) || !near(s.Stdev, tt.stdev, 1e-5) || !near(s.RStdev, tt.rstdev, 1e-3) {
			t.Errorf("%v: mean %v stdev %v rstdev %v, want %v %v %v", tt.xs, s.Mean, s.Stdev, s.RStdev, tt.mean, tt.stdev, tt.rstdev)
		}
		if !near(s.Mode, tt.mode, 1e-9) {
			t.Errorf("%v: mode %v, want %v", tt.xs, s.Mode, tt.mode)
		}
		if bw := ScottBandwidth(tt.xs); !near(bw, tt.bw, 1e-9) {
			t.Errorf("%v: bandwidth %v, want %v", tt.xs, bw, tt.bw)
		}
	}
}

func TestModeEdgeCases(t *testing.T) {
	if m := Mode(nil); m != 0 {
		t.Errorf("Mode(nil) = %v", m)
	}
	if m := Mode([]float64{7}); m != 7 {
		t.Errorf("Mode of one sample = %v", m)
	}
	if m := Mode([]float64{3, 3, 3}); m != 3 {
		t.Errorf("Mode of equal samples = %v", m)
	}
	// Two samples: the density is symmetric about 0.5 and unimodal, so the
	// peak is at 0.5, which falls between grid points 255 and 256 of 511
	// steps: the answer is within one step.
	if m := Mode([]float64{0, 1}); !near(m, 0.5, 1.0/511) {
		t.Errorf("Mode(0, 1) = %v, want 0.5", m)
	}
	// A bimodal sample with a heavier cluster: the mode is in it.
	if m := Mode([]float64{1, 1.1, 1.2, 0.9, 5, 5.1}); m < 0.9 || m > 1.2 {
		t.Errorf("Mode of bimodal sample = %v, want in the heavy cluster", m)
	}
}

func TestSummarizeEmpty(t *testing.T) {
	if s := Summarize(nil); s != (Summary{}) {
		t.Errorf("Summarize(nil) = %+v", s)
	}
	s := Summarize([]float64{0, 0})
	if s.RStdev != 0 || s.Mean != 0 {
		t.Errorf("zero samples: %+v", s)
	}
}

func TestMedianDoesNotModify(t *testing.T) {
	xs := []float64{3, 1, 2, 4}
	if m := Median(xs); m != 2.5 {
		t.Errorf("Median = %v", m)
	}
	if xs[0] != 3 || xs[1] != 1 {
		t.Errorf("Median sorted its input: %v", xs)
	}
}

func TestDeviationZScore(t *testing.T) {
	if d := Deviation(200, 150); d != -25 {
		t.Errorf("Deviation = %v", d)
	}
	if d := Deviation(0, 5); d != 0 {
		t.Errorf("Deviation from 0 = %v", d)
	}
	// mean 2, population stdev sqrt(2/3)
	if z := ZScore([]float64{1, 2, 3}, 3); !near(z, 1/math.Sqrt(2.0/3), 1e-12) {
		t.Errorf("ZScore = %v", z)
	}
	if z := ZScore([]float64{2, 2}, 2); z != 0 {
		t.Errorf("ZScore with no spread = %v", z)
	}
}

// The expected p-values come from a brute-force enumeration of all
// arrangements (exact cases) and from the textbook normal approximation
// with tie and continuity corrections (the tied case).
func TestMannWhitney(t *testing.T) {
	tests := []struct {
		xs, ys []float64
		p      float64
	}{
		{[]float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10}, 2.0 / 252},
		{[]float64{6, 7, 8, 9, 10}, []float64{1, 2, 3, 4, 5}, 2.0 / 252},
		{[]float64{1, 3, 5, 7, 9}, []float64{2, 4, 6, 8, 10}, 0.6904761904761905},
		{[]float64{1, 2, 3}, []float64{4, 5, 6, 7}, 0.05714285714285714},
		{[]float64{1, 2, 2, 3, 4}, []float64{3, 4, 5, 5, 6}, 0.03445363703947131},
		{[]float64{5, 5, 5}, []float64{5, 5}, 1},
		{nil, []float64{1}, 1},
	}
	for _, tt := range tests {
		if p := MannWhitney(tt.xs, tt.ys); !near(p, tt.p, 1e-12) {
			t.Errorf("MannWhitney(%v, %v) = %v, want %v", tt.xs, tt.ys, p, tt.p)
		}
	}
}
