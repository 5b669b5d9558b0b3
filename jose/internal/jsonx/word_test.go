package jsonx

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// The word-at-a-time tests must be exact for every byte of a word: the
// string scanner jumps to the first byte special8 marks (a quote, an
// escape, a control character or a non-ASCII byte to validate), and the
// number scanner to the first nonDigit8 marks, so a byte wrongly unmarked
// would be skipped unchecked, and one wrongly marked would end a run
// early.
func TestWordTests(t *testing.T) {
	for _, c := range []struct {
		name string
		fn   func(uint64) uint64
		want func(byte) bool // the byte is marked
	}{
		{"special8", special8, func(c byte) bool { return !plain[c] }},
		{"nonDigit8", nonDigit8, func(c byte) bool { return c < '0' || c > '9' }},
	} {
		t.Run(c.name, func(t *testing.T) {
			check := func(w [8]byte) {
				got := c.fn(binary.LittleEndian.Uint64(w[:]))
				for i, b := range w {
					mark := got >> (8 * i) & 0xff
					if mark != 0 && mark != 0x80 || (mark != 0) != c.want(b) {
						t.Fatalf("%s(%q): byte %d (%#x) gives %#x", c.name, w[:], i, b, mark)
					}
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
			r := rand.New(rand.NewPCG(1, 2))
			for range 1 << 18 {
				var w [8]byte
				binary.LittleEndian.PutUint64(w[:], r.Uint64())
				check(w)
			}
		})
	}
}
