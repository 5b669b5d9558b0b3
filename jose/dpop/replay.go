package dpop

import (
	"context"
	"sync"
	"time"
)

// ReplayStore remembers the proofs a Verifier accepted, so that each is
// accepted once (RFC 9449 §11.1). A Verifier calls Remember once per proof
// that passed every other check, its signature included, so that forged
// proofs never reach the store.
//
// The key is SHA-256 of the proof key's thumbprint and the proof's "jti":
// a fixed 32 bytes whatever the jti's length, and two clients choosing
// the same jti do not collide. Remember records key until expires (the
// last instant the proof's "iat" is accepted) and reports whether it was
// already recorded and not yet expired at now; an error refuses the proof
// (the Verifier fails closed). Implementations must be safe for concurrent
// use; a store shared by several servers (a database with a unique key
// and a time to live) makes replays across them detectable.
type ReplayStore interface {
	Remember(ctx context.Context, key [32]byte, now, expires time.Time) (seen bool, err error)
}

// DefaultReplayCapacity is the number of proofs a [MemoryStore] made with
// capacity 0 remembers: 65,536, about 8.5 MB when full (measured: 129
// bytes an entry, the map's and the ring's), and still after any number
// of proofs. With the default window (DefaultMaxAge plus DefaultLeeway, 70
// seconds) it remembers every proof of a server that accepts up to 936
// proofs a second.
const DefaultReplayCapacity = 1 << 16

// MemoryStore is the ReplayStore a Verifier uses by default: in memory,
// bounded to a fixed number of entries, safe for concurrent use.
//
// When full, it evicts the entry it recorded first (the oldest, which
// with a common window is the one expiring first), and counts the
// eviction if that entry had not expired. The alternative, refusing new
// proofs while full, would let anyone with a key of their own lock every
// client out by sending capacity proofs per window; evicting instead
// means that a proof captured by an attacker can be replayed, within its
// window, only after capacity other proofs were accepted since (each
// needing a valid signature). [MemoryStore.Evicted] tells when that
// happens; size the capacity for the peak rate, or share a store.
//
// Memory stays at that of a full store under a flood of unique proofs:
// deleting from a Go map never shrinks it, and the evictions of a full
// store would grow its map to about twice its size (measured: 14.7 MB
// instead of 8.5 for 65,536 entries, after 16 times as many proofs). So
// once per cycle of the ring, every capacity proofs, the store copies its
// entries into a new map sized for capacity and drops the old one: one
// pause, under the lock, of capacity map insertions (about 5 ms with the
// default capacity: 4 to 7 ms of CPU measured, 5 ms the least wall time
// on a loaded machine; BenchmarkMemoryStoreFlood/rebuild)
// per 65,536 proofs, and 6.3 MB of garbage, 96 bytes a proof.
type MemoryStore struct {
	mu      sync.Mutex
	seen    map[[32]byte]int64 // key: expiry in Unix nanoseconds
	order   [][32]byte         // keys in the order recorded, a ring once full
	next    int                // when full, the index of the oldest in order
	cap     int
	evicted uint64
}

var _ ReplayStore = (*MemoryStore)(nil)

// NewMemoryStore returns a MemoryStore that remembers at most capacity
// proofs (DefaultReplayCapacity when capacity is 0 or negative). Its
// memory grows with use, up to about 130 bytes a proof.
func NewMemoryStore(capacity int) *MemoryStore {
	if capacity <= 0 {
		capacity = DefaultReplayCapacity
	}
	return &MemoryStore{seen: make(map[[32]byte]int64), cap: capacity}
}

// Remember implements ReplayStore. It never fails.
func (m *MemoryStore) Remember(_ context.Context, key [32]byte, now, expires time.Time) (bool, error) {
	t, exp := now.UnixNano(), expires.UnixNano()
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.seen[key]; ok {
		if e >= t {
			return true, nil
		}
		m.seen[key] = exp // expired: recorded anew, in its old place in order
		return false, nil
	}
	if len(m.order) < m.cap {
		m.order = append(m.order, key)
	} else {
		old := m.order[m.next]
		if e, ok := m.seen[old]; ok && e >= t {
			m.evicted++
		}
		delete(m.seen, old)
		m.order[m.next] = key
		m.next = (m.next + 1) % m.cap
		if m.next == 0 { // a cycle of evictions ended
			m.seen[key] = exp
			m.rebuild()
			return false, nil
		}
	}
	m.seen[key] = exp
	return false, nil
}

// rebuild replaces the map with a copy sized for the capacity: the map a
// cycle of evictions has grown (a Go map keeps its size when entries are
// deleted) is dropped. The store is full when it is called, once per
// cycle of the ring.
func (m *MemoryStore) rebuild() {
	seen := make(map[[32]byte]int64, m.cap)
	for k, e := range m.seen {
		seen[k] = e
	}
	m.seen = seen
}

// Len returns the number of proofs the store holds, expired or not.
func (m *MemoryStore) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.seen)
}

// Evicted returns the number of entries evicted before they expired: the
// proofs that could be replayed within their window. It stays 0 while the
// store is large enough for the rate of proofs.
func (m *MemoryStore) Evicted() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.evicted
}
