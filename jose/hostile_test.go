package jose_test

// Hostile input for the parsers of package jose: headers, JWKs and JWK Sets
// sized or shaped to exhaust a naive parser. Each must be refused by a
// documented limit, with allocation far below the input
// (runtime.MemStats.TotalAlloc before and after).

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
)

func hzMembers(prefix string, n int) string {
	var b strings.Builder
	b.WriteString(prefix)
	for i := range n {
		fmt.Fprintf(&b, `,"m%d":0`, i)
	}
	b.WriteString("}")
	return b.String()
}

// TestHostileHeader: a header of 100,000 members, nested 100,000 deep, with
// a 1 MB kid, or 1 MB of whitespace. With the default limits each is
// refused before it is scanned (MaxHeaderSize); with the size limit raised,
// the member and depth limits refuse the first two while scanning, with
// allocation bounded by the limits, not the input.
func TestHostileHeader(t *testing.T) {
	cases := []struct {
		name string
		data string
		// allocation bound with MaxHeaderSize raised to admit the input
		raisedBound uint64
		raisedErr   bool // refused with a limit error even then
	}{
		{"100000 members", hzMembers(`{"alg":"HS256"`, 100000), 64 << 10, true},
		{"nesting 100000 deep", `{"alg":"HS256","x":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "}", 64 << 10, true},
		{"nested objects 100000 deep", `{"alg":"HS256","x":` + strings.Repeat(`{"a":`, 100000) + "1" + strings.Repeat("}", 100000) + "}", 64 << 10, true},
		{"1MB kid", `{"alg":"HS256","kid":"` + strings.Repeat("k", 1<<20) + `"}`, 3 << 20, false},
		{"1MB whitespace", "{" + strings.Repeat(" ", 1<<20) + `"alg":"HS256"}`, 64 << 10, false},
	}
	for _, c := range cases {
		t.Run(c.name+"/default limits", func(t *testing.T) {
			data := []byte(c.data)
			var err error
			alloc := vectortest.BytesAllocated(func() { _, err = jose.ParseHeader(data, jose.Limits{}) })
			if !errors.Is(err, jose.ErrLimitExceeded) {
				t.Fatalf("err = %v, want ErrLimitExceeded", err)
			}
			if alloc > 4<<10 {
				t.Fatalf("allocated %d bytes for a %d-byte header", alloc, len(c.data))
			}
		})
		t.Run(c.name+"/raised size limit", func(t *testing.T) {
			data := []byte(c.data)
			var err error
			alloc := vectortest.BytesAllocated(func() { _, err = jose.ParseHeader(data, jose.Limits{MaxHeaderSize: 4 << 20}) })
			if c.raisedErr && !errors.Is(err, jose.ErrLimitExceeded) {
				t.Fatalf("err = %v, want ErrLimitExceeded", err)
			}
			t.Logf("%d-byte header: %d bytes allocated: %v", len(c.data), alloc, err)
			if alloc > c.raisedBound {
				t.Fatalf("allocated %d bytes for a %d-byte header, bound %d", alloc, len(c.data), c.raisedBound)
			}
		})
	}
}

// TestHostileJWK: JWKs with 100,000 members, deep nesting in an unknown
// member, a 1 MB kid, an RSA modulus beyond MaxRSAModulusBits, 10,000
// certificates. Refused with allocation bounded by the limits: the 1 MB kid
// by MaxKeySize, before it is read; the others, under a MaxKeySize raised
// to admit them, by the member, depth, modulus and certificate limits.
func TestHostileJWK(t *testing.T) {
	bigN := jose.Base64URLEncode([]byte(strings.Repeat("\xff", jose.MaxRSAModulusBits/8+16)))
	raised := jose.Limits{MaxKeySize: 4 << 20}
	cases := []struct {
		name  string
		data  string
		lim   jose.Limits
		bound uint64
	}{
		{"100000 members", hzMembers(`{"kty":"oct","k":"AAAAAAAAAAAAAAAAAAAAAA"`, 100000), raised, 64 << 10},
		{"nesting 100000 deep", `{"kty":"oct","k":"AAAAAAAAAAAAAAAAAAAAAA","x":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "}", raised, 64 << 10},
		{"huge modulus", `{"kty":"RSA","e":"AQAB","n":"` + bigN + `"}`, raised, 64 << 10},
		{"10000 certificates", `{"kty":"oct","k":"AAAAAAAAAAAAAAAAAAAAAA","x5c":[` + strings.Repeat(`"MA==",`, 9999) + `"MA=="]}`, raised, 64 << 10},
		{"1MB kid", `{"kty":"oct","k":"AAAAAAAAAAAAAAAAAAAAAA","kid":"` + strings.Repeat("k", 1<<20) + `"}`, jose.Limits{}, 4 << 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(c.data)
			var err error
			alloc := vectortest.BytesAllocated(func() { _, err = jose.ParseKeyWithLimits(data, c.lim) })
			t.Logf("%d-byte JWK: %d bytes allocated: %v", len(c.data), alloc, err)
			if !errors.Is(err, jose.ErrLimitExceeded) {
				t.Fatalf("err = %v, want ErrLimitExceeded", err)
			}
			if alloc > c.bound {
				t.Fatalf("allocated %d bytes for a %d-byte JWK, bound %d", alloc, len(c.data), c.bound)
			}
		})
	}
}

// TestHostileSet: a JWK Set of 100,000 keys is refused at MaxSetKeys
// (ErrLimitExceeded), having parsed at most that many. Its 4.3 MB are
// admitted by a raised MaxSetSize, which the default would refuse before
// reading anything (TestSizeLimitsBeforeParsing).
func TestHostileSet(t *testing.T) {
	key := `{"kty":"oct","k":"AAAAAAAAAAAAAAAAAAAAAA"}`
	data := []byte(`{"keys":[` + strings.Repeat(key+",", 99999) + key + "]}")
	var err error
	alloc := vectortest.BytesAllocated(func() { _, err = jose.ParseSetWithLimits(data, jose.Limits{MaxSetSize: 8 << 20}) })
	if !errors.Is(err, jose.ErrLimitExceeded) {
		t.Fatalf("err = %v, want ErrLimitExceeded", err)
	}
	// Parsing the first MaxSetKeys keys is the most the input can cause.
	one := []byte(`{"keys":[` + key + "]}")
	perKey := vectortest.BytesAllocated(func() { jose.ParseSet(one) })
	bound := uint64(jose.DefaultMaxSetKeys+1)*perKey + 64<<10
	t.Logf("%d-byte set: %d bytes allocated (bound %d): %v", len(data), alloc, bound, err)
	if alloc > bound {
		t.Fatalf("allocated %d bytes, more than %d", alloc, bound)
	}
}
