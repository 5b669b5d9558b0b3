package jose

import (
	"crypto"
	"os"
	"testing"
)

func jwkBRead(b *testing.B, name string) []byte {
	b.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkParseKey measures ParseKey on the RFC 7520 §3 keys: a public key
// is parsed and checked (EC: point on the curve); a private key is also
// checked against its public key (RSA: Validate and Precompute).
func BenchmarkParseKey(b *testing.B) {
	for _, bc := range []struct{ name, file string }{
		{"oct", "../testdata/cookbook/jwk/3_5.symmetric_key_mac_computation.json"},
		{"EC-P521-public", "../testdata/cookbook/jwk/3_1.ec_public_key.json"},
		{"EC-P521-private", "../testdata/cookbook/jwk/3_2.ec_private_key.json"},
		{"RSA-2048-public", "../testdata/cookbook/jwk/3_3.rsa_public_key.json"},
		{"RSA-2048-private", "../testdata/cookbook/jwk/3_4.rsa_private_key.json"},
	} {
		data := jwkBRead(b, bc.file)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := ParseKey(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMarshalKey measures AppendJSON of an RSA private key.
func BenchmarkMarshalKey(b *testing.B) {
	k, err := ParseKey(jwkBRead(b, "../testdata/cookbook/jwk/3_4.rsa_private_key.json"))
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 4096)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := k.AppendJSON(buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseSet measures ParseSet on RFC 7517 Appendix A.1 (an EC and
// an RSA public key).
func BenchmarkParseSet(b *testing.B) {
	data := jwkBRead(b, "../testdata/latchset/rfc7517_A.1.jwkset")
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseSet(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkThumbprint measures the SHA-256 thumbprint of an RSA key.
func BenchmarkThumbprint(b *testing.B) {
	k, err := ParseKey(jwkBRead(b, "../testdata/cookbook/jwk/3_3.rsa_public_key.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := k.Thumbprint(crypto.SHA256); err != nil {
			b.Fatal(err)
		}
	}
}
