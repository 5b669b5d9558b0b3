package jws_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"testing"

	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// TestCompactSignatureSizes round-trips compact and detached tokens whose
// raw signatures span the sizes Compact places in its one buffer: 32
// (HS256) to 132 (ES512) and 512 bytes (RS256 with RSA-4096), over payloads
// of lengths around the buffer's boundaries.
func TestCompactSignatureSizes(t *testing.T) {
	r4096 := vectortest.RSAKey(t, 4096)
	p521, err := ecdsa.GenerateKey(elliptic.P521(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	hk := make([]byte, 64)
	cases := []struct {
		alg       jwa.SignatureAlgorithm
		priv, pub any
		sigLen    int
	}{
		{jwa.HS256, hk, hk, 32},
		{jwa.HS512, hk, hk, 64},
		{jwa.ES512, p521, &p521.PublicKey, 132},
		{jwa.RS256, r4096, &r4096.PublicKey, 512},
	}
	for _, c := range cases {
		s, err := jws.NewSigner(c.alg, c.priv, nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{c.alg}, Key: c.pub})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{0, 1, 2, 3, 100, 700, 701} {
			payload := make([]byte, n)
			for i := range payload {
				payload[i] = byte(i*7 + n)
			}
			tok, err := s.Compact(payload)
			if err != nil {
				t.Fatalf("%s/%d: %v", c.alg, n, err)
			}
			if got, want := len(tok)-lastDot(tok)-1, (c.sigLen*8+5)/6; got != want {
				t.Fatalf("%s/%d: encoded signature of %d characters, want %d", c.alg, n, got, want)
			}
			m, err := v.VerifyCompact(tok)
			if err != nil || string(m.Payload) != string(payload) {
				t.Fatalf("%s/%d: VerifyCompact: %v", c.alg, n, err)
			}
			det, err := s.CompactDetached(payload)
			if err != nil {
				t.Fatalf("%s/%d: %v", c.alg, n, err)
			}
			if m, err := v.VerifyDetached(det, payload); err != nil || string(m.Payload) != string(payload) {
				t.Fatalf("%s/%d: VerifyDetached: %v", c.alg, n, err)
			}
			if c.alg == jwa.HS256 || c.alg == jwa.HS512 {
				// Deterministic: the detached token is the compact one
				// without its payload.
				i := indexDot(tok)
				want := string(tok[:i+1]) + string(tok[lastDot(tok):])
				if string(det) != want {
					t.Fatalf("%s/%d: detached %q, want %q", c.alg, n, det, want)
				}
			}
		}
	}
}

func indexDot(b []byte) int {
	for i, c := range b {
		if c == '.' {
			return i
		}
	}
	return -1
}

func lastDot(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '.' {
			return i
		}
	}
	return -1
}
