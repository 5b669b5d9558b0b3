package keycache

import (
	"sync"
	"testing"
)

// TestRenew checks the generations: a full cache starts a new one when a
// key enters, keys put after that are found, and no more than Max entries
// are ever kept.
func TestRenew(t *testing.T) {
	c := Cache[int, int]{Max: 4}
	for i := range 4 {
		v := i
		c.Put(i, &v)
	}
	if c.Len() != 4 {
		t.Fatalf("%d entries, want 4", c.Len())
	}
	if p, ok := c.Get(2); !ok || *p != 2 {
		t.Fatalf("Get(2) = %v, %v", p, ok)
	}
	v := 10
	c.Put(10, &v)
	if _, ok := c.Get(2); ok || c.Len() != 1 {
		t.Fatalf("after renewal: Get(2) found, or %d entries, want 1", c.Len())
	}
	if p, ok := c.Get(10); !ok || *p != 10 {
		t.Fatalf("Get(10) = %v, %v", p, ok)
	}
	// A second Put of a cached key keeps the first value.
	w := 11
	if p := c.Put(10, &w); *p != 10 {
		t.Fatalf("Put of a cached key returned %d", *p)
	}
	var zero Cache[int, int]
	if zero.Put(1, &v); zero.Len() != 0 {
		t.Fatal("a Cache without Max cached an entry")
	}
}

// TestConcurrent runs Get and Put from several goroutines over more keys
// than Max (run with -race); the entries never exceed Max.
func TestConcurrent(t *testing.T) {
	c := Cache[int, int]{Max: 16}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				k := (i*7 + g) % 64
				if p, ok := c.Get(k); ok && *p != k {
					t.Errorf("Get(%d) = %d", k, *p)
					return
				}
				v := k
				if p := c.Put(k, &v); *p != k {
					t.Errorf("Put(%d) = %d", k, *p)
					return
				}
				if n := c.Len(); n > 16 {
					t.Errorf("%d entries, Max 16", n)
					return
				}
			}
		}()
	}
	wg.Wait()
}
