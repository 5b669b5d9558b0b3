package stats_test

import (
	"fmt"

	"github.com/josebench/josebench/bench/stats"
)

func ExampleSummarize() {
	s := stats.Summarize([]float64{10, 11, 11.5, 12, 20})
	fmt.Printf("best %.1f mean %.1f mode %.3f median %.1f worst %.1f stdev %.3f rstdev %.2f%%\n",
		s.Best, s.Mean, s.Mode, s.Median, s.Worst, s.Stdev, s.RStdev)
	// Output:
	// best 10.0 mean 12.9 mode 11.155 median 11.5 worst 20.0 stdev 3.611 rstdev 27.99%
}

func ExampleMannWhitney() {
	before := []float64{101, 99, 100, 102, 98}
	after := []float64{91, 90, 92, 89, 93}
	fmt.Printf("p = %.4f\n", stats.MannWhitney(before, after))
	// Output:
	// p = 0.0079
}
