package httpfetch

import (
	"math"
	"net/http"
	"strings"
	"time"
)

// maxDelta is the largest delta-seconds value kept (RFC 9111 §1.2.2: a
// larger one is taken as 2^31 s).
const maxDelta = 1 << 31

// Freshness returns the freshness lifetime of a response with header h
// received at now (RFC 9111 §4.2.1), less its Age (§4.2.3), and whether
// the response stated one: Cache-Control no-store or no-cache (RFC 9111
// §5.2.2.4-5) give 0; else max-age (§5.2.2.1); else Expires less Date
// (§5.3; an invalid Expires means already expired). s-maxage, for shared
// caches, is ignored.
func Freshness(h http.Header, now time.Time) (time.Duration, bool) {
	age := time.Duration(0)
	if a, ok := deltaSeconds(h.Get("Age")); ok {
		age = a
	}
	maxAge, hasMaxAge := time.Duration(0), false
	for _, line := range h.Values("Cache-Control") {
		for d := range strings.SplitSeq(line, ",") {
			name, value, _ := strings.Cut(strings.TrimSpace(d), "=")
			switch strings.ToLower(strings.TrimSpace(name)) {
			case "no-store", "no-cache":
				return 0, true
			case "max-age":
				v, ok := deltaSeconds(strings.Trim(strings.TrimSpace(value), `"`))
				if !ok {
					v = 0 // invalid: stale (RFC 9111 §4.2.1)
				}
				if !hasMaxAge || v < maxAge { // conflicting: the shortest
					maxAge = v
				}
				hasMaxAge = true
			}
		}
	}
	if hasMaxAge {
		return maxAge - age, true
	}
	if exp := h.Get("Expires"); exp != "" {
		t, err := http.ParseTime(exp)
		if err != nil {
			return 0, true
		}
		date := now
		if d, err := http.ParseTime(h.Get("Date")); err == nil {
			date = d
		}
		return subSaturating(t.Sub(date), age), true
	}
	return 0, false
}

// subSaturating returns d - age (age >= 0), at least math.MinInt64: d, the
// difference of two times, may itself be saturated.
func subSaturating(d, age time.Duration) time.Duration {
	if d < math.MinInt64+age {
		return math.MinInt64
	}
	return d - age
}

// deltaSeconds parses a delta-seconds value (RFC 9111 §1.2.2).
func deltaSeconds(s string) (time.Duration, bool) {
	if s == "" {
		return 0, false
	}
	n := int64(0)
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		if n < maxDelta {
			n = n*10 + int64(c-'0')
		}
	}
	return time.Duration(min(n, maxDelta)) * time.Second, true
}

// Clamp bounds a freshness lifetime d by lo and hi; a response that
// stated none (explicit false) is used for hi.
func Clamp(d time.Duration, explicit bool, lo, hi time.Duration) time.Duration {
	if !explicit {
		return hi
	}
	return min(max(d, lo), hi)
}
