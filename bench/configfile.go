package bench

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// LoadConfig reads and parses the configuration file at path (see
// [ParseConfig]); errors name the file and line.
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("bench: %w", err)
	}
	return ParseConfig(path, data)
}

// ConfigError is an error in a configuration file, at a line.
type ConfigError struct {
	File string // file name as given to ParseConfig
	Line int    // 1-based line, 0 if unknown
	Msg  string
}

// Error returns "bench: file:line: message".
func (e *ConfigError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("bench: %s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("bench: %s: %s", e.File, e.Msg)
}

var yamlLineMsg = regexp.MustCompile(`^line (\d+): (.*)$`)
var yamlUnknownField = regexp.MustCompile(`^field (\S+) not found in type bench\.(\w+)$`)

// sectionOf names the YAML section that a Go type decodes.
var sectionOf = map[string]string{
	"Config":        "the top level",
	"RunnerConfig":  "runner",
	"MeasureConfig": "measure",
	"ReportDef":     "a report definition",
}

// ParseConfig parses bench.yaml content. Keys absent from data keep their
// [DefaultConfig] value; unknown keys, values of the wrong type and invalid
// values are errors that give name:line. An empty document is the default
// configuration.
func ParseConfig(name string, data []byte) (Config, error) {
	cfg := DefaultConfig()
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return Config{}, yamlError(name, err)
	}
	if len(root.Content) == 0 {
		return cfg, nil
	}
	if root.Content[0].Kind != yaml.MappingNode {
		return Config{}, &ConfigError{File: name, Line: root.Content[0].Line, Msg: "the configuration must be a mapping (runner:, measure:, reports:)"}
	}
	// Lists replace the defaults rather than merge into them.
	cfg.Reports = nil
	withDefaultReports := true
	if findNode(root.Content[0], "reports") != nil {
		withDefaultReports = false
	}
	if err := checkTypes(root.Content[0], reflect.TypeFor[Config](), ""); err != nil {
		err.File = name
		return Config{}, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		return Config{}, yamlError(name, err)
	}
	if withDefaultReports {
		cfg.Reports = DefaultConfig().Reports
	}
	if p := cfg.validate(); p != nil {
		return Config{}, &ConfigError{File: name, Line: lineOf(root.Content[0], p.path), Msg: p.path + ": " + p.msg}
	}
	return cfg, nil
}

// yamlError turns a yaml.v3 error into a ConfigError with its line.
func yamlError(name string, err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg := te.Errors[0]
		if m := yamlLineMsg.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			msg = m[2]
			if f := yamlUnknownField.FindStringSubmatch(msg); f != nil {
				sec := sectionOf[f[2]]
				if sec == "" {
					sec = f[2]
				}
				msg = fmt.Sprintf("unknown key %q in %s", f[1], sec)
			}
			msg = strings.TrimPrefix(msg, "yaml: ")
			return &ConfigError{File: name, Line: line, Msg: msg}
		}
		return &ConfigError{File: name, Msg: msg}
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := yamlLineMsg.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &ConfigError{File: name, Line: line, Msg: m[2]}
	}
	return &ConfigError{File: name, Msg: msg}
}

// checkTypes checks the scalar types of the YAML document n against the
// Go type t before it is decoded, so that every type error names its key
// and integers are strict: yaml.v3 would truncate "iterations: 2.5" to 2
// and report a string where an int belongs without naming the key. Keys
// unknown to t are left to the decoder, types with their own UnmarshalYAML
// (revs, time) to their decoder.
func checkTypes(n *yaml.Node, t reflect.Type, path string) *ConfigError {
	if reflect.PointerTo(t).Implements(reflect.TypeFor[yaml.Unmarshaler]()) {
		return nil
	}
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	bad := func(want string) *ConfigError {
		got := strconv.Quote(n.Value)
		switch n.Kind {
		case yaml.MappingNode:
			got = "a mapping"
		case yaml.SequenceNode:
			got = "a list"
		}
		return &ConfigError{Line: n.Line, Msg: fmt.Sprintf("%s: must be %s, not %s", path, want, got)}
	}
	join := func(key string) string {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			if n.Tag == "!!null" {
				return nil
			}
			return bad("a mapping")
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i].Value
			for j := range t.NumField() {
				f := t.Field(j)
				if name, _, _ := strings.Cut(f.Tag.Get("yaml"), ","); name == key {
					if err := checkTypes(n.Content[i+1], f.Type, join(key)); err != nil {
						return err
					}
				}
			}
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			if n.Tag == "!!null" {
				return nil
			}
			return bad("a mapping")
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if err := checkTypes(n.Content[i+1], t.Elem(), join(n.Content[i].Value)); err != nil {
				return err
			}
		}
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			if n.Tag == "!!null" {
				return nil
			}
			return bad("a list")
		}
		for i, e := range n.Content {
			if err := checkTypes(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Int:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
			return bad("an integer")
		}
		if _, err := strconv.Atoi(n.Value); err != nil {
			return bad("a decimal integer")
		}
	case reflect.Float64:
		if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") {
			return bad("a number")
		}
	case reflect.String:
		if n.Kind != yaml.ScalarNode {
			return bad("a string")
		}
	}
	return nil
}

// findNode returns the value node of key in mapping m, or nil.
func findNode(m *yaml.Node, key string) *yaml.Node {
	_, v := findKey(m, key)
	return v
}

// findKey returns the key and value nodes of key in mapping m, or nils.
func findKey(m *yaml.Node, key string) (k, v *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// lineOf returns the line of the node at a dotted path with optional [i]
// indexes, or of the closest existing ancestor.
func lineOf(root *yaml.Node, path string) int {
	n := root
	line := root.Line
	for _, part := range strings.Split(path, ".") {
		key, idx := part, -1
		if i := strings.IndexByte(part, '['); i >= 0 {
			key = part[:i]
			idx, _ = strconv.Atoi(strings.TrimSuffix(part[i+1:], "]"))
		}
		k, v := findKey(n, key)
		if v == nil {
			return line
		}
		n, line = v, k.Line
		if idx >= 0 {
			if n.Kind != yaml.SequenceNode || idx >= len(n.Content) {
				return line
			}
			n = n.Content[idx]
			line = n.Line
		}
	}
	return line
}
