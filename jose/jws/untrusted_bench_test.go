package jws_test

import (
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// BenchmarkUntrusted measures the worst JWS inputs at the default limits
// beside a legitimate one, for the cost table of SECURITY.md:
//
//	go test -run '^$' -bench Untrusted -benchtime 20x -count 3 ./jose/jws/
//
// The legitimate token is RS256 with a 2048-bit key. The worst ones carry a
// public 16384-bit RSA "jwk" in each protected header (parsed, never used)
// and meet a JWK Set of MaxKeyCandidates RS256 keys without a kid, so that
// every key is tried until Limits.MaxKeyAttempts is spent; the JSON one has
// MaxSignatures such signatures. The issue 9 tokens carry an RSA private
// key in the header and are refused.
func BenchmarkUntrusted(b *testing.B) {
	b64 := jose.Base64URLEncode
	key := vectortest.RSAKey(b, 2048)
	set := &jose.Set{}
	for range jws.MaxKeyCandidates {
		k, err := jose.NewJWK(&key.PublicKey)
		if err != nil {
			b.Fatal(err)
		}
		set.Keys = append(set.Keys, k)
	}
	rs256 := []jwa.SignatureAlgorithm{jwa.RS256}
	single := hzVerifier(b, jws.VerifyOptions{Algorithms: rs256, Key: &key.PublicKey})
	many := hzVerifier(b, jws.VerifyOptions{Algorithms: rs256, Keys: set})
	hs := hzVerifier(b, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: hzHMACKey})

	legit := hzSign(b, `{"alg":"RS256","kid":"k1"}`, `{"sub":"alice"}`, jwa.RS256, key)
	s, err := jws.NewSigner(jwa.RS256, key, nil)
	if err != nil {
		b.Fatal(err)
	}
	legitJSON, err := s.Flattened([]byte(`{"sub":"alice"}`), nil)
	if err != nil {
		b.Fatal(err)
	}
	junkSig := b64(make([]byte, 256))
	bigHdr := b64([]byte(`{"alg":"RS256","jwk":` + vectortest.PublicRSAJWK(16384, 3) + `}`))
	worst := []byte(bigHdr + ".e30." + junkSig)
	issue9Hdr := b64([]byte(`{"alg":"HS256","jwk":` + vectortest.Issue9RSAJWK(16384, 3) + `}`))
	issue9 := []byte(issue9Hdr + ".e30." + b64(make([]byte, 32)))
	general := func(hdr string) []byte {
		one := `{"protected":"` + hdr + `","signature":"` + junkSig + `"}`
		return []byte(`{"payload":"e30","signatures":[` + strings.TrimSuffix(strings.Repeat(one+",", jose.DefaultMaxSignatures), ",") + `]}`)
	}

	run := func(name string, token []byte, f func([]byte) error, wantErr bool) {
		b.Run(name, func(b *testing.B) {
			if err := f(token); (err != nil) != wantErr {
				b.Fatalf("error %v, want error %v", err, wantErr)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(token)))
			for b.Loop() {
				f(token)
			}
		})
	}
	compact := func(v *jws.Verifier) func([]byte) error {
		return func(t []byte) error { _, err := v.VerifyCompact(t); return err }
	}
	each := func(v *jws.Verifier) func([]byte) error {
		return func(t []byte) error { _, _, err := v.VerifyEach(t); return err }
	}
	run("Compact/legit-RS256", legit, compact(single), false)
	run("Compact/worst-jwk16384-4keys", worst, compact(many), true)
	run("Compact/parse-only-jwk16384", worst, compact(hs), true) // RS256 not allowed: no verification
	run("Compact/worst-issue9", issue9, compact(hs), true)
	run("JSON/legit-flattened-RS256", legitJSON, each(single), false)
	run("JSON/worst-16sigs-jwk16384-4keys", general(bigHdr), each(many), true)
	run("JSON/parse-only-16sigs-jwk16384", general(bigHdr), each(hs), true)
	run("JSON/worst-16sigs-issue9", general(issue9Hdr), each(hs), true)
}
