package jose

// minIndexed is the number of entries from which a parsed set is indexed
// by kid: below it, comparing each kid costs no more than a map lookup.
const minIndexed = 16

// kidIndex is the index by kid of the entries of a [Set], built by the
// parsers of sets so that a lookup by kid ([Select], [Set.LookupKeyID],
// [Set.HasKeyID]) costs the same in a set of a thousand keys as in a set
// of one. It is immutable once built, so it is safe for concurrent use.
//
// It describes the Keys slice it was built from, identified by the
// address of its first element and its length: a set whose Keys is
// replaced, appended to or cut is searched entry by entry. Each entry it
// names is checked to still have its kid before it is used, so that
// entries reordered in place are found too; only an entry given, in
// place, a kid it did not have is not found by the index (see [Set]).
type kidIndex struct {
	base  **JWK            // &Keys[0] when built
	n     int              // len(Keys) when built
	first map[string]int32 // kid → the index of its first entry
	next  []int32          // the index of the next entry of the same kid, or -1
}

// buildIndex indexes the entries of s by kid if it has enough of them.
func (s *Set) buildIndex() {
	s.index = nil
	if len(s.Keys) < minIndexed {
		return
	}
	ix := &kidIndex{base: &s.Keys[0], n: len(s.Keys), first: make(map[string]int32, len(s.Keys)), next: make([]int32, len(s.Keys))}
	last := make(map[string]int32, len(s.Keys))
	for i, k := range s.Keys {
		ix.next[i] = -1
		if k == nil {
			continue
		}
		if j, ok := last[k.KeyID]; ok {
			ix.next[j] = int32(i)
		} else {
			ix.first[k.KeyID] = int32(i)
		}
		last[k.KeyID] = int32(i)
	}
	s.index = ix
}

// start returns where a walk of the entries of s whose kid is kid begins,
// and how it goes on: with links, from entry i to entry links[i] (the
// index of kid, when it describes s), ending at -1; without, from entry i
// to entry i+1, the walk skipping the entries of another kid (every
// entry, if kid is ""). [Select] walks so, as do [Set.LookupKeyID] and
// [Set.HasKeyID]:
//
//	for i, links := s.start(kid); i >= 0 && i < len(s.Keys); i = step(i, links) {
func (s *Set) start(kid string) (int, []int32) {
	ix := s.index
	if kid == "" || ix == nil || ix.n != len(s.Keys) || &s.Keys[0] != ix.base {
		return 0, nil
	}
	first, ok := ix.first[kid]
	if !ok {
		return -1, nil
	}
	// The entries the index names must still have the kid; if one does
	// not, the set was changed in place: walk it whole.
	for j := first; j >= 0; j = ix.next[j] {
		if k := s.Keys[j]; k == nil || k.KeyID != kid {
			return 0, nil
		}
	}
	return int(first), ix.next
}

// step returns the entry after i in a walk begun by [Set.start].
func step(i int, links []int32) int {
	if links != nil {
		return int(links[i])
	}
	return i + 1
}
