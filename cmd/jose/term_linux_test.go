package main

import (
	"os"
	"strconv"
	"syscall"
	"testing"
	"unsafe"
)

// TestIsTerminalPty: isTerminal reports a terminal as one, both sides of a
// pseudo-terminal (the slave is what a shell gives as standard input and
// output), non-blocking or not, and leaves each in its mode; a closed
// file is not a terminal. Skipped where /dev/ptmx cannot be opened.
func TestIsTerminalPty(t *testing.T) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer m.Close()
	var n uint32
	if errno := withFD(t, m, func(fd uintptr) (errno syscall.Errno) {
		var unlock int32
		if _, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); errno == 0 {
			_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n)))
		}
		return errno
	}); errno != 0 {
		t.Skip(errno)
	}
	name := "/dev/pts/" + strconv.FormatUint(uint64(n), 10)
	s, err := os.OpenFile(name, os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer s.Close()
	// As the standard input of a process: a descriptor it was given,
	// here in non-blocking mode.
	fd, err := syscall.Open(name, syscall.O_RDWR|syscall.O_NOCTTY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	given := os.NewFile(uintptr(fd), name)
	defer given.Close()
	for _, f := range []*os.File{m, s, given} {
		before := nonBlocking(t, f)
		if !isTerminal(f) {
			t.Errorf("%s is not a terminal", f.Name())
		}
		if nonBlocking(t, f) != before {
			t.Errorf("isTerminal changed the blocking mode of %s", f.Name())
		}
	}
	closed, err := os.OpenFile(name, os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	if isTerminal(closed) {
		t.Errorf("the closed file %s is a terminal", name)
	}
}
