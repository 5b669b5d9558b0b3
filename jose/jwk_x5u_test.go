package jose

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestJWKX5U is issue 18 finding 10(c): "x5u" (RFC 7517 §4.6) is a URI.
// A JWK whose x5u is not a string holding an absolute URI is refused as
// malformed (it parsed, and was written back); a valid one is kept as
// written.
func TestJWKX5U(t *testing.T) {
	const key = `{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"`
	for _, bad := range []string{`1`, `null`, `true`, `["https://example.com/c"]`, `{}`, `""`, `"c.pem"`, `"/certs/c.pem"`, `"http://[::1"`, `"https://example.com/\u0000"`} {
		_, err := ParseKey([]byte(key + `,"x5u":` + bad + `}`))
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), `"x5u"`) {
			t.Errorf("x5u %s: %v, want ErrMalformed naming x5u", bad, err)
		}
		// In a set, such an entry is unusable, not the set's end.
		s, err := ParseSet([]byte(`{"keys":[` + key + `,"x5u":` + bad + `}]}`))
		if err != nil || len(s.Keys) != 1 || s.Keys[0].Key != nil {
			t.Errorf("x5u %s in a set: %v", bad, err)
		}
	}
	for _, good := range []string{`"https://example.com/c.pem"`, `"urn:example:certs"`, `"https://example.com/c?v=1#x"`} {
		in := key + `,"x5u":` + good + `}`
		k, err := ParseKey([]byte(in))
		if err != nil {
			t.Errorf("x5u %s: %v", good, err)
			continue
		}
		out, err := k.MarshalJSON()
		if err != nil || !bytes.Contains(out, []byte(`"x5u":`+good)) {
			t.Errorf("x5u %s written back as %s: %v", good, out, err)
		}
	}
}
