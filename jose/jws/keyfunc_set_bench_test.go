package jws_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// BenchmarkKeyFuncSet verifies an HS256 token through a KeyFunc that
// returns the same JWK Set of n keys for every token (as the KeyFunc of a
// remote set of package jwks does), beside the same set as Keys, with the
// reused Message of VerifyCompactInto:
//
//	go test -run '^$' -bench KeyFuncSet -benchtime 200ms ./jose/jws/
//
// The token's kid names the set's last key.
func BenchmarkKeyFuncSet(b *testing.B) {
	for _, n := range []int{1, 100} {
		set := &jose.Set{}
		for i := range n {
			set.Keys = append(set.Keys, &jose.JWK{Key: bytes.Repeat([]byte{byte(i)}, 32), KeyID: fmt.Sprint("k", i)})
		}
		last := set.Keys[n-1]
		s, err := jws.NewSigner(jwa.HS256, last.Key, &jws.SignerOptions{KeyID: last.KeyID})
		if err != nil {
			b.Fatal(err)
		}
		tok, err := s.Compact(benchPayload)
		if err != nil {
			b.Fatal(err)
		}
		algs := []jwa.SignatureAlgorithm{jwa.HS256}
		fromFunc, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: algs, KeyFunc: func(*jose.Header) (any, error) { return set, nil }})
		if err != nil {
			b.Fatal(err)
		}
		fromKeys, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: algs, Keys: set})
		if err != nil {
			b.Fatal(err)
		}
		for _, src := range []struct {
			name string
			v    *jws.Verifier
		}{{"KeyFunc", fromFunc}, {"Keys", fromKeys}} {
			b.Run(fmt.Sprintf("%s/%dkeys", src.name, n), func(b *testing.B) {
				var m jws.Message
				b.ReportAllocs()
				for b.Loop() {
					if err := src.v.VerifyCompactInto(&m, tok); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
