package jose_test

// Fuzz targets for the parsers of package jose: strict base64url, the JOSE
// Header decoder, JWK and JWK Set. Beyond "no panic", each checks that the
// format round-trips where it is canonical:
//
//   - base64url: decode then encode gives the input back, and the decoder
//     agrees with encoding/base64's strict unpadded URL decoder;
//   - header: ParseHeader -> AppendJSON -> ParseHeader -> AppendJSON is a
//     fixed point, with the same members and typed values;
//   - JWK and JWK Set: parse -> marshal -> parse -> marshal is a fixed
//     point, and the key (type, privacy, thumbprint) is unchanged.
//
// Seeds come from the test vectors; go test runs them as regression tests.

import (
	"bytes"
	"crypto"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/internal/vectortest"
)

// fzVectorFiles returns the contents of the test-vector files matching the
// patterns (relative to the repository's testdata), smaller than max bytes.
func fzVectorFiles(f *testing.F, max int, patterns ...string) [][]byte {
	f.Helper()
	var out [][]byte
	for _, p := range patterns {
		names, err := filepath.Glob(filepath.Join("../testdata", p))
		if err != nil {
			f.Fatal(err)
		}
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			if len(data) <= max {
				out = append(out, data)
			}
		}
	}
	if len(out) == 0 {
		f.Fatalf("no seed files for %v", patterns)
	}
	return out
}

// fzJSONObjects returns every JSON object found at any depth in the
// vector files (JWKs, headers), re-marshalled compactly, and the decoded
// protected headers of the compact tokens they hold.
func fzJSONObjects(f *testing.F, keep func(map[string]any) bool) [][]byte {
	f.Helper()
	var out [][]byte
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if keep(v) {
				if b, err := json.Marshal(v); err == nil {
					out = append(out, b)
				}
			}
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		case string:
			// A compact token or a protected header in base64url.
			for _, seg := range strings.SplitN(v, ".", 2)[:1] {
				if b, err := base64.RawURLEncoding.DecodeString(seg); err == nil && len(b) > 1 && b[0] == '{' {
					var m map[string]any
					if json.Unmarshal(b, &m) == nil && keep(m) {
						out = append(out, b)
					}
				}
			}
		}
	}
	for _, data := range fzVectorFiles(f, 1<<20, "cookbook/*/*.json", "cookbook/*.json", "latchset/*.jwk*", "joserfc/*.json", "wycheproof/json_web_*.json") {
		var v any
		if json.Unmarshal(data, &v) == nil {
			walk(v)
		}
	}
	// The vectors repeat their keys and headers: keep one of each.
	slices.SortFunc(out, bytes.Compare)
	return slices.CompactFunc(out, bytes.Equal)
}

// fzLong is a name or value longer than any error may repeat.
var fzLong = strings.Repeat("\u00e9", 1200)

func FuzzBase64URLDecode(f *testing.F) {
	for _, s := range []string{"", "A", "AA", "AAA", "AAAA", "AB", "AQ", "AR", "_-", "+/", "AA==", "AA\n", "A\rA", " AA", "Zm9v", "eyJhbGciOiJIUzI1NiJ9", "\x00", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := jose.Base64URLDecode(s)
		vectortest.CheckErrorText(t, err)
		want, stdErr := base64.RawURLEncoding.Strict().DecodeString(s)
		if err != nil {
			if !errors.Is(err, jose.ErrMalformed) {
				t.Fatalf("error %v does not wrap ErrMalformed", err)
			}
			// encoding/base64 skips CR and LF; RFC 7515 §2 does not.
			if stdErr == nil && !strings.ContainsAny(s, "\r\n") {
				t.Fatalf("refused %q that the strict standard decoder accepts: %v", s, err)
			}
			return
		}
		if stdErr != nil || !bytes.Equal(got, want) {
			t.Fatalf("decoded %q to %x, standard decoder %x (%v)", s, got, want, stdErr)
		}
		if enc := jose.Base64URLEncode(got); enc != s {
			t.Fatalf("decode/encode of %q gives %q", s, enc)
		}
		if n := b64enc.DecodedLen(len(s)); n != len(got) {
			t.Fatalf("b64enc.DecodedLen(%d) = %d, decoded %d bytes", len(s), n, len(got))
		}
		// The []byte form and the append form agree.
		got2, err := b64enc.AppendDecode([]byte("x"), []byte(s), jose.ErrMalformed)
		if err != nil || !bytes.Equal(got2[1:], got) || got2[0] != 'x' {
			t.Fatalf("b64enc.AppendDecode: %q, %v", got2, err)
		}
	})
}

