package jose

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestEncodeProtected: the header EncodeProtected returns is the one
// ParseHeader reads from its text, on the fast path for plain strings too.
func TestEncodeProtected(t *testing.T) {
	f := false
	for name, h := range map[string]Header{
		"alg only":     {Algorithm: "HS256"},
		"strings":      {Algorithm: "HS256", KeyID: "k\"1\u00e9\\", Type: "JWT", ContentType: "a</b>", JKU: "https://x", X5U: "u"},
		"b64 and crit": {Algorithm: "HS256", B64: &f, Critical: []string{"b64"}},
		"jwe":          {Algorithm: "dir", Encryption: "A128GCM", Compression: "DEF", KeyID: "\u2028"},
		"not utf-8":    {Algorithm: "HS256", KeyID: "\xff"},
		"extra":        {Algorithm: "HS256", Extra: map[string]json.RawMessage{"x": json.RawMessage("[1]")}},
	} {
		enc, back, err := h.EncodeProtected()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		data, err := Base64URLDecode(string(enc))
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := ParseHeader(data, Limits{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(back, parsed) {
			t.Errorf("%s: returned %+v, ParseHeader reads %+v", name, back, parsed)
		}
	}
	// Too large for the default limits: refused, fast path or not.
	big := Header{Algorithm: "HS256", KeyID: strings.Repeat("k", DefaultMaxHeaderSize)}
	if _, _, err := big.EncodeProtected(); !errors.Is(err, ErrLimitExceeded) {
		t.Errorf("header over MaxHeaderSize: %v", err)
	}
	bad := Header{Algorithm: "HS256", Critical: []string{"exp"}}
	if _, _, err := bad.EncodeProtected(); err == nil {
		t.Error("crit naming an absent member accepted")
	}
}
