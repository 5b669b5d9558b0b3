package jwt

// Benchmarks of the claims layer beside the JWS and JWE round trips of the
// same claims bytes, in one run, so that the ratios show its cost:
//
//	go test -run '^$' -bench . -benchtime 200ms -count 5 ./jose/jwt/
//
// For each algorithm, <alg>/jose is the plain round trip (jws Compact +
// VerifyCompact, or the nested jwe/jws pair) of the claims set a typical
// access token encodes to (the seven registered claims and two private
// ones), under the same protected header ("typ": "JWT"); <alg>/jwt issues
// that token from a Go struct embedding Claims and validates it back into
// one (Sign + Validate with every check); <alg>/jwt-registered does the
// same with the registered claims only, into a *Claims. BenchmarkRatio and
// BenchmarkRatioReuse interleave the two in one benchmark and report their
// ratio, the figure to quote on a shared machine:
//
//	go test -run '^$' -bench 'Ratio' -benchtime 3000x -count 5 ./jose/jwt/

import (
	"slices"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
	"github.com/josebench/josebench/jose/jws"
)

type benchAlg struct {
	name      string
	sign      func(b *testing.B, claims any) []byte
	plain     func(b *testing.B, payload []byte) // the jose round trip
	validator *Validator
}

func benchAlgs(b *testing.B) []benchAlg {
	var out []benchAlg
	for _, c := range []struct {
		alg       jwa.SignatureAlgorithm
		priv, pub any
	}{
		{jwa.HS256, hsKey, hsKey},
		{jwa.ES256, p256Key(), &p256Key().PublicKey},
	} {
		s := mustSigner(b, c.alg, c.priv, nil)
		js, err := jws.NewSigner(c.alg, c.priv, &jws.SignerOptions{Type: "JWT"})
		if err != nil {
			b.Fatal(err)
		}
		ver := mustVerifier(b, c.alg, c.pub)
		out = append(out, benchAlg{
			name: string(c.alg),
			sign: func(b *testing.B, claims any) []byte {
				tok, err := s.Sign(claims)
				if err != nil {
					b.Fatal(err)
				}
				return tok
			},
			plain: func(b *testing.B, payload []byte) {
				tok, err := js.Compact(payload)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := ver.VerifyCompact(tok); err != nil {
					b.Fatal(err)
				}
			},
			validator: mustValidator(b, ValidatorOptions{Verifier: ver, Audiences: []string{"https://api.example"}, Issuers: []string{"https://issuer.example"}}),
		})
	}
	// Nested: ES256 inside ECDH-ES+A128KW / A128GCM.
	k := p256Key()
	inner := mustSigner(b, jwa.ES256, k, nil)
	ne, err := NewNestedEncrypter(inner, jwa.ECDHESA128KW, jwa.A128GCM, &k.PublicKey, nil)
	if err != nil {
		b.Fatal(err)
	}
	js, err := jws.NewSigner(jwa.ES256, k, &jws.SignerOptions{Type: "JWT"})
	if err != nil {
		b.Fatal(err)
	}
	je, err := jwe.NewEncrypter(jwa.ECDHESA128KW, jwa.A128GCM, &k.PublicKey, &jwe.EncrypterOptions{ContentType: "JWT"})
	if err != nil {
		b.Fatal(err)
	}
	ver := mustVerifier(b, jwa.ES256, &k.PublicKey)
	dec := mustDecrypter(b, jwa.ECDHESA128KW, jwa.A128GCM, k)
	out = append(out, benchAlg{
		name: "nested-ES256-ECDH-ES+A128KW-A128GCM",
		sign: func(b *testing.B, claims any) []byte {
			tok, err := ne.Encrypt(claims)
			if err != nil {
				b.Fatal(err)
			}
			return tok
		},
		plain: func(b *testing.B, payload []byte) {
			s, err := js.Compact(payload)
			if err != nil {
				b.Fatal(err)
			}
			tok, err := je.Compact(s)
			if err != nil {
				b.Fatal(err)
			}
			m, err := dec.DecryptCompact(tok)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := ver.VerifyCompact(m.Plaintext); err != nil {
				b.Fatal(err)
			}
		},
		validator: mustValidator(b, ValidatorOptions{Verifier: ver, Decrypter: dec, Audiences: []string{"https://api.example"}, Issuers: []string{"https://issuer.example"}}),
	})
	return out
}

