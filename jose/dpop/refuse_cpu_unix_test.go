//go:build unix

package dpop

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used, user and system:
// a benchmark's cost on a machine other processes load, where the wall
// time also counts the time the benchmark waited for a core.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
