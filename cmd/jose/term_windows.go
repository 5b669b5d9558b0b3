package main

import (
	"os"
	"syscall"
)

// isTerminal reports whether v is a console: an *os.File whose console
// mode the system reports. A pipe, a file and NUL are not. The handle is
// reached through SyscallConn, not Fd, which would take it from the
// runtime's I/O completion port.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	if !ok || f == nil {
		return false
	}
	c, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var mode uint32
	var merr error
	if err := c.Control(func(fd uintptr) { merr = syscall.GetConsoleMode(syscall.Handle(fd), &mode) }); err != nil {
		return false
	}
	return merr == nil
}
