package jose

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// hdrEPK is the public key of RFC 7520 §5.4 (ephemeral P-384 key).
const hdrEPK = `{"kty":"EC","crv":"P-384","x":"uBo4kHPw6kbjx5l0xowrd_oYzBmaz-GKFZu4xAFFkbYiWgutEK6iuEDsQ6wNdNg3","y":"sp3p5SGhZVC2faXumI-e9JU2Mo8KpoYrFDr5yPNVtW4PgEwZOyQTA-JdaY8tb7E0"}`

// hdrAllMembers sets every registered member and two custom ones.
const hdrAllMembers = `{"alg":"ECDH-ES+A128KW","enc":"A128GCM","zip":"DEF","kid":"k\u00e9y-1","typ":"JOSE+JSON","cty":"JWT",` +
	`"crit":["exp","b64"],"b64":false,"jku":"https://example.com/jwks","jwk":` + hdrEPK + `,"x5u":"https://example.com/c.pem",` +
	`"x5c":["MIIB","AAAA"],"x5t":"AAAAAAAAAAAAAAAAAAAAAAAAAAA","x5t#S256":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",` +
	`"epk":` + hdrEPK + `,"apu":"QWxpY2U","apv":"","iv":"AAECAwQFBgcICQoL","tag":"AAECAwQFBgcICQoLDA0ODw","p2s":"c2FsdA","p2c":4096,` +
	`"ek":"BAABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4fICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8",` +
	`"exp":1363284000,"z":{"nested":[1,2,{"a":null}]}}`

