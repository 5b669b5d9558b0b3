//go:build linux

package vectortest

import (
	"runtime"
	"syscall"
	"testing"
)

// ThreadCPU starts measuring the CPU time of the calling thread, which it
// locks, and returns a function that reports it as cpu-ns/op (defer
// ThreadCPU(b)() in a benchmark): on a machine shared with other work, it
// moves much less than wall time (ns/op). GC work done by background
// workers on other threads is not counted. Elsewhere than on Linux it
// reports nothing.
func ThreadCPU(b *testing.B) func() {
	runtime.LockOSThread()
	start := threadCPU()
	return func() {
		d := threadCPU() - start
		runtime.UnlockOSThread()
		if b.N > 0 {
			b.ReportMetric(float64(d)/float64(b.N), "cpu-ns/op")
		}
	}
}

// threadCPU returns the user and system CPU time of the calling thread in
// nanoseconds (getrusage RUSAGE_THREAD).
func threadCPU() int64 {
	const rusageThread = 1 // RUSAGE_THREAD, linux/resource.h
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
