package jsonx

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// ltNested returns an object nested depth deep: {"a":{"a":...{}...}}.
func ltNested(depth int) []byte {
	return []byte(strings.Repeat(`{"a":`, depth-1) + "{}" + strings.Repeat("}", depth-1))
}

// ltMembers returns an object of n members.
func ltMembers(n int) []byte {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"m` + strconv.Itoa(i) + `":0`)
	}
	b.WriteByte('}')
	return []byte(b.String())
}

// TestLimitsBoundaries checks that each limit admits exactly its value,
// that zero and negative fields mean the defaults, and that a positive
// field replaces its default (both ways).
func TestLimitsBoundaries(t *testing.T) {
	for _, tt := range []struct {
		name  string
		input func(int) []byte
		lim   func(int) Limits
		def   int
	}{
		{"depth", ltNested, func(v int) Limits { return Limits{MaxDepth: v} }, DefaultMaxDepth},
		{"members", ltMembers, func(v int) Limits { return Limits{MaxMembers: v} }, DefaultMaxMembers},
	} {
		for _, c := range []struct {
			field, max int
		}{{0, tt.def}, {-1, tt.def}, {-1 << 31, tt.def}, {3, 3}, {tt.def + 5, tt.def + 5}} {
			lim := tt.lim(c.field)
			if err := Valid(tt.input(c.max), lim); err != nil {
				t.Errorf("%s limit %d: %d refused: %v", tt.name, c.field, c.max, err)
			}
			if _, err := ParseObject(tt.input(c.max), lim); err != nil {
				t.Errorf("%s limit %d: ParseObject of %d refused: %v", tt.name, c.field, c.max, err)
			}
			for _, err := range []error{Valid(tt.input(c.max+1), lim), ltParseErr(tt.input(c.max+1), lim)} {
				var le *LimitError
				if !errors.As(err, &le) || le.Limit != tt.name || le.Max != c.max {
					t.Errorf("%s limit %d: %d accepted or wrong error: %v", tt.name, c.field, c.max+1, err)
				}
			}
		}
	}
}

func ltParseErr(data []byte, lim Limits) error {
	_, err := ParseObject(data, lim)
	return err
}
