package bench

import (
	"fmt"
	"slices"
	"strings"
)

// LookupGroup returns the group that name stands for: the group spelled
// exactly so, else the one group spelled so when case is ignored
// ("hs256" is HS256, "HMAC" is hmac). It returns false for a name that is
// no group, or that matches several groups but none exactly.
func LookupGroup(name string) (string, bool) {
	groups := Groups()
	if slices.Contains(groups, name) {
		return name, true
	}
	var found []string
	for _, g := range groups {
		if strings.EqualFold(g, name) {
			found = append(found, g)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return "", false
}

// ResolveGroups returns groups with each name replaced by the group it
// stands for ([LookupGroup]), in order, without repeats. The first name that
// is no group is an *[UnknownGroupError].
func ResolveGroups(groups []string) ([]string, error) {
	var out []string
	for _, name := range groups {
		g, ok := LookupGroup(name)
		if !ok {
			return nil, &UnknownGroupError{Group: name}
		}
		if !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	return out, nil
}

// maxSuggestions bounds the groups a "did you mean" names, maxEdits the
// edit distance of a suggestion.
const (
	maxSuggestions = 3
	maxEdits       = 3
)

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// SuggestGroups returns the groups that name was most likely meant for,
// at most three, best first: those it matches when case and the
// punctuation '-', '+' and '_' are ignored, else those it begins (at
// least two characters), else those within an edit distance of a third
// of its length (at least 1, at most 3), the nearest only. It returns nil
// when no group is near.
func SuggestGroups(name string) []string {
	key := groupKey(name)
	if key == "" {
		return nil
	}
	groups := Groups()
	var same, prefix []string
	for _, g := range groups {
		switch k := groupKey(g); {
		case k == key:
			same = append(same, g)
		case len(key) >= 2 && strings.HasPrefix(k, key):
			prefix = append(prefix, g)
		}
	}
	if len(same) > 0 {
		return same[:min(len(same), maxSuggestions)]
	}
	if len(prefix) > 0 {
		return prefix[:min(len(prefix), maxSuggestions)]
	}
	best, limit := []string(nil), min(max(1, len(key)/3), maxEdits)
	for _, g := range groups {
		k := groupKey(g)
		if abs(len(k)-len(key)) > limit {
			continue // too far, and a long name costs nothing
		}
		d := editDistance(key, k)
		switch {
		case d > limit:
		case d < limit || best == nil:
			best, limit = []string{g}, d
		default:
			best = append(best, g)
		}
	}
	return best[:min(len(best), maxSuggestions)]
}

// groupKey folds a group name for comparison: lower case, without '-',
// '+', '_' and spaces.
func groupKey(s string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune("-+_ ", r) {
			return -1
		}
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// editDistance returns the optimal string alignment distance between a
// and b: insertions, deletions, substitutions and transpositions of
// adjacent characters, counted in bytes (group names are ASCII).
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// UnknownGroupError is returned for a group name that is not known.
type UnknownGroupError struct{ Group string }

// Error names the group and the groups it was likely meant for
// ([SuggestGroups]), and points to `josebench list` for the others.
func (e *UnknownGroupError) Error() string {
	return "bench: " + unknownGroup(e.Group)
}

// maxGroupEcho bounds the bytes of an unknown group's name that its error
// quotes.
const maxGroupEcho = 64

// unknownGroup is the text of an unknown group's error, without prefix. A
// name longer than maxGroupEcho is quoted cut, with its length.
func unknownGroup(name string) string {
	s := SuggestGroups(name)
	q := fmt.Sprintf("%q", name)
	if len(name) > maxGroupEcho {
		q = fmt.Sprintf("%q... (%d bytes)", strings.ToValidUTF8(name[:maxGroupEcho], ""), len(name))
	}
	switch len(s) {
	case 0:
		return fmt.Sprintf("unknown group %s (\"josebench list\" lists the %d groups)", q, len(Groups()))
	case 1:
		return fmt.Sprintf("unknown group %s (did you mean %s? \"josebench list\" lists the groups)", q, s[0])
	}
	return fmt.Sprintf("unknown group %s (did you mean %s or %s? \"josebench list\" lists the groups)", q, strings.Join(s[:len(s)-1], ", "), s[len(s)-1])
}
