package jose

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
)

// indexTestSet returns a parsed set of n oct keys whose kids are "k0",
// "k1", ..., with every tenth kid given to two entries, and the entry
// "kid-less" key without kid at the end.
func indexTestSet(t testing.TB, n int) *Set {
	t.Helper()
	var b bytes.Buffer
	b.WriteString(`{"keys":[`)
	for i := range n {
		kid := "k" + strconv.Itoa(i)
		if i%10 == 9 {
			kid = "k" + strconv.Itoa(i-1) // a duplicate of the previous
		}
		fmt.Fprintf(&b, `{"kty":"oct","kid":%q,"k":"%032x"},`, kid, i+1)
	}
	b.WriteString(`{"kty":"oct","k":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"},{"kty":"XYZ","kid":"odd"}]}`)
	s, err := ParseSet(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// linear returns the entries of s of kid, found entry by entry.
func linear(s *Set, kid string) []*JWK {
	var out []*JWK
	for _, k := range s.Keys {
		if k != nil && k.KeyID == kid {
			out = append(out, k)
		}
	}
	return out
}

// want returns what entries(kid) must yield: the entries of kid, or
// every entry for the kid "".
func want(s *Set, kid string) []*JWK {
	if kid == "" {
		return slices.DeleteFunc(slices.Clone(s.Keys), func(k *JWK) bool { return k == nil })
	}
	return linear(s, kid)
}

// walk returns the entries of s of kid as the index (or the walk it falls
// back to) finds them, and whether the index was used.
func walk(s *Set, kid string) ([]*JWK, bool) {
	var out []*JWK
	i, links := s.start(kid)
	indexed := links != nil || i < 0
	for ; i >= 0 && i < len(s.Keys); i = step(i, links) {
		k := s.Keys[i]
		if k == nil || (kid != "" && k.KeyID != kid) {
			if links != nil {
				out, links, i, indexed = out[:0], nil, -1, false
			}
			continue
		}
		out = append(out, k)
	}
	return out, indexed
}

// TestSetIndex: a parsed set of a thousand entries is looked up by its
// index, which finds what a walk finds, for every kid; a small set and a
// set built in code are walked (issue 18, finding 8f).
func TestSetIndex(t *testing.T) {
	s := indexTestSet(t, 998)
	for _, kid := range []string{"k0", "k8", "k997", "odd", "absent", ""} {
		got, indexed := walk(s, kid)
		if !slices.Equal(got, want(s, kid)) || indexed != (kid != "") {
			t.Errorf("kid %q: %d entries, indexed %v; a walk finds %d", kid, len(got), indexed, len(linear(s, kid)))
		}
		if s.HasKeyID(kid) != (len(linear(s, kid)) > 0) {
			t.Errorf("HasKeyID(%q) = %v", kid, s.HasKeyID(kid))
		}
	}
	if got := s.LookupKeyID("k8"); len(got) != 2 || got[0] != s.Keys[8] || got[1] != s.Keys[9] {
		t.Errorf("LookupKeyID of a duplicated kid: %v", got)
	}
	if got := s.LookupKeyID("odd"); got != nil {
		t.Errorf("LookupKeyID of an unusable entry: %v", got)
	}
	if _, indexed := walk(indexTestSet(t, minIndexed-3), "k1"); indexed { // with the two extra entries, one short
		t.Error("small set indexed")
	}
	if _, indexed := walk(&Set{Keys: s.Keys}, "k1"); indexed {
		t.Error("set built in code indexed")
	}
}

// TestSetIndexChanged: a set whose Keys is replaced, cut, appended to,
// reordered in place, or whose entries lose their kid, or a copy of the
// Set, never serves what the index remembers of the set it was built for;
// only a kid an entry gains in place is not seen, as the Set doc says.
func TestSetIndexChanged(t *testing.T) {
	other := &JWK{Key: bytes.Repeat([]byte{7}, 32), KeyID: "k5"}
	for _, c := range []struct {
		name   string
		change func(s *Set)
		gained string // a kid an entry was given in place: not seen (see Set)
	}{
		{"cut", func(s *Set) { s.Keys = s.Keys[:5] }, ""},
		{"appended", func(s *Set) { s.Keys = append(s.Keys, other) }, ""},
		{"replaced", func(s *Set) { s.Keys = []*JWK{other} }, ""},
		{"cloned", func(s *Set) { s.Keys = append(slices.Clone(s.Keys), other) }, ""},
		{"reversed in place", func(s *Set) { slices.Reverse(s.Keys) }, ""},
		{"deleted in place", func(s *Set) { s.Keys = slices.Delete(s.Keys, 5, 6) }, ""},
		{"kid changed", func(s *Set) { s.Keys[5].KeyID = "renamed" }, "renamed"},
		{"entry replaced by one of another kid", func(s *Set) { s.Keys[5] = &JWK{Key: other.Key, KeyID: "k6"} }, "k6"},
		{"entry set to nil", func(s *Set) { s.Keys[5] = nil }, ""},
	} {
		s := indexTestSet(t, 100)
		c.change(s)
		for _, kid := range []string{"k5", "k6", "renamed", "k8", "k98"} {
			if kid == c.gained {
				continue
			}
			if got, _ := walk(s, kid); !slices.Equal(got, linear(s, kid)) {
				t.Errorf("%s: kid %s: %d entries, a walk finds %d", c.name, kid, len(got), len(linear(s, kid)))
			}
		}
		copied := Set{Keys: s.Keys, index: s.index} // another Set of the same Keys: the index holds
		if got, _ := walk(&copied, "k8"); !slices.Equal(got, linear(s, "k8")) {
			t.Errorf("%s: copy: %v", c.name, got)
		}
	}
	// UnmarshalJSON replaces the set and its index.
	s := indexTestSet(t, 100)
	data, err := indexTestSet(t, 50).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.UnmarshalJSON(data); err != nil {
		t.Fatal(err)
	}
	if got, indexed := walk(s, "k60"); got != nil || !indexed {
		t.Errorf("after UnmarshalJSON: %v, indexed %v", got, indexed)
	}
}

// TestSetIndexConcurrent: lookups of one set from many goroutines (under
// -race) agree with a walk.
func TestSetIndexConcurrent(t *testing.T) {
	s := indexTestSet(t, 998)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				kid := "k" + strconv.Itoa((i*7+g)%998)
				if got, _ := walk(s, kid); !slices.Equal(got, linear(s, kid)) {
					t.Errorf("kid %s", kid)
					return
				}
			}
		})
	}
	wg.Wait()
}
