package headers_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/headers"
)

func TestCheckCritical(t *testing.T) {
	hdr := func(t *testing.T, s string) *jose.Header {
		t.Helper()
		h, err := jose.ParseHeader([]byte(s), jose.Limits{})
		if err != nil {
			t.Fatalf("jose.ParseHeader(%s): %v", s, err)
		}
		return h
	}
	understood := []string{"exp", "b64"}
	tests := []struct {
		name string
		p, u string // u empty: no unprotected header
		want error
	}{
		{"no crit", `{"alg":"HS256"}`, "", nil},
		{"understood and present", `{"alg":"HS256","crit":["exp"],"exp":1}`, "", nil},
		{"b64 is an extension", `{"alg":"HS256","crit":["b64"],"b64":false}`, "", nil},
		{"present in the unprotected header", `{"alg":"HS256","crit":["exp"]}`, `{"exp":1}`, nil},
		{"not understood", `{"alg":"HS256","crit":["foo"],"foo":1}`, "", jose.ErrUnsupportedCritical},
		{"absent", `{"alg":"HS256","crit":["exp"]}`, "", jose.ErrMalformed},
		{"registered", `{"alg":"HS256","crit":["kid"],"kid":"a"}`, "", jose.ErrMalformed},
		{"registered JWE name", `{"alg":"dir","crit":["enc"],"enc":"A128GCM"}`, "", jose.ErrMalformed},
		{"in the unprotected header", `{"alg":"HS256"}`, `{"crit":["exp"],"exp":1}`, jose.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var u *jose.Header
			if tt.u != "" {
				u = hdr(t, tt.u)
			}
			err := headers.CheckCritical(hdr(t, tt.p), understood, u, nil)
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("CheckCritical = %v, want %v", err, tt.want)
			}
		})
	}
	// jose.ParseHeader refuses these; a caller can still build them by hand.
	for _, crit := range [][]string{{}, {"exp", "exp"}} {
		h := &jose.Header{Algorithm: "HS256", Critical: crit, Extra: map[string]json.RawMessage{"exp": json.RawMessage("1")}}
		if err := headers.CheckCritical(h, understood); !errors.Is(err, jose.ErrMalformed) {
			t.Errorf("headers.CheckCritical(crit %q) = %v, want jose.ErrMalformed", crit, err)
		}
	}
}

// TestEncodeProtected: the header EncodeProtected returns is the one
// jose.ParseHeader reads from its text, on the fast path for plain strings too.
func TestEncodeProtected(t *testing.T) {
	f := false
	for name, h := range map[string]jose.Header{
		"alg only":     {Algorithm: "HS256"},
		"strings":      {Algorithm: "HS256", KeyID: "k\"1\u00e9\\", Type: "JWT", ContentType: "a</b>", JKU: "https://x", X5U: "u"},
		"b64 and crit": {Algorithm: "HS256", B64: &f, Critical: []string{"b64"}},
		"jwe":          {Algorithm: "dir", Encryption: "A128GCM", Compression: "DEF", KeyID: "\u2028"},
		"not utf-8":    {Algorithm: "HS256", KeyID: "\xff"},
		"extra":        {Algorithm: "HS256", Extra: map[string]json.RawMessage{"x": json.RawMessage("[1]")}},
	} {
		enc, back, err := headers.EncodeProtected(&h)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		data, err := jose.Base64URLDecode(string(enc))
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := jose.ParseHeader(data, jose.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(back, parsed) {
			t.Errorf("%s: returned %+v, jose.ParseHeader reads %+v", name, back, parsed)
		}
	}
	// Too large for the default limits: refused, fast path or not.
	big := jose.Header{Algorithm: "HS256", KeyID: strings.Repeat("k", jose.DefaultMaxHeaderSize)}
	if _, _, err := headers.EncodeProtected(&big); !errors.Is(err, jose.ErrLimitExceeded) {
		t.Errorf("header over MaxHeaderSize: %v", err)
	}
	bad := jose.Header{Algorithm: "HS256", Critical: []string{"exp"}}
	if _, _, err := headers.EncodeProtected(&bad); err == nil {
		t.Error("crit naming an absent member accepted")
	}
}
