package jose

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose/internal/vectortest"
)

// TestParseSetRFC7517 checks the sets of RFC 7517 Appendix A.1-A.3 and the
// RFC 7515 and RFC 7520 sets of latchset.
func TestParseSetRFC7517(t *testing.T) {
	tests := []struct {
		file    string
		kids    []string
		ktys    []string
		private []bool
	}{
		{"rfc7517_A.1.jwkset", []string{"1", "2011-04-29"}, []string{"EC", "RSA"}, []bool{false, false}},
		{"rfc7517_A.2.jwkset", []string{"1", "2011-04-29"}, []string{"EC", "RSA"}, []bool{true, true}},
		{"rfc7517_A.3.jwkset", []string{"", "HMACkeyusedinJWSspecAppendixA.1example"}, []string{"oct", "oct"}, []bool{true, true}},
		{"rfc7515_A.6.jwkset", nil, nil, nil},
		{"rfc7520_4.8.jwkset", nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data := jwkTRead(t, "../testdata/latchset/"+tt.file)
			s, err := ParseSet(data)
			if err != nil {
				t.Fatal(err)
			}
			if tt.kids != nil && len(s.Keys) != len(tt.kids) {
				t.Fatalf("%d keys", len(s.Keys))
			}
			for i, k := range s.Keys {
				if !k.Supported() {
					t.Errorf("key %d: %v", i, k.Err())
				}
				if tt.kids != nil && (k.KeyID != tt.kids[i] || k.KeyType() != tt.ktys[i] || k.IsPrivate() != tt.private[i]) {
					t.Errorf("key %d: kid %q kty %q private %v", i, k.KeyID, k.KeyType(), k.IsPrivate())
				}
			}
			out, err := s.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if !vectortest.SameJSON(t, data, out) {
				t.Errorf("round trip differs:\n in  %s\n out %s", data, out)
			}
		})
	}
	s, _ := ParseSet(jwkTRead(t, "../testdata/latchset/rfc7517_A.1.jwkset"))
	if got := s.LookupKeyID("2011-04-29"); len(got) != 1 || got[0].KeyType() != "RSA" || got[0].Algorithm != "RS256" {
		t.Errorf("LookupKeyID: %v", got)
	}
	if got := s.LookupKeyID("missing"); got != nil {
		t.Errorf("LookupKeyID of a missing kid: %v", got)
	}
}

