package jwe_test

import (
	"fmt"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// BenchmarkDeflateSmallBlocks measures a "zip":"DEF" token whose DEFLATE
// content is made of thousands of dynamic Huffman blocks that hold nothing
// but their end-of-block symbol: no output at all, so MaxDecompressedSize
// never acts, while compress/flate builds the block's Huffman tables for
// each ~60-byte header. With codes of up to 15 bits ("links": ~12,900
// blocks of 61 bytes) the literal/length table allocates 137 link tables
// and the distance table 8, about 41 KB per block; with codes of at most 9
// bits ("short": ~16,000 blocks of 49 bytes) the inflater allocates nothing
// but the tables are still built. Compare
// with "control", the same token size of stored content, which costs the
// AES-GCM and base64url work alone:
//
//	go test -run '^$' -bench DeflateSmallBlocks -benchtime 5x -count 3 ./jose/jwe/
//
// Such a token needs the content key: a "dir" or key-wrap secret, or only
// the recipient's public key with ECDH-ES or RSA-OAEP, whose tokens anyone
// can make (inflation comes before the signature of a nested JWT).
func BenchmarkDeflateSmallBlocks(b *testing.B) {
	const size = 768<<10 - 128 // DEFLATE bytes: a token just under 1 MiB
	// The first three need a raised Limits.MaxCompressedSize: the default,
	// 16 KiB, refuses them before any key work; the last two are the
	// worst within it.
	raised := hzDirDecrypter(b, jose.Limits{MaxCompressedSize: 1 << 20})
	def := hzDirDecrypter(b, jose.Limits{})
	cases := []struct {
		name    string
		content []byte
		d       *jwe.Decrypter
	}{
		{"links", deflateEmptyBlocks(size, true), raised},
		{"short", deflateEmptyBlocks(size, false), raised},
		{"control", deflateStored(size), raised},
		{"links-16KiB", deflateEmptyBlocks(15<<10, true), def},
		{"control-16KiB", deflateStored(15 << 10), def},
	}
	for _, c := range cases {
		d := c.d
		tok := hzSealCompact(b, `{"alg":"dir","enc":"A256GCM","zip":"DEF"}`, jwa.A256GCM, hzKey, nil, c.content)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(tok)))
			for b.Loop() {
				if _, err := d.DecryptCompact(tok); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// deflateStored returns raw DEFLATE of about n bytes: stored blocks of
// zeros.
func deflateStored(n int) []byte {
	var out []byte
	for n > 0 {
		k := min(n-5, 65535)
		if k <= 0 {
			k = 0
		}
		final := byte(0)
		if n-5-k <= 0 {
			final = 1
		}
		out = append(out, final, byte(k), byte(k>>8), ^byte(k), ^byte(k>>8))
		out = append(out, make([]byte, k)...)
		n -= 5 + k
	}
	return out
}

// deflateEmptyBlocks returns raw DEFLATE of about n bytes of dynamic
// Huffman blocks that each hold only the end-of-block symbol, the last one
// final. With long, the literal/length and distance codes reach 15 bits
// over many 9-bit prefixes (the costliest tables for compress/flate);
// otherwise no code is longer than 9 bits.
func deflateEmptyBlocks(n int, long bool) []byte {
	var lit, dist []int
	if long {
		// Kraft sums of exactly 1: seven short codes covering 375 of the
		// 512 9-bit prefixes, the 137 others shared by codes of 10 to 15
		// bits (canonical codes put the longest last).
		lit = []int{1, 3, 4, 5, 7, 8, 9}
		for range 273 {
			lit = append(lit, 10)
		}
		lit = append(lit, 11, 12, 13, 14, 15, 15)
		dist = []int{1, 2, 3, 4, 5, 6}
		for range 15 {
			dist = append(dist, 10)
		}
		dist = append(dist, 11, 12, 13, 14, 15, 15)
	} else {
		for i := range 286 {
			lit = append(lit, 8+i/226) // 226 of 8 bits, 60 of 9
		}
		dist = []int{1, 1}
	}
	var cl [19]int // the code length code: symbols 1 to 16, 4 bits each
	for s := 1; s <= 16; s++ {
		cl[s] = 4
	}
	clCodes, litCodes := canonicalCodes(cl[:]), canonicalCodes(lit)
	var w bitWriter
	block := func(final bool) {
		w.bits(b2u(final), 1)
		w.bits(2, 2) // dynamic Huffman
		w.bits(uint64(len(lit)-257), 5)
		w.bits(uint64(len(dist)-1), 5)
		w.bits(19-4, 4)
		for _, s := range [19]int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15} {
			w.bits(uint64(cl[s]), 3)
		}
		sym := func(s int) { w.code(clCodes[s], cl[s]) }
		all := append(append([]int(nil), lit...), dist...)
		for i := 0; i < len(all); {
			v := all[i]
			sym(v)
			run := 0
			for i+1+run < len(all) && all[i+1+run] == v {
				run++
			}
			i += 1 + run
			for run >= 3 { // code 16: repeat the previous length 3 to 6 times
				r := min(run, 6)
				if left := run - r; left > 0 && left < 3 {
					r = run - 3
				}
				sym(16)
				w.bits(uint64(r-3), 2)
				run -= r
			}
			for ; run > 0; run-- {
				sym(v)
			}
		}
		w.code(litCodes[256], lit[256]) // end of block
	}
	for len(w.buf) < n-64 {
		block(false)
	}
	block(true)
	w.bits(0, 7)
	return w.buf
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// canonicalCodes returns the canonical Huffman codes of the code lengths
// (RFC 1951 §3.2.2).
func canonicalCodes(lengths []int) []uint64 {
	var count [16]int
	for _, l := range lengths {
		count[l]++
	}
	count[0] = 0
	var next [16]uint64
	code := uint64(0)
	for bits := 1; bits < 16; bits++ {
		code = (code + uint64(count[bits-1])) << 1
		next[bits] = code
	}
	codes := make([]uint64, len(lengths))
	for i, l := range lengths {
		if l > 0 {
			codes[i] = next[l]
			next[l]++
		}
	}
	if next[15] > 1<<15 {
		panic(fmt.Sprint("over-subscribed code ", lengths))
	}
	return codes
}

// bitWriter writes DEFLATE's bit stream: values least significant bit
// first, Huffman codes most significant bit first.
type bitWriter struct {
	buf []byte
	acc uint64
	n   uint
}

func (w *bitWriter) bits(v uint64, n uint) {
	w.acc |= v << w.n
	for w.n += n; w.n >= 8; w.n -= 8 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc >>= 8
	}
}

func (w *bitWriter) code(c uint64, n int) {
	var r uint64
	for i := range n {
		r = r<<1 | c>>i&1
	}
	w.bits(r, uint(n))
}
