//go:build !linux

package dpop

// threadCPU is not available here.
func threadCPU() (int64, bool) { return 0, false }
