package jws_test

import (
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
