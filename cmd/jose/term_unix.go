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
// through SyscallConn, not Fd, which would put it into blocking mode, a
// mode the command shares with the process that started it.
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
