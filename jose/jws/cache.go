package jws

import (
	"sync"
	"sync/atomic"

	"github.com/josebench/josebench/jose"
)

// headerCache remembers the protected headers of compact tokens that have
// verified, by their encoding, so that a Verifier which sees the same
// header again (one issuer's tokens share it) neither decodes nor parses
// it: RFC 7515 §5.2 steps 2-5 give the same result for the same bytes
// under the same Verifier. Only headers made of string members are kept,
// so that a shallow copy handed to the caller shares nothing with the
// cache; entries are added only after a signature verified, so a token
// cannot fill the cache without a key; the cache is bounded.
//
// Reads are lock-free: the map is replaced, never modified, on insertion.
type headerCache struct {
	mu sync.Mutex
	m  atomic.Pointer[map[string]*jose.Header]
}

const (
	maxCachedHeaders   = 64  // entries
	maxCachedHeaderLen = 256 // bytes of one encoded header
)

// get returns the header cached for the encoded header seg, or nil. The
// result is shared: callers copy it before handing it out.
func (c *headerCache) get(seg []byte) *jose.Header {
	p := c.m.Load()
	if p == nil {
		return nil
	}
	return (*p)[string(seg)]
}

// put caches a copy of h, the verified header encoded as seg, if it can be
// shared safely and there is room.
func (c *headerCache) put(seg []byte, h *jose.Header) {
	if len(seg) > maxCachedHeaderLen || !h.ValuesOnly() {
		return
	}
	// A full cache, the steady state of a Verifier that sees many
	// headers, is refused before the lock: verifiers do not queue on it.
	if p := c.m.Load(); p != nil && len(*p) >= maxCachedHeaders {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var old map[string]*jose.Header
	if p := c.m.Load(); p != nil {
		old = *p
	}
	if len(old) >= maxCachedHeaders {
		return
	}
	if _, ok := old[string(seg)]; ok {
		return
	}
	m := make(map[string]*jose.Header, len(old)+1)
	for k, v := range old {
		m[k] = v
	}
	cp := *h
	m[string(seg)] = &cp
	c.m.Store(&m)
}
