package dpop

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// BenchmarkMemoryStoreFlood: a full store of DefaultReplayCapacity
// flooded by unique proofs, each an eviction. "remember" is the cost of
// one proof, the rebuild of the map once per 65,536 included; "rebuild"
// is the pause of that rebuild alone, with the map's memory after a
// flood of 32 cycles reported as MB.
func BenchmarkMemoryStoreFlood(b *testing.B) {
	ctx := context.Background()
	exp := testNow.Add(time.Minute)
	full := func() *MemoryStore {
		m := NewMemoryStore(0)
		for i := range DefaultReplayCapacity {
			m.Remember(ctx, key32(i), testNow, exp)
		}
		return m
	}
	b.Run("remember", func(b *testing.B) {
		m := full()
		keys := make([][32]byte, 4*DefaultReplayCapacity)
		for i := range keys {
			keys[i] = key32(DefaultReplayCapacity + i)
		}
		b.ReportAllocs()
		b.ResetTimer()
		i := 0
		for b.Loop() {
			m.Remember(ctx, keys[i%len(keys)], testNow, exp)
			i++
		}
	})
	b.Run("rebuild", func(b *testing.B) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		m := full()
		for i := range 32 * DefaultReplayCapacity {
			m.Remember(ctx, key32(DefaultReplayCapacity+i), testNow, exp)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportAllocs()
		for b.Loop() {
			m.mu.Lock()
			m.rebuild()
			m.mu.Unlock()
		}
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/1e6, "MB")
		runtime.KeepAlive(m)
	})
}
