package bench

import "fmt"

// The calibration workload is a fixed loop of integer arithmetic and table
// updates that uses none of the code under test, measured with fixed
// revolutions in every round. Two runs of it can differ only because the
// machine did (another CPU, frequency scaling, other load), so comparing
// it between a run and a stored reference says how much of their
// difference is the machine's.
const (
	calibrationSteps = 4096 // loop steps of one revolution
	calibrationRevs  = 128  // revolutions of one iteration (about 1ms, as a default iteration)
)

var calibrationTable [1 << 12]uint64

// calibrationOp is one revolution of the calibration workload.
func calibrationOp() error {
	x := uint64(0x9e3779b97f4a7c15)
	for range calibrationSteps {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		calibrationTable[x&(uint64(len(calibrationTable))-1)] += x
	}
	if calibrationTable[0] == 1 { // never true in practice; keeps the loop alive
		return fmt.Errorf("bench: calibration table corrupt")
	}
	return nil
}

// CalibrationVariant is the variant under which a run stores its
// calibration workload.
func CalibrationVariant() Variant {
	return Variant{Benchmark: "Calibration", Groups: []string{"calibration"}, Subject: "fixed",
		Params: []Param{{Name: "steps", Value: fmt.Sprint(calibrationSteps)}}}
}

// visitCalibration measures the calibration workload once in round.
func (r *Runner) visitCalibration(cal *Result, round int) error {
	it, err := r.iteration(calibrationOp, cal.Revs)
	if err != nil {
		return err
	}
	it.Round = round
	cal.Iterations = append(cal.Iterations, it)
	return nil
}
