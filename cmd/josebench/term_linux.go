package main

import (
	"os"
	"syscall"
	"unsafe"
)

// ttyColumns returns the columns of the terminal f is, or 0 when the
// TIOCGWINSZ ioctl does not tell.
func ttyColumns(f *os.File) int {
	var ws struct{ Row, Col, X, Y uint16 }
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), uintptr(syscall.TIOCGWINSZ), uintptr(unsafe.Pointer(&ws)))
	if errno != 0 {
		return 0
	}
	return int(ws.Col)
}
