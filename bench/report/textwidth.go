package report

import "unicode/utf8"

// dejaVuSans holds the advance widths of the printable ASCII characters,
// space to '~', in DejaVu Sans, in thousandths of an em (measured in
// Chromium). It is the face a Linux browser falls back to for system-ui
// and wider than most others (Arial's and Helvetica's letters are about
// 10% narrower), so a width computed from it bounds what a browser draws.
var dejaVuSans = [95]uint16{
	318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,
	636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531,
	1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787,
	603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500,
	500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,
	635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
}

// textWidth returns an upper estimate of the width in pixels of s set in
// a sans-serif face of px pixels: DejaVu Sans's widths for ASCII, an em
// for any other rune, and 3% to spare.
func textWidth(s string, px float64) float64 {
	em := 0
	for _, r := range s {
		if r >= ' ' && r <= '~' {
			em += int(dejaVuSans[r-' '])
		} else {
			em += 1000
		}
	}
	return float64(em) / 1000 * px * 1.03
}

// fitText returns s, or s cut and ended with "…" so that its estimated
// width (see textWidth) is at most width pixels.
func fitText(s string, px, width float64) string {
	if textWidth(s, px) <= width {
		return s
	}
	for n := len(s); n > 0; {
		_, size := utf8.DecodeLastRuneInString(s[:n])
		n -= size
		if t := s[:n] + "…"; textWidth(t, px) <= width {
			return t
		}
	}
	return ""
}
