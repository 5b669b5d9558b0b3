package hdrcache

import (
	"fmt"
	"testing"

	"github.com/josebench/josebench/jose"
)

// TestRule: kept the second time, interleaved issuers included; values-only
// headers of at most MaxLen bytes; at most MaxEntries; hits are shared.
func TestRule(t *testing.T) {
	var c Cache
	a, b := []byte("eyJhbGciOiJIUzI1NiIsImtpZCI6ImEifQ"), []byte("eyJhbGciOiJIUzI1NiIsImtpZCI6ImIifQ")
	ha, hb := &jose.Header{Algorithm: "HS256", KeyID: "a"}, &jose.Header{Algorithm: "HS256", KeyID: "b"}
	c.Authenticated(a, ha)
	c.Authenticated(b, hb)
	if c.Len() != 0 || c.Get(a) != nil {
		t.Fatal("kept on the first sighting")
	}
	c.Authenticated(a, ha)
	c.Authenticated(b, hb)
	if c.Len() != 2 || c.Get(a).KeyID != "a" || c.Get(b).KeyID != "b" || c.Get(a) == ha {
		t.Fatalf("interleaved headers not kept (or not copied): %d", c.Len())
	}
	long := make([]byte, MaxLen+1)
	for range 2 {
		c.Authenticated([]byte("x"), &jose.Header{Algorithm: "HS256", Critical: []string{"x"}})
		c.Authenticated(long, ha)
	}
	if c.Len() != 2 {
		t.Fatalf("kept a header with a reference member or of %d bytes", len(long))
	}
	for i := range MaxEntries + 4 {
		seg := []byte(fmt.Sprint("seg", i))
		c.Authenticated(seg, ha)
		c.Authenticated(seg, ha)
	}
	if c.Len() != MaxEntries {
		t.Fatalf("%d entries, want %d", c.Len(), MaxEntries)
	}
}
