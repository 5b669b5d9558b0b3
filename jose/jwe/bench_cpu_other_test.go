//go:build !linux

package jwe

import "testing"

// bnCPU reports nothing where the thread CPU time is not available.
func bnCPU(*testing.B) func() { return func() {} }
