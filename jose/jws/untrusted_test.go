package jws_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// utMembers returns n members "m0":0,... each preceded by a comma.
func utMembers(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `,"m%d":0`, i)
	}
	return b.String()
}

// utNested returns a JSON array nested depth deep.
func utNested(depth int) string { return strings.Repeat("[", depth) + strings.Repeat("]", depth) }

// TestJSONLimitsSentinel: every limit of jose.Limits that a JWS JSON
// Serialization can hit, at any level (the serialization object, a
// signature object, a protected or unprotected header), is refused with an
// error wrapping jose.ErrLimitExceeded, in both the flattened and the
// general form, through VerifyJSON and VerifyEach.
func TestJSONLimitsSentinel(t *testing.T) {
	b64 := jose.Base64URLEncode
	lim := jose.Limits{}.WithDefaults()
	prot := b64([]byte(`{"alg":"HS256"}`))
	sig := `"signature":"` + b64(make([]byte, 32)) + `"`
	flat := func(extraTop, extraHdr string) string {
		return `{"payload":"","protected":"` + prot + `",` + sig + `,"header":{"kid":"k"` + extraHdr + `}` + extraTop + `}`
	}
	general := func(extraTop, extraSig, extraHdr string, n int) string {
		one := `{"protected":"` + prot + `",` + sig + `,"header":{"kid":"k"` + extraHdr + `}` + extraSig + `}`
		return `{"payload":"","signatures":[` + strings.TrimSuffix(strings.Repeat(one+",", n), ",") + `]` + extraTop + `}`
	}
	bigProt := b64([]byte(`{"alg":"HS256"` + utMembers(lim.MaxHeaderMembers) + `}`))
	deepProt := b64([]byte(`{"alg":"HS256","x":` + utNested(lim.MaxJSONDepth) + `}`))
	cases := map[string]string{
		"flattened: members of the serialization": flat(utMembers(lim.MaxHeaderMembers), ""),
		"flattened: depth in the serialization":   flat(`,"x":`+utNested(lim.MaxJSONDepth+3), ""),
		"flattened: members of the header":        flat("", utMembers(lim.MaxHeaderMembers)),
		"flattened: depth in the header":          flat("", `,"x":`+utNested(lim.MaxJSONDepth)),
		"flattened: members of the protected":     strings.Replace(flat("", ""), prot, bigProt, 1),
		"flattened: depth in the protected":       strings.Replace(flat("", ""), prot, deepProt, 1),
		"flattened: header size":                  flat("", `,"x":"`+strings.Repeat("a", lim.MaxHeaderSize)+`"`),
		"flattened: token size":                   flat(`,"x":"`+strings.Repeat("a", lim.MaxTokenSize)+`"`, ""),
		"general: members of the serialization":   general(utMembers(lim.MaxHeaderMembers), "", "", 1),
		"general: depth in the serialization":     general(`,"x":`+utNested(lim.MaxJSONDepth+3), "", "", 1),
		"general: members of a signature":         general("", utMembers(lim.MaxHeaderMembers), "", 1),
		"general: depth in a signature":           general("", `,"x":`+utNested(lim.MaxJSONDepth+2), "", 1),
		"general: members of the header":          general("", "", utMembers(lim.MaxHeaderMembers), 1),
		"general: depth in the header":            general("", "", `,"x":`+utNested(lim.MaxJSONDepth), 1),
		"general: signatures":                     general("", "", "", lim.MaxSignatures+1),
	}
	v := hzVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: hzHMACKey})
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := v.VerifyJSON([]byte(data)); !errors.Is(err, jose.ErrLimitExceeded) {
				t.Errorf("VerifyJSON: %v, want ErrLimitExceeded", err)
			}
			if _, _, err := v.VerifyEach([]byte(data)); !errors.Is(err, jose.ErrLimitExceeded) {
				t.Errorf("VerifyEach: %v, want ErrLimitExceeded", err)
			}
		})
	}
}

// utRSAHeader is the protected header of issue 9's token: a "jwk" with RSA
// private members (n and p of bits bits, junk d, q, dp, dq, qi).
func utRSAHeader(alg string, bits int) string {
	return `{"alg":"` + alg + `","jwk":` + vectortest.Issue9RSAJWK(bits, 7) + `}`
}

// TestUntrustedHeaderRSAKey: issue 9's pre-authentication DoS. A JWS whose
// protected header carries an RSA private key (8192 and 16384 bits) is
// refused on the key's member names, whatever the allow-list, with no key
// built: allocation is a small multiple of the token, where building and
// validating the key allocated megabytes (244 MB for 16 signatures). The
// timings are in BenchmarkUntrusted.
func TestUntrustedHeaderRSAKey(t *testing.T) {
	v := hzVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: hzHMACKey})
	b64 := jose.Base64URLEncode
	for _, bits := range []int{8192, 16384} {
		hdr := utRSAHeader("HS256", bits)
		compact := []byte(b64([]byte(hdr)) + ".e30." + b64(make([]byte, 32)))
		one := `{"protected":"` + b64([]byte(hdr)) + `","signature":"` + b64(make([]byte, 32)) + `"}`
		general := []byte(`{"payload":"e30","signatures":[` + strings.TrimSuffix(strings.Repeat(one+",", jose.DefaultMaxSignatures), ",") + `]}`)
		for _, c := range []struct {
			name   string
			token  []byte
			verify func([]byte) error
		}{
			{"compact", compact, func(b []byte) error { _, err := v.VerifyCompact(b); return err }},
			{"general JSON, 16 signatures", general, func(b []byte) error { _, _, err := v.VerifyEach(b); return err }},
		} {
			t.Run(fmt.Sprintf("%d/%s", bits, c.name), func(t *testing.T) {
				var err error
				alloc := vectortest.BytesAllocated(func() { err = c.verify(c.token) })
				if !errors.Is(err, jose.ErrMalformed) || !strings.Contains(err.Error(), "secret key material") {
					t.Fatalf("err = %v, want the secret-material refusal", err)
				}
				bound := uint64(4*len(c.token) + 64<<10)
				t.Logf("%d-byte token: %d bytes allocated (bound %d)", len(c.token), alloc, bound)
				if alloc > bound {
					t.Errorf("allocated %d bytes, more than %d", alloc, bound)
				}
			})
		}
	}
}

