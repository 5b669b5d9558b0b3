package bench

import (
	"strings"
	"testing"
	"time"
)

func TestProgressDots(t *testing.T) {
	var b strings.Builder
	p := NewProgress("auto", &b, false)
	if _, ok := p.(*dotsProgress); !ok {
		t.Fatalf("auto off a terminal is %T", p)
	}
	p.Start(81)
	for i := range 81 {
		p.Variant(i, &Variant{})
		p.Done(i, &Result{})
	}
	p.Finish()
	if want := strings.Repeat(".", 80) + "\n.\n\n"; b.String() != want {
		t.Errorf("dots %q", b.String())
	}
	if NewProgress("none", &b, true) != nil {
		t.Error("none is not nil")
	}
	if _, ok := NewProgress("dots", &b, true).(*dotsProgress); !ok {
		t.Error("dots on a terminal")
	}
}

func TestProgressLine(t *testing.T) {
	var b strings.Builder
	p := NewProgress("auto", &b, true).(*lineProgress)
	now := time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC)
	p.now = func() time.Time { return now }
	vs, _ := Select(DefaultConfig().Measure, []string{"HS256"})
	p.Start(3)
	p.Variant(0, &vs[0])
	now = now.Add(10 * time.Second)
	p.Done(0, nil)
	p.Variant(1, &vs[1])
	now = now.Add(10 * time.Second)
	p.Done(1, nil)
	p.Finish()
	want := "\r\033[K[1/3] HS256Bench benchSignature alg=HS256  ETA ?" +
		"\r\033[K[2/3] HS256Bench benchVerification alg=HS256  ETA 20s" +
		"\r\033[K2 of 3 variants in 20s\n\n"
	if b.String() != want {
		t.Errorf("line progress %q\nwant %q", b.String(), want)
	}
}
