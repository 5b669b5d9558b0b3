package jwt

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/jws"
)

// BenchmarkSteps accounts for what the JWT layer adds to the JWS round
// trip of BenchmarkRatio/HS256/struct, step by step, measured where the
// steps run: each variant is the jose round trip (jws AppendCompact +
// VerifyCompactInto into reused buffers) with one part of the jwt path
// added, or a whole side of the jwt path in place of the jws one, and
// the benchmark reports, for each, the median over blocks of 8 of its
// time minus the jose round trip's in the same round ("<step>-ns", in
// ns per token). The variants:
//
//   - encode: encodeClaims of the access token into a stack buffer (the
//     jws side still signs the prepared bytes);
//   - sign: jwt AppendSign in place of jws AppendCompact (encode, and what
//     wraps it);
//   - scan: parseClaims of the verified payload into a Claims, with the
//     sink of the struct's plan (the strict scan, the values read, the
//     one copy of the claims' strings);
//   - scan+check+decode: scan, then checkClaims and the plan's decoding
//     into the struct;
//   - validate: jwt ValidateInto (a reused Token and struct) in place of
//     jws VerifyCompactInto: scan+check+decode and what wraps them (the
//     header and type checks, the plan's lookup, the Token's reset, and
//     the copy of a single audience that dst gets for its own, one
//     allocation);
//   - jwt-allocs: the allocations of Validate but the claims' strings
//     (the Token with its buffer, and the caller's struct, which escapes
//     through dst), beside jws-allocs, those of VerifyCompact (a Message
//     and its payload buffer): Validate adds the difference;
//   - jwt: AppendSign + ValidateInto in place of the whole jose round
//     trip (BenchmarkRatioReuse's jwt side).
//
// The steps overlap (sign holds encode, validate holds scan+check+decode).
// jwt is more than sign + validate: "interaction-ns", the median of jwt -
// sign - validate, is what the two sides cost more when they run in one
// round trip than apart (the code of both, with the HMAC and base64 of
// the jws path, in the caches and branch predictors at once: no function
// holds it). Validate as BenchmarkRatio calls it adds
// the allocations (of the claims' strings too, which scan holds). Run it
// so:
//
//	go test -run '^$' -bench Steps -benchtime 3000x -count 4 ./jose/jwt/
func BenchmarkSteps(b *testing.B) {
	r := newHSReuse(b)
	at, s, js, ver, v, payload := r.at, r.s, r.js, r.ver, r.v, r.payload
	var (
		buf   []byte
		m     jws.Message
		tok   Token
		got   accessToken
		c     Claims
		aud   [1]string
		stack [512]byte
		keep  any
	)
	rv := reflect.ValueOf(&got).Elem()
	plan := planOf(rv.Type())
	check := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	sign := func() {
		var err error
		buf, err = js.AppendCompact(buf[:0], payload)
		check(err)
	}
	verify := func() { check(ver.VerifyCompactInto(&m, buf)) }
	var sink privateSink
	scan := func() {
		sink = privateSink{aud: &aud, plan: plan}
		check(parseClaims(m.Payload, v.lim, &c, &sink))
	}
	type step struct {
		name string
		f    func()
	}
	steps := []step{
		{"jose", func() { sign(); verify() }},
		{"encode", func() {
			_, err := encodeClaims(stack[:0], &at)
			check(err)
			sign()
			verify()
		}},
		{"sign", func() {
			var err error
			buf, err = s.AppendSign(buf[:0], &at)
			check(err)
			verify()
		}},
		{"scan", func() { sign(); verify(); scan() }},
		{"scan+check+decode", func() {
			sign()
			verify()
			scan()
			check(v.checkClaims(&c, sink.seen))
			check(sink.decode(m.Payload, v.lim, rv, &c))
		}},
		{"validate", func() { sign(); check(v.ValidateInto(&tok, buf, &got)) }},
		{"jwt-allocs", func() {
			sign()
			verify()
			keep = v.newToken(len(buf))
			keep = new(accessToken)
		}},
		{"jws-allocs", func() {
			sign()
			verify()
			keep = new(jws.Message)
			keep = make([]byte, 0, len(m.Payload)+32)
		}},
		{"jwt", func() {
			var err error
			buf, err = s.AppendSign(buf[:0], &at)
			check(err)
			check(v.ValidateInto(&tok, buf, &got))
		}},
	}
	_ = keep
	index := func(name string) int {
		i := slices.IndexFunc(steps, func(st step) bool { return st.name == name })
		if i < 0 {
			b.Fatalf("no step %s", name)
		}
		return i
	}
	iSign, iValidate, iJWT := index("sign"), index("validate"), index("jwt")
	b.ReportAllocs()
	const block = 8
	added := make([][]float64, len(steps))
	var joseNs, interaction []float64
	d := make([]time.Duration, len(steps))
	for b.Loop() {
		for i, st := range steps {
			t0 := time.Now()
			for range block {
				st.f()
			}
			d[i] = time.Since(t0)
		}
		joseNs = append(joseNs, float64(d[0].Nanoseconds())/block)
		interaction = append(interaction, float64((d[iJWT]-d[iSign]-d[iValidate]+d[0]).Nanoseconds())/block)
		for i := 1; i < len(steps); i++ {
			added[i] = append(added[i], float64((d[i]-d[0]).Nanoseconds())/block)
		}
	}
	b.ReportMetric(median(joseNs), "jose-ns/op")
	b.ReportMetric(median(interaction), "interaction-ns")
	for i := 1; i < len(steps); i++ {
		b.ReportMetric(median(added[i]), steps[i].name+"-ns")
	}
}

// BenchmarkStepsApart runs the claims steps of BenchmarkSteps alone, each
// in its own loop (trained predictors, hot caches): encode (encodeClaims
// into a stack buffer), scan (parseClaims with the sink of the struct's
// plan, its strings allocated as ValidateInto's are) and
// scan+check+decode. Their instruction counts are steady where the
// machine's load moves their times: under cachegrind, the difference of
// two runs over their iterations,
//
//	go test -c -o jwt.test ./jose/jwt/ && cd jose/jwt
//	for n in 10000 30000; do valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null ../../jwt.test -test.run '^$' -test.bench 'StepsApart/encode$' -test.benchtime ${n}x -test.cpu 1 2>&1 | grep 'I *refs'; done
func BenchmarkStepsApart(b *testing.B) {
	r := newHSReuse(b)
	var (
		got   accessToken
		c     Claims
		aud   [1]string
		stack [512]byte
	)
	rv := reflect.ValueOf(&got).Elem()
	plan := planOf(rv.Type())
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := encodeClaims(stack[:0], &r.at); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("scan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink := privateSink{aud: &aud, plan: plan}
			if err := parseClaims(r.payload, r.v.lim, &c, &sink); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("scan+check+decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink := privateSink{aud: &aud, plan: plan}
			if err := parseClaims(r.payload, r.v.lim, &c, &sink); err != nil {
				b.Fatal(err)
			}
			if err := r.v.checkClaims(&c, sink.seen); err != nil {
				b.Fatal(err)
			}
			if err := sink.decode(r.payload, r.v.lim, rv, &c); err != nil {
				b.Fatal(err)
			}
		}
	})
}
