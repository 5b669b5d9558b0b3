//go:build !race

package jwt

// The race detector makes sync.Pool drop items at random and instruments
// allocations, so these counts hold without it only.

import (
	"testing"

	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// TestValidateAllocs pins the allocations of validating a signed JWT into
// a *Claims (the bound is 10) and into a plain struct embedding
// Claims with two private claims: the Token (which also holds a single
// audience and the payload buffer), one string for all the claims'
// strings and the caller's variable (which escapes through Validate's
// dst).
// ValidateInto with a reused Token allocates the claims' strings, and a
// single audience of the caller's own when it decodes into dst.
func TestValidateAllocs(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	v := hsValidator(t, ValidatorOptions{Issuers: []string{"https://issuer.example"}})
	reg := typicalClaims()
	regTok := mustSign(t, s, &reg)
	at := typicalAccessToken()
	atTok := mustSign(t, s, &at)
	buf := make([]byte, 0, 1024)
	var tok Token
	var reg2 Claims
	var at2 accessToken
	for _, c := range []struct {
		name string
		max  float64
		f    func()
	}{
		{"registered into *Claims", 3, func() {
			var got Claims
			if _, err := v.Validate(regTok, &got); err != nil {
				t.Fatal(err)
			}
		}},
		{"access token into a struct", 3, func() {
			var got accessToken
			if _, err := v.Validate(atTok, &got); err != nil {
				t.Fatal(err)
			}
		}},
		{"ValidateInto a reused Token, its Claims", 1, func() {
			if err := v.ValidateInto(&tok, regTok, nil); err != nil || tok.Claims.Issuer == "" {
				t.Fatal(err)
			}
		}},
		// Decoding into the caller's variable too: its single audience
		// gets storage of its own rather than the Token's, which the
		// next call overwrites (it was shared, and 1 allocation, before:
		// TestValidateIntoDstOwnsAudience).
		{"ValidateInto a reused Token and *Claims", 2, func() {
			if err := v.ValidateInto(&tok, regTok, &reg2); err != nil {
				t.Fatal(err)
			}
		}},
		{"ValidateInto a reused Token and struct", 2, func() {
			if err := v.ValidateInto(&tok, atTok, &at2); err != nil {
				t.Fatal(err)
			}
		}},
		{"sign *Claims", 1, func() {
			if _, err := s.Sign(&reg); err != nil {
				t.Fatal(err)
			}
		}},
		{"sign *accessToken", 1, func() {
			if _, err := s.Sign(&at); err != nil {
				t.Fatal(err)
			}
		}},
		{"append-sign *Claims, reused buffer", 0, func() {
			var err error
			if buf, err = s.AppendSign(buf[:0], &reg); err != nil {
				t.Fatal(err)
			}
		}},
		{"append-sign *accessToken, reused buffer", 0, func() {
			var err error
			if buf, err = s.AppendSign(buf[:0], &at); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		if n := testing.AllocsPerRun(100, c.f); n > c.max {
			t.Errorf("%s: %v allocations, want at most %v", c.name, n, c.max)
		} else {
			t.Logf("%s: %v allocations", c.name, n)
		}
	}
}

// TestValidateBufferedTokenSize: a signed JWT of up to maxBufferedToken
// bytes is decoded into the Token's own buffer, three quarters of that
// size (what its segments decode to), with no allocation for the buffer;
// one byte longer, it gets a buffer of its own. (The header, a hit in the
// Verifier's cache here, is not decoded again: the buffer holds the
// payload and the signature, 307 bytes at 448, so a buffer a few bytes
// short of the bound would pass too.)
func TestValidateBufferedTokenSize(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	v := hsValidator(t, ValidatorOptions{Issuers: []string{"https://issuer.example"}})
	tokenOf := func(n int) []byte {
		c := typicalClaims()
		c.ID = ""
		for l := 0; ; l++ {
			tok := mustSign(t, s, &c)
			if len(tok) >= n {
				if len(tok) != n {
					t.Fatalf("no token of %d bytes (%d)", n, len(tok))
				}
				return tok
			}
			c.ID += "x"
		}
	}
	for _, c := range []struct {
		n      int
		allocs float64 // the Token, the claims' strings, and the buffer beyond the limit
	}{{maxBufferedToken - 1, 2}, {maxBufferedToken, 2}, {maxBufferedToken + 1, 3}} {
		tok := tokenOf(c.n)
		n := testing.AllocsPerRun(50, func() {
			if _, err := v.Validate(tok, nil); err != nil {
				t.Fatal(err)
			}
		})
		if n != c.allocs {
			t.Errorf("token of %d bytes: %v allocations, want %v", c.n, n, c.allocs)
		}
	}
	// A header the Verifier never caches (a member that is not a
	// string) is decoded into the buffer as well, and the payload gets
	// its segment's length: up to 336 bytes the token still fits the
	// Token's buffer (as Validate's doc says), beyond that it may not.
	s = mustSigner(t, jwa.HS256, hsKey, &jws.SignerOptions{Extra: map[string]any{"n": 1}})
	allocs := func(n int) float64 {
		tok := tokenOf(n)
		return testing.AllocsPerRun(50, func() {
			if _, err := v.Validate(tok, nil); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, fits, longer := allocs(300), allocs(maxBufferedToken*3/4), allocs(maxBufferedToken)
	if fits != small || longer != small+1 {
		t.Errorf("header not cached: %v allocations at 300 bytes, %v at %d, %v at %d; want the same at %[3]d, one more at %[5]d",
			small, fits, maxBufferedToken*3/4, longer, maxBufferedToken)
	}
}
