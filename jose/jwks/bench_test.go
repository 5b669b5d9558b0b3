package jwks

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// benchPair is a token and two Verifiers for it: one over a local
// *jose.Set, one over a Remote serving the same set from an httptest
// server, fetched before the measurement.
type benchPair struct {
	tok           []byte
	local, remote *jws.Verifier
}

func newBenchPair(b *testing.B, alg jwa.SignatureAlgorithm) benchPair {
	var priv any
	set := &jose.Set{}
	secret := alg == jwa.HS256
	// Three keys, the token's in the middle, as during a rotation.
	for i, kid := range []string{"old", "current", "next"} {
		var pub, sk any
		if secret {
			k := bytes.Repeat([]byte{byte(i + 1)}, 32)
			pub, sk = k, k
		} else {
			k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
			if err != nil {
				b.Fatal(err)
			}
			pub, sk = &k.PublicKey, k
		}
		set.Keys = append(set.Keys, &jose.JWK{Key: pub, KeyID: kid, Algorithm: string(alg)})
		if kid == "current" {
			priv = sk
		}
	}
	body, err := set.MarshalJSON()
	if err != nil {
		b.Fatal(err)
	}
	local, err := jose.ParseSet(body) // as the remote set is read
	if err != nil {
		b.Fatal(err)
	}
	p := newProvider(b, false, serveSet(body, "Cache-Control", "max-age=3600"))
	r := newRemote(b, p, nil, Options{AllowSecretKeys: secret})
	if err := r.Refresh(b.Context()); err != nil {
		b.Fatal(err)
	}
	s, err := jws.NewSigner(alg, priv, &jws.SignerOptions{KeyID: "current", Type: "JWT"})
	if err != nil {
		b.Fatal(err)
	}
	tok, err := s.Compact([]byte(`{"iss":"https://provider.example","sub":"alice","exp":1796000000}`))
	if err != nil {
		b.Fatal(err)
	}
	algs := []jwa.SignatureAlgorithm{alg}
	bp := benchPair{tok: tok}
	if bp.local, err = jws.NewVerifier(jws.VerifyOptions{Algorithms: algs, Keys: local}); err != nil {
		b.Fatal(err)
	}
	if bp.remote, err = jws.NewVerifier(jws.VerifyOptions{Algorithms: algs, KeyFunc: r.KeyFunc}); err != nil {
		b.Fatal(err)
	}
	return bp
}

// verifyN verifies bp.tok n times with v, reusing m.
func verifyN(b *testing.B, v *jws.Verifier, m *jws.Message, tok []byte, n int) {
	for range n {
		if err := v.VerifyCompactInto(m, tok); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerify measures compact verification with the key from a
// local *jose.Set and from a cached Remote, each on its own.
func BenchmarkVerify(b *testing.B) {
	for _, alg := range []jwa.SignatureAlgorithm{jwa.HS256, jwa.ES256} {
		bp := newBenchPair(b, alg)
		for _, src := range []struct {
			name string
			v    *jws.Verifier
		}{{"local", bp.local}, {"remote", bp.remote}} {
			b.Run(string(alg)+"/"+src.name, func(b *testing.B) {
				b.ReportAllocs()
				var m jws.Message
				verifyN(b, src.v, &m, bp.tok, 1) // warm the caches
				b.ResetTimer()
				verifyN(b, src.v, &m, bp.tok, b.N)
			})
		}
	}
}

// BenchmarkRemoteOverLocal interleaves the two sources in small blocks of
// verifications within one run, alternating which goes first, so that the
// machine's drift and the order affect both alike; it reports the median
// block time of each, per verification, and their ratio remote/local (the
// bound is 1.1). Medians keep a block preempted by another process from
// deciding the ratio.
func BenchmarkRemoteOverLocal(b *testing.B) {
	for _, alg := range []jwa.SignatureAlgorithm{jwa.HS256, jwa.ES256} {
		bp := newBenchPair(b, alg)
		b.Run(string(alg), func(b *testing.B) {
			b.ReportAllocs()
			block := 16 // about 10 µs
			if alg == jwa.ES256 {
				block = 1
			}
			var m jws.Message
			verifyN(b, bp.local, &m, bp.tok, 1)
			verifyN(b, bp.remote, &m, bp.tok, 1)
			pairs := max(b.N/(2*block), 1)
			local := make([]time.Duration, 0, pairs)
			remote := make([]time.Duration, 0, pairs)
			b.ResetTimer()
			for i := range pairs {
				first, second := bp.local, bp.remote
				if i%2 == 1 {
					first, second = second, first
				}
				t0 := time.Now()
				verifyN(b, first, &m, bp.tok, block)
				t1 := time.Now()
				verifyN(b, second, &m, bp.tok, block)
				t2 := time.Now()
				dl, dr := t1.Sub(t0), t2.Sub(t1)
				if i%2 == 1 { // remote went first
					dl, dr = dr, dl
				}
				local, remote = append(local, dl), append(remote, dr)
			}
			b.StopTimer()
			ml, mr := median(local), median(remote)
			b.ReportMetric(float64(ml.Nanoseconds())/float64(block), "local-ns/op")
			b.ReportMetric(float64(mr.Nanoseconds())/float64(block), "remote-ns/op")
			b.ReportMetric(float64(mr)/float64(ml), "remote/local")
		})
	}
}

func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}

// newSizedRemote returns a Verifier over a cached Remote whose set holds
// n keys for alg, the token's key ("current", signing with priv) last, as
// a provider's set of n keys would be read.
func newSizedRemote(b *testing.B, alg jwa.SignatureAlgorithm, n int, pub any) *jws.Verifier {
	set := &jose.Set{}
	filler := any(bytes.Repeat([]byte{0xee}, 32))
	if alg != jwa.HS256 {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			b.Fatal(err)
		}
		filler = &k.PublicKey
	}
	for i := range n - 1 {
		set.Keys = append(set.Keys, &jose.JWK{Key: filler, KeyID: fmt.Sprintf("2026-%04d", i), Algorithm: string(alg)})
	}
	set.Keys = append(set.Keys, &jose.JWK{Key: pub, KeyID: "current", Algorithm: string(alg)})
	body, err := set.MarshalJSON()
	if err != nil {
		b.Fatal(err)
	}
	p := newProvider(b, false, serveSet(body, "Cache-Control", "max-age=3600"))
	r := newRemote(b, p, nil, Options{AllowSecretKeys: alg == jwa.HS256})
	if err := r.Refresh(b.Context()); err != nil {
		b.Fatal(err)
	}
	v, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{alg}, KeyFunc: r.KeyFunc})
	if err != nil {
		b.Fatal(err)
	}
	return v
}

