package jsonx

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// plain8 must never call a word plain when one of its bytes is not (the
// string scanner would then skip a quote, an escape, a control character or
// unvalidated UTF-8); saying "not plain" for a plain word only costs time.
func TestPlain8(t *testing.T) {
	check := func(w [8]byte) {
		all := true
		for _, c := range w {
			all = all && plain[c]
		}
		if got := plain8(binary.LittleEndian.Uint64(w[:])); got && !all {
			t.Fatalf("plain8(%q) = true", w[:])
		}
	}
	// Every byte value at every position of a plain word, and after each
	// possible neighbour (borrows run from low to high bytes).
	for pos := range 8 {
		for c := range 256 {
			for _, fill := range []byte{'a', ' ', '~', '!', '#', '[', ']'} {
				var w [8]byte
				for i := range w {
					w[i] = fill
				}
				w[pos] = byte(c)
				check(w)
				if pos > 0 {
					for _, prev := range []byte{0, 0x1f, 0x20, '"', '\\', 0x7f, 0x80, 0xff} {
						w[pos-1] = prev
						check(w)
					}
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1 << 20 {
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], r.Uint64())
		check(w)
		for i := range w { // mostly plain words, with one or two odd bytes
			w[i] = 0x20 + w[i]%0x5f
		}
		w[r.IntN(8)] = byte(r.IntN(256))
		check(w)
	}
	if !plain8(binary.LittleEndian.Uint64([]byte("abcdefgh"))) || !plain8(binary.LittleEndian.Uint64([]byte(" !#[]~}0"))) {
		t.Fatal("plain words refused")
	}
}
