//go:build linux

package bench

import (
	"syscall"
	"unsafe"
)

// clockThreadCPUTime is CLOCK_THREAD_CPUTIME_ID (linux/time.h).
const clockThreadCPUTime = 3

// threadCPU returns the CPU time consumed by the calling OS thread, in
// nanoseconds, and whether it is available. The caller locks its goroutine
// to the thread.
func threadCPU() (int64, bool) {
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0, false
	}
	return ts.Nano(), true
}
