package testclock

import (
	"testing"
	"time"
)

func TestClock(t *testing.T) {
	c := New()
	if !c.Now().Equal(Start) {
		t.Fatalf("Now() = %v, want %v", c.Now(), Start)
	}
	fired := map[string]int{}
	c.AfterFunc(time.Second, func() { fired["a"]++ })
	stopB := c.AfterFunc(2*time.Second, func() { fired["b"]++ })
	c.AfterFunc(3*time.Second, func() { fired["c"]++ })
	c.Add(999 * time.Millisecond)
	if len(fired) != 0 {
		t.Fatalf("fired %v before any timer is due", fired)
	}
	c.Add(time.Millisecond) // a is due exactly now
	if fired["a"] != 1 || len(fired) != 1 {
		t.Fatalf("fired %v, want a once", fired)
	}
	if !stopB() {
		t.Error("stop of a pending timer = false, want true")
	}
	if stopB() {
		t.Error("second stop = true, want false")
	}
	c.Add(time.Hour)
	if fired["a"] != 1 || fired["b"] != 0 || fired["c"] != 1 {
		t.Fatalf("fired %v, want a and c once, b never", fired)
	}
	if got, want := c.Now(), Start.Add(time.Hour+time.Second); !got.Equal(want) {
		t.Errorf("Now() = %v, want %v", got, want)
	}
}
