package vectortest

import (
	"encoding/base64"
	"math/big"
	"math/rand/v2"
	"strings"
)

// HostileRSAJWK returns the JSON text of an RSA private JWK an attacker can
// make without any prime, with a modulus of bits bits (a multiple of 16),
// deterministic for a seed.
//
// With consistent false it is the key of issue 9: a random odd n, a p of
// half its size, and junk q, dp, dq and qi, each of half the size. Nothing
// fits together, and every cheap check can tell.
//
// With consistent true, p and q are random odd integers (not primes) of
// half the size, n = p·q, and d, dp, dq and qi are the values a real key
// would have: the key passes every check crypto/rsa's validation applies,
// which tests no primality, so its cost is that of validating a real key
// of the same size.
//
// extra, when not empty, is inserted as members after "kty" (for example
// `"kid":"k1",`).
func HostileRSAJWK(bits int, seed uint64, consistent bool, extra string) string {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	odd := func(bits int) *big.Int {
		b := make([]byte, bits/8)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		b[0] |= 0xc0 // top two bits set: the product has exactly 2×bits bits
		b[len(b)-1] |= 1
		return new(big.Int).SetBytes(b)
	}
	e := big.NewInt(65537)
	one := big.NewInt(1)
	var n, d, p, q, dp, dq, qi *big.Int
	if !consistent {
		n, p, q, dp, dq, qi = odd(bits), odd(bits/2), odd(bits/2), odd(bits/2), odd(bits/2), odd(bits/2)
		d = odd(bits)
	} else {
		for {
			p, q = odd(bits/2), odd(bits/2)
			p1 := new(big.Int).Sub(p, one)
			q1 := new(big.Int).Sub(q, one)
			g := new(big.Int).GCD(nil, nil, p1, q1)
			lambda := new(big.Int).Div(new(big.Int).Mul(p1, q1), g)
			d = new(big.Int).ModInverse(e, lambda)
			qi = new(big.Int).ModInverse(q, p)
			if d == nil || qi == nil || d.BitLen() <= bits/2 {
				continue
			}
			n = new(big.Int).Mul(p, q)
			dp = new(big.Int).Mod(d, p1)
			dq = new(big.Int).Mod(d, q1)
			break
		}
	}
	enc := func(x *big.Int) string { return base64.RawURLEncoding.EncodeToString(x.Bytes()) }
	var s strings.Builder
	s.WriteString(`{"kty":"RSA",` + extra + `"e":"AQAB","n":"` + enc(n) + `"`)
	for _, m := range []struct {
		name string
		v    *big.Int
	}{{"d", d}, {"p", p}, {"q", q}, {"dp", dp}, {"dq", dq}, {"qi", qi}} {
		s.WriteString(`,"` + m.name + `":"` + enc(m.v) + `"`)
	}
	s.WriteString("}")
	return s.String()
}

// Issue9RSAJWK returns the JSON text of the RSA private JWK of issue 9's
// token: n and p of bits bits (random, odd), and d, q, dp, dq and qi of 64
// bits, so that a 16384-bit key fits in a default 8 KiB header. Before
// issue 9, building it ran crypto/rsa's precomputation (a modular
// exponentiation in the attacker's p) twice.
func Issue9RSAJWK(bits int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 0x243f6a8885a308d3))
	odd := func(bits int) string {
		b := make([]byte, bits/8)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		b[0] |= 0x80
		b[len(b)-1] |= 1
		return base64.RawURLEncoding.EncodeToString(b)
	}
	return `{"kty":"RSA","e":"AQAB","n":"` + odd(bits) + `","p":"` + odd(bits) + `","d":"` + odd(64) +
		`","q":"` + odd(64) + `","dp":"` + odd(64) + `","dq":"` + odd(64) + `","qi":"` + odd(64) + `"}`
}

// PublicRSAJWK returns the JSON text of a public RSA JWK whose modulus is a
// random odd integer of bits bits, deterministic for a seed: what any
// party can put in a header or a key set at no cost.
func PublicRSAJWK(bits int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 0x13198a2e03707344))
	b := make([]byte, bits/8)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	b[0] |= 0x80
	b[len(b)-1] |= 1
	return `{"kty":"RSA","e":"AQAB","n":"` + base64.RawURLEncoding.EncodeToString(b) + `"}`
}