// TestSetUnusableEntries checks that unsupported and invalid entries load,
// are never selected, say why, and are written back as they were read.
func TestSetUnusableEntries(t *testing.T) {
	in := `{"keys":[` +
		`{"kty":"OKP","crv":"X448","x":"U9M8-vnEtOg3btJA0oTLyJSuyumErfevfcLcM1w0lrq0U9Iudy26CNXUSu7nY9M58RVbNtcHzyk","kid":"a"},` +
		`{"kty":"oct","k":"GawgguFyGrWKav7AX4VKUg","kid":"a","alg":"A128KW"},` +
		`{"kty":"PQC","pub":"AAAA","kid":"b", "use" : "sig"},` +
		`{"kty":"oct","k":"","kid":"c"},` +
		`{"kty":"EC","crv":"P-256","x":"AAAA","y":"AAAA","kid":"d"},` +
		`{"kty":"oct","k":"AA","kid":"e","x5c":"e"},` +
		`5,` +
		`{"kty":"OKP","crv":"Ed448","x":"AAAA","d":"AAAA","kid":"f"}` +
		`],"issuer":"https://example.com"}`
	s, err := ParseSet([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Keys) != 8 {
		t.Fatalf("%d keys", len(s.Keys))
	}
	wantErr := []error{ErrUnsupportedAlgorithm, nil, ErrUnsupportedAlgorithm, ErrInvalidKey, ErrMalformed, ErrMalformed, ErrMalformed, ErrUnsupportedAlgorithm}
	wantKty := []string{"OKP", "oct", "PQC", "oct", "EC", "oct", "", "OKP"}
	for i, k := range s.Keys {
		err := k.Err()
		if !errors.Is(err, wantErr[i]) || (err == nil) != (wantErr[i] == nil) {
			t.Errorf("key %d: Err %v, want %v", i, err, wantErr[i])
		}
		if k.Supported() != (i == 1) {
			t.Errorf("key %d: Supported %v", i, k.Supported())
		}
		if k.KeyType() != wantKty[i] {
			t.Errorf("key %d: kty %q", i, k.KeyType())
		}
		if !k.Supported() {
			if err := k.Permits("HS256", OpSign); err == nil {
				t.Errorf("key %d: Permits", i)
			}
			if _, err := k.Thumbprint(0); err == nil {
				t.Errorf("key %d: Thumbprint", i)
			}
			if k.Public() != nil {
				t.Errorf("key %d: Public", i)
			}
		}
	}
	if s.Keys[0].Curve() != "X448" || s.Keys[2].Use != "sig" || s.Keys[2].KeyID != "b" {
		t.Errorf("unusable entries lost their metadata: %q %q %q", s.Keys[0].Curve(), s.Keys[2].Use, s.Keys[2].KeyID)
	}
	if got := s.LookupKeyID("a"); len(got) != 1 || got[0] != s.Keys[1] {
		t.Errorf("LookupKeyID(a) = %v", got)
	}
	for _, kid := range []string{"b", "c", "d", "e", "f"} {
		if got := s.LookupKeyID(kid); got != nil {
			t.Errorf("LookupKeyID(%s) selected an unusable entry", kid)
		}
	}
	if got := s.Filter(KeyFilter{}); len(got) != 1 {
		t.Errorf("Filter selected %d keys", len(got))
	}
	out, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	// Entries are written back byte for byte.
	for _, part := range []string{`{"kty":"PQC","pub":"AAAA","kid":"b", "use" : "sig"}`, `{"kty":"oct","k":"AA","kid":"e","x5c":"e"}`, `,5,`, `"issuer":"https://example.com"`} {
		if !bytes.Contains(out, []byte(part)) {
			t.Errorf("%s not written back: %s", part, out)
		}
	}
	var again Set
	if err := json.Unmarshal(out, &again); err != nil || len(again.Keys) != 8 {
		t.Errorf("re-parse: %v", err)
	}
}

// TestParseSetRefusals checks the errors that refuse a whole set.
func TestParseSetRefusals(t *testing.T) {
	key := `{"kty":"oct","k":"AAAA"}`
	tests := []struct {
		name, data string
		lim        Limits
		err        error
	}{
		{"not JSON", `{"keys":[`, Limits{}, ErrMalformed},
		{"array", `[` + key + `]`, Limits{}, ErrMalformed},
		{"missing keys", `{"key":[]}`, Limits{}, ErrMalformed},
		{"keys object", `{"keys":{}}`, Limits{}, ErrMalformed},
		{"keys null", `{"keys":null}`, Limits{}, ErrMalformed},
		{"duplicate keys", `{"keys":[],"keys":[]}`, Limits{}, ErrMalformed},
		// A duplicate member anywhere makes the text ambiguous: two
		// parsers could disagree on the whole set.
		{"duplicate in an entry", `{"keys":[{"kty":"oct","k":"AA","kid":"e","kid":"f"}]}`, Limits{}, ErrMalformed},
		{"invalid entry syntax", `{"keys":[{"kty":}]}`, Limits{}, ErrMalformed},
		{"trailing data", `{"keys":[]}x`, Limits{}, ErrMalformed},
		{"too many keys", `{"keys":[` + key + `,` + key + `,` + key + `]}`, Limits{MaxSetKeys: 2}, ErrLimitExceeded},
		{"too deep", `{"keys":[` + strings.Repeat("[", 20) + strings.Repeat("]", 20) + `]}`, Limits{}, ErrLimitExceeded},
	}
	for _, tt := range tests {
		s, err := ParseSetWithLimits([]byte(tt.data), tt.lim)
		if !errors.Is(err, tt.err) || s != nil || !strings.HasPrefix(fmt.Sprint(err), "jose: ") {
			t.Errorf("%s: %v", tt.name, err)
		}
		var u Set
		if err := u.UnmarshalJSON([]byte(tt.data)); err == nil && tt.lim == (Limits{}) {
			t.Errorf("%s: UnmarshalJSON accepted", tt.name)
		}
	}
	// The default limit is DefaultMaxSetKeys.
	many := `{"keys":[` + strings.Repeat(key+",", DefaultMaxSetKeys) + key + `]}`
	if _, err := ParseSet([]byte(many)); !errors.Is(err, ErrLimitExceeded) {
		t.Errorf("%d keys: %v", DefaultMaxSetKeys+1, err)
	}
	exact := `{"keys":[` + strings.Repeat(key+",", DefaultMaxSetKeys-1) + key + `]}`
	if s, err := ParseSet([]byte(exact)); err != nil || len(s.Keys) != DefaultMaxSetKeys {
		t.Errorf("%d keys: %v", DefaultMaxSetKeys, err)
	}
	if s, err := ParseSet([]byte(`{"keys":[]}`)); err != nil || len(s.Keys) != 0 {
		t.Errorf("empty set: %v", err)
	}
}

// TestSetFilterAndPublic checks Filter and Public.
func TestSetFilterAndPublic(t *testing.T) {
	in := `{"keys":[` +
		`{"kty":"oct","k":"GawgguFyGrWKav7AX4VKUg","kid":"s1","alg":"A128KW","use":"enc"},` +
		jwkTECPriv + `,` + jwkTRSAPriv + `,` + jwkTEd25519Pub + `,` +
		`{"kty":"XYZ","kid":"u"}` +
		`]}`
	s, err := ParseSet([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	kids := func(ks []*JWK) string {
		var out []string
		for _, k := range ks {
			out = append(out, k.KeyID+"/"+k.KeyType())
		}
		return strings.Join(out, ",")
	}
	tests := []struct {
		f    KeyFilter
		want string
	}{
		{KeyFilter{}, "s1/oct,1/EC,2011-04-29/RSA,/OKP"},
		{KeyFilter{KeyType: "EC"}, "1/EC"},
		{KeyFilter{KeyType: "XYZ"}, ""},
		{KeyFilter{Algorithm: "RS256"}, "1/EC,2011-04-29/RSA,/OKP"},
		{KeyFilter{Algorithm: "A128KW", KeyType: "oct"}, "s1/oct"},
		{KeyFilter{Use: "sig"}, "2011-04-29/RSA,/OKP"},
		{KeyFilter{Use: "enc"}, "s1/oct,1/EC,2011-04-29/RSA,/OKP"},
		{KeyFilter{KeyID: "1"}, "1/EC"},
		{KeyFilter{KeyID: "u"}, ""},
	}
	for _, tt := range tests {
		if got := kids(s.Filter(tt.f)); got != tt.want {
			t.Errorf("Filter(%+v) = %s, want %s", tt.f, got, tt.want)
		}
	}
	pub := s.Public()
	if got := kids(pub.Keys); got != "1/EC,2011-04-29/RSA,/OKP" {
		t.Errorf("Public keys: %s", got)
	}
	out, err := pub.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{`"d"`, `"k"`, `"p"`, `"qi"`} {
		if bytes.Contains(out, []byte(m)) {
			t.Errorf("public set has %s: %s", m, out)
		}
	}
	// A set of JWKs built by hand that cannot be marshalled is refused.
	bad := &Set{Keys: []*JWK{{Key: "x"}}}
	if out, err := bad.AppendJSON([]byte("p")); err == nil || string(out) != "p" {
		t.Errorf("bad set: %s %v", out, err)
	}
	var nilSet *Set
	if nilSet.LookupKeyID("") != nil || nilSet.Filter(KeyFilter{}) != nil {
		t.Error("nil set selected keys")
	}
	if out, _ := (&Set{}).MarshalJSON(); string(out) != `{"keys":[]}` {
		t.Errorf("empty set: %s", out)
	}
}

// TestParsePublicSet: ParsePublicSetWithLimits reads public sets as
// ParseSetWithLimits does and refuses, on member names, any entry with a
// private member, usable or not, escaped or not.
func TestParsePublicSet(t *testing.T) {
	pub := `{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRjmR9kaT7NgndMB3fPlEJH8dljHfsGIkc2DlnM","kid":"pub"}`
	for _, c := range []struct {
		entries string
		ok      bool
	}{
		{pub, true},
		{pub + `,{"kty":"XYZ","kid":"odd"}`, true},
		{pub + `,{"kty":"oct","k":"AAAA"}`, false},
		{pub + `,{"kty":"EC","crv":"P-256","d":"AAAA"}`, false}, // not a usable key
		{pub + `,{"kty":"RSA","n":"AQAB","e":"AQAB","q":"AQAB"}`, false},
		{pub + `,{"kty":"OKP","crv":"Ed25519","x":"AAAA","\u0064":"AAAA"}`, false},
		{pub + `,{"kty":"AKP","alg":"ML-DSA-44","pub":"AAAA","priv":"AAAA"}`, false},
		{vectortest.HostileRSAJWK(16384, 1, true, ""), false},
	} {
		data := []byte(`{"keys":[` + c.entries + `]}`)
		s, err := ParsePublicSetWithLimits(data, Limits{})
		if c.ok {
			want, _ := ParseSet(data)
			if err != nil || len(s.Keys) != len(want.Keys) {
				t.Errorf("%s: %v", c.entries, err)
			}
			continue
		}
		if !errors.Is(err, ErrInvalidKey) || !strings.HasPrefix(err.Error(), "jose: ") {
			t.Errorf("%.80s: %v", c.entries, err)
		}
	}
	if _, err := ParsePublicSetWithLimits([]byte(`{"keys":{}}`), Limits{}); !errors.Is(err, ErrMalformed) {
		t.Errorf("not a set: %v", err)
	}
}
