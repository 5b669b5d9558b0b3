package bench

import (
	"fmt"
	"io"
	"time"
	"unicode/utf8"
)

// NewProgress returns the progress display for mode ("dots", "line",
// "none", or "auto": line when terminal is true, dots otherwise) writing to
// w. The progress line is cut to width columns (when width > 0) so that
// rewriting it never leaves a wrapped line behind.
func NewProgress(mode string, w io.Writer, terminal bool, width int) Progress {
	switch mode {
	case "none":
		return nil
	case "auto":
		if terminal {
			return &lineProgress{w: w, width: width}
		}
		return &dotsProgress{w: w}
	case "line":
		return &lineProgress{w: w, width: width}
	}
	return &dotsProgress{w: w}
}

// dotsProgress prints a dot per variant done (in the last round),
// phpbench's "dots" progress, and a newline every 80 variants.
type dotsProgress struct {
	w io.Writer
	n int
}

func (p *dotsProgress) Start(int)             {}
func (p *dotsProgress) Variant(int, *Variant) {}
func (p *dotsProgress) Done(i int, _ *Result) {
	p.n++
	fmt.Fprint(p.w, ".")
	if p.n%80 == 0 {
		fmt.Fprintln(p.w)
	}
}
func (p *dotsProgress) Finish() {
	if p.n%80 != 0 {
		fmt.Fprintln(p.w)
	}
	fmt.Fprintln(p.w)
}

// lineProgress rewrites one line with the step (see [Progress]), the
// variant being run and the estimated time left.
type lineProgress struct {
	w     io.Writer
	width int // columns of the terminal; 0: unknown
	total int
	done  int
	start time.Time
	now   func() time.Time
}

func (p *lineProgress) clock() time.Time {
	if p.now != nil {
		return p.now()
	}
	return time.Now()
}

func (p *lineProgress) Start(total int) { p.total, p.start = total, p.clock() }

func (p *lineProgress) Variant(i int, v *Variant) {
	eta := "?"
	if i > 0 {
		left := time.Duration(float64(p.clock().Sub(p.start)) / float64(i) * float64(p.total-i))
		eta = left.Round(time.Second).String()
	}
	digits := len(fmt.Sprint(p.total))
	line := fmt.Sprintf("[%*d/%d] ETA %s  %s %s %s", digits, i+1, p.total, eta, v.Benchmark, v.Subject, v.Set())
	fmt.Fprintf(p.w, "\r\033[K%s", fit(line, p.width))
}

// fit cuts s to fewer than width runes (the last column stays free: some
// terminals wrap when it is written), ending it with "…" when cut.
func fit(s string, width int) string {
	if width <= 1 || utf8.RuneCountInString(s) < width {
		return s
	}
	r := []rune(s)
	return string(r[:width-2]) + "…"
}

func (p *lineProgress) Done(int, *Result) { p.done++ }

func (p *lineProgress) Finish() {
	fmt.Fprintf(p.w, "\r\033[K%s\n\n", fit(fmt.Sprintf("%d variants in %s", p.done, p.clock().Sub(p.start).Round(time.Millisecond)), p.width))
}
