package jwt

import (
	"math"
	"testing"
)

// TestPlanValueBeyondInt32: a member of the struct's plan that ends beyond
// what planValue's int32 offsets hold (a Validator whose MaxTokenSize a
// caller raised past 2 GiB) sends the claims set to the second scan rather
// than storing offsets that would wrap. The 2 GiB source is only reserved:
// Go hands out a large allocation as untouched zero pages.
func TestPlanValueBeyondInt32(t *testing.T) {
	if math.MaxInt < 1<<32 {
		t.Skip("32-bit platform")
	}
	src := make([]byte, 1<<31+16)
	copy(src[1<<31:], `"x"`)
	p := &structPlan{fields: []fieldPlan{{name: "scope"}}}
	s := privateSink{plan: p, pool: stringPool{src: src}}
	s.member([]byte("scope"), src[1<<31:1<<31+3], true)
	if !s.overflow || s.n != 0 {
		t.Fatalf("a member at offset 1<<31: overflow %v, %d values stored", s.overflow, s.n)
	}
	s = privateSink{plan: p, pool: stringPool{src: src}}
	s.member([]byte("scope"), src[16:19], true)
	if s.overflow || s.n != 1 || s.raw[0].start != 16 || s.raw[0].end != 19 {
		t.Fatalf("a member at offset 16: overflow %v, %d values, %+v", s.overflow, s.n, s.raw[0])
	}
}
