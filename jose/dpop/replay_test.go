package dpop

import (
	"context"
	"crypto/elliptic"
	"crypto/sha256"
	"errors"
	"math/big"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

func key32(i int) [32]byte { return sha256.Sum256([]byte(itoa(i))) }

// TestMemoryStore checks replay detection, expiry and eviction when full.
func TestMemoryStore(t *testing.T) {
	ctx := context.Background()
	m := NewMemoryStore(2)
	t0 := testNow
	exp := t0.Add(time.Minute)
	remember := func(k int, now time.Time, want bool) {
		t.Helper()
		seen, err := m.Remember(ctx, key32(k), now, exp)
		if err != nil || seen != want {
			t.Errorf("Remember(%d, %v) = %v, %v; want %v", k, now, seen, err, want)
		}
	}
	remember(1, t0, false)
	remember(1, t0, true)
	remember(1, exp, true) // the last instant of its window
	remember(2, t0, false)
	if m.Len() != 2 || m.Evicted() != 0 {
		t.Errorf("Len %d, Evicted %d", m.Len(), m.Evicted())
	}
	remember(3, t0, false) // full: evicts 1, unexpired
	if m.Len() != 2 || m.Evicted() != 1 {
		t.Errorf("Len %d, Evicted %d after eviction", m.Len(), m.Evicted())
	}
	remember(1, t0, false) // evicted: accepted again, as documented
	remember(3, t0, true)
	later := exp.Add(time.Nanosecond)
	remember(3, later, false) // expired: recorded anew
	exp = later.Add(time.Minute)
	remember(3, later, false) // its first recording anew was until exp then
	remember(3, later, true)
	// Expired entries evicted are not counted.
	m2 := NewMemoryStore(1)
	m2.Remember(ctx, key32(1), t0, t0)
	m2.Remember(ctx, key32(2), later, later)
	if m2.Evicted() != 0 || m2.Len() != 1 {
		t.Errorf("expired eviction counted: Evicted %d, Len %d", m2.Evicted(), m2.Len())
	}
	if NewMemoryStore(0).cap != DefaultReplayCapacity {
		t.Error("capacity 0 is not DefaultReplayCapacity")
	}
}

// TestMemoryStoreBounded floods a store with unique proofs, 32 times its
// capacity, as an attacker with a key of their own can: it still holds at
// most capacity entries, refuses the replay of every proof it holds,
// whose window is open, and has not grown: a Go map keeps its size when
// entries are deleted, so without a rebuild the evictions grow its map
// to about twice the size of a full store (measured 226 bytes an entry).
func TestMemoryStoreBounded(t *testing.T) {
	const capacity, cycles = 1 << 12, 32
	ctx := context.Background()
	exp := testNow.Add(time.Minute)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m := NewMemoryStore(capacity)
	for i := range cycles * capacity {
		if seen, _ := m.Remember(ctx, key32(i), testNow, exp); seen {
			t.Fatalf("proof %d: a new key reported seen", i)
		}
		if n := len(m.order); n > capacity {
			t.Fatalf("proof %d: ring of %d entries", i, n)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if m.Len() != capacity || len(m.order) != capacity {
		t.Errorf("Len %d, order %d, want %d", m.Len(), len(m.order), capacity)
	}
	if m.Evicted() != (cycles-1)*capacity {
		t.Errorf("Evicted %d, want %d", m.Evicted(), (cycles-1)*capacity)
	}
	per := float64(after.HeapAlloc-before.HeapAlloc) / capacity
	t.Logf("%.0f bytes an entry after %d cycles", per, cycles)
	if per > 160 {
		t.Errorf("%.0f bytes an entry after %d cycles, documented as about 130", per, cycles)
	}
	// The last capacity proofs are remembered: their replays, inside
	// their window, are refused, each without evicting anything.
	for i := (cycles - 1) * capacity; i < cycles*capacity; i++ {
		if seen, _ := m.Remember(ctx, key32(i), exp, exp); !seen {
			t.Fatalf("replay of proof %d within its window accepted", i)
		}
	}
	// The one before them was evicted, as documented, and is new again.
	if seen, _ := m.Remember(ctx, key32((cycles-1)*capacity-1), testNow, exp); seen || m.Len() != capacity {
		t.Errorf("an evicted proof: seen %v, Len %d", seen, m.Len())
	}
	runtime.KeepAlive(m)
}

// TestMemoryStoreConcurrent runs proofs of many goroutines through one
// Verifier and its store (run with -race): every proof is accepted once.
func TestMemoryStoreConcurrent(t *testing.T) {
	key := ecKey(t)
	p := newProver(t, jwa.ES256, key)
	v := newVerifier(t, VerifierOptions{Replay: NewMemoryStore(64)})
	const n = 16
	proofs := make([]string, n)
	for i := range proofs {
		var err error
		if proofs[i], err = p.Proof("GET", testURI, &ProofOptions{IssuedAt: testNow}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	accepted := make(map[int]int)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range proofs {
				j := (i + g*3) % n
				if _, err := v.Check(context.Background(), proofs[j:j+1], "GET", testURI, ""); err == nil {
					mu.Lock()
					accepted[j]++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for i := range proofs {
		if accepted[i] != 1 {
			t.Errorf("proof %d accepted %d times", i, accepted[i])
		}
	}
}

// TestReplayKeyedByKey checks that two keys may use the same jti.
func TestReplayKeyedByKey(t *testing.T) {
	v := newVerifier(t, VerifierOptions{})
	for range 2 {
		k := ecKey(t)
		if _, err := v.Check(context.Background(), []string{forge(t, jwa.ES256, k, goodHeader(t, k, "ES256"), goodClaims("same"))}, "GET", testURI, ""); err != nil {
			t.Fatal(err)
		}
	}
	if replayKey("a", "bc") == replayKey("ab", "c") {
		t.Error("replay keys collide")
	}
}

// TestMemoryStoreConcurrentRebuild: goroutines recording unique keys in a
// small store cross its rebuild (once per cycle of the ring) hundreds of
// times, under -race: no fresh key is ever seen, and the store holds
// capacity entries. Then, one at a time across three cycles: right after
// each key is recorded, it and the capacity-1 recorded before it are seen,
// whether the ring's cycle, and the rebuild, ended with it or not.
func TestMemoryStoreConcurrentRebuild(t *testing.T) {
	const goroutines, capacity, each = 4, 8, 2000
	m := NewMemoryStore(capacity)
	ctx := context.Background()
	exp := testNow.Add(time.Hour)
	key := func(g, i int) (k [32]byte) {
		k[0], k[1], k[2] = byte(g), byte(i), byte(i>>8)
		return k
	}
	var wg sync.WaitGroup
	var fresh atomic.Int32
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				if seen, _ := m.Remember(ctx, key(g, i), testNow, exp); seen {
					fresh.Add(1)
				}
				m.Remember(ctx, key(g, i), testNow, exp) // a replay, seen unless the others evicted it meanwhile
			}
		})
	}
	wg.Wait()
	if n := fresh.Load(); n != 0 {
		t.Errorf("%d fresh keys seen", n)
	}
	if n := m.Len(); n != capacity {
		t.Errorf("%d entries, want %d", n, capacity)
	}
	for i := range 3 * capacity {
		k := key(goroutines, i)
		if seen, _ := m.Remember(ctx, k, testNow, exp); seen {
			t.Fatalf("key %d: fresh, seen", i)
		}
		for j := max(0, i-capacity+1); j <= i; j++ {
			if seen, _ := m.Remember(ctx, key(goroutines, j), testNow, exp); !seen {
				t.Errorf("after key %d: the replay of key %d not seen", i, j)
			}
		}
	}
}

// TestReplaySameJTI: once a proof is accepted, no other proof of the same
// key with the same "jti" is, however it differs from it: signed again
// (ECDSA signatures are randomized), for another method, issued a second
// later, or with its signature's s replaced by n-s (the other valid
// ECDSA signature of the same bytes, when jwa accepts it). The replay
// store is keyed by the key's thumbprint and the jti, never by the
// proof's bytes.
func TestReplaySameJTI(t *testing.T) {
	v := newVerifier(t, VerifierOptions{})
	k := ecKey(t)
	first := forge(t, jwa.ES256, k, goodHeader(t, k, "ES256"), goodClaims("once"))
	if _, err := v.Check(context.Background(), []string{first}, "GET", testURI, ""); err != nil {
		t.Fatal(err)
	}
	post := goodClaims("once")
	post["htm"] = "POST"
	later := goodClaims("once")
	later["iat"] = testNow.Unix() + 1
	// The same signing input, s replaced by n-s.
	i := strings.LastIndexByte(first, '.')
	sig, err := jose.Base64URLDecode(first[i+1:])
	if err != nil {
		t.Fatal(err)
	}
	s := new(big.Int).SetBytes(sig[32:])
	s.Sub(elliptic.P256().Params().N, s)
	malleated := first[:i+1] + jose.Base64URLEncode(append(sig[:32:32], s.FillBytes(make([]byte, 32))...))
	for _, c := range []struct {
		name, proof, method string
	}{
		{"signed again", forge(t, jwa.ES256, k, goodHeader(t, k, "ES256"), goodClaims("once")), "GET"},
		{"another method", forge(t, jwa.ES256, k, goodHeader(t, k, "ES256"), post), "POST"},
		{"a second later", forge(t, jwa.ES256, k, goodHeader(t, k, "ES256"), later), "GET"},
		{"s replaced by n-s", malleated, "GET"},
	} {
		if c.proof == first {
			t.Fatalf("%s: the same proof", c.name)
		}
		_, err := v.Check(context.Background(), []string{c.proof}, c.method, testURI, "")
		t.Logf("%s: %v", c.name, err)
		if !errors.Is(err, ErrReplay) && !(c.name == "s replaced by n-s" && errors.Is(err, ErrSignature)) {
			t.Errorf("%s: %v, want %v", c.name, err, ErrReplay)
		}
	}
}

// TestReplayKeyFormat pins the key a ReplayStore is handed, SHA-256 of the
// thumbprint, a zero byte and the jti, for a jti that fits replayKey's
// buffer and for longer ones: servers of different versions sharing a
// store must compute the same key for the same proof, or a proof accepted
// by one is accepted again by the other.
func TestReplayKeyFormat(t *testing.T) {
	jkt := AccessTokenHash("key") // 43 characters, as a thumbprint
	for _, n := range []int{0, 1, 84, 85, 200} {
		jti := strings.Repeat("j", n)
		if got, want := replayKey(jkt, jti), sha256.Sum256([]byte(jkt+"\x00"+jti)); got != want {
			t.Errorf("jti of %d bytes: key %x, want %x", n, got, want)
		}
	}
}