// utGeneral returns a general JWS JSON of payload with one HS256 signature
// per key, without kid.
func utGeneral(t *testing.T, payload string, keys ...[]byte) []byte {
	t.Helper()
	var signers []*jws.Signer
	for _, k := range keys {
		s, err := jws.NewSigner(jwa.HS256, k, nil)
		if err != nil {
			t.Fatal(err)
		}
		signers = append(signers, s)
	}
	tok, err := jws.SignGeneral([]byte(payload), signers...)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// utCount counts the results of VerifyEach wrapping each error.
func utCount(res []jws.SignatureResult) (ok, failed, limited int) {
	for _, r := range res {
		switch {
		case r.Err == nil:
			ok++
		case errors.Is(r.Err, jose.ErrLimitExceeded):
			limited++
		case errors.Is(r.Err, jose.ErrVerificationFailed):
			failed++
		}
	}
	return ok, failed, limited
}

// TestKeyAttemptsPerToken: all signatures of a JSON JWS together cost at
// most Limits.MaxKeyAttempts verifications (4 by default): of 16
// signatures that do not verify, 4 are tried and 12 refused with
// ErrLimitExceeded before any verification; with a JWK Set of 4 keys and
// no kid, the first signature takes the whole budget. Raising the limit
// verifies them all.
func TestKeyAttemptsPerToken(t *testing.T) {
	var keys [][]byte
	for i := range jose.DefaultMaxSignatures {
		keys = append(keys, bytes.Repeat([]byte{byte(i + 1)}, 32))
	}
	tok := utGeneral(t, "{}", keys...)
	wrong := bytes.Repeat([]byte{0xee}, 32)
	algs := []jwa.SignatureAlgorithm{jwa.HS256}
	set := &jose.Set{}
	for i := range jws.MaxKeyCandidates {
		k, _ := jose.NewJWK(bytes.Repeat([]byte{0xf0 + byte(i)}, 32))
		set.Keys = append(set.Keys, k)
	}
	for _, c := range []struct {
		name                string
		opts                jws.VerifyOptions
		ok, failed, limited int
	}{
		{"one wrong key", jws.VerifyOptions{Algorithms: algs, Key: wrong}, 0, 4, 12},
		{"set of 4 wrong keys", jws.VerifyOptions{Algorithms: algs, Keys: set}, 0, 1, 15},
		{"one wrong key, limit raised", jws.VerifyOptions{Algorithms: algs, Key: wrong, Limits: jose.Limits{MaxKeyAttempts: 16}}, 0, 16, 0},
		{"the fourth signer's key", jws.VerifyOptions{Algorithms: algs, Key: keys[3]}, 1, 3, 12},
		{"the fifth signer's key", jws.VerifyOptions{Algorithms: algs, Key: keys[4]}, 0, 4, 12},
		{"the fifth signer's key, limit raised", jws.VerifyOptions{Algorithms: algs, Key: keys[4], Limits: jose.Limits{MaxKeyAttempts: 5}}, 1, 4, 11},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, _, err := hzVerifier(t, c.opts).VerifyEach(tok)
			if c.ok == 0 && err == nil {
				t.Fatal("no signature should verify")
			}
			ok, failed, limited := utCount(res)
			if ok != c.ok || failed != c.failed || limited != c.limited {
				t.Errorf("verified %d, failed %d, over the limit %d; want %d, %d, %d", ok, failed, limited, c.ok, c.failed, c.limited)
			}
		})
	}
}

// TestKeyAttemptsBeforeKeyFunc: once a token has spent its
// Limits.MaxKeyAttempts, no further signature reaches the caller's KeyFunc
// (which may be costly: a database, a cache of remote keys): of 16
// signatures that do not verify, KeyFunc is called for the 4 that are
// tried, and the 12 others are refused with ErrLimitExceeded.
func TestKeyAttemptsBeforeKeyFunc(t *testing.T) {
	var keys [][]byte
	for i := range jose.DefaultMaxSignatures {
		keys = append(keys, bytes.Repeat([]byte{byte(i + 1)}, 32))
	}
	tok := utGeneral(t, "{}", keys...)
	calls := 0
	v := hzVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, KeyFunc: func(*jose.Header) (any, error) {
		calls++
		return bytes.Repeat([]byte{0xee}, 32), nil
	}})
	res, _, err := v.VerifyEach(tok)
	if err == nil {
		t.Fatal("no signature should verify")
	}
	if _, failed, limited := utCount(res); failed != jose.DefaultMaxKeyAttempts || limited != len(keys)-jose.DefaultMaxKeyAttempts {
		t.Errorf("failed %d, over the limit %d", failed, limited)
	}
	if calls != jose.DefaultMaxKeyAttempts {
		t.Errorf("KeyFunc called %d times, want %d", calls, jose.DefaultMaxKeyAttempts)
	}
}
