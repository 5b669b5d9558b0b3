//go:build linux

package dpop

import (
	"syscall"
	"unsafe"
)

// threadCPU returns the CPU time of the calling OS thread in nanoseconds
// (CLOCK_THREAD_CPUTIME_ID, 3 in linux/time.h), and whether it is
// available; the caller locks its goroutine to the thread.
func threadCPU() (int64, bool) {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return ts.Nano(), true
}
