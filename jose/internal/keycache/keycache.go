// Package keycache is the bounded cache of prepared keys that jws.Verifier
// and jwe.Decrypter share: the verifier, or the key management and
// content cipher, made for one key and one algorithm, remembered by the
// key's identity (a *jose.JWK of a set) so that the next token verified or
// decrypted with that key skips the setup.
//
// A key source may hand out ever new keys: a remote JWK Set of package
// jwks returns a new *jose.JWK for each key it fetches (an unchanged key
// keeps its pointer), so a service that runs for months meets far more
// keys than it uses at any one time. The cache is bounded and renews
// itself by generations: entries go into the current generation; when it
// holds Max, the next one to enter starts a fresh, empty generation, and
// the old one is dropped whole, keys no longer in use with it. A key still
// in use is prepared once more and enters the new generation, so a key is
// prepared at most once per Max other keys entered, and at most Max
// entries are ever kept.
//
// Reads take no lock and do not allocate: one atomic load and one lookup
// in a [sync.Map].
package keycache

import (
	"sync"
	"sync/atomic"
)

// Cache maps keys of type K to prepared values *V, at most Max of them.
// The zero value caches nothing until Max is set; Max must not change once
// the Cache is in use. It is safe for concurrent use.
type Cache[K comparable, V any] struct {
	Max int32
	gen atomic.Pointer[generation]
}

// generation is the map entries go into until it holds Max.
type generation struct {
	m sync.Map     // K -> *V
	n atomic.Int32 // entries stored, or reserved by a Put under way
}

// Get returns the value cached for k.
func (c *Cache[K, V]) Get(k K) (*V, bool) {
	g := c.gen.Load()
	if g == nil {
		return nil, false
	}
	p, ok := g.m.Load(k)
	if !ok {
		return nil, false
	}
	return p.(*V), true
}

// Put caches v for k, unless a value for k is cached already (put there by
// a concurrent caller); it returns the value cached for k. When the
// current generation is full, Put starts a new one.
func (c *Cache[K, V]) Put(k K, v *V) *V {
	if c.Max <= 0 {
		return v
	}
	for {
		g := c.gen.Load()
		if g == nil || g.n.Load() >= c.Max {
			ng := new(generation)
			if !c.gen.CompareAndSwap(g, ng) {
				continue // another caller renewed it first
			}
			g = ng
		}
		if g.n.Add(1) > c.Max {
			continue // filled meanwhile: renew
		}
		if p, loaded := g.m.LoadOrStore(k, v); loaded {
			g.n.Add(-1)
			return p.(*V)
		}
		return v
	}
}

// Len returns the number of entries kept, counting them (for tests and
// diagnostics, not for hot paths).
func (c *Cache[K, V]) Len() int {
	g := c.gen.Load()
	if g == nil {
		return 0
	}
	n := 0
	g.m.Range(func(any, any) bool { n++; return true })
	return n
}
