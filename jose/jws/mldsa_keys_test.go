//go:build go1.27

package jws_test

import (
	"crypto/mldsa"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
)

// rtMLDSAKeys returns the ML-DSA key pairs of testdata/keys for the shared
// round-trip tests.
func rtMLDSAKeys(t testing.TB) []rtKey {
	var out []rtKey
	for _, c := range []struct {
		alg  jwa.SignatureAlgorithm
		file string
	}{{jwa.MLDSA44, "mldsa44.json"}, {jwa.MLDSA65, "mldsa65.json"}, {jwa.MLDSA87, "mldsa87.json"}} {
		k, err := jose.ParseKey(vectortest.ReadTrimmed(t, "keys", c.file))
		if err != nil {
			t.Fatal(err)
		}
		priv := k.Key.(*mldsa.PrivateKey)
		out = append(out, rtKey{c.alg, priv, priv.PublicKey()})
	}
	return out
}
