//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd || windows

package main

import "os"

// isTerminal reports whether v is a terminal: an *os.File whose descriptor
// terminalFD, the system's test, accepts (the terminal attributes
// isatty(3) reads; on Windows, the console mode). A pipe, a file and a
// device such as /dev/null or NUL are not. The descriptor is reached
// through SyscallConn, not Fd: on Unix, Fd puts a descriptor that Go
// itself made non-blocking (os.Pipe, os.OpenFile of a terminal or a FIFO)
// into blocking mode, while one the process was given (os.Stdin,
// os.Stdout, os.NewFile) it leaves as it is, so this keeps to what the
// file is, not the mode of the command's standard input and output; on
// Windows, Fd would take the handle from the runtime's I/O completion
// port.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	if !ok || f == nil {
		return false
	}
	c, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var tty bool
	if err := c.Control(func(fd uintptr) { tty = terminalFD(fd) }); err != nil {
		return false
	}
	return tty
}
