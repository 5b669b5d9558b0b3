package jwe_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// BenchmarkUntrusted measures the worst JWE inputs at the default limits
// beside a legitimate one, for the cost table of SECURITY.md:
//
//	go test -run '^$' -bench Untrusted -benchtime 10x -count 3 ./jose/jwe/
//
// RSA: the legitimate token is RSA-OAEP-256 with a 2048-bit key; the worst
// ones carry a public 16384-bit RSA "jwk" in each header (parsed, never
// used), a junk encrypted key, and meet a JWK Set of MaxKeyCandidates
// RSA-OAEP-256 keys without a kid, so that keys are tried until
// Limits.MaxKeyAttempts is spent; the JSON one has MaxRecipients such
// recipients. PBES2: a token at the maximum p2c beside MaxRecipients
// recipients at the maximum p2c (issue 9: 16 recipients at 600,000). The
// issue 9 tokens carry an RSA private key as "epk" and are refused.
func BenchmarkUntrusted(b *testing.B) {
	b64 := jose.Base64URLEncode
	key := vectortest.RSAKey(b, 2048)
	set := &jose.Set{}
	for range jwe.MaxKeyCandidates {
		k, err := jose.NewJWK(key)
		if err != nil {
			b.Fatal(err)
		}
		set.Keys = append(set.Keys, k)
	}
	newDec := func(o jwe.DecryptOptions) *jwe.Decrypter {
		o.KeyAlgorithms = jwa.KeyAlgorithms()
		o.ContentEncryptions = jwa.ContentEncryptions()
		d, err := jwe.NewDecrypter(o)
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	single := newDec(jwe.DecryptOptions{Key: key})
	many := newDec(jwe.DecryptOptions{Keys: set})
	pw := []byte("correct horse battery staple")
	pbes2 := newDec(jwe.DecryptOptions{Key: pw})

	enc, err := jwe.NewEncrypter(jwa.RSAOAEP256, jwa.A128GCM, &key.PublicKey, nil)
	if err != nil {
		b.Fatal(err)
	}
	legit, _ := enc.Compact([]byte(`{"sub":"alice"}`))
	legitJSON, _ := enc.Flattened([]byte(`{"sub":"alice"}`), nil)
	pbEnc, err := jwe.NewEncrypter(jwa.PBES2HS512A256KW, jwa.A128GCM, pw, nil)
	if err != nil {
		b.Fatal(err)
	}
	legitPBES2, _ := pbEnc.Compact([]byte(`{"sub":"alice"}`))

	tail := `.` + b64(make([]byte, 12)) + `.` + b64(make([]byte, 16)) + `.` + b64(make([]byte, 16))
	jsonTail := `"iv":"` + b64(make([]byte, 12)) + `","ciphertext":"` + b64(make([]byte, 16)) + `","tag":"` + b64(make([]byte, 16)) + `"`
	junkEK := b64(make([]byte, 256))
	jwk := vectortest.PublicRSAJWK(16384, 5)
	worst := []byte(b64([]byte(`{"alg":"RSA-OAEP-256","enc":"A128GCM","jwk":`+jwk+`}`)) + "." + junkEK + tail)
	issue9Key := vectortest.Issue9RSAJWK(16384, 5)
	issue9 := []byte(b64([]byte(`{"alg":"ECDH-ES","enc":"A128GCM","epk":`+issue9Key+`}`)) + "." + tail)
	general := func(recipient func(i int) string) []byte {
		var rs []string
		for i := range jose.DefaultMaxRecipients {
			rs = append(rs, recipient(i))
		}
		return []byte(`{"protected":"` + b64([]byte(`{"enc":"A128GCM"}`)) + `","recipients":[` + strings.Join(rs, ",") + `],` + jsonTail + `}`)
	}
	worstJSON := general(func(int) string {
		return `{"header":{"alg":"RSA-OAEP-256","jwk":` + jwk + `},"encrypted_key":"` + junkEK + `"}`
	})
	issue9JSON := general(func(int) string {
		return `{"header":{"alg":"ECDH-ES+A128KW","epk":` + issue9Key + `},"encrypted_key":"` + b64(make([]byte, 24)) + `"}`
	})
	worstPBES2 := general(func(i int) string {
		return fmt.Sprintf(`{"header":{"alg":"PBES2-HS512+A256KW","p2c":%d,"p2s":"%s"},"encrypted_key":"%s"}`,
			jose.DefaultPBES2MaxCount, b64([]byte(fmt.Sprintf("salt-%011d", i))), b64(make([]byte, 24)))
	})
	parseOnly, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.A128KW}, // RSA-OAEP-256 not allowed: no key work
		ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM},
		Key:                make([]byte, 16),
	})
	if err != nil {
		b.Fatal(err)
	}

	run := func(name string, token []byte, f func([]byte) (*jwe.Message, error), wantErr bool) {
		b.Run(name, func(b *testing.B) {
			if _, err := f(token); (err != nil) != wantErr {
				b.Fatalf("error %v, want error %v", err, wantErr)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(token)))
			for b.Loop() {
				f(token)
			}
		})
	}
	run("Compact/legit-RSA-OAEP-256", legit, single.DecryptCompact, false)
	run("Compact/worst-jwk16384-4keys", worst, many.DecryptCompact, true)
	run("Compact/parse-only-jwk16384", worst, parseOnly.DecryptCompact, true)
	run("Compact/worst-issue9-epk", issue9, single.DecryptCompact, true)
	run("Compact/legit-PBES2-HS512-p2c10000", legitPBES2, pbes2.DecryptCompact, false)
	run("JSON/legit-flattened-RSA-OAEP-256", legitJSON, single.DecryptJSON, false)
	run("JSON/worst-16recipients-jwk16384-4keys", worstJSON, many.DecryptJSON, true)
	run("JSON/parse-only-16recipients-jwk16384", worstJSON, parseOnly.DecryptJSON, true)
	run("JSON/worst-16recipients-issue9-epk", issue9JSON, single.DecryptJSON, true)
	run("JSON/worst-16recipients-PBES2-p2c10000", worstPBES2, pbes2.DecryptJSON, true)
}
