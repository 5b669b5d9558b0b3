package jsonx

import (
	"strings"
	"testing"
)

// BenchmarkNameCollisions is the worst case of the duplicate check of a
// small object: 16 long names of equal first and last bytes and length
// (one hash bit), each compared with every earlier one to their last
// differing byte, beside 16 names of the same size that do not collide.
func BenchmarkNameCollisions(b *testing.B) {
	obj := func(name func(i int) string) []byte {
		var sb strings.Builder
		sb.WriteByte('{')
		for i := range smallObject {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(`"` + name(i) + `":0`)
		}
		sb.WriteByte('}')
		return []byte(sb.String())
	}
	const n = 4096
	colliding := obj(func(i int) string { return "a" + strings.Repeat("x", n-3) + string(rune('A'+i)) + "z" })
	distinct := obj(func(i int) string { return string(rune('A'+i)) + strings.Repeat("x", n-1-i) + strings.Repeat("y", i) })
	for _, c := range []struct {
		name string
		data []byte
	}{{"colliding", colliding}, {"distinct", distinct}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			for b.Loop() {
				if err := Valid(c.data, Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
