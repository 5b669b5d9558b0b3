package jsonx

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// The word-at-a-time tests must be exact where the scanners look: the
// string scanner jumps to the first byte special8 marks (a quote, an
// escape, a control character or a non-ASCII byte to validate) and tests a
// word for having none, so special8 must leave every plain byte before the
// first special byte unmarked, mark that byte, and mark nothing in a word
// of plain bytes only; the bytes after the first special byte it may mark
// or not (a borrow of the subtractions), since no scanner reads their
// marks. nonDigit8 must be exact for every byte: the number scanner jumps
// to the first byte it marks, and it is cheap to keep exact.
func TestWordTests(t *testing.T) {
	for _, c := range []struct {
		name      string
		fn        func(uint64) uint64
		want      func(byte) bool // the byte is marked
		firstOnly bool            // only the marks up to the first are exact
	}{
		{"special8", special8, func(c byte) bool { return !plain[c] }, true},
		{"nonDigit8", nonDigit8, func(c byte) bool { return c < '0' || c > '9' }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			check := func(w [8]byte) {
				got := c.fn(binary.LittleEndian.Uint64(w[:]))
				for i, b := range w {
					mark := got >> (8 * i) & 0xff
					if mark != 0 && mark != 0x80 || (mark != 0) != c.want(b) {
						t.Fatalf("%s(%q): byte %d (%#x) gives %#x", c.name, w[:], i, b, mark)
					}
					if c.firstOnly && c.want(b) {
						return
					}
				}
				if got != 0 && c.firstOnly {
					t.Fatalf("%s(%q) = %#x, want 0", c.name, w[:], got)
				}
			}
			// Every byte value at every position, beside every
			// neighbour value on either side.
			for pos := range 8 {
				for b := range 256 {
					for n := range 256 {
						var w [8]byte
						for i := range w {
							w[i] = byte(n)
						}
						w[pos] = byte(b)
						check(w)
					}
				}
			}
			// Every pair of values at every pair of positions, over
			// plain filler: a special byte below must not unmark or
			// mark early one above it.
			if c.firstOnly {
				for p := range 8 {
					for q := p + 1; q < 8; q++ {
						for a := range 256 {
							for b := range 256 {
								w := [8]byte{'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a'}
								w[p], w[q] = byte(a), byte(b)
								check(w)
							}
						}
					}
				}
			}
			r := rand.New(rand.NewPCG(1, 2))
			for range 1 << 18 {
				var w [8]byte
				binary.LittleEndian.PutUint64(w[:], r.Uint64())
				check(w)
			}
		})
	}
}
