package jose_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
)

// BenchmarkUntrusted measures the worst inputs of ParseKey, ParseSet and
// ParseHeader at the default limits beside one legitimate input, for the
// cost table of SECURITY.md. Names: <entry point>/legit-... or
// <entry point>/worst-....
func BenchmarkUntrusted(b *testing.B) {
	rsa4096, err := jose.NewJWK(vectortest.RSAKey(b, 4096))
	if err != nil {
		b.Fatal(err)
	}
	real4096, _ := rsa4096.MarshalJSON()
	pub4096, _ := rsa4096.Public().MarshalJSON()
	pub16384 := vectortest.PublicRSAJWK(16384, 1)
	fake16384 := vectortest.HostileRSAJWK(16384, 1, true, "")
	issue9 := vectortest.Issue9RSAJWK(16384, 1)
	certs := x5cJWK(b, vectortest.RSAKey(b, 2048), false, &x509.Certificate{SerialNumber: big.NewInt(1),
		Subject: pkix.Name{CommonName: "bench"}, NotBefore: time.Unix(0, 0), NotAfter: time.Unix(1<<32, 0)})

	run := func(name string, data []byte, f func([]byte) error, wantErr bool) {
		b.Run(name, func(b *testing.B) {
			if err := f(data); (err != nil) != wantErr {
				b.Fatalf("error %v, want error %v", err, wantErr)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				f(data)
			}
		})
	}
	parseKey := func(d []byte) error { _, err := jose.ParseKey(d); return err }
	run("ParseKey/legit-RSA4096-private", real4096, parseKey, false)
	run("ParseKey/legit-RSA4096-public", pub4096, parseKey, false)
	// A consistent 16384-bit private key made of non-primes: one full
	// validation of the largest accepted size, the most a key can cost.
	run("ParseKey/worst-RSA16384-consistent-private", []byte(fake16384), parseKey, false)
	run("ParseKey/worst-RSA16384-public", []byte(pub16384), parseKey, false)
	run("ParseKey/worst-issue9-RSA16384-private", []byte(issue9), parseKey, true)
	run("ParseKey/worst-RSA2048-32-certificates", certs, parseKey, false)

	parseSet := func(d []byte) error { _, err := jose.ParseSet(d); return err }
	set := func(keys ...string) []byte { return []byte(`{"keys":[` + strings.Join(keys, ",") + `]}`) }
	run("ParseSet/legit-3-RSA4096-public", set(string(pub4096), string(pub4096), string(pub4096)), parseSet, false)
	run("ParseSet/worst-3-issue9-RSA16384-private", set(issue9, issue9, issue9), parseSet, false)
	run("ParseSet/worst-3-RSA16384-consistent-private", set(fake16384, fake16384, fake16384), parseSet, false)
	// As many keys as DefaultMaxSetSize holds: the most a set can cost.
	fill := func(key string) []byte {
		n := (jose.DefaultMaxSetSize - len(`{"keys":[]}`) + 1) / (len(key) + 1)
		return set(strings.Repeat(key+",", n-1) + key)
	}
	run("ParseSet/worst-1MiB-RSA16384-consistent-private", fill(fake16384), parseSet, false)
	run("ParseSet/worst-1MiB-RSA16384-public", fill(pub16384), parseSet, false)
	run("ParseSet/worst-10MiB-RSA16384-consistent-private", set(strings.Repeat(fake16384+",", 10<<20/len(fake16384))+fake16384), parseSet, true)

	parseHeader := func(d []byte) error { _, err := jose.ParseHeader(d, jose.Limits{}); return err }
	run("ParseHeader/legit-alg-kid", []byte(`{"alg":"RS256","kid":"2011-04-29","typ":"JWT"}`), parseHeader, false)
	run("ParseHeader/worst-issue9-jwk", []byte(`{"alg":"HS256","jwk":`+issue9+`}`), parseHeader, true)
	run("ParseHeader/worst-jwk-RSA16384-public", []byte(`{"alg":"RS256","jwk":`+pub16384+`}`), parseHeader, false)
	run("ParseHeader/worst-epk-P521", []byte(`{"alg":"ECDH-ES","enc":"A256GCM","epk":`+
		`{"kty":"EC","crv":"P-521","x":"AekpBQ8ST8a8VcfVOTNl353vSrDCLLJXmPk06wTjxrrjcBpXp5EOnYG_NjFZ6OvLFV1jSfS9tsz4qUxcWceqwQGk","y":"ADSmRA43Z1DSNx_RvcLI87cdL07l6jQyyBXMoxVg_l2Th-x3S1WDhjDly79ajL4Kkd0AZMaZmh9ubmf63e3kyMj2"}}`), parseHeader, false)
	var members strings.Builder
	members.WriteString(`{"alg":"RS256"`)
	for i := range jose.DefaultMaxHeaderMembers - 2 {
		members.WriteString(`,"m` + strings.Repeat("x", 60) + string(rune('A'+i/26)) + string(rune('a'+i%26)) + `":[[[[[[[[[[[[[[1]]]]]]]]]]]]]]`)
	}
	members.WriteString("}")
	run("ParseHeader/worst-63-members-depth-16", []byte(members.String()), parseHeader, false)
}

// x5cJWK returns the JWK of key (its public half unless private) with
// MaxCertificates copies in x5c of the certificate of key that tmpl
// describes, self-signed.
func x5cJWK(tb testing.TB, key *rsa.PrivateKey, private bool, tmpl *x509.Certificate) []byte {
	tb.Helper()
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		tb.Fatal(err)
	}
	var j *jose.JWK
	if private {
		j, err = jose.NewJWK(key)
	} else {
		j, err = jose.NewJWK(&key.PublicKey)
	}
	if err != nil {
		tb.Fatal(err)
	}
	for range jose.MaxCertificates {
		j.Certificates = append(j.Certificates, c)
	}
	data, err := j.MarshalJSON()
	if err != nil {
		tb.Fatal(err)
	}
	return data
}
