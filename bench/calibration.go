package bench

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
)

// The calibration workload is a fixed mix of the work the variants do,
// taken from the standard library and none of the code under test: a
// SHA-256 hash, a JSON encoding and decoding (allocation, reflection and
// the garbage collector), base64url and a big-integer modular
// multiplication, measured with fixed revolutions in every round. Two runs
// of it can differ only because the machine did (another CPU, frequency
// scaling, other load sharing the cores and their caches), so dividing a
// variant's time by the calibration's time of the same round corrects
// much of the machine's drift between a run and a stored reference (see
// package bench/report). A loop of integer arithmetic alone, tried first,
// followed the machine badly: under other processes' load it moved 2%
// while every variant moved 25%, in thread CPU time too.
const (
	calibrationRevs = 170 // revolutions of one iteration (about 1ms at 6µs each, as a default iteration)
	// calibrationIterations are the iterations of each round: a
	// comparison divides a variant's value in a round by the best of
	// them, which one preemption does not move.
	calibrationIterations = 3
)

// calibrationMix names the calibration workload's parts; it is its
// variant's parameter, so that runs measured with another workload are
// not corrected by each other.
const calibrationMix = "sha256+json+base64+bigmul"

var (
	calibrationData = func() []byte {
		b := make([]byte, 512)
		for i := range b {
			b[i] = byte(i * 7)
		}
		return b
	}()
	calibrationModulus = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 1024), big.NewInt(105))
	calibrationFactor  = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 1000), big.NewInt(3))
)

// calibrationClaims is what the calibration encodes and decodes as JSON.
type calibrationClaims struct {
	Iss string   `json:"iss"`
	Sub string   `json:"sub"`
	Aud []string `json:"aud"`
	Exp int64    `json:"exp"`
	Sig string   `json:"sig"`
}

// calibrationOp is one revolution of the calibration workload.
func calibrationOp() error {
	sum := sha256.Sum256(calibrationData)
	enc := base64.RawURLEncoding.EncodeToString(sum[:])
	b, err := json.Marshal(calibrationClaims{Iss: "https://issuer.example", Sub: "calibration", Aud: []string{"a", "b"}, Exp: 1700000000, Sig: enc})
	if err != nil {
		return fmt.Errorf("bench: calibration: %w", err)
	}
	var c calibrationClaims
	if err := json.Unmarshal(b, &c); err != nil {
		return fmt.Errorf("bench: calibration: %w", err)
	}
	raw, err := base64.RawURLEncoding.DecodeString(c.Sig)
	if err != nil || len(raw) != len(sum) {
		return fmt.Errorf("bench: calibration: base64 round trip failed")
	}
	x := new(big.Int).SetBytes(raw)
	for range 4 {
		x.Mul(x, calibrationFactor)
		x.Mod(x, calibrationModulus)
	}
	if x.Sign() == 0 {
		return fmt.Errorf("bench: calibration: product is zero")
	}
	return nil
}

// CalibrationVariant is the variant under which a run stores its
// calibration workload.
func CalibrationVariant() Variant {
	return Variant{Benchmark: "Calibration", Groups: []string{"calibration"}, Subject: "fixed",
		Params: []Param{{Name: "mix", Value: calibrationMix}}}
}

// visitCalibration measures the calibration workload in round:
// calibrationIterations iterations.
func (r *Runner) visitCalibration(cal *Result, round int) error {
	for range calibrationIterations {
		it, err := r.iteration(calibrationOp, cal.Revs)
		if err != nil {
			return err
		}
		it.Round = round
		cal.Iterations = append(cal.Iterations, it)
	}
	return nil
}