// BenchmarkRemoteSetSize compares a cached Remote whose set holds 1,000
// keys, the token's last, with one whose set holds the token's key alone,
// interleaved in blocks as BenchmarkRemoteOverLocal does; it reports the
// median block time of each, per verification, and their ratio
// large/one (the bound is 1.02: the kid is found by the set's index, not
// by a walk).
func BenchmarkRemoteSetSize(b *testing.B) {
	for _, alg := range []jwa.SignatureAlgorithm{jwa.HS256, jwa.ES256} {
		var priv, pub any
		if alg == jwa.HS256 {
			priv = bytes.Repeat([]byte{1}, 32)
			pub = priv
		} else {
			k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
			if err != nil {
				b.Fatal(err)
			}
			priv, pub = k, &k.PublicKey
		}
		one := newSizedRemote(b, alg, 1, pub)
		large := newSizedRemote(b, alg, 1000, pub)
		s, err := jws.NewSigner(alg, priv, &jws.SignerOptions{KeyID: "current", Type: "JWT"})
		if err != nil {
			b.Fatal(err)
		}
		tok, err := s.Compact([]byte(`{"iss":"https://provider.example","sub":"alice","exp":1796000000}`))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(string(alg), func(b *testing.B) {
			b.ReportAllocs()
			block := 16
			if alg == jwa.ES256 {
				block = 1
			}
			var m jws.Message
			verifyN(b, one, &m, tok, 1)
			verifyN(b, large, &m, tok, 1)
			pairs := max(b.N/(2*block), 1)
			d1 := make([]time.Duration, 0, pairs)
			dn := make([]time.Duration, 0, pairs)
			b.ResetTimer()
			for i := range pairs {
				first, second := one, large
				if i%2 == 1 {
					first, second = second, first
				}
				t0 := time.Now()
				verifyN(b, first, &m, tok, block)
				t1 := time.Now()
				verifyN(b, second, &m, tok, block)
				t2 := time.Now()
				a, c := t1.Sub(t0), t2.Sub(t1)
				if i%2 == 1 {
					a, c = c, a
				}
				d1, dn = append(d1, a), append(dn, c)
			}
			b.StopTimer()
			m1, mn := median(d1), median(dn)
			b.ReportMetric(float64(m1.Nanoseconds())/float64(block), "one-ns/op")
			b.ReportMetric(float64(mn.Nanoseconds())/float64(block), "large-ns/op")
			b.ReportMetric(float64(mn)/float64(m1), "large/one")
		})
	}
}
