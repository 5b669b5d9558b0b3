package bench

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Revs is a number of revolutions per iteration; the zero value is Auto.
type Revs int

// Auto is the Revs value that calibrates the revolutions to the target time.
const Auto Revs = 0

// String returns "auto" or the number.
func (r Revs) String() string {
	if r == Auto {
		return "auto"
	}
	return strconv.Itoa(int(r))
}

// UnmarshalYAML accepts "auto" or a positive integer.
func (r *Revs) UnmarshalYAML(n *yaml.Node) error {
	v, err := parseRevs(n.Value)
	if err != nil || n.Kind != yaml.ScalarNode {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: revs must be \"auto\" or a positive integer, not %q", n.Line, n.Value)}}
	}
	*r = v
	return nil
}

// MarshalJSON writes "auto" or the number.
func (r Revs) MarshalJSON() ([]byte, error) {
	if r == Auto {
		return []byte(`"auto"`), nil
	}
	return strconv.AppendInt(nil, int64(r), 10), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *Revs) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	v, err := parseRevs(s)
	if err != nil {
		return err
	}
	*r = v
	return nil
}

func parseRevs(s string) (Revs, error) {
	if s == "auto" {
		return Auto, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("bench: revs must be \"auto\" or a positive integer, not %q", s)
	}
	return Revs(n), nil
}

// Duration is a time.Duration written as "10ms" in YAML and JSON.
type Duration time.Duration

// String formats d as time.Duration does.
func (d Duration) String() string { return time.Duration(d).String() }

// UnmarshalYAML parses a Go duration ("10ms", "1s").
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil || n.Kind != yaml.ScalarNode {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: time must be a duration such as 10ms, not %q", n.Line, n.Value)}}
	}
	*d = Duration(v)
	return nil
}

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// UnmarshalJSON reads what MarshalJSON writes.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// TimeUnit is the unit in which times are shown.
type TimeUnit string

// Time units, named as phpbench names them.
const (
	Nanoseconds  TimeUnit = "nanoseconds"
	Microseconds TimeUnit = "microseconds"
	Milliseconds TimeUnit = "milliseconds"
	Seconds      TimeUnit = "seconds"
)

// Nanos returns the number of nanoseconds in one u (0 for an unknown unit).
func (u TimeUnit) Nanos() float64 {
	switch u {
	case Nanoseconds:
		return 1
	case Microseconds:
		return 1e3
	case Milliseconds:
		return 1e6
	case Seconds:
		return 1e9
	}
	return 0
}

// Symbol returns the unit's symbol: ns, μs, ms or s.
func (u TimeUnit) Symbol() string {
	switch u {
	case Nanoseconds:
		return "ns"
	case Microseconds:
		return "μs"
	case Milliseconds:
		return "ms"
	case Seconds:
		return "s"
	}
	return string(u)
}
