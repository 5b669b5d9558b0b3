//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os"
	"syscall"
	"unsafe"
)

// isTerminal reports whether v is a terminal: an *os.File whose terminal
// attributes the system reports (the ioctl isatty(3) makes). A pipe, a
// file and a device such as /dev/null are not. The descriptor is reached
// through SyscallConn, not Fd, which puts a descriptor that Go itself made
// non-blocking (os.Pipe, os.OpenFile of a terminal or a FIFO) into
// blocking mode; a descriptor the process was given (os.Stdin, os.Stdout,
// os.NewFile) Fd leaves as it is, so this keeps to what the file is, not
// the mode of the command's standard input and output.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	if !ok || f == nil {
		return false
	}
	c, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var errno syscall.Errno
	err = c.Control(func(fd uintptr) {
		var t syscall.Termios
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, uintptr(ioctlGetTermios), uintptr(unsafe.Pointer(&t)))
	})
	return err == nil && errno == 0
}