// fzHeaderView is the part of a Header compared across a round trip.
type fzHeaderView struct {
	Alg, Enc, Zip, Kid, Typ, Cty string
	Crit                         []string
	B64                          *bool
	JKU, X5U, X5T, X5TS256       string
	X5C                          []string
	APU, APV, IV, Tag, P2S       []byte
	P2C                          int
	HasJWK, HasEPK               bool
	Names                        []string
}

func fzView(h *jose.Header) fzHeaderView {
	return fzHeaderView{
		h.Algorithm, h.Encryption, h.Compression, h.KeyID, h.Type, h.ContentType,
		h.Critical, h.B64, h.JKU, h.X5U, h.X5T, h.X5TS256, h.X5C,
		h.APU, h.APV, h.IV, h.Tag, h.P2S, h.P2C, h.JWK != nil, h.EPK != nil, h.Names(),
	}
}

func FuzzParseHeader(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"alg":"HS256"}`, `{"alg":"HS256","alg":"none"}`, `{"alg":"HS256","b64":false,"crit":["b64"]}`,
		`{"crit":[]}`, `{"crit":["b64","b64"]}`, `{"p2c":0}`, `{"p2c":-1}`, `{"p2c":1000000000}`, `{"p2c":1e3}`,
		`{"iv":"AA=="}`, `{"x":{"y":{"z":[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]}}}`, `{"kid":"\u0000"}`,
		`{"jwk":{"kty":"oct","k":"AAAA"}}`, `{"epk":{"kty":"OKP","crv":"X25519","x":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}}`,
		// Long attacker text, which errors must quote cut (issue 18).
		`{"` + fzLong + `":1,"` + fzLong + `":2}`, `{"crit":["` + fzLong + `"],"` + fzLong + `":1}`,
		`{"crit":["` + fzLong + `","` + fzLong + `"]}`, `{"jwk":{"kty":"` + fzLong + `"}}`, `{"p2c":` + strings.Repeat("9", 2000) + `}`,
	} {
		f.Add([]byte(s))
	}
	for _, b := range fzJSONObjects(f, func(m map[string]any) bool { _, ok := m["alg"]; return ok && m["kty"] == nil }) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := jose.ParseHeader(data, jose.Limits{})
		vectortest.CheckErrorText(t, err)
		if err != nil {
			if !fzSentinel(err) {
				t.Fatalf("error %v wraps no jose sentinel error", err)
			}
			return
		}
		if len(data) > jose.DefaultMaxHeaderSize {
			t.Fatalf("header of %d bytes accepted", len(data))
		}
		out, err := h.AppendJSON(nil)
		if err != nil {
			t.Fatalf("AppendJSON of a parsed header: %v", err)
		}
		// Re-encoding may lengthen strings (escapes): read back with room.
		big := jose.Limits{MaxHeaderSize: 1 << 20}
		h2, err := jose.ParseHeader(out, big)
		if err != nil {
			t.Fatalf("ParseHeader(AppendJSON(h)) = %v\ninput  %s\noutput %s", err, data, out)
		}
		out2, err := h2.AppendJSON(nil)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("AppendJSON is not a fixed point: %v\n%s\n%s", err, out, out2)
		}
		if v1, v2 := fzView(h), fzView(h2); !reflect.DeepEqual(v1, v2) {
			t.Fatalf("round trip changed the header:\n%+v\n%+v", v1, v2)
		}
		for name, raw := range h.Extra {
			var a, b bytes.Buffer
			if json.Compact(&a, raw) != nil || json.Compact(&b, h2.Extra[name]) != nil || a.String() != b.String() {
				t.Fatalf("member %q: %s became %s", name, raw, h2.Extra[name])
			}
		}
		for _, name := range h.Names() {
			if !h.Has(name) || !h2.Has(name) {
				t.Fatalf("Names lists %q but Has denies it", name)
			}
		}
	})
}

// fzKeyRoundTrip checks that k marshals to JSON that parses back to the
// same key, and that marshalling is then a fixed point.
func fzKeyRoundTrip(t *testing.T, k *jose.JWK) []byte {
	t.Helper()
	out, err := json.Marshal(k)
	if err != nil {
		t.Fatalf("marshal of a parsed key: %v", err)
	}
	k2, err := jose.ParseKey(out)
	if err != nil {
		t.Fatalf("ParseKey(marshal(k)) = %v\n%s", err, out)
	}
	out2, err := json.Marshal(k2)
	if err != nil || !bytes.Equal(out, out2) {
		t.Fatalf("marshal is not a fixed point: %v\n%s\n%s", err, out, out2)
	}
	if k.KeyType() != k2.KeyType() || k.IsPrivate() != k2.IsPrivate() || k.KeyID != k2.KeyID ||
		k.Algorithm != k2.Algorithm || k.Use != k2.Use || !slices.Equal(k.KeyOps, k2.KeyOps) {
		t.Fatalf("round trip changed the key: %s -> %s", out, out2)
	}
	tp1, err1 := k.Thumbprint(crypto.SHA256)
	tp2, err2 := k2.Thumbprint(crypto.SHA256)
	if (err1 == nil) != (err2 == nil) || !bytes.Equal(tp1, tp2) {
		t.Fatalf("thumbprint changed: %x (%v) -> %x (%v)", tp1, err1, tp2, err2)
	}
	if k.IsPrivate() {
		if p := k.Public(); p != nil && p.IsPrivate() {
			t.Fatalf("Public() of a private key is private")
		}
	}
	return out
}

// fzSentinel reports whether err wraps one of the errors of jose/errors.go
// that a parser may return.
func fzSentinel(err error) bool {
	for _, target := range []error{jose.ErrMalformed, jose.ErrLimitExceeded, jose.ErrInvalidKey, jose.ErrUnsupportedAlgorithm} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

// secp256k1TestPublicFuzz is the public JWK of the Wycheproof ES256K
// vectors (testdata/wycheproof/ecdsa_secp256k1_sha256_p1363_test.json).
const secp256k1TestPublicFuzz = `{"kty":"EC","crv":"secp256k1","x":"uDj_ROW8F3vyEYnQdmCC_J2EMiaIf8l2A3EQC37iCm8","y":"8MnXW_unsxpryhl0SW7rVt41cHGVXYPEsbraoLIYMuk"}`

func FuzzParseKey(f *testing.F) {
	for _, s := range []string{
		`{"kty":"oct","k":""}`, `{"kty":"oct","k":"AAAA","k":"BBBB"}`, `{"kty":"EC","crv":"P-256","x":"","y":""}`,
		`{"kty":"RSA","n":"AQAB","e":"AQAB"}`, `{"kty":"OKP","crv":"X448","x":"AA"}`, `{"kty":"oct","k":"AAAA","key_ops":["sign","sign"]}`,
		`{"kty":"AKP","alg":"ML-DSA-44","pub":"AA"}`, `{"kty":"AKP","pub":"AA","priv":"AA"}`, `{"kty":"AKP","alg":"ML-DSA-87","pub":"AA","priv":""}`,
		`{"kty":"oct","k":"AAAA","` + fzLong + `":1,"` + fzLong + `":2}`, `{"kty":"` + fzLong + `"}`, `{"kty":"EC","crv":"` + fzLong + `"}`,
		`{"kty":"oct","k":"AAAA","key_ops":["` + fzLong + `","` + fzLong + `"]}`, `{"kty":"AKP","alg":"` + fzLong + `","pub":"AA"}`,
		// secp256k1 (RFC 8812 §3.1): a valid public key (Wycheproof), a
		// private key, an off-curve point, a zero scalar.
		secp256k1TestPublicFuzz,
		`{"kty":"EC","crv":"secp256k1","x":"xJHatGf2XQq23RevCOEOzNA7yuwytt4iBaJnRZAmO2o","y":"8q-F-1UIuhRlHrqwBChA6YiqSwPEalrh9fLvl7ESGcw","d":"XH9jnb2TbpRrd4M74J_Kmc-x_QW33xkarZMn47B1GKU"}`,
		`{"kty":"EC","crv":"secp256k1","x":"uDj_ROW8F3vyEYnQdmCC_J2EMiaIf8l2A3EQC37iCm8","y":"9MnXW_unsxpryhl0SW7rVt41cHGVXYPEsbraoLIYMuk"}`,
		`{"kty":"EC","crv":"secp256k1","x":"xJHatGf2XQq23RevCOEOzNA7yuwytt4iBaJnRZAmO2o","y":"8q-F-1UIuhRlHrqwBChA6YiqSwPEalrh9fLvl7ESGcw","d":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}`,
	} {
		f.Add([]byte(s))
	}
	for _, b := range fzVectorFiles(f, 1<<13, "keys/mldsa*.json") { // RFC 9964 AKP keys
		f.Add(b)
	}
	for _, b := range fzJSONObjects(f, func(m map[string]any) bool { _, ok := m["kty"]; return ok }) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		k, err := jose.ParseKey(data)
		vectortest.CheckErrorText(t, err)
		if err != nil {
			if !fzSentinel(err) {
				t.Fatalf("error %v wraps no jose sentinel error", err)
			}
			return
		}
		if k.Key == nil {
			t.Fatalf("ParseKey returned a key without a Go key: %s", data)
		}
		fzKeyRoundTrip(t, k)
	})
}

func FuzzParseSet(f *testing.F) {
	f.Add([]byte(`{"keys":[]}`))
	f.Add([]byte(`{"keys":[{"kty":"oct","k":"AAAA","kid":"a"},{"kty":"oct","k":"AAAA","kid":"a"}]}`))
	f.Add([]byte(`{"keys":[{"kty":"unknown"}]}`))
	f.Add([]byte(`{"keys":[{"kty":"` + fzLong + `","kid":"` + fzLong + `"}],"` + fzLong + `":1,"` + fzLong + `":2}`))
	for _, b := range fzVectorFiles(f, 64<<10, "latchset/*.jwkset") {
		f.Add(b)
	}
	for _, b := range fzJSONObjects(f, func(m map[string]any) bool { _, ok := m["keys"]; return ok }) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := jose.ParseSet(data)
		// ParsePublicSetWithLimits refuses more, only with ErrInvalidKey,
		// and never accepts a private or secret key.
		ps, perr := jose.ParsePublicSetWithLimits(data, jose.Limits{})
		vectortest.CheckErrorText(t, err)
		vectortest.CheckErrorText(t, perr)
		switch {
		case err != nil && perr == nil:
			t.Fatalf("ParsePublicSetWithLimits accepts what ParseSet refuses (%v)", err)
		case err == nil && perr != nil && !errors.Is(perr, jose.ErrInvalidKey):
			t.Fatalf("ParsePublicSetWithLimits: %v", perr)
		case perr == nil:
			for _, k := range ps.Keys {
				if k.IsPrivate() {
					t.Fatalf("ParsePublicSetWithLimits accepted a private key")
				}
			}
		}
		if err != nil {
			if !fzSentinel(err) {
				t.Fatalf("error %v wraps no jose sentinel error", err)
			}
			return
		}
		if len(s.Keys) > jose.DefaultMaxSetKeys {
			t.Fatalf("set of %d keys accepted", len(s.Keys))
		}
		out, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("marshal of a parsed set: %v", err)
		}
		s2, err := jose.ParseSet(out)
		if err != nil {
			t.Fatalf("ParseSet(marshal(s)) = %v\n%s", err, out)
		}
		out2, err := json.Marshal(s2)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("marshal is not a fixed point: %v\n%s\n%s", err, out, out2)
		}
		if len(s.Keys) != len(s2.Keys) {
			t.Fatalf("%d keys became %d", len(s.Keys), len(s2.Keys))
		}
		for i, k := range s.Keys {
			if k.Key == nil {
				vectortest.CheckErrorText(t, k.Err())
				continue // an entry this module cannot use, kept as is
			}
			fzKeyRoundTrip(t, k)
			if got := s.LookupKeyID(k.KeyID); k.KeyID != "" && !slices.Contains(got, k) {
				t.Fatalf("LookupKeyID(%q) misses key %d", k.KeyID, i)
			}
		}
	})
}

// FuzzParseKeyPEM feeds PEM blocks, secp256k1 ones (read by this module,
// not crypto/x509) among them, to ParseKeyPEM: no panic, checked error
// texts, and a key that writes back to PEM.
func FuzzParseKeyPEM(f *testing.F) {
	for _, b := range fzVectorFiles(f, 1<<13, "keys/secp256k1*.pem") {
		f.Add(b)
	}
	f.Add([]byte("-----BEGIN EC PRIVATE KEY-----\nMAA=\n-----END EC PRIVATE KEY-----\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		k, err := jose.ParseKeyPEM(data)
		vectortest.CheckErrorText(t, err)
		if err != nil {
			return
		}
		if _, err := k.MarshalPEM(); err != nil {
			t.Fatalf("parsed key does not write back: %v", err)
		}
	})
}
