package bench

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestProgressDots(t *testing.T) {
	var b strings.Builder
	p := NewProgress("auto", &b, false, 0)
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
	if NewProgress("none", &b, true, 80) != nil {
		t.Error("none is not nil")
	}
	if _, ok := NewProgress("dots", &b, true, 80).(*dotsProgress); !ok {
		t.Error("dots on a terminal")
	}
}

func TestProgressLine(t *testing.T) {
	var b strings.Builder
	p := NewProgress("auto", &b, true, 0).(*lineProgress)
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
	want := "\r\033[K[1/3] ETA ?  HS256Bench benchSignature alg=HS256" +
		"\r\033[K[2/3] ETA 20s  HS256Bench benchVerification alg=HS256" +
		"\r\033[K2 variants in 20s\n\n"
	if b.String() != want {
		t.Errorf("line progress %q\nwant %q", b.String(), want)
	}
}

// In a terminal of 60 columns every rewrite of the line, the longest
// variant's included, stays within 59 columns, so none wraps.
func TestProgressLineWidth(t *testing.T) {
	m := DefaultConfig().Measure
	m.Serializations = Serializations
	m.Payloads = []string{PayloadRFC7520, "100000"}
	vs, _ := Select(m, []string{"JWS", "JWE"})
	for _, width := range []int{60, 80, 120} {
		var b strings.Builder
		p := NewProgress("line", &b, true, width)
		p.Start(len(vs))
		for i := range vs {
			p.Variant(i, &vs[i])
			p.Done(i, nil)
		}
		p.Finish()
		cut := 0
		for _, seg := range strings.Split(b.String(), "\r\033[K")[1:] {
			line := strings.TrimRight(seg, "\n")
			if n := utf8.RuneCountInString(line); n >= width {
				t.Fatalf("width %d: line of %d runes: %q", width, n, line)
			}
			if strings.HasSuffix(line, "…") {
				cut++
			}
		}
		if width == 60 && cut == 0 {
			t.Error("no line was cut at 60 columns: the test checks nothing")
		}
	}
}
