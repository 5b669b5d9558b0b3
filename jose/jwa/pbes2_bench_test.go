package jwa

import "testing"

// BenchmarkPBES2Per100k measures one PBES2 key decryption at p2c 100,000,
// the unit in which SECURITY.md gives the cost of raising
// DefaultPBES2MaxCount (PBKDF2 time is linear in the count):
//
//	go test -run '^$' -bench PBES2Per100k -benchtime 5x -count 3 ./jose/jwa/
func BenchmarkPBES2Per100k(b *testing.B) {
	const count = 100000
	pw := []byte("correct horse battery staple")
	for _, alg := range []KeyAlgorithm{PBES2HS256A128KW, PBES2HS384A192KW, PBES2HS512A256KW} {
		b.Run(string(alg), func(b *testing.B) {
			e, err := NewPBES2Encrypter(alg, pw, count)
			if err != nil {
				b.Fatal(err)
			}
			d, err := NewPBES2Decrypter(alg, pw, 0, count)
			if err != nil {
				b.Fatal(err)
			}
			var p KeyParams
			_, ek, err := e.EncryptKey(nil, A128GCM, &p)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := d.DecryptKey(ek, A128GCM, &p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
