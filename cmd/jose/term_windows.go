package main

import "syscall"

// terminalFD reports whether the system reports a console mode of the
// handle fd, for isTerminal.
func terminalFD(fd uintptr) bool {
	var mode uint32
	return syscall.GetConsoleMode(syscall.Handle(fd), &mode) == nil
}
