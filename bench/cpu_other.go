//go:build !linux

package bench

// threadCPU reports that the thread CPU time is not available.
func threadCPU() (int64, bool) { return 0, false }
