//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os"
	"syscall"
	"testing"
)

// TestIsTerminalKeepsFile: isTerminal tells a pipe and /dev/null from a
// terminal without putting the descriptor into blocking mode (as
// (*os.File).Fd does with a descriptor Go made non-blocking): the pipe
// (which os.Pipe makes non-blocking) stays non-blocking.
func TestIsTerminalKeepsFile(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, f := range []*os.File{r, w} {
		if !nonBlocking(t, f) {
			t.Errorf("before isTerminal, %v is blocking: the test cannot tell", f.Name())
			continue
		}
		if isTerminal(f) {
			t.Errorf("the pipe %v is a terminal", f.Name())
		}
		if !nonBlocking(t, f) {
			t.Errorf("isTerminal put %v into blocking mode", f.Name())
		}
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(null) || isTerminal(nil) || isTerminal(struct{}{}) {
		t.Errorf("%s, nil or a non-file is a terminal", os.DevNull)
	}
}

// nonBlocking reports whether f's descriptor has O_NONBLOCK, read without
// (*os.File).Fd.
func nonBlocking(t *testing.T, f *os.File) bool {
	t.Helper()
	var flags uintptr
	if errno := withFD(t, f, func(fd uintptr) (errno syscall.Errno) {
		flags, _, errno = syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
		return errno
	}); errno != 0 {
		t.Fatal(errno)
	}
	return flags&syscall.O_NONBLOCK != 0
}

// withFD runs fn with f's descriptor, reached without (*os.File).Fd, and
// returns its errno.
func withFD(t *testing.T, f *os.File, fn func(fd uintptr) syscall.Errno) syscall.Errno {
	t.Helper()
	c, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var errno syscall.Errno
	if err := c.Control(func(fd uintptr) { errno = fn(fd) }); err != nil {
		t.Fatal(err)
	}
	return errno
}
