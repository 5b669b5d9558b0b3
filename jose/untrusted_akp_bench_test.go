//go:build go1.27

package jose_test

import (
	"encoding/json"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
)

// BenchmarkUntrustedAKP measures ParseKey of ML-DSA AKP keys (RFC 9964):
// a legitimate ML-DSA-87 public and private key, and the worst private one,
// a seed that does not give pub (one key expansion, then refused).
func BenchmarkUntrustedAKP(b *testing.B) {
	priv := vectortest.ReadTrimmed(b, "keys", "mldsa87.json")
	var m map[string]any
	if err := json.Unmarshal(priv, &m); err != nil {
		b.Fatal(err)
	}
	delete(m, "priv")
	pub, _ := json.Marshal(m)
	m["priv"] = jose.Base64URLEncode(make([]byte, 32))
	mismatch, _ := json.Marshal(m)
	for _, c := range []struct {
		name    string
		data    []byte
		wantErr bool
	}{
		{"ParseKey/legit-MLDSA87-public", pub, false},
		{"ParseKey/legit-MLDSA87-private", priv, false},
		{"ParseKey/worst-MLDSA87-private-not-matching-pub", mismatch, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			if _, err := jose.ParseKey(c.data); (err != nil) != c.wantErr {
				b.Fatalf("error %v, want error %v", err, c.wantErr)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(c.data)))
			for b.Loop() {
				jose.ParseKey(c.data)
			}
		})
	}
}
