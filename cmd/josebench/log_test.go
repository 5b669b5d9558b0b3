package main

import "testing"

// TestLogFilter: the log's filter column is one cell whatever the pattern
// holds: "-" for none, quoted with a space or a control character (a
// newline would break the row), cut to 32 characters.
func TestLogFilter(t *testing.T) {
	for in, want := range map[string]string{
		"":                                  "-",
		"Signature$":                        "Signature$",
		"a b":                               `"a b"`,
		"HS256\nRS256":                      `"HS256\nRS256"`,
		"0123456789012345678901234567890":   "0123456789012345678901234567890",
		"01234567890123456789012345678901":  "01234567890123456789012345678901",
		"012345678901234567890123456789012": "0123456789012345678901234567890…",
		"ééééééééééééééééééééééééééééééééé": "ééééééééééééééééééééééééééééééé…",
	} {
		if got := logFilter(in); got != want {
			t.Errorf("logFilter(%q) = %q, want %q", in, got, want)
		}
	}
}