func BenchmarkRoundTrip(b *testing.B) {
	at := typicalAccessToken()
	reg := typicalClaims()
	for _, a := range benchAlgs(b) {
		// The claims bytes the jwt path signs, for the plain round trip.
		payload, err := encodeClaims(nil, at)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(a.name+"/jose", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(payload)))
			for b.Loop() {
				a.plain(b, payload)
			}
		})
		b.Run(a.name+"/jwt", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(payload)))
			for b.Loop() {
				tok := a.sign(b, at)
				var got accessToken
				if _, err := a.validator.Validate(tok, &got); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(a.name+"/jwt-registered", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				tok := a.sign(b, &reg)
				var got Claims
				if _, err := a.validator.Validate(tok, &got); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkValidate is the validation alone of the typical access token,
// beside the verification of its JWS, and the decoding of its claims.
func BenchmarkValidate(b *testing.B) {
	at := typicalAccessToken()
	a := benchAlgs(b)[0] // HS256
	tok := a.sign(b, at)
	ver := a.validator.ver
	b.Run("HS256/jws-verify", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ver.VerifyCompact(tok); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("HS256/registered", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := a.validator.Validate(tok, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("HS256/struct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var got accessToken
			if _, err := a.validator.Validate(tok, &got); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSidesHS256 runs the two sides of BenchmarkRatio/HS256/struct
// apart, for profiles and instruction counts of one side at a time:
//
//	go test -run '^$' -bench 'SidesHS256/jwt$' -benchtime 20000x -memprofile m.out -memprofilerate 1 ./jose/jwt/
//
// An instruction count under valgrind (cachegrind) is no proxy for the
// ratio: valgrind hides SHA-NI, so crypto/sha256 runs its AVX2 code,
// about 3,260 instructions a block against some 110 cycles natively, and
// the HMACs, common to both sides, make about 29,000 of the jose side's
// 38,000 instructions there (a ratio of 1.23 in instructions where the
// native one is 1.7). GODEBUG=cpu.sha=off gives that code natively: the
// ratio then falls to about 1.33 (2026-12-03; 1.37 before the claims scan
// told plain strings apart), the jwt side's extra work unchanged.
// Allocation is no part of the gap: with GOGC=off the ratio is
// as high, and BenchmarkRatioReuse, which allocates next to nothing, shows
// it too. Compare the sides without sha256.blockAVX2.
func BenchmarkSidesHS256(b *testing.B) {
	at := typicalAccessToken()
	a := benchAlgs(b)[0]
	payload, err := encodeClaims(nil, &at)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("jose", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			a.plain(b, payload)
		}
	})
	b.Run("jwt", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var got accessToken
			if _, err := a.validator.Validate(a.sign(b, &at), &got); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRatio runs the jose and jwt round trips of each algorithm in
// alternating blocks of 8 within one benchmark, so that both see the same
// machine load, and reports the median over the blocks of their ratio
// ("jwt/jose": the target is at most 1.5 for HS256; the median
// resists the bursts of a shared machine), beside the median ns/op of
// each:
//
//	go test -run '^$' -bench Ratio -benchtime 2000x -count 5 ./jose/jwt/
//
// What the figure leaves out (2026-12-04, HS256/struct on a Xeon with
// SHA-NI under a load of 3 to 15): the Validator's clock is fixedNow, so
// the time.Now of a default Validator (two vDSO clock reads, 45 to 60 ns
// a call there) is not in it. The caller's accessToken is in it: dst
// escapes, one allocation of 160 bytes per token; decoding through a
// copy of dst so that it does not escape gave x1.455 -> x1.416 (medians
// of 8 runs alternated) but copied the caller's variable in and back
// (lost writes to fields encoding/json does not touch, an allocation per
// token for every dst encoding/json decodes), so it was not taken. GC
// counts for about 0.01-0.02 (GOGC=10 x1.43, GOGC=1000 x1.44), and
// "registered" (no private claims, no struct) is x1.25.
func BenchmarkRatio(b *testing.B) {
	at := typicalAccessToken()
	reg := typicalClaims()
	for _, a := range benchAlgs(b) {
		payload, err := encodeClaims(nil, &at)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range []struct {
			name string
			jwt  func()
		}{
			{"struct", func() {
				var got accessToken
				if _, err := a.validator.Validate(a.sign(b, &at), &got); err != nil {
					b.Fatal(err)
				}
			}},
			{"registered", func() {
				var got Claims
				if _, err := a.validator.Validate(a.sign(b, &reg), &got); err != nil {
					b.Fatal(err)
				}
			}},
		} {
			b.Run(a.name+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				const block = 8
				var ratios, joseNs, jwtNs []float64
				for b.Loop() {
					t0 := time.Now()
					for range block {
						a.plain(b, payload)
					}
					t1 := time.Now()
					for range block {
						c.jwt()
					}
					dJose, dJWT := t1.Sub(t0), time.Since(t1)
					ratios = append(ratios, float64(dJWT)/float64(dJose))
					joseNs = append(joseNs, float64(dJose.Nanoseconds())/block)
					jwtNs = append(jwtNs, float64(dJWT.Nanoseconds())/block)
				}
				b.ReportMetric(median(ratios), "jwt/jose")
				b.ReportMetric(median(jwtNs), "jwt-ns/op")
				b.ReportMetric(median(joseNs), "jose-ns/op")
			})
		}
	}
}

// hsReuse is what BenchmarkRatioReuse and BenchmarkSteps share: the
// access token, a jwt Signer and a jws one for HS256 with "typ" JWT, the
// Verifier and a Validator that accepts the token, and the token's claims
// set as the jws side signs it.
type hsReuse struct {
	at      accessToken
	s       *Signer
	js      *jws.Signer
	ver     *jws.Verifier
	v       *Validator
	payload []byte
}

func newHSReuse(b *testing.B) hsReuse {
	r := hsReuse{at: typicalAccessToken(), s: mustSigner(b, jwa.HS256, hsKey, nil)}
	var err error
	if r.js, err = jws.NewSigner(jwa.HS256, hsKey, &jws.SignerOptions{Type: "JWT"}); err != nil {
		b.Fatal(err)
	}
	r.ver = mustVerifier(b, jwa.HS256, hsKey)
	r.v = mustValidator(b, ValidatorOptions{Verifier: r.ver, Audiences: []string{"https://api.example"}, Issuers: []string{"https://issuer.example"}})
	if r.payload, err = encodeClaims(nil, &r.at); err != nil {
		b.Fatal(err)
	}
	return r
}

func median(x []float64) float64 {
	slices.Sort(x)
	return x[len(x)/2]
}

// BenchmarkRatioReuse is BenchmarkRatio for the reuse paths of HS256: jws
// AppendCompact + VerifyCompactInto into reused buffers beside jwt
// AppendSign + ValidateInto (a reused Token and claims struct).
func BenchmarkRatioReuse(b *testing.B) {
	r := newHSReuse(b)
	at, s, js, ver, v, payload := r.at, r.s, r.js, r.ver, r.v, r.payload
	var (
		joseBuf, jwtBuf []byte
		m               jws.Message
		tok             Token
		got             accessToken
	)
	plain := func() {
		var err error
		if joseBuf, err = js.AppendCompact(joseBuf[:0], payload); err != nil {
			b.Fatal(err)
		}
		if err := ver.VerifyCompactInto(&m, joseBuf); err != nil {
			b.Fatal(err)
		}
	}
	jwtOp := func() {
		var err error
		if jwtBuf, err = s.AppendSign(jwtBuf[:0], &at); err != nil {
			b.Fatal(err)
		}
		if err := v.ValidateInto(&tok, jwtBuf, &got); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	const block = 8
	var ratios, joseNs, jwtNs []float64
	for b.Loop() {
		t0 := time.Now()
		for range block {
			plain()
		}
		t1 := time.Now()
		for range block {
			jwtOp()
		}
		dJose, dJWT := t1.Sub(t0), time.Since(t1)
		ratios = append(ratios, float64(dJWT)/float64(dJose))
		joseNs = append(joseNs, float64(dJose.Nanoseconds())/block)
		jwtNs = append(jwtNs, float64(dJWT.Nanoseconds())/block)
	}
	b.ReportMetric(median(ratios), "jwt/jose")
	b.ReportMetric(median(jwtNs), "jwt-ns/op")
	b.ReportMetric(median(joseNs), "jose-ns/op")
}

// TestRatioSameBytes checks that BenchmarkRatio compares like with like:
// for HS256, the plain JWS round trip signs the very token the jwt side
// issues (same protected header, same claims bytes), so that the ratio is
// the cost of the claims layer alone.
func TestRatioSameBytes(t *testing.T) {
	at := typicalAccessToken()
	payload, err := encodeClaims(nil, &at)
	if err != nil {
		t.Fatal(err)
	}
	js, err := jws.NewSigner(jwa.HS256, hsKey, &jws.SignerOptions{Type: "JWT"})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := js.Compact(payload)
	if err != nil {
		t.Fatal(err)
	}
	if tok := mustSign(t, mustSigner(t, jwa.HS256, hsKey, nil), &at); string(tok) != string(plain) {
		t.Fatalf("jwt token\n%s\nis not the jws one\n%s", tok, plain)
	}
}
