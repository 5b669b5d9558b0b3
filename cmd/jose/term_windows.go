package main

import (
	"os"
	"syscall"
)

// isTerminal reports whether v is a console: an *os.File whose console
// mode the system reports. A pipe, a file and NUL are not.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	if !ok || f == nil {
		return false
	}
	var mode uint32
	return syscall.GetConsoleMode(syscall.Handle(f.Fd()), &mode) == nil
}
