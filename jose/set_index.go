package jose

import "sync/atomic"

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
//
// The kid found last is remembered, so that the lookups of one token (the
// key source's, then [Select]'s), and those of a run of tokens of the
// same key, cost a string comparison rather than a map lookup.
type kidIndex struct {
	base  **JWK            // &Keys[0] when built
	n     int              // len(Keys) when built
	kids  map[string]int32 // kid → its slot
	slots []kidSlot        // one a kid
	next  []int32          // the index of the next entry of the same kid, or -1
	last  atomic.Pointer[kidSlot]
}

// kidSlot is a kid of a set and the index of its first entry.
type kidSlot struct {
	kid   string
	first int32
}

// buildIndex indexes the entries of s by kid if it has enough of them.
func (s *Set) buildIndex() {
	s.index = nil
	if len(s.Keys) < minIndexed {
		return
	}
	ix := &kidIndex{base: &s.Keys[0], n: len(s.Keys), kids: make(map[string]int32, len(s.Keys)), next: make([]int32, len(s.Keys))}
	last := make(map[string]int32, len(s.Keys))
	for i, k := range s.Keys {
		ix.next[i] = -1
		if k == nil {
			continue
		}
		if j, ok := last[k.KeyID]; ok {
			ix.next[j] = int32(i)
		} else {
			ix.kids[k.KeyID] = int32(len(ix.slots))
			ix.slots = append(ix.slots, kidSlot{k.KeyID, int32(i)})
		}
		last[k.KeyID] = int32(i)
	}
	s.index = ix
}

// start returns where a walk of the entries of s whose kid is kid begins,
// and how it goes on: with links (by the index of kid, when it describes
// s), from entry i to entry links[i], ending at -1 (-1 at once: no entry
// has kid); without, from entry i to entry i+1, the walk skipping the
// entries of another kid (every entry, if kid is ""). An entry reached by
// links that does not have kid means that the set was changed in place:
// the walk must then begin again without links, from entry 0 (step(-1,
// nil)). [Select] walks so, as do [Set.LookupKeyID] and [Set.HasKeyID]:
//
//	for i, links := s.start(kid); i >= 0 && i < len(s.Keys); i = step(i, links) {
func (s *Set) start(kid string) (int, []int32) {
	ix := s.index
	if kid == "" || ix == nil || ix.n != len(s.Keys) || &s.Keys[0] != ix.base {
		return 0, nil
	}
	if sl := ix.last.Load(); sl != nil && sl.kid == kid {
		return int(sl.first), ix.next
	}
	j, ok := ix.kids[kid]
	if !ok {
		return -1, nil
	}
	sl := &ix.slots[j]
	ix.last.Store(sl)
	return int(sl.first), ix.next
}

// step returns the entry after i in a walk begun by [Set.start].
func step(i int, links []int32) int {
	if links != nil {
		return int(links[i])
	}
	return i + 1
}