func TestHeaderParseAllMembers(t *testing.T) {
	h, err := ParseHeader([]byte(hdrAllMembers), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if h.Algorithm != "ECDH-ES+A128KW" || h.Encryption != "A128GCM" || h.Compression != "DEF" ||
		h.KeyID != "kéy-1" || h.Type != "JOSE+JSON" || h.ContentType != "JWT" ||
		!slices.Equal(h.Critical, []string{"exp", "b64"}) || h.B64 == nil || *h.B64 ||
		h.JKU != "https://example.com/jwks" || h.X5U != "https://example.com/c.pem" ||
		!slices.Equal(h.X5C, []string{"MIIB", "AAAA"}) || len(h.X5T) != 27 || len(h.X5TS256) != 43 ||
		string(h.APU) != "Alice" || h.APV == nil || len(h.APV) != 0 || len(h.IV) != 12 || len(h.Tag) != 16 ||
		string(h.P2S) != "salt" || h.P2C != 4096 || len(h.EK) != 65 || h.EK[0] != 4 || h.EK[64] != 63 {
		t.Errorf("fields: %+v", h)
	}
	if h.JWK == nil || h.EPK == nil || h.EPK.KeyType() != "EC" || h.JWK.IsPrivate() {
		t.Errorf("jwk/epk: %+v %+v", h.JWK, h.EPK)
	}
	if len(h.Extra) != 2 || string(h.Extra["exp"]) != "1363284000" || string(h.Extra["z"]) != `{"nested":[1,2,{"a":null}]}` {
		t.Errorf("Extra: %q", h.Extra)
	}
	wantNames := []string{"alg", "enc", "zip", "kid", "typ", "cty", "b64", "crit", "jku", "jwk", "x5u", "x5c", "x5t",
		"x5t#S256", "epk", "apu", "apv", "iv", "tag", "p2s", "p2c", "ek", "exp", "z"}
	if got := h.Names(); !slices.Equal(got, wantNames) {
		t.Errorf("Names() = %q", got)
	}
	for _, name := range wantNames {
		if !h.Has(name) {
			t.Errorf("Has(%q) = false", name)
		}
	}
	if h.Has("nope") || h.Has("") {
		t.Error("Has of an absent member")
	}
	hdrRoundTrip(t, h)
}

// hdrRoundTrip checks that AppendJSON → ParseHeader gives h back, that the
// output is deterministic, and that every member reads back through Get.
func hdrRoundTrip(t *testing.T, h *Header) {
	t.Helper()
	out, err := h.AppendJSON([]byte("prefix"))
	if err != nil {
		t.Fatalf("AppendJSON: %v", err)
	}
	if !bytes.HasPrefix(out, []byte("prefix{")) {
		t.Fatalf("AppendJSON does not append: %s", out)
	}
	out = out[len("prefix"):]
	if !json.Valid(out) {
		t.Fatalf("AppendJSON wrote invalid JSON: %s", out)
	}
	h2, err := ParseHeader(out, Limits{})
	if err != nil {
		t.Fatalf("ParseHeader(AppendJSON()): %v\n%s", err, out)
	}
	if !hdrEqual(h, h2) {
		t.Errorf("round trip changed the header:\n%+v\n%+v\n%s", h, h2, out)
	}
	out2, _ := h2.AppendJSON(nil)
	if !bytes.Equal(out, out2) {
		t.Errorf("AppendJSON not deterministic:\n%s\n%s", out, out2)
	}
	m, err := h.MarshalJSON()
	if err != nil || !bytes.Equal(m, out) {
		t.Errorf("MarshalJSON = %s, %v", m, err)
	}
	// Every member, read with Get, is the member as written.
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(out, &obj); err != nil {
		t.Fatal(err)
	}
	if len(obj) != len(h.Names()) {
		t.Errorf("%d members written, Names() has %d", len(obj), len(h.Names()))
	}
	for name, want := range obj {
		got, ok := h.Get(name)
		if !ok || !bytes.Equal(got, want) {
			t.Errorf("Get(%q) = %s, %v; written %s", name, got, ok, want)
		}
	}
}

// hdrEqual compares headers, JWKs by their JSON form.
func hdrEqual(a, b *Header) bool {
	ja, jb := hdrKeyJSON(a.JWK), hdrKeyJSON(b.JWK)
	ea, eb := hdrKeyJSON(a.EPK), hdrKeyJSON(b.EPK)
	ca, cb := *a, *b
	ca.JWK, cb.JWK, ca.EPK, cb.EPK = nil, nil, nil, nil
	if len(ca.Extra) == 0 && len(cb.Extra) == 0 {
		ca.Extra, cb.Extra = nil, nil
	}
	return ja == jb && ea == eb && reflect.DeepEqual(ca, cb)
}

func hdrKeyJSON(k *JWK) string {
	if k == nil {
		return ""
	}
	b, err := k.MarshalJSON()
	if err != nil {
		return "error: " + err.Error()
	}
	return string(b)
}

func TestHeaderRoundTrip(t *testing.T) {
	f := false
	tr := true
	for _, h := range []*Header{
		{},
		{Algorithm: "HS256"},
		{Algorithm: "HS256", Type: "JWT", KeyID: "x"},
		{Algorithm: "HS256", Critical: []string{"b64"}, B64: &f},
		{Algorithm: "HS256", B64: &tr},
		{KeyID: "\"quoted\"\n\\ \u2028 é 😀 \x01"},
		{Algorithm: "A128GCMKW", IV: []byte{}, Tag: []byte{1, 2, 3}},
		{APU: []byte{0xff, 0xfe}, APV: []byte("Bob"), P2S: make([]byte, 16), P2C: 1},
		{P2C: 1<<31 - 1},
		{Algorithm: "HPKE-2-KE", EK: bytes.Repeat([]byte{0xa5}, 133)}, // the largest encapsulated secret
		{Extra: map[string]json.RawMessage{"b": json.RawMessage(`[1]`), "a": json.RawMessage(`"x"`), "é\n": json.RawMessage(`{}`)}},
	} {
		hdrRoundTrip(t, h)
	}
}

func TestHeaderAppendJSONOrder(t *testing.T) {
	f := false
	h := &Header{
		P2C: 2, Algorithm: "PBES2-HS256+A128KW", Encryption: "A128GCM", KeyID: "k", Type: "JWT",
		Critical: []string{"b64"}, B64: &f, APU: []byte("a"),
		Extra: map[string]json.RawMessage{"zz": json.RawMessage("1"), "aa": json.RawMessage("true")},
	}
	out, err := h.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"alg":"PBES2-HS256+A128KW","enc":"A128GCM","kid":"k","typ":"JWT","b64":false,"crit":["b64"],"apu":"YQ","p2c":2,"aa":true,"zz":1}`
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
	if out, err := (&Header{}).AppendJSON(nil); err != nil || string(out) != "{}" {
		t.Errorf("empty header: %s, %v", out, err)
	}
}

func TestHeaderSecretKeys(t *testing.T) {
	for _, file := range []string{"3_2.ec_private_key.json", "3_5.symmetric_key_mac_computation.json"} {
		key, err := os.ReadFile(filepath.Join("..", "testdata", "cookbook", "jwk", file))
		if err != nil {
			t.Fatal(err)
		}
		for _, member := range []string{"jwk", "epk"} {
			in := []byte(`{"` + member + `":` + string(key) + `}`)
			_, err := ParseHeader(in, Limits{})
			if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), `"`+member+`": secret key material`) {
				t.Errorf("%s as %s: got %v", file, member, err)
			}
		}
		k, err := ParseKey(key)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range []*Header{{JWK: k}, {EPK: k}} {
			out, err := h.AppendJSON(nil)
			if !errors.Is(err, ErrMalformed) || len(out) != 0 {
				t.Errorf("%s: AppendJSON wrote %s, %v", file, out, err)
			}
			if _, ok := h.Get(h.Names()[0]); ok {
				t.Errorf("%s: Get renders a secret key", file)
			}
		}
		pub := k.Public()
		if pub.IsPrivate() {
			continue // symmetric: no public part
		}
		hdrRoundTrip(t, &Header{EPK: pub})
	}
}

func TestHeaderAppendJSONErrors(t *testing.T) {
	for name, h := range map[string]*Header{
		"registered name in Extra": {Extra: map[string]json.RawMessage{"alg": json.RawMessage(`"HS256"`)}},
		"invalid Extra":            {Algorithm: "HS256", Extra: map[string]json.RawMessage{"x": json.RawMessage(`{`)}},
		"nil Extra value":          {Extra: map[string]json.RawMessage{"x": nil}},
		"duplicate in Extra value": {Extra: map[string]json.RawMessage{"x": json.RawMessage(`{"a":1,"a":2}`)}},
		"negative p2c":             {P2C: -1},
		"Extra name not UTF-8":     {Extra: map[string]json.RawMessage{"\xff": json.RawMessage("1")}},
		"huge p2c":                 {P2C: 1 << 40},
	} {
		out, err := h.AppendJSON([]byte("keep"))
		if !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: got %v, want ErrMalformed", name, err)
		}
		if string(out) != "keep" {
			t.Errorf("%s: dst changed to %q on error", name, out)
		}
	}
}

// hdrBad lists headers ParseHeader refuses, with the error they wrap and a
// fragment of the message (usually the member name).
var hdrBad = []struct {
	in   string
	want error
	msg  string
}{
	// Not a JSON object.
	{``, ErrMalformed, "end of input"},
	{`[]`, ErrMalformed, "header: must be an object, not an array"},
	{`"alg"`, ErrMalformed, "header: must be an object, not a string"},
	{`null`, ErrMalformed, "header: must be an object, not null"},
	{`{"alg":"HS256"`, ErrMalformed, "end of input"},
	{`{"alg":"HS256"}x`, ErrMalformed, "trailing data"},
	{`{"alg":"HS256"}{}`, ErrMalformed, "trailing data"},
	{`{"alg":"HS256",}`, ErrMalformed, "member name"},
	{"{\"alg\":\"HS\xff\"}", ErrMalformed, "UTF-8"},
	{`{"kid":"\ud800"}`, ErrMalformed, "surrogate"},
	// Duplicates, compared after unescaping, at any depth.
	{`{"alg":"HS256","alg":"none"}`, ErrMalformed, `duplicate member name "alg"`},
	{`{"alg":"HS256","\u0061lg":"none"}`, ErrMalformed, `duplicate member name "alg"`},
	{`{"x":1,"x":1}`, ErrMalformed, `duplicate member name "x"`},
	{`{"x":{"y":1,"y":2}}`, ErrMalformed, `duplicate member name "y"`},
	{`{"jwk":{"kty":"EC","kty":"EC"}}`, ErrMalformed, `duplicate member name "kty"`},
	// Wrong types of registered members.
	{`{"alg":1}`, ErrMalformed, `"alg": must be a string, not a number`},
	{`{"alg":null}`, ErrMalformed, `"alg"`},
	{`{"alg":["HS256"]}`, ErrMalformed, `"alg"`},
	{`{"alg":""}`, ErrMalformed, `"alg": empty string`},
	{`{"enc":true}`, ErrMalformed, `"enc"`},
	{`{"zip":{}}`, ErrMalformed, `"zip"`},
	{`{"kid":1}`, ErrMalformed, `"kid"`},
	{`{"kid":""}`, ErrMalformed, `"kid"`},
	{`{"typ":1}`, ErrMalformed, `"typ"`},
	{`{"cty":false}`, ErrMalformed, `"cty"`},
	{`{"jku":1}`, ErrMalformed, `"jku"`},
	{`{"x5u":[]}`, ErrMalformed, `"x5u"`},
	{`{"x5t":1}`, ErrMalformed, `"x5t"`},
	{`{"x5t":"AAAA"}`, ErrMalformed, `"x5t": not the base64url encoding of a 20-byte digest`},
	{`{"x5t":"AAAAAAAAAAAAAAAAAAAAAAAAAA="}`, ErrMalformed, `"x5t"`},
	{`{"x5t":"AAAAAAAAAAAAAAAAAAAAAAAAAA+"}`, ErrMalformed, `"x5t"`},
	{`{"x5t#S256":"AAAAAAAAAAAAAAAAAAAAAAAAAAA"}`, ErrMalformed, `"x5t#S256"`},
	{`{"crit":"b64"}`, ErrMalformed, `"crit"`},
	{`{"crit":[]}`, ErrMalformed, `"crit": empty list`},
	{`{"crit":[""]}`, ErrMalformed, `"crit": empty name`},
	{`{"crit":[1]}`, ErrMalformed, `"crit"`},
	{`{"crit":["b64",null]}`, ErrMalformed, `"crit"`},
	{`{"crit":[["b64"]]}`, ErrMalformed, `"crit"`},
	{`{"crit":["b64","b64"]}`, ErrMalformed, `"crit": name "b64" listed twice`},
	{`{"crit":["a","b","c","d","e","f","g","h","i","j","a"]}`, ErrMalformed, `"crit": name "a" listed twice`},
	{`{"b64":"false"}`, ErrMalformed, `"b64": must be a boolean, not a string`},
	{`{"b64":0}`, ErrMalformed, `"b64"`},
	{`{"b64":null}`, ErrMalformed, `"b64"`},
	{`{"x5c":"MIIB"}`, ErrMalformed, `"x5c"`},
	{`{"x5c":[]}`, ErrMalformed, `"x5c": empty list`},
	{`{"x5c":[""]}`, ErrMalformed, `"x5c": certificate 0`},
	{`{"x5c":["MII-"]}`, ErrMalformed, `"x5c": certificate 0`},
	{`{"x5c":["AAAA","MIIB\nAAAA"]}`, ErrMalformed, `"x5c": certificate 1`},
	{`{"x5c":["AAA"]}`, ErrMalformed, `"x5c": certificate 0`},
	{`{"x5c":[1]}`, ErrMalformed, `"x5c"`},
	{`{"jwk":"key"}`, ErrMalformed, `"jwk": must be an object, not a string`},
	{`{"jwk":{}}`, ErrMalformed, `"jwk"`},
	{`{"epk":null}`, ErrMalformed, `"epk"`},
	{`{"epk":{"kty":"EC","crv":"P-384","x":"AA","y":"AA"}}`, nil, `"epk"`},
	{`{"apu":1}`, ErrMalformed, `"apu"`},
	{`{"apu":"QWxpY2U="}`, ErrMalformed, `"apu"`},
	{`{"apv":"QWxpY2"}`, ErrMalformed, `"apv"`},
	{`{"iv":"AAEC AwQF"}`, ErrMalformed, `"iv"`},
	{`{"iv":"AAEC\nAwQF"}`, ErrMalformed, `"iv"`},
	{`{"tag":"AAE+"}`, ErrMalformed, `"tag"`},
	{`{"p2s":"A"}`, ErrMalformed, `"p2s"`},
	{`{"p2s":null}`, ErrMalformed, `"p2s"`},
	// "ek" (draft-ietf-jose-hpke-encrypt-20 §4.1): a non-empty base64url
	// string no longer than the largest encapsulated secret, checked
	// before it is decoded.
	{`{"ek":""}`, ErrMalformed, `"ek": empty`},
	{`{"ek":1}`, ErrMalformed, `"ek"`},
	{`{"ek":null}`, ErrMalformed, `"ek"`},
	{`{"ek":"BA=="}`, ErrMalformed, `"ek"`},
	{`{"ek":"` + strings.Repeat("A", 179) + `"}`, ErrLimitExceeded, `"ek": more than 133 bytes`},
	{`{"ek":"` + strings.Repeat("A", 4000) + `"}`, ErrLimitExceeded, `"ek": more than 133 bytes`},
	{`{"p2c":"4096"}`, ErrMalformed, `"p2c": must be an integer, not a string`},
	{`{"p2c":4096.0}`, ErrMalformed, `"p2c": must be an integer, without fraction or exponent`},
	{`{"crit":["exp",1],"exp":1}`, ErrMalformed, `"crit": must be an array of strings; one of its elements is not`},
	{`{"p2c":4e3}`, ErrMalformed, `"p2c"`},
	{`{"p2c":0}`, ErrMalformed, `"p2c": not a positive 32-bit integer`},
	{`{"p2c":-1}`, ErrMalformed, `"p2c"`},
	{`{"p2c":2147483648}`, ErrMalformed, `"p2c": not a positive 32-bit integer`},
	{`{"p2c":99999999999999999999}`, ErrMalformed, `"p2c": number "99999999999999999999" out of range`},
	{`{"p2c":01}`, ErrMalformed, `"p2c"`}, // caught by the scanner: no member name in the message
}

func TestHeaderParseErrors(t *testing.T) {
	for _, tc := range hdrBad {
		h, err := ParseHeader([]byte(tc.in), Limits{})
		if err == nil {
			t.Errorf("ParseHeader(%s) = %+v, want error", tc.in, h)
			continue
		}
		if h != nil {
			t.Errorf("ParseHeader(%s) returned a header with the error", tc.in)
		}
		if tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("ParseHeader(%s) = %v, want %v", tc.in, err, tc.want)
		}
		if tc.want == nil && !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrInvalidKey) {
			t.Errorf("ParseHeader(%s) = %v, want ErrMalformed or ErrInvalidKey", tc.in, err)
		}
		if tc.msg == `"p2c"` && tc.in == `{"p2c":01}` {
			continue
		}
		if !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("ParseHeader(%s) = %q, want it to contain %q", tc.in, err, tc.msg)
		}
		if !strings.HasPrefix(err.Error(), "jose: ") {
			t.Errorf("ParseHeader(%s) = %q: no package prefix", tc.in, err)
		}
	}
}

func TestHeaderLimits(t *testing.T) {
	// Size: checked first, on the byte count alone.
	big := []byte(`{"kid":"` + strings.Repeat("a", DefaultMaxHeaderSize) + `"}`)
	if _, err := ParseHeader(big, Limits{}); !errors.Is(err, ErrLimitExceeded) || !strings.Contains(err.Error(), "bytes") {
		t.Errorf("oversized header: %v", err)
	}
	if _, err := ParseHeader(big, Limits{MaxHeaderSize: len(big)}); err != nil {
		t.Errorf("header at the size limit: %v", err)
	}
	if _, err := ParseHeader([]byte(`{"alg":"HS256"}`), Limits{MaxHeaderSize: 14}); !errors.Is(err, ErrLimitExceeded) {
		t.Errorf("15 bytes with MaxHeaderSize 14: %v", err)
	}
	// Members: of the header and of nested objects.
	members := func(n int) []byte {
		b := []byte("{")
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendQuote(b, "m"+strconv.Itoa(i))
			b = append(b, ":1"...)
		}
		return append(b, '}')
	}
	if _, err := ParseHeader(members(DefaultMaxHeaderMembers), Limits{}); err != nil {
		t.Errorf("%d members: %v", DefaultMaxHeaderMembers, err)
	}
	if _, err := ParseHeader(members(DefaultMaxHeaderMembers+1), Limits{}); !errors.Is(err, ErrLimitExceeded) {
		t.Errorf("%d members: %v", DefaultMaxHeaderMembers+1, err)
	}
	if _, err := ParseHeader(members(11), Limits{MaxHeaderMembers: 10}); !errors.Is(err, ErrLimitExceeded) {
		t.Errorf("11 members, limit 10: %v", err)
	}
	nested := append(append([]byte(`{"x":`), members(11)...), '}')
	if _, err := ParseHeader(nested, Limits{MaxHeaderMembers: 10}); !errors.Is(err, ErrLimitExceeded) {
		t.Errorf("nested object of 11 members, limit 10: %v", err)
	}
	// 100,000 members: refused by size, or by members if the size allows.
	huge := members(100000)
	if _, err := ParseHeader(huge, Limits{}); !errors.Is(err, ErrLimitExceeded) {
		t.Errorf("100,000 members: %v", err)
	}
	if _, err := ParseHeader(huge, Limits{MaxHeaderSize: len(huge)}); !errors.Is(err, ErrLimitExceeded) || !strings.Contains(err.Error(), "members") {
		t.Errorf("100,000 members within the size limit: %v", err)
	}
	// Depth: the header object is depth 1.
	deep := func(n int) []byte {
		return []byte(`{"x":` + strings.Repeat("[", n-1) + strings.Repeat("]", n-1) + `}`)
	}
	if _, err := ParseHeader(deep(DefaultMaxJSONDepth), Limits{}); err != nil {
		t.Errorf("depth %d: %v", DefaultMaxJSONDepth, err)
	}
	if _, err := ParseHeader(deep(DefaultMaxJSONDepth+1), Limits{}); !errors.Is(err, ErrLimitExceeded) {
		t.Errorf("depth %d: %v", DefaultMaxJSONDepth+1, err)
	}
	if _, err := ParseHeader(deep(3), Limits{MaxJSONDepth: 2}); !errors.Is(err, ErrLimitExceeded) || !strings.Contains(err.Error(), "nesting") {
		t.Errorf("depth 3, limit 2: %v", err)
	}
}

func TestHeaderParseAliasing(t *testing.T) {
	data := []byte(`{"alg":"HS256","kid":"key-1","typ":"custom","x":{"a":"b"},"crit":["x"],"apu":"QWxpY2U","jwk":` + hdrEPK + `}`)
	h, err := ParseHeader(data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := h.Clone()
	for i := range data {
		data[i] = 'Z'
	}
	if !hdrEqual(h, want) || h.KeyID != "key-1" || string(h.Extra["x"]) != `{"a":"b"}` || h.Type != "custom" {
		t.Errorf("Header aliases the parsed data: %+v", h)
	}
}

// hdrCookbookFiles returns the RFC 7520 JWS and JWE vectors.
func hdrCookbookFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{"jws", "jwe", "rfc7797", "curve25519"} {
		f, err := filepath.Glob(filepath.Join("..", "testdata", "cookbook", dir, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d cookbook files found", len(files))
	}
	return files
}

// TestHeaderCookbook parses every protected and unprotected header of the
// RFC 7520 examples (and the RFC 7797 and RFC 8037 ones in the same
// format), checks each member against encoding/json's reading, and round
// trips them.
func TestHeaderCookbook(t *testing.T) {
	n := 0
	for _, file := range hdrCookbookFiles(t) {
		if filepath.Base(file) == "hmac-sha2_b64_false.json" {
			// Known faulty entry: its "signing" block holds invalid JSON
			// ("b64":,); only its "output" is consistent.
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var v struct {
			Signing           json.RawMessage `json:"signing"`
			EncryptingContent json.RawMessage `json:"encrypting_content"`
		}
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		var sections []json.RawMessage
		for _, raw := range []json.RawMessage{v.Signing, v.EncryptingContent} {
			if len(raw) == 0 {
				continue
			}
			if raw[0] == '[' {
				var list []json.RawMessage
				if err := json.Unmarshal(raw, &list); err != nil {
					t.Fatal(err)
				}
				sections = append(sections, list...)
			} else {
				sections = append(sections, raw)
			}
		}
		for _, sec := range sections {
			var s struct {
				ProtectedB64u string          `json:"protected_b64u"`
				Unprotected   json.RawMessage `json:"unprotected"`
			}
			if err := json.Unmarshal(sec, &s); err != nil {
				t.Fatal(err)
			}
			var headers [][]byte
			if s.ProtectedB64u != "" {
				b, err := Base64URLDecode(s.ProtectedB64u)
				if err != nil {
					t.Fatalf("%s: %v", file, err)
				}
				headers = append(headers, b)
			}
			if len(s.Unprotected) > 0 {
				headers = append(headers, s.Unprotected)
			}
			for _, raw := range headers {
				n++
				h, err := ParseHeader(raw, Limits{})
				if err != nil {
					t.Errorf("%s: %s: %v", filepath.Base(file), raw, err)
					continue
				}
				hdrCheckAgainstStdlib(t, file, raw, h)
				hdrRoundTrip(t, h)
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d headers checked", n)
	}
}

// hdrCheckAgainstStdlib checks that h has exactly the members of raw, with
// the same values, as encoding/json reads them.
func hdrCheckAgainstStdlib(t *testing.T, file string, raw []byte, h *Header) {
	t.Helper()
	var want map[string]any
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	if len(h.Names()) != len(want) {
		t.Errorf("%s: Names() = %q for %s", filepath.Base(file), h.Names(), raw)
	}
	for name, wv := range want {
		got, ok := h.Get(name)
		if !ok {
			t.Errorf("%s: member %q missing", filepath.Base(file), name)
			continue
		}
		var gv any
		if err := json.Unmarshal(got, &gv); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gv, wv) {
			t.Errorf("%s: member %q = %s, want %v", filepath.Base(file), name, got, wv)
		}
	}
}

func TestHeaderSetGetDel(t *testing.T) {
	h := new(Header)
	for _, tc := range []struct {
		name  string
		value any
		json  string
	}{
		{"alg", "HS256", `"HS256"`},
		{"kid", "k1", `"k1"`},
		{"crit", []string{"exp"}, `["exp"]`},
		{"b64", false, `false`},
		{"apu", "QWxpY2U", `"QWxpY2U"`},
		{"p2c", 1000, `1000`},
		{"epk", json.RawMessage(hdrEPK), ""},
		{"exp", 1363284000, `1363284000`},
		{"custom", map[string]any{"b": 1, "a": []int{1}}, `{"a":[1],"b":1}`},
		{"nul", nil, `null`},
	} {
		if err := h.Set(tc.name, tc.value); err != nil {
			t.Errorf("Set(%q, %v): %v", tc.name, tc.value, err)
			continue
		}
		got, ok := h.Get(tc.name)
		if !ok || (tc.json != "" && string(got) != tc.json) {
			t.Errorf("Get(%q) = %s, %v; want %s", tc.name, got, ok, tc.json)
		}
	}
	if h.Algorithm != "HS256" || h.KeyID != "k1" || string(h.APU) != "Alice" || h.P2C != 1000 || h.EPK == nil || h.B64 == nil {
		t.Errorf("Set did not fill the typed fields: %+v", h)
	}
	hdrRoundTrip(t, h)
	before := h.Clone()
	for _, tc := range []struct {
		name  string
		value any
	}{
		{"alg", 256}, {"alg", ""}, {"crit", []string{}}, {"b64", "false"}, {"apu", "QWxpY2U="},
		{"p2c", 0}, {"p2c", 1.5}, {"epk", "x"}, {"x", make(chan int)}, {"x", json.RawMessage(`{"a":1,"a":2}`)},
	} {
		err := h.Set(tc.name, tc.value)
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), strconv.Quote(tc.name)) {
			t.Errorf("Set(%q, %v) = %v, want ErrMalformed naming the member", tc.name, tc.value, err)
		}
	}
	if !hdrEqual(h, before) {
		t.Error("a refused Set changed the header")
	}
	if _, ok := h.Get("absent"); ok {
		t.Error("Get of an absent member")
	}
	for _, name := range h.Names() {
		h.Del(name)
	}
	if names := h.Names(); len(names) != 0 {
		t.Errorf("after deleting every member: %q", names)
	}
	var nilh *Header
	if nilh.Has("alg") || nilh.Names() != nil || nilh.Clone() != nil {
		t.Error("nil Header")
	}
	if _, ok := nilh.Get("alg"); ok {
		t.Error("nil Header Get")
	}
}

func TestHeaderUnmarshalJSON(t *testing.T) {
	var v struct{ H Header }
	if err := json.Unmarshal([]byte(`{"H":{"alg":"ES256","x":[1]}}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.H.Algorithm != "ES256" || string(v.H.Extra["x"]) != "[1]" {
		t.Errorf("got %+v", v.H)
	}
	if err := json.Unmarshal([]byte(`{"H":{"alg":"ES256","alg":"none"}}`), &v); err == nil {
		t.Error("duplicate accepted through UnmarshalJSON")
	}
	out, err := json.Marshal(&v.H)
	if err != nil || string(out) != `{"alg":"ES256","x":[1]}` {
		t.Errorf("json.Marshal = %s, %v", out, err)
	}
}

func TestHeaderClone(t *testing.T) {
	h, err := ParseHeader([]byte(hdrAllMembers), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	c := h.Clone()
	if !hdrEqual(h, c) {
		t.Fatal("clone differs")
	}
	// Mutating the clone leaves the original alone.
	c.Critical[0] = "changed"
	c.X5C[0] = "changed"
	c.APU[0] = 'X'
	*c.B64 = true
	c.Extra["z"][0] = 'X'
	c.Extra["new"] = json.RawMessage("1")
	if h.Critical[0] != "exp" || h.X5C[0] != "MIIB" || h.APU[0] != 'A' || *h.B64 || h.Extra["z"][0] != '{' || h.Has("new") {
		t.Error("Clone shares memory with the original")
	}
}

func TestHeaderMerge(t *testing.T) {
	p, err := ParseHeader([]byte(`{"alg":"ECDH-ES+A128KW","enc":"A128GCM","crit":["exp"],"exp":1}`), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	shared, _ := ParseHeader([]byte(`{"jku":"https://example.com","x":"y"}`), Limits{})
	recip, _ := ParseHeader([]byte(`{"kid":"k","epk":`+hdrEPK+`,"apu":"QWxpY2U"}`), Limits{})
	m, err := MergeJOSEHeader(p, nil, shared, recip, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"alg", "enc", "kid", "crit", "jku", "epk", "apu", "exp", "x"}
	if got := m.Names(); !slices.Equal(got, want) {
		t.Errorf("merged names %q, want %q", got, want)
	}
	if m.Algorithm != "ECDH-ES+A128KW" || m.KeyID != "k" || string(m.APU) != "Alice" || string(m.Extra["x"]) != `"y"` || m.EPK != recip.EPK {
		t.Errorf("merged: %+v", m)
	}
	m.APU[0] = 'X'
	if recip.APU[0] != 'A' {
		t.Error("MergeJOSEHeader shares binary members with its input")
	}
	if m, err := MergeJOSEHeader(nil); err != nil || len(m.Names()) != 0 {
		t.Errorf("MergeJOSEHeader(nil) = %v, %v", m, err)
	}
	f := false
	for name, hs := range map[string][]*Header{
		"alg": {{Algorithm: "HS256"}, {Algorithm: "HS256"}},
		"kid": {{Algorithm: "HS256"}, nil, {KeyID: "a"}, {KeyID: "b"}},
		"b64": {{B64: &f}, {B64: &f}},
		"x":   {{Extra: map[string]json.RawMessage{"x": json.RawMessage("1")}}, {Extra: map[string]json.RawMessage{"x": json.RawMessage("1")}}},
		"iv":  {{IV: []byte{}}, {IV: []byte{1}}},
		// A registered name put in Extra by a caller still collides.
		"enc": {{Encryption: "A128GCM"}, {Extra: map[string]json.RawMessage{"enc": json.RawMessage(`"A256GCM"`)}}},
		"zip": {{Extra: map[string]json.RawMessage{"zip": json.RawMessage(`"DEF"`)}}, {Compression: "DEF"}},
	} {
		_, err := MergeJOSEHeader(hs[0], hs[1:]...)
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), strconv.Quote(name)) {
			t.Errorf("duplicate %q: got %v", name, err)
		}
	}
}

func TestHeaderIsRegistered(t *testing.T) {
	for i := range headerMembers {
		name := headerMembers[i].name
		if !IsRegisteredHeader(name) || headerIndex(name) != i {
			t.Errorf("%q: index %d, want %d", name, headerIndex(name), i)
		}
	}
	for _, name := range []string{"", "exp", "ALG", "x5t#s256", "alg "} {
		if IsRegisteredHeader(name) {
			t.Errorf("IsRegisteredHeader(%q)", name)
		}
	}
}

func TestHeaderInterning(t *testing.T) {
	for _, v := range []string{"HS256", "HS384", "HS512", "RS256", "RS384", "RS512", "ES256", "ES384", "ES512",
		"PS256", "PS384", "PS512", "EdDSA", "Ed25519", "none", "RSA1_5", "RSA-OAEP", "RSA-OAEP-256",
		"A128KW", "A192KW", "A256KW", "dir", "ECDH-ES", "ECDH-ES+A128KW", "ECDH-ES+A192KW", "ECDH-ES+A256KW",
		"A128GCMKW", "A192GCMKW", "A256GCMKW", "PBES2-HS256+A128KW", "PBES2-HS384+A192KW", "PBES2-HS512+A256KW",
		"A128CBC-HS256", "A192CBC-HS384", "A256CBC-HS512", "A128GCM", "A192GCM", "A256GCM",
		"DEF", "JWT", "JOSE", "JOSE+JSON", "jwt", "at+jwt", "application/json", "other"} {
		b := []byte(v)
		if got := internHeaderValue(b); got != v {
			t.Errorf("internHeaderValue(%q) = %q", v, got)
		}
		if v != "other" {
			if n := testing.AllocsPerRun(10, func() { _ = internHeaderValue(b) }); n != 0 {
				t.Errorf("internHeaderValue(%q): %v allocations", v, n)
			}
		}
	}
}

var hdrJWT = []byte(`{"alg":"HS256","typ":"JWT","kid":"x"}`)

func TestHeaderAllocs(t *testing.T) {
	for _, tc := range []struct {
		in   []byte
		max  float64
		what string
	}{
		{hdrJWT, 2, "the Header and the kid"},
		{[]byte(`{"alg":"HS256","typ":"JWT"}`), 1, "the Header"},
		{[]byte(`{"alg":"dir","enc":"A128GCM"}`), 1, "the Header"},
	} {
		n := testing.AllocsPerRun(100, func() {
			if _, err := ParseHeader(tc.in, Limits{}); err != nil {
				t.Fatal(err)
			}
		})
		if n > tc.max {
			t.Errorf("ParseHeader(%s): %v allocations, want at most %v (%s)", tc.in, n, tc.max, tc.what)
		}
	}
	h, _ := ParseHeader(hdrJWT, Limits{})
	buf := make([]byte, 0, 128)
	if n := testing.AllocsPerRun(100, func() { buf, _ = h.AppendJSON(buf[:0]) }); n != 0 {
		t.Errorf("AppendJSON into a large enough buffer: %v allocations", n)
	}
}

func BenchmarkParseHeader(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(hdrJWT)))
	for b.Loop() {
		if _, err := ParseHeader(hdrJWT, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHeaderAppendJSON(b *testing.B) {
	h, err := ParseHeader(hdrJWT, Limits{})
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 128)
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = h.AppendJSON(buf[:0])
	}
}

func BenchmarkParseHeaderStdlib(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(hdrJWT, &m); err != nil {
			b.Fatal(err)
		}
	}
}

// TestHeaderIndex: headerIndex finds every registered member at its place
// in headerMembers, and nothing else.
func TestHeaderIndex(t *testing.T) {
	for i := range headerMembers {
		if got := headerIndex(headerMembers[i].name); got != i {
			t.Errorf("headerIndex(%q) = %d, want %d", headerMembers[i].name, got, i)
		}
	}
	for _, name := range []string{"", "exp", "ALG", "crit "} {
		if headerIndex(name) != -1 {
			t.Errorf("headerIndex(%q) != -1", name)
		}
	}
}
