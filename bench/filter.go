package bench

import (
	"fmt"
	"regexp"
)

// CompileFilter compiles a --filter pattern, a Go regular expression
// (RE2 syntax, package regexp) matched against variant identities by
// [Filter]. An invalid pattern is an error naming it.
func CompileFilter(pattern string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("bench: --filter %q is not a valid Go regular expression: %v", pattern, err)
	}
	return re, nil
}

// Filter returns the variants whose identity ([Variant.ID]: benchmark,
// subject and parameters joined by '/', as "josebench list --group"
// prints them and as the gobench names after "BenchmarkSuite/") re
// matches anywhere, as phpbench's --filter and go test -bench match: anchor
// with ^ and $ for a whole name. The order is kept.
func Filter(vs []Variant, re *regexp.Regexp) []Variant {
	var out []Variant
	for i := range vs {
		if re.MatchString(vs[i].ID()) {
			out = append(out, vs[i])
		}
	}
	return out
}
