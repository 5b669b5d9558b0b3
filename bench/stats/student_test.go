package stats

import (
	"math"
	"testing"
)

// StudentQuantile against the tables (and the closed forms for 1 and 2
// degrees of freedom); large df tends to the normal quantile.
func TestStudentQuantile(t *testing.T) {
	for _, tt := range []struct {
		p    float64
		df   int
		want float64
	}{
		{0.975, 1, math.Tan(math.Pi * 0.475)},       // 12.7062
		{0.975, 2, 0.95 / math.Sqrt(2*0.975*0.025)}, // 4.3027
		{0.975, 3, 3.18245},
		{0.975, 4, 2.77645},
		{0.975, 8, 2.30600},
		{0.975, 30, 2.04227},
		{0.95, 10, 1.81246},
		{0.995, 5, 4.03214},
		{0.025, 8, -2.30600},
		{0.5, 3, 0},
		{0.975, 100000, 1.95997},
	} {
		if got := StudentQuantile(tt.p, tt.df); math.Abs(got-tt.want) > 2e-5*math.Max(1, math.Abs(tt.want)) {
			t.Errorf("StudentQuantile(%v, %d) = %.6f, want %.6f", tt.p, tt.df, got, tt.want)
		}
	}
	for _, bad := range []struct {
		p  float64
		df int
	}{{0.975, 0}, {0, 3}, {1, 3}, {math.NaN(), 3}} {
		if got := StudentQuantile(bad.p, bad.df); !math.IsNaN(got) {
			t.Errorf("StudentQuantile(%v, %d) = %v, want NaN", bad.p, bad.df, got)
		}
	}
}
