// Package hdrcache is the cache of parsed protected headers that jws.Verifier
// and jwe.Decrypter share, with the one rule both follow.
//
// A Verifier or Decrypter sees the same compact protected header again and
// again (one issuer's tokens share it byte for byte), and RFC 7515 §5.2
// steps 2-5 and RFC 7516 §5.2 steps 2-5 give the same result for the same
// bytes under the same configuration; so the parsed header is remembered by
// its encoding, and a hit skips the base64url decoding and the JSON parse.
// The rule:
//
//   - a header is added only after a token carrying it has been
//     authenticated (its signature verified, or its content decrypted), so
//     that a token made without the key cannot fill the cache;
//   - it is added the second time that happens: the first time only a hash
//     of it is noted, without allocating, so that a Verifier or Decrypter
//     made for a single token spends nothing on the cache (the last 8
//     headers seen once are noted, so interleaved issuers are recognized);
//   - only headers made of string and integer members
//     ([jose.Header.ValuesOnly]) of at most MaxLen encoded bytes are kept,
//     so that the shallow copy a caller gets shares nothing with the cache;
//   - at most MaxEntries are kept; the cache never evicts.
//
// Reads are lock-free: the map is replaced, never modified, on insertion.
package hdrcache

import (
	"hash/maphash"
	"sync"
	"sync/atomic"

	"github.com/josebench/josebench/jose"
)

const (
	MaxEntries = 64  // headers kept
	MaxLen     = 512 // bytes of one encoded header
)

// Cache is a cache of parsed protected headers; the zero value is empty
// and ready. It is safe for concurrent use.
type Cache struct {
	mu sync.Mutex // serializes insertions
	m  atomic.Pointer[map[string]*jose.Header]
	// seen holds hashes of the last headers authenticated once but not
	// kept, filled in turn, so that tokens of up to len(seen) issuers
	// arriving interleaved are each recognized the second time.
	seen [8]atomic.Uint64
	next atomic.Uint32
}

var seed = maphash.MakeSeed()

// Get returns the header cached for the encoded header seg, or nil. The
// result is shared: callers copy it (*h) before handing it out.
func (c *Cache) Get(seg []byte) *jose.Header {
	p := c.m.Load()
	if p == nil {
		return nil
	}
	return (*p)[string(seg)]
}

// Len returns the number of headers kept.
func (c *Cache) Len() int {
	if p := c.m.Load(); p != nil {
		return len(*p)
	}
	return 0
}

// Authenticated records that a token whose encoded protected header is seg,
// parsed as h, has been authenticated, and keeps a copy of h if the rule
// allows it.
func (c *Cache) Authenticated(seg []byte, h *jose.Header) {
	if len(seg) > MaxLen || !h.ValuesOnly() {
		return
	}
	if p := c.m.Load(); p != nil && len(*p) >= MaxEntries {
		return // full: no lock for anyone
	}
	if !c.seenBefore(maphash.Bytes(seed, seg)) {
		return // first time
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var old map[string]*jose.Header
	if p := c.m.Load(); p != nil {
		old = *p
	}
	if _, ok := old[string(seg)]; ok || len(old) >= MaxEntries {
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

// seenBefore reports whether sum is among the hashes noted, and notes it if
// not.
func (c *Cache) seenBefore(sum uint64) bool {
	for i := range c.seen {
		if c.seen[i].Load() == sum {
			return true
		}
	}
	c.seen[c.next.Add(1)%uint32(len(c.seen))].Store(sum)
	return false
}
