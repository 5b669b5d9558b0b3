//go:build !linux

package vectortest

import "testing"

// ThreadCPU reports nothing where the thread CPU time is not available.
func ThreadCPU(*testing.B) func() { return func() {} }
